/**
 * (A benchmark script: one scenario end to end, kept in one file so it reads top to bottom. It is
 * typed against the server's source and runs against its build: `npm run bench:story` builds the
 * server, compiles this file with bench/compile-ts.mjs and runs bench/dist/story.bench.js.)
 *
 * `npm run bench:story`: 50 concurrent players × 10 chapters each over the real HTTP/WebSocket +
 * graphql-ws stack, with the offline storyteller, on embedded PGlite (default) or PostgreSQL
 * (DATABASE_URL).
 *
 * The app runs in this process's main thread exactly as `createApp` builds it (ops front with its rate
 * limits, GraphQL, REST, WebSockets); the players run in a worker thread, so the load generator has an
 * event loop (and on a 2-core machine, a core) of its own instead of stealing the server's.
 *
 * Setup goes through the services (sign-ups hash passwords on purpose, and 50 sign-ups from one IP
 * would trip the per-IP auth limit): one player + one saved character each. Then every player plays
 * its chapters one after another, all players at once, as the web client does: one `playChapter`
 * operation over graphql-ws per chapter (it starts the chapter and streams it) until the `complete`
 * event. Latency = operation sent → complete event received; first chunk = operation sent → first
 * non-empty text delta received. Each player opens its WebSocket (an HTTP upgrade, authenticated)
 * before the clock starts, as a player's page has it open: set-up is printed apart, not counted in
 * a chapter.
 *
 * Only the per-IP request limit is lifted (every bench player shares 127.0.0.1; in production each
 * player has an address of its own): the per-player limits (requests, chapter generations) keep their
 * defaults, so their cost is part of the figure.
 *
 * Before the measured run, one player plays alone (also printed: the uncontended latency), then 50
 * other players play 25 chapters each on characters of their own: a warm-up round, printed but not
 * measured. In the first seconds under load V8 is still compiling the hot paths, and on this 2-core
 * machine its compiler threads take a core's share (the by-thread CPU line shows it); a server that
 * has been up for a minute is past that. --cold skips the warm-up and measures the first round after
 * boot. After the run, every character must have exactly its chapters, all committed: anything else
 * is an error.
 *
 * Flags (after `npm run bench:story --`): --players=50, --chapters=10, --warm-chapters=25, --cold,
 * --pglite=memory (in-memory PGlite instead of a fresh data folder). On PostgreSQL (DATABASE_URL) the
 * bench makes a schema of its own and drops it afterwards. Diagnostics: --detail (per chapter
 * number: first chunk / complete), --sql (statements per chapter of the lone player, by text),
 * --profile=file.cpuprofile (CPU profile of the app's thread during the measured run).
 * Exits 1 when a target is missed.
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

/** A playChapter event, as much of it as the bench reads. */
interface PlayEvent {
  status: string;
  offset: number;
  delta: string;
  errorCode: string | null;
  result: { newChapter: { index: number; text: string; choices: string[] } };
}

// Flags: --players=50 --chapters=10 --sql --detail --profile=FILE --pglite=memory (bench-support.ts).
const PLAYERS = Number(flag('players') || 50);
const CHAPTERS = Number(flag('chapters') || 10);
/**
 * Chapters each warm-up player plays (unless --cold): 1,250 chapters in all, a few seconds of load,
 * after which V8's compiler threads are down from ~1 ms of CPU per chapter (the first 500 chapters
 * after boot) to ~0.5 ms — what a server that has been up for a minute looks like. Below the per-player
 * limit of chapters per minute.
 */
const WARM_CHAPTERS = Number(flag('warm-chapters') || 25);
const TARGET_P99_MS = 150;
const TARGET_FIRST_P95_MS = 50;

interface Player {
  token: string;
  characterId: string;
}
interface RunResult {
  /** Per chapter: [chapter number, first chunk, complete] (ms from the request). */
  detail: Array<[number, number, number]>;
  latencies: number[];
  firstChunks: number[];
  errors: string[];
  wallMs: number;
  connectMs: number;
}
type ToWorker = { kind: 'run'; players: Player[]; chapters: number };

// -------------------------------------------------------------------------------------------------
// Worker thread: the players.

const PLAY = `subscription Bench_play($input: GenerateChapterInput!) { playChapter(input: $input) { chapterId status offset delta errorCode result { newChapter { index text choices } } } }`;

async function playAll(port: number, players: Player[], chapters: number): Promise<RunResult> {
  const latencies: number[] = [];
  const firstChunks: number[] = [];
  const detail: RunResult['detail'] = [];
  const errors: string[] = [];
  // Every player opens its socket first (a player's page does once, not per chapter): the handshake
  // is reported apart, not counted in any chapter.
  const c0 = performance.now();
  const sockets = await Promise.all(
    players.map(
      (p) =>
        new Promise<Client>((resolve, reject) => {
          const ws: Client = createClient({
            url: `ws://127.0.0.1:${port}/graphql`,
            webSocketImpl: WebSocket,
            connectionParams: { authorization: `Bearer ${p.token}` },
            lazy: false,
            retryAttempts: 0,
            on: { connected: () => resolve(ws), closed: (e) => reject(new Error(`socket closed: ${JSON.stringify(e)}`)) },
          });
        }),
    ),
  );
  const connectMs = performance.now() - c0;
  const started = performance.now();
  await Promise.all(
    players.map(async (p, i) => {
      const ws = sockets[i]!;
      let choice: string | null = null;
      for (let n = 0; n < chapters; n++) {
        const t0 = performance.now();
        try {
          let first = 0;
          let text = '';
          const chapter = await new Promise<{ index: number; text: string; choices: string[] }>((resolve, reject) => {
            ws.subscribe<{ playChapter?: PlayEvent }>(
              { query: PLAY, variables: { input: { characterId: p.characterId, userChoice: choice, expectedIndex: n } } },
              {
                next: (v) => {
                  const e = v.data?.playChapter;
                  if (!e) return reject(new Error(`playChapter: ${JSON.stringify(v.errors).slice(0, 300)}`));
                  if (!first && e.delta) first = performance.now();
                  text = text.slice(0, e.offset) + e.delta;
                  if (e.status === 'complete') resolve(e.result.newChapter);
                  if (e.status === 'failed') reject(new Error(`chapter failed: ${e.errorCode}`));
                },
                error: (err) => reject(err instanceof Error ? err : new Error(`ws: ${JSON.stringify(err)}`)),
                complete: () => reject(new Error('stream completed without a result')),
              },
            );
          });
          const t1 = performance.now();
          if (chapter.index !== n) throw new Error(`chapter index ${chapter.index}, expected ${n}`);
          if (text !== chapter.text) throw new Error('streamed text differs from the committed chapter');
          latencies.push(t1 - t0);
          firstChunks.push((first || t1) - t0);
          detail.push([n, (first || t1) - t0, t1 - t0]);
          choice = chapter.choices[n % chapter.choices.length] ?? null;
        } catch (e) {
          errors.push(e instanceof Error ? e.message : String(e));
          // Without knowing where the story stands, the next expectedIndex would only conflict.
          break;
        }
      }
      await ws.dispose();
    }),
  );
  return { detail, latencies, firstChunks, errors, wallMs: performance.now() - started, connectMs };
}

if (!isMainThread) {
  const { port } = workerData as { port: number };
  parentPort!.on('message', (m: ToWorker) => {
    void playAll(port, m.players, m.chapters).then(
      (r) => parentPort!.postMessage(r),
      (e) => parentPort!.postMessage({ detail: [], latencies: [], firstChunks: [], errors: [String(e)], wallMs: 0, connectMs: 0 }),
    );
  });
}

// -------------------------------------------------------------------------------------------------
// Main thread: the app.

async function makePlayers(app: App, n: number, tag: string): Promise<Player[]> {
  const [world] = (await app.db.dataSource.query(`SELECT id FROM worlds WHERE featured ORDER BY name LIMIT 1`)) as Array<{ id: string }>;
  if (!world) throw new Error('no featured world: was the database seeded?');
  const repo = app.db.dataSource.getRepository(Character);
  const out: Player[] = [];
  for (let i = 0; i < n; i += 4) {
    const batch = await Promise.all(
      Array.from({ length: Math.min(4, n - i) }, async (_, k) => {
        const id = `${tag}${i + k}`;
        const s = await app.services.auth.signUp({ email: `bench.${id}@example.com`, username: `bench ${id}`, password: `correct horse ${id}` });
        if (!isSession(s)) throw new Error('the bench signs players up without REQUIRE_EMAIL_CONFIRMATION');
        const c = await repo.save(
          repo.create({
            userId: s.user.id,
            worldId: world.id,
            name: `Bench Hero ${i + k}`,
            description: 'A tireless traveller who tests every road twice.',
            stats: { strength: 10, agility: 10, endurance: 10, intellect: 10, wisdom: 10, charisma: 10 },
            traits: ['steady', 'curious', 'patient'],
          }),
        );
        return { token: s.accessToken, characterId: c.id };
      }),
    );
    out.push(...batch);
  }
  return out;
}

/**
 * CPU time of each of this process's threads (Linux: /proc/self/task), by thread id: name and ms.
 * The main thread's id is the process id.
 */
function threadCpu(): Map<string, { name: string; ms: number }> {
  const out = new Map<string, { name: string; ms: number }>();
  let tids: string[];
  try {
    tids = fs.readdirSync('/proc/self/task');
  } catch {
    return out;
  }
  const tick = 1000 / 100; // USER_HZ is 100 on Linux
  for (const tid of tids) {
    try {
      const stat = fs.readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
      const close = stat.lastIndexOf(')');
      const name = stat.slice(stat.indexOf('(') + 1, close);
      const f = stat.slice(close + 2).split(' ');
      out.set(tid, { name, ms: (Number(f[11]) + Number(f[12])) * tick });
    } catch {
      // the thread ended meanwhile
    }
  }
  return out;
}

/** --profile=file.cpuprofile: a CPU profile of the app's thread during the measured run only. */
async function startProfile(): Promise<{ stop: (file: string) => Promise<void> }> {
  const { Session } = await import('node:inspector');
  const session = new Session();
  session.connect();
  const post = (method: string, params?: object) =>
    new Promise<{ profile?: unknown }>((resolve, reject) =>
      session.post(method, params ?? {}, (err, res) => (err ? reject(err) : resolve(res as { profile?: unknown }))),
    );
  await post('Profiler.enable');
  await post('Profiler.setSamplingInterval', { interval: 200 });
  await post('Profiler.start');
  return {
    stop: async (file) => {
      const { profile } = await post('Profiler.stop');
      fs.writeFileSync(file, JSON.stringify(profile));
      session.disconnect();
    },
  };
}

async function main(): Promise<void> {
  const base = loadConfig(undefined, { nodeEnv: 'production', logLevel: 'error' });
  let pg: Awaited<ReturnType<typeof postgresSchema>> | null = null;
  let dataDir: string | null = null;
  const inMemory = !base.databaseUrl && flag('pglite') === 'memory';
  if (base.databaseUrl) pg = await postgresSchema(base.databaseUrl, 'tf_bench');
  else if (!inMemory) dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'taleforge-story-bench-'));
  const config = {
    ...base,
    databaseUrl: pg?.url,
    dataDir: dataDir ?? base.dataDir,
    databaseInMemory: inMemory,
    // Every bench player shares 127.0.0.1: lift the per-IP limit only (per-player limits stay on).
    // With REDIS_URL, counters of this run only.
    ops: { ...base.ops, rateLimit: { ...base.ops.rateLimit, perIp: 0 }, rateLimitKeyPrefix: `taleforge:rl:bench:${Date.now().toString(36)}:` },
  };
  const pgliteWhere = base.pgliteThread === 'worker' ? 'on a thread of its own' : "on the app's thread (PGLITE_THREAD=main)";
  const dbLabel = pg
    ? `PostgreSQL (${new URL(base.databaseUrl!).host}, schema of its own)`
    : `PGlite (${inMemory ? 'in memory' : 'fresh data folder'}, ${pgliteWhere})`;

  let app: App | null = null;
  let worker: Worker | null = null;
  try {
    app = await createApp(config, {});
    const port = await app.listen(0, '127.0.0.1');
    const ds = app.db.dataSource;
    let statements = 0;
    const logger = ds.logger;
    const logQuery = logger.logQuery.bind(logger);
    const byText = new Map<string, number>();
    // Read once: this hook runs on the app's thread for every statement of the measured run.
    const bySql = Boolean(flag('sql'));
    logger.logQuery = (q, p, r) => {
      statements++;
      if (bySql) {
        const key = q.replace(/\s+/g, ' ').slice(0, 160);
        byText.set(key, (byText.get(key) ?? 0) + 1);
      }
      return logQuery(q, p, r);
    };

    const tag = Date.now().toString(36);
    const [solo] = await makePlayers(app, 1, `${tag}solo`);
    // The first seconds under load run while V8 is still compiling the hot paths (its compiler threads
    // take a core's share of this machine): a warm-up round on characters of its own, printed; unless
    // --cold, measured is the round after it.
    const warmPlayers = flag('cold') ? null : await makePlayers(app, PLAYERS, `${tag}warm`);
    const players = await makePlayers(app, PLAYERS, tag);

    worker = new Worker(__filename, { workerData: { port } });
    const w = worker;
    const run = (ps: Player[], chapters: number) =>
      new Promise<RunResult>((resolve, reject) => {
        w.once('message', resolve);
        w.once('error', reject);
        w.postMessage({ kind: 'run', players: ps, chapters } satisfies ToWorker);
      });

    statements = 0;
    byText.clear();
    const warm = await run([solo!], CHAPTERS);
    const soloStatements = statements / Math.max(1, warm.latencies.length);
    if (flag('sql')) {
      for (const [q, n] of [...byText].sort((a, b) => b[1] - a[1])) console.log(`${(n / Math.max(1, warm.latencies.length)).toFixed(1).padStart(5)}  ${q}`);
    }
    const warmRound = warmPlayers ? await run(warmPlayers, WARM_CHAPTERS) : null;
    statements = 0;
    const profile = flag('profile') ? await startProfile() : null;
    const dbElu0 = app.db.embedded?.utilization();
    const elu0 = performance.eventLoopUtilization();
    const playersElu0 = w.performance.eventLoopUtilization();
    const cpu0 = process.cpuUsage();
    const threads0 = threadCpu();
    const r = await run(players, CHAPTERS);
    const elu = performance.eventLoopUtilization(elu0);
    const playersElu = w.performance.eventLoopUtilization(playersElu0);
    const dbElu = dbElu0 ? app.db.embedded!.utilization(dbElu0) : null;
    const cpu = process.cpuUsage(cpu0);
    const threads1 = threadCpu();
    if (profile) await profile.stop(flag('profile')!);
    const perChapter = statements / Math.max(1, r.latencies.length);

    // Every character must have exactly its chapters, committed, one selected take each, no leftovers.
    const rows = (await ds.query(
      `SELECT c.id, count(ch.id) FILTER (WHERE ch.is_selected AND ch.status = 'complete') AS done,
              count(ch.id) FILTER (WHERE ch.status <> 'complete') AS other
         FROM characters c LEFT JOIN chapters ch ON ch.character_id = c.id
        WHERE c.id = ANY($1::uuid[]) GROUP BY c.id`,
      [[...players, ...(warmPlayers ?? [])].map((p) => p.characterId)],
    )) as Array<{ id: string; done: string | number; other: string | number }>;
    const warmIds = new Set(warmPlayers?.map((p) => p.characterId));
    const integrity =
      rows.filter((x) => Number(x.done) !== (warmIds.has(x.id) ? WARM_CHAPTERS : CHAPTERS) || Number(x.other) !== 0).length +
      (players.length + (warmPlayers?.length ?? 0) - rows.length);
    const errors = r.errors.length + warm.errors.length + (warmRound?.errors.length ?? 0) + integrity;

    const f = (v: number) => `${v.toFixed(1)} ms`;
    const total = PLAYERS * CHAPTERS;
    console.log(`Story bench: ${PLAYERS} players × ${CHAPTERS} chapters, offline AI, graphql-ws (playChapter), ${os.cpus().length} CPUs`);
    console.log(`database: ${dbLabel}`);
    console.log(
      `warm-up, 1 player alone: chapter p50 ${f(pct(warm.latencies, 50))}, first chunk p50 ${f(pct(warm.firstChunks, 50))}, ${soloStatements.toFixed(1)} SQL statements per chapter`,
    );
    if (warmRound) {
      console.log(
        `warm-up round after boot (${PLAYERS} other players × ${WARM_CHAPTERS} chapters, not measured): chapter p50 ${f(pct(warmRound.latencies, 50))} p99 ${f(pct(warmRound.latencies, 99))}, first chunk p95 ${f(pct(warmRound.firstChunks, 95))}, ${warmRound.errors.length} errors`,
      );
    }
    console.log(`${PLAYERS} players' WebSockets (authenticated) opened in ${r.connectMs.toFixed(0)} ms (before the clock starts)`);
    console.log(
      `chapters: ${r.latencies.length}/${total} completed, errors: ${errors}, wall ${(r.wallMs / 1000).toFixed(2)} s, ${(r.latencies.length / (r.wallMs / 1000)).toFixed(1)} chapters/s, ${perChapter.toFixed(1)} SQL statements per chapter`,
    );
    const n = Math.max(1, r.latencies.length);
    console.log(
      `app thread busy ${(elu.active / n).toFixed(2)} ms per chapter (event loop ${(elu.utilization * 100).toFixed(0)}% busy); process CPU (app + players) ${((cpu.user + cpu.system) / 1000 / n).toFixed(2)} ms per chapter`,
    );
    console.log(
      `process CPU: user ${(cpu.user / 1000 / n).toFixed(2)} + system ${(cpu.system / 1000 / n).toFixed(2)} ms per chapter; players' thread busy ${(playersElu.active / n).toFixed(2)} ms per chapter`,
    );
    if (threads0.size > 0) {
      // CPU actually spent by each thread (busy time above also counts time a thread was runnable
      // but waiting for a core), grouped by thread name.
      const used = (tid: string) => (threads1.get(tid)?.ms ?? 0) - (threads0.get(tid)?.ms ?? 0);
      const main = String(process.pid);
      const others = [...threads1.keys()]
        .filter((tid) => tid !== main)
        .map(used)
        .filter((ms) => ms / n >= 0.01)
        .sort((a, b) => b - a);
      console.log(
        `CPU per chapter by thread: main ${(used(main) / n).toFixed(2)} ms; others ${others.map((ms) => (ms / n).toFixed(2)).join(', ')} ms (database, players, V8's compiler and GC helpers)`,
      );
    }
    if (dbElu) console.log(`database thread busy ${(dbElu.active / n).toFixed(2)} ms per chapter (${(dbElu.utilization * 100).toFixed(0)}% busy)`);
    console.log(
      `chapter latency  p50 ${f(pct(r.latencies, 50))}  p95 ${f(pct(r.latencies, 95))}  p99 ${f(pct(r.latencies, 99))}  max ${f(pct(r.latencies, 100))}`,
    );
    console.log(`first chunk      p50 ${f(pct(r.firstChunks, 50))}  p95 ${f(pct(r.firstChunks, 95))}  p99 ${f(pct(r.firstChunks, 99))}`);
    if (flag('detail')) {
      for (let k = 0; k < CHAPTERS; k++) {
        const d = r.detail.filter((x) => x[0] === k);
        const q = (i: 1 | 2, p: number) =>
          pct(
            d.map((x) => x[i]),
            p,
          ).toFixed(0);
        console.log(`  chapter ${k}: first chunk p50 ${q(1, 50)} p95 ${q(1, 95)} · complete p50 ${q(2, 50)} p99 ${q(2, 99)} ms`);
      }
    }
    const distinct = [...new Set([...warm.errors, ...(warmRound?.errors ?? []), ...r.errors])];
    for (const e of distinct.slice(0, 5)) console.log(`  error: ${e}`);
    if (integrity) console.log(`  error: ${integrity} characters do not have exactly their chapters committed`);

    const checks: Array<[string, boolean]> = [
      [`chapter p99 ${f(pct(r.latencies, 99))} (target < ${TARGET_P99_MS} ms)`, pct(r.latencies, 99) < TARGET_P99_MS],
      [`first chunk p95 ${f(pct(r.firstChunks, 95))} (target < ${TARGET_FIRST_P95_MS} ms)`, pct(r.firstChunks, 95) < TARGET_FIRST_P95_MS],
      [`errors ${errors} (target 0)`, errors === 0 && r.latencies.length === total],
    ];
    console.log('');
    for (const [text, ok] of checks) console.log(`${ok ? 'PASS' : 'FAIL'}  ${text}`);
    process.exitCode = checks.every(([, ok]) => ok) ? 0 : 1;
  } finally {
    await worker?.terminate();
    await app?.close();
    await pg?.drop();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

if (isMainThread) {
  main().catch((e) => {
    console.error(e);
    process.exit(1);
  });
}
