/**
 * (A benchmark script, like story.bench.ts: typed against the server's source, run against its build:
 * `npm run bench:party` builds the server, compiles this file with bench/compile-ts.mjs and runs
 * bench/dist/party.bench.js.)
 *
 * `npm run bench:party`: 20 live parties × 6 players (issue 34), all at once, over the real HTTP and
 * graphql-ws stack with the offline storyteller, on embedded PGlite (default) or PostgreSQL
 * (DATABASE_URL, a schema of its own, dropped afterwards).
 *
 * The app runs in this process's main thread as `createApp` builds it; the players run in a worker
 * thread (a core's share of its own on this 2-core machine). Set-up goes through the services (120
 * sign-ups hash passwords; from one IP they would trip the per-IP auth limit): each player gets a saved
 * character in one featured world, each host starts a live party and its five friends join with the
 * host's code. Every player then opens a WebSocket and subscribes to `partyUpdated` before the clock
 * starts, as the party page has it open.
 *
 * Each round, every member of every party sends its action (`submitPartyAction`, an HTTP POST, as the
 * web client does), one after another within its party, 0–40 ms apart; the sixth action closes the
 * round and starts its chapter. Measured, per round:
 * - chapter latency: the closing action sent → the acting player's socket receives `chapter_written`;
 * - fan-out: the closing action sent → each of the six members receives `chapter_written` (p50/p99
 *   over every member of every round), and the spread between a round's first and last member;
 * - presence fan-out: any action sent → each other member receives its `acted` update.
 * After the run every party's story must hold exactly its rounds' chapters, committed: anything else
 * is an error. Flags: --parties=20, --players=6, --rounds=3. Exits 1 when a target is missed.
 */
import 'reflect-metadata';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { createClient, type Client } from 'graphql-ws';
import WebSocket from 'ws';
import { createApp, type App } from '../server/src/app';
import { loadConfig } from '../server/src/config/env';
import { Character } from '../server/src/modules/characters/character.entity';
import { isSession } from '../server/src/modules/auth/auth.service';
import { flag, pct, postgresSchema } from './bench-support';

const PARTIES = Math.max(1, Number(flag('parties') ?? 20));
const PLAYERS = Math.min(6, Math.max(2, Number(flag('players') ?? 6)));
const ROUNDS = Math.max(1, Number(flag('rounds') ?? 3));

/** Targets: a round's chapter as fast as a lone player's under load, and every member told at once. */
const CHAPTER_P99_MS = 1500;
const FANOUT_SPREAD_P99_MS = 100;

interface Member {
  token: string;
  userId: string;
  characterId: string;
}
interface Table {
  partyId: string;
  members: Member[];
}
interface RunResult {
  chapterMs: number[];
  fanoutMs: number[];
  spreadMs: number[];
  actedMs: number[];
  errors: string[];
  wallMs: number;
  connectMs: number;
}

// -------------------------------------------------------------------------------------------------
// Worker thread: the players.

const WATCH = `subscription Bench_party($id: ID!) { partyUpdated(partyId: $id) { reason party { round } } }`;
const ACT = `mutation Bench_act($id: ID!, $a: String!) { submitPartyAction(partyId: $id, action: $a) { round } }`;

interface Update {
  reason: string;
  round: number | null;
  at: number;
}

/** One member's socket: every partyUpdated it receives, with when, and a way to wait for one. */
class Listener {
  readonly updates: Update[] = [];
  private waiters: Array<{ test: (u: Update) => boolean; resolve: (u: Update) => void }> = [];
  constructor(readonly client: Client) {}
  push(u: Update): void {
    this.updates.push(u);
    this.waiters = this.waiters.filter((w) => (w.test(u) ? (w.resolve(u), false) : true));
  }
  /** The first update (already received or to come) after `since` that passes `test`. */
  next(since: number, test: (u: Update) => boolean, timeoutMs = 60_000): Promise<Update> {
    const seen = this.updates.find((u) => u.at >= since && test(u));
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('no update in 60 s')), timeoutMs);
      this.waiters.push({ test: (u) => u.at >= since && test(u), resolve: (u) => (clearTimeout(timer), resolve(u)) });
    });
  }
}

async function post(port: number, token: string, query: string, variables: Record<string, unknown>): Promise<void> {
  const res = await fetch(`http://127.0.0.1:${port}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ query, variables }),
  });
  const json = (await res.json()) as { errors?: unknown[] };
  if (json.errors) throw new Error(`submitPartyAction: ${JSON.stringify(json.errors).slice(0, 300)}`);
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function playAll(port: number, tables: Table[], rounds: number): Promise<RunResult> {
  const r: RunResult = { chapterMs: [], fanoutMs: [], spreadMs: [], actedMs: [], errors: [], wallMs: 0, connectMs: 0 };
  const c0 = performance.now();
  const listeners = await Promise.all(
    tables.map((table) =>
      Promise.all(
        table.members.map(
          (m) =>
            new Promise<Listener>((resolve, reject) => {
              const client = createClient({
                url: `ws://127.0.0.1:${port}/graphql`,
                webSocketImpl: WebSocket,
                connectionParams: { authorization: `Bearer ${m.token}` },
                lazy: false,
                retryAttempts: 0,
              });
              const l = new Listener(client);
              client.subscribe<{ partyUpdated?: { reason: string; party: { round: number } | null } }>(
                { query: WATCH, variables: { id: table.partyId } },
                {
                  next: (v) => {
                    const u = v.data?.partyUpdated;
                    if (!u) return reject(new Error(`partyUpdated: ${JSON.stringify(v.errors).slice(0, 300)}`));
                    l.push({ reason: u.reason, round: u.party?.round ?? null, at: performance.now() });
                    if (u.reason === 'snapshot') resolve(l);
                  },
                  error: (e) => reject(e instanceof Error ? e : new Error(`ws: ${JSON.stringify(e)}`)),
                  complete: () => undefined,
                },
              );
            }),
        ),
      ),
    ),
  );
  r.connectMs = performance.now() - c0;
  const started = performance.now();
  await Promise.all(
    tables.map(async (table, ti) => {
      const ls = listeners[ti]!;
      for (let round = 0; round < rounds; round++) {
        try {
          let closedAt = 0;
          let closer = 0;
          for (let i = 0; i < table.members.length; i++) {
            await sleep(Math.random() * 40);
            const sent = performance.now();
            const acted = i < table.members.length - 1 ? ls.filter((_, k) => k !== i).map((l) => l.next(sent, (u) => u.reason === 'acted')) : [];
            await post(port, table.members[i]!.token, ACT, { id: table.partyId, a: `Player ${i + 1} tries something new in round ${round + 1}` });
            if (i === table.members.length - 1) {
              closedAt = sent;
              closer = i;
            } else {
              for (const u of await Promise.all(acted)) r.actedMs.push(u.at - sent);
            }
          }
          const written = await Promise.all(ls.map((l) => l.next(closedAt, (u) => u.reason === 'chapter_written' || u.reason === 'chapter_failed')));
          const failed = written.find((u) => u.reason === 'chapter_failed');
          if (failed) throw new Error(`party ${ti} round ${round + 1}: chapter_failed`);
          r.chapterMs.push(written[closer]!.at - closedAt);
          for (const u of written) r.fanoutMs.push(u.at - closedAt);
          const times = written.map((u) => u.at);
          r.spreadMs.push(Math.max(...times) - Math.min(...times));
        } catch (e) {
          r.errors.push(e instanceof Error ? e.message : String(e));
          break;
        }
      }
    }),
  );
  r.wallMs = performance.now() - started;
  for (const l of listeners.flat()) void l.client.dispose();
  return r;
}

if (!isMainThread) {
  const { port } = workerData as { port: number };
  parentPort!.on('message', (m: { tables: Table[]; rounds: number }) => {
    void playAll(port, m.tables, m.rounds).then(
      (res) => parentPort!.postMessage(res),
      (e) => parentPort!.postMessage({ chapterMs: [], fanoutMs: [], spreadMs: [], actedMs: [], errors: [String(e)], wallMs: 0, connectMs: 0 }),
    );
  });
}

// -------------------------------------------------------------------------------------------------
// Main thread: the app.

/** `parties` tables of `players`: signed up, a saved character each, the host's party joined by code. */
async function makeTables(app: App, tag: string): Promise<Table[]> {
  const [world] = (await app.db.dataSource.query(`SELECT id FROM worlds WHERE featured ORDER BY name LIMIT 1`)) as Array<{ id: string }>;
  if (!world) throw new Error('no featured world: was the database seeded?');
  const repo = app.db.dataSource.getRepository(Character);
  const member = async (id: string): Promise<Member> => {
    const s = await app.services.auth.signUp({ email: `party.${id}@example.com`, username: `party ${id}`, password: `correct horse ${id}` });
    if (!isSession(s)) throw new Error('the bench signs players up without REQUIRE_EMAIL_CONFIRMATION');
    const c = await repo.save(
      repo.create({
        userId: s.user.id,
        worldId: world.id,
        name: `Companion ${id}`,
        description: 'A traveller who came for the road and stayed for the company.',
        stats: { strength: 10, agility: 10, endurance: 10, intellect: 10, wisdom: 10, charisma: 10 },
        traits: ['steady', 'curious', 'patient'],
      }),
    );
    return { token: s.accessToken, userId: s.user.id, characterId: c.id };
  };
  const tables: Table[] = [];
  for (let p = 0; p < PARTIES; p++) {
    const members = await Promise.all(Array.from({ length: PLAYERS }, (_, i) => member(`${tag}p${p}m${i}`)));
    const host = members[0]!;
    const party = await app.services.parties.create(host.userId, { characterId: host.characterId, mode: 'live' });
    const invite = await app.services.parties.createInvite(host.userId, party.id);
    for (const m of members.slice(1)) await app.services.parties.join(m.userId, invite.code, m.characterId);
    tables.push({ partyId: party.id, members });
  }
  return tables;
}

async function main(): Promise<void> {
  const base = loadConfig(undefined, { nodeEnv: 'production', logLevel: 'error' });
  let pg: Awaited<ReturnType<typeof postgresSchema>> | null = null;
  let dataDir: string | null = null;
  if (base.databaseUrl) pg = await postgresSchema(base.databaseUrl, 'tf_party_bench');
  else dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'taleforge-party-bench-'));
  const config = {
    ...base,
    databaseUrl: pg?.url,
    dataDir: dataDir ?? base.dataDir,
    // Enough credits for every round's chapter (the acting player pays), whatever SIGNUP_CREDITS is.
    signupCredits: Math.max(base.signupCredits, ROUNDS * (base.party.chapterCredits + 1)),
    // Rounds close when all have acted: the timer never decides here.
    party: { ...base.party, roundSeconds: 3600 },
    // Every bench player shares 127.0.0.1: lift the per-IP limit only (per-player limits stay on).
    ops: { ...base.ops, rateLimit: { ...base.ops.rateLimit, perIp: 0 }, rateLimitKeyPrefix: `taleforge:rl:partybench:${Date.now().toString(36)}:` },
  };
  const dbLabel = pg ? `PostgreSQL (${new URL(base.databaseUrl!).host}, schema of its own)` : 'PGlite (fresh data folder)';
  let app: App | null = null;
  let worker: Worker | null = null;
  let failed: boolean;
  try {
    app = await createApp(config, {});
    const port = await app.listen(0, '127.0.0.1');
    const s0 = performance.now();
    const tables = await makeTables(app, Date.now().toString(36));
    const setupMs = performance.now() - s0;
    worker = new Worker(__filename, { workerData: { port } });
    const w = worker;
    const r = await new Promise<RunResult>((resolve, reject) => {
      w.once('message', resolve);
      w.once('error', reject);
      w.postMessage({ tables, rounds: ROUNDS });
    });
    await app.services.parties.idle();

    // Every party's story holds exactly its rounds' chapters (the opening chapter, if written, aside).
    const rows = (await app.db.dataSource.query(
      `SELECT c.id, count(ch.id) FILTER (WHERE ch.is_selected AND ch.status = 'complete' AND ch.player_choice IS NOT NULL) AS rounds,
              count(ch.id) FILTER (WHERE ch.status <> 'complete') AS other
         FROM characters c LEFT JOIN chapters ch ON ch.character_id = c.id
        WHERE c.id = ANY($1::uuid[]) GROUP BY c.id`,
      [tables.map((t) => t.members[0]!.characterId)],
    )) as Array<{ rounds: string | number; other: string | number }>;
    const integrity = rows.filter((x) => Number(x.rounds) !== ROUNDS || Number(x.other) !== 0).length + (tables.length - rows.length);
    const errors = r.errors.length + integrity;

    const f = (v: number) => `${v.toFixed(1)} ms`;
    const total = PARTIES * ROUNDS;
    console.log(`Party bench: ${PARTIES} live parties × ${PLAYERS} players × ${ROUNDS} rounds, offline AI, ${os.cpus().length} CPUs`);
    console.log(`database: ${dbLabel}; set-up (sign-ups, characters, parties joined by code) ${(setupMs / 1000).toFixed(1)} s`);
    console.log(`${PARTIES * PLAYERS} players' WebSockets subscribed to partyUpdated in ${r.connectMs.toFixed(0)} ms (before the clock starts)`);
    console.log(
      `rounds: ${r.chapterMs.length}/${total} written, errors: ${errors}${r.errors.length ? ` (${r.errors.slice(0, 3).join('; ')})` : ''}, wall ${(r.wallMs / 1000).toFixed(2)} s`,
    );
    console.log(
      `chapter (closing action → the actor told it is written): p50 ${f(pct(r.chapterMs, 50))}  p99 ${f(pct(r.chapterMs, 99))}  (target p99 < ${CHAPTER_P99_MS} ms)`,
    );
    console.log(`fan-out (closing action → each member told): p50 ${f(pct(r.fanoutMs, 50))}  p99 ${f(pct(r.fanoutMs, 99))}`);
    console.log(
      `fan-out spread (first → last member of a round): p50 ${f(pct(r.spreadMs, 50))}  p99 ${f(pct(r.spreadMs, 99))}  (target p99 < ${FANOUT_SPREAD_P99_MS} ms)`,
    );
    console.log(`presence (an action → each other member sees "acted"): p50 ${f(pct(r.actedMs, 50))}  p99 ${f(pct(r.actedMs, 99))}`);
    failed = errors > 0 || !(pct(r.chapterMs, 99) < CHAPTER_P99_MS) || !(pct(r.spreadMs, 99) < FANOUT_SPREAD_P99_MS);
    console.log(failed ? 'A target was missed.' : 'All targets met.');
  } finally {
    await worker?.terminate();
    await app?.close();
    await pg?.drop();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  }
  process.exit(failed ? 1 : 0);
}

if (isMainThread) {
  main().catch((e) => {
    console.error(e);
    process.exit(1);
  });
}
