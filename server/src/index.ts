import 'reflect-metadata';
import { chooseModelServer } from './ai/local-servers';
import { createApp } from './app';
import { ConfigError, loadBootConfig } from './config/env';
import { DataDirLockedError } from './db/data-dir-lock';

/** Signals closer together than this are one Ctrl-C delivered along several paths, not two. */
const SAME_KEYSTROKE_MS = 1000;

/** Boot: env → database (migrated, seeded) → app → listen; SIGINT/SIGTERM drain and close cleanly. */
async function main(): Promise<void> {
  // Signals are taken from the first moment: a supervisor's SIGTERM during a slow first boot
  // (migrations, seeding) or while the local-server look below is still out must not meet Node's
  // default (an abrupt kill mid-write) — it is answered once the app exists.
  let stoppingSince = 0;
  let close: () => void = () => undefined;
  const stop = (signal: string) => {
    if (stoppingSince) {
      // One Ctrl-C reaches us several times within milliseconds: the terminal signals the whole
      // process group (npm, the start wrapper and us), and npm and the wrapper each forward it. Only a
      // signal well after the first is a second Ctrl-C asking to give up on the clean shutdown.
      if (Date.now() - stoppingSince < SAME_KEYSTROKE_MS) return;
      process.stdout.write('Forced exit.\n');
      process.exit(1);
    }
    stoppingSince = Date.now();
    process.stdout.write(`\n${signal} received: finishing requests and closing the database…\n`);
    close();
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));

  const booted = loadBootConfig();
  // MODEL_SERVER decides the storyteller before the app starts; without it, local servers are only
  // looked for (alongside the start) to say how to use one.
  const chosen = booted.modelServer ? await chooseModelServer(booted) : null;
  const hint = chosen ? null : chooseModelServer(booted).catch(() => null);
  const config = chosen?.config ?? booted;
  const app = await createApp(config);
  close = () => {
    // In-flight chapters get SHUTDOWN_GRACE_MS to commit; past that plus the drain, give up.
    const forceAfterMs = Math.max(15_000, config.ops.shutdownGraceMs + 5_000);
    const force = setTimeout(() => {
      process.stderr.write(`Shutdown took longer than ${Math.round(forceAfterMs / 1000)} s; exiting anyway.\n`);
      process.exit(1);
    }, forceAfterMs);
    force.unref();
    app.close().then(
      () => {
        process.stdout.write('Stopped cleanly.\n');
        process.exit(0);
      },
      (e) => {
        process.stderr.write(`Error during shutdown: ${String(e)}\n`);
        process.exit(1);
      },
    );
  };
  // Asked to stop while booting: close what was opened, never start listening.
  if (stoppingSince) return close();
  const port = await app.listen();
  const where = config.databaseUrl ? 'PostgreSQL (DATABASE_URL)' : `embedded PGlite in ${config.dataDir}`;
  if (config.nodeEnv === 'production' && config.localCheckoutDemo && !config.stripe.secretKey) {
    process.stderr.write(
      '\n*** DEMO CHECKOUT: LOCAL_CHECKOUT_DEMO=true and no Stripe keys. Paid tiers are granted by a fake payment page; do not run this for real players. ***\n\n',
    );
  }
  process.stdout.write(`Taleforge is running at http://localhost:${port}  (GraphQL: /graphql, playground: /graphiql; data: ${where})\n`);
  const said = chosen ?? (await hint);
  if (said?.message && !stoppingSince) process.stdout.write(`${said.message}\n`);
}

main().catch((e) => {
  if (e instanceof ConfigError || e instanceof DataDirLockedError) {
    process.stderr.write(`${e.message}\n`);
  } else if ((e as NodeJS.ErrnoException)?.code === 'EADDRINUSE') {
    process.stderr.write(`Port already in use: ${(e as Error).message}. Set PORT to another port.\n`);
  } else {
    process.stderr.write(`Taleforge failed to start: ${(e as Error)?.stack ?? String(e)}\n`);
  }
  process.exit(1);
});
