import 'reflect-metadata';
import os from 'node:os';
import Redis from 'ioredis';
import { isAppError } from './common/app-error';
import { ConfigError, loadBootConfig } from './config/env';
import { openDatabase, migrate } from './db/data-source';
import { DataDirLockedError } from './db/data-dir-lock';
import { CreditsService } from './modules/billing/credits.service';
import { OperatorService, type ActionResult } from './modules/community/operator';
import { INVALIDATE_TOPIC } from './ops/invalidation';

const USAGE = `Taleforge operator commands: npm run admin -- <command> [--as <operator>]

  reports [--all]                         reported content, most reported first (open reports unless --all)
  resolve <world|story> <id> <uphold|dismiss>
                                          close the open reports: uphold keeps it hidden, dismiss makes it public again
  hide <world|story> <id> [reason…]       hide content now
  restore <world|story> <id>              make hidden content public again
  feature <world-id> | unfeature <world-id>
  credits <email|user-id> <+N|-N> [reason…]
                                          grant or remove credits (through the ledger)
  disable <email|user-id> | enable <email|user-id>
                                          a disabled account cannot sign in; its sessions end now
  reset-mfa <email|user-id>               remove the account's authenticators (a player who lost theirs,
                                          once support has checked who they are); its sessions end now
  audit [N]                               the last N operator actions (default 50)

Every action is recorded in operator_actions with the operator's name (--as, else the OS user).
Uses the app's configuration (DATABASE_URL, or the embedded database in DATA_DIR: stop the app first).
With REDIS_URL, running instances are told at once; otherwise their caches expire within seconds.`;

const COMMANDS = new Set(['reports', 'resolve', 'hide', 'restore', 'feature', 'unfeature', 'credits', 'disable', 'enable', 'reset-mfa', 'audit']);

/** `npm run admin -- …`: parses arguments, runs one OperatorService call, prints its result. */
async function main(argv: string[]): Promise<number> {
  const args = [...argv];
  const asAt = args.indexOf('--as');
  const operator = asAt >= 0 ? (args.splice(asAt, 2)[1] ?? '') : os.userInfo().username;
  const [command, ...rest] = args;
  if (!command || command === 'help' || command === '--help') {
    process.stdout.write(`${USAGE}\n`);
    return command ? 0 : 2;
  }
  if (!COMMANDS.has(command)) {
    process.stderr.write(`Unknown command: ${command}\n\n${USAGE}\n`);
    return 2;
  }
  if (!operator.trim()) throw new Error('--as needs a name.');
  const config = loadBootConfig();
  const db = await openDatabase(config);
  try {
    await migrate(db);
    const ops = new OperatorService(db.dataSource, new CreditsService(db.dataSource), operator.trim().slice(0, 120));
    const print = (line: string) => process.stdout.write(`${line}\n`);
    let result: ActionResult | null = null;
    switch (command) {
      case 'reports': {
        const list = await ops.reports(rest.includes('--all'));
        if (list.length === 0) print('No reports.');
        for (const r of list) {
          print(`${r.targetKind} ${r.targetId}  ${r.openReports} report(s)  ${r.hidden ? 'HIDDEN' : 'public'}  ${JSON.stringify(r.title ?? '(gone)')}`);
          print(`  reasons: ${r.reasons.join(', ')}; first ${r.firstReportedAt.toISOString()}`);
          for (const n of r.notes.slice(0, 5)) print(`  note: ${JSON.stringify(n)}`);
        }
        break;
      }
      case 'resolve':
        result = await ops.resolve(rest[0], rest[1], rest[2]);
        break;
      case 'hide':
        result = await ops.hide(rest[0], rest[1], rest.slice(2).join(' '));
        break;
      case 'restore':
        result = await ops.restore(rest[0], rest[1]);
        break;
      case 'feature':
      case 'unfeature':
        result = await ops.setFeatured(rest[0], command === 'feature');
        break;
      case 'credits': {
        const amount = /^[+-]?\d+$/.test(rest[1] ?? '') ? Number(rest[1]) : NaN;
        result = await ops.adjustCredits(rest[0], amount, rest.slice(2).join(' '));
        break;
      }
      case 'disable':
      case 'enable':
        result = await ops.setDisabled(rest[0], command === 'disable');
        break;
      case 'reset-mfa':
        result = await ops.resetMfa(rest[0]);
        break;
      case 'audit':
        for (const a of await ops.audit(rest[0] ?? 50)) {
          print(`${a.createdAt.toISOString()}  ${a.operator}  ${a.action}  ${a.targetKind} ${a.targetId}  ${JSON.stringify(a.detail)}`);
        }
        break;
    }
    if (result) {
      print(result.message);
      await broadcast(config.redisUrl, result);
    }
    return 0;
  } finally {
    await db.close();
  }
}

/** Tells running instances (through Redis) what the action changed; without Redis their caches expire by TTL. */
async function broadcast(redisUrl: string | undefined, result: ActionResult): Promise<void> {
  if (!redisUrl || result.invalidations.length === 0) return;
  const redis = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1 });
  try {
    await redis.connect();
    for (const i of result.invalidations) await redis.publish(INVALIDATE_TOPIC, JSON.stringify({ from: 'operator-cli', ...i }));
  } catch (err) {
    process.stderr.write(`Could not tell running instances through Redis (${String(err)}); their caches expire within seconds.\n`);
  } finally {
    redis.disconnect();
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: unknown) => {
    if (isAppError(err)) process.stderr.write(`${err.message}\n`);
    else if (err instanceof ConfigError || err instanceof DataDirLockedError) process.stderr.write(`${err.message}\n`);
    else process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exit(1);
  },
);
