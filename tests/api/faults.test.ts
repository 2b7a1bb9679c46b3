import { execFile, execFileSync, execSync } from 'node:child_process';
import { promisify } from 'node:util';
import fs from 'node:fs';
import Redis from 'ioredis';
import { FakeOpenAIServer } from '../../server/src/ai/openai/fake-openai-server';
import { loadConfig } from '../../server/src/config/env';
import { makeCharacter } from '../support/story-fixtures';
import { signUp, startTestApp, type TestApp } from '../support/test-app';
import { sleep, waitFor } from '../support/wait';
import { watchStatus, type Watch } from './billing-support';

/**
 * Faults, each against the real thing: the story AI not answering, the machine's PostgreSQL
 * restarted under load, the machine's Redis stopped and started again. The last two touch shared
 * services, so they only run when DATABASE_URL and REDIS_URL point at them (CI's second api pass,
 * one jest worker), and they always leave the services running.
 */
jest.setTimeout(120_000);

const databaseUrl = process.env.DATABASE_URL;
const redisUrl = process.env.REDIS_URL;
const onServices = Boolean(databaseUrl && redisUrl);
const skipReason = 'SKIPPED: set DATABASE_URL (PostgreSQL) and REDIS_URL to run it (it restarts those services)';

const GENERATE_CHARACTER = 'mutation($input: GenerateCharacterInput!) { generateCharacter(input: $input) { username } }';
const CHARACTER_INPUT = {
  worldDescription: 'A city of canals and clockwork, ruled by guilds.',
  questions: ['Who are you?'],
  answers: ['A smuggler'],
  username: 'Vell',
};
const GENERATE_CHAPTER = 'mutation($input: GenerateChapterInput!) { generateChapter(input: $input) { newChapter { id index text } } }';

describe('the story AI times out', () => {
  let fake: FakeOpenAIServer;
  let t: TestApp;
  beforeAll(async () => {
    fake = new FakeOpenAIServer();
    const baseUrl = await fake.start();
    fake.fallback = { kind: 'hang' }; // accepts the request, never answers
    const base = loadConfig({ NODE_ENV: 'test' });
    t = await startTestApp({ openai: { ...base.openai, apiKey: 'sk-test', baseUrl, timeoutMs: 1000, callTimeoutMs: 1000 } });
  });
  afterAll(async () => {
    await t?.close();
    await fake?.stop();
  });

  it('refunds the credits of a character generation and says what happened', async () => {
    const p = await signUp(t);
    const started = Date.now();
    const r = await t.gql(GENERATE_CHARACTER, { input: CHARACTER_INPUT }, p.accessToken);
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(r.errors![0].extensions!.code).toBe('GENERATION_FAILED');
    expect(r.errors![0].message).toMatch(/did not answer within 1 s/);
    expect(fake.requests.length).toBeGreaterThan(0);
    // Charged, then refunded: the balance is whole again and the ledger shows both.
    expect((await t.gql('{ credits }', {}, p.accessToken)).data!.credits).toBe(10);
    const ledger = await t.gql('{ creditLedger { delta reason } }', {}, p.accessToken);
    expect(ledger.data!.creditLedger.slice(0, 2)).toEqual([
      { delta: 3, reason: 'refund' },
      { delta: -3, reason: 'character_generate' },
    ]);
    const metrics = await (await fetch(`${t.url}/metrics`)).text();
    expect(metrics).toMatch(/taleforge_generation_duration_seconds_count\{kind="character",outcome="failed"\} 1/);
  });

  it('a chapter that times out fails cleanly and leaves the story as it was', async () => {
    const p = await signUp(t);
    const c = await makeCharacter(t, p.user.id);
    const r = await t.gql(GENERATE_CHAPTER, { input: { characterId: c.id } }, p.accessToken);
    expect(r.errors![0].extensions!.code).toBe('GENERATION_FAILED');
    expect(r.errors![0].message).toBe('Failed to generate story chapter. Please try again.');
    const rows = await t.app.db.dataSource.query(`SELECT status FROM chapters WHERE character_id = $1`, [c.id]);
    expect(rows.filter((x: { status: string }) => x.status !== 'failed')).toEqual([]);
  });
});

/**
 * The machine's own cluster (pg_ctlcluster), as the issue prescribes; always running again after.
 * Asynchronous, so the app in this process keeps taking (and failing) requests during the restart.
 */
async function pgCluster(action: 'restart' | 'start'): Promise<void> {
  const version = fs.readdirSync('/etc/postgresql')[0];
  await promisify(execFile)('pg_ctlcluster', ['--skip-systemctl-redirect', version, 'main', action], { timeout: 60_000 });
}
function pgRunning(): boolean {
  try {
    execFileSync('pg_isready', ['-h', '127.0.0.1', '-p', '5432'], { stdio: 'pipe', timeout: 10_000 });
    return true;
  } catch {
    return false;
  }
}

(onServices ? describe : describe.skip)(onServices ? 'PostgreSQL restarted under load' : `PostgreSQL restarted under load — ${skipReason}`, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ databaseUrl, redisUrl });
  });
  afterAll(async () => {
    if (!pgRunning()) await pgCluster('start');
    await t?.close();
  });

  it('the app recovers by itself and every chapter it reported committed is still there', async () => {
    const p = await signUp(t);
    const c = await makeCharacter(t, p.user.id);
    const committed = new Map<number, { id: string; text: string }>();
    let stop = false;

    // Load: a player writing chapters back to back, and readers of their status.
    const writer = (async () => {
      while (!stop) {
        const index = committed.size;
        const r = await t
          .gql(GENERATE_CHAPTER, { input: { characterId: c.id, userChoice: index === 0 ? null : `Step ${index}`, expectedIndex: index } }, p.accessToken)
          .catch(() => null);
        const ch = r?.data?.generateChapter?.newChapter;
        if (ch) committed.set(ch.index, { id: ch.id, text: ch.text });
        else await sleep(100);
      }
    })();
    const readers = Array.from({ length: 4 }, async () => {
      while (!stop) {
        await t.gql('{ me { id } credits }', {}, p.accessToken).catch(() => null);
        await sleep(20);
      }
    });

    try {
      await waitFor(() => committed.size >= 2, 'chapters before the restart', 20_000);
      const before = committed.size;
      await pgCluster('restart');
      // Without any help the app must become ready again and go on committing chapters.
      await waitFor(async () => (await fetch(`${t.url}/readyz`)).status === 200, 'readyz after the restart', 30_000);
      await waitFor(() => committed.size >= before + 2, 'chapters after the restart', 30_000);
    } finally {
      // Stop the load even when a wait fails: endless loops would keep jest from ever exiting.
      stop = true;
      await Promise.all([writer, ...readers]);
    }

    // Every chapter an answer said was committed is in the story, unchanged and in order.
    const rows = (await t.app.db.dataSource.query(`SELECT id, "index", text FROM chapters WHERE character_id = $1 AND is_selected ORDER BY "index"`, [
      c.id,
    ])) as Array<{
      id: string;
      index: number;
      text: string;
    }>;
    for (const [index, ch] of committed) expect(rows.find((r) => r.index === index)).toEqual({ id: ch.id, index, text: ch.text });
    expect(rows.map((r) => r.index)).toEqual(rows.map((_, i) => i));
    const story = await t.gql(`query($id: ID!) { character(id: $id) { id } }`, { id: c.id }, p.accessToken);
    expect(story.errors).toBeUndefined();
  });
});

const REDIS_START = `redis-server --daemonize yes --bind 127.0.0.1 -::1 --port 6379 --save "" --appendonly no --dir /var/lib/redis --logfile /var/log/redis/ci.log`;
async function redisUp(): Promise<boolean> {
  const r = new Redis(redisUrl ?? 'redis://127.0.0.1:6379', { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
  r.on('error', () => undefined);
  try {
    await r.connect();
    return (await r.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    r.disconnect();
  }
}
async function startRedis(): Promise<void> {
  if (await redisUp()) return;
  execSync(REDIS_START, { stdio: 'pipe', timeout: 15_000 });
  await waitFor(redisUp, 'Redis to answer again', 10_000);
}

(onServices ? describe : describe.skip)(onServices ? 'Redis stopped and started again' : `Redis stopped and started again — ${skipReason}`, () => {
  let t: TestApp;
  let live: Watch | undefined;
  beforeAll(async () => {
    t = await startTestApp({ databaseUrl, redisUrl, billingSweepSeconds: 0 });
    await t.app.services.realtime.ready();
  });
  afterAll(async () => {
    await startRedis(); // whatever happened above
    await live?.dispose().catch(() => undefined);
    await t?.close();
  });

  it('the app keeps serving without Redis and live credits resume when it is back', async () => {
    const p = await signUp(t);
    live = watchStatus(t, p.accessToken);
    await live.next((s) => s.credits === 10, 'the initial status');
    await t.app.services.credits.spend(p.user.id, 1, 'character_generate');
    await live.next((s) => s.credits === 9, 'a change before the outage');

    execSync('redis-cli -h 127.0.0.1 -p 6379 shutdown nosave', { stdio: 'pipe', timeout: 10_000 });
    await waitFor(async () => !(await redisUp()), 'Redis to stop', 10_000);

    // Everything but cross-instance delivery keeps working: reads, sign-ups, paid generations,
    // rate limits (per instance meanwhile), persisted queries (as misses).
    const started = Date.now();
    expect((await t.gql('{ featuredWorlds(limit: 2) { id } }')).data!.featuredWorlds).toHaveLength(2);
    const other = await signUp(t);
    const g = await t.gql(GENERATE_CHARACTER, { input: CHARACTER_INPUT }, other.accessToken);
    expect(g.errors).toBeUndefined();
    expect((await t.gql('{ me { id } credits }', {}, other.accessToken)).data!.credits).toBe(7);
    expect(Date.now() - started).toBeLessThan(5000); // nothing waited for Redis
    const ready = await t.rest('GET', '/readyz');
    expect(ready.status).toBe(200);
    expect(ready.body.checks.redis).toMatch(/unavailable/);

    execSync(REDIS_START, { stdio: 'pipe', timeout: 15_000 });
    await waitFor(redisUp, 'Redis to answer again', 10_000);
    // The same socket, no reconnect by the client: the instance re-subscribes and events flow again.
    await waitFor(
      async () => {
        await t.app.services.credits.spend(p.user.id, 1, 'character_generate');
        await sleep(300);
        return live!.values.some((v) => v.data?.subscriptionChanged?.credits !== undefined && v.data.subscriptionChanged.credits <= 7);
      },
      'a live credits event after Redis returned',
      20_000,
    );
    expect(live.closeCodes).toEqual([]);
    expect((await t.rest('GET', '/readyz')).body.checks.redis).toBe('ok');
  });
});
