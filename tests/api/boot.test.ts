import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { AuthClient } from '@supabase/auth-js';
import sharp from 'sharp';
import { FakeOpenAIServer } from '../../server/src/ai/openai/fake-openai-server';
import { startProcess, type Instance } from '../support/cluster';

/** With REDIS_URL the server's auth limits live in Redis: this run's windows, not earlier runs' or benches'. */
const RL_PREFIX = `taleforge:rl:boot:${process.pid}:${Date.now().toString(36)}:`;

/**
 * The real server process, as `npm start` runs it: embedded PGlite under DATA_DIR, a clear refusal
 * for a second process on the same folder, clean SIGTERM shutdown, and every record kept on restart.
 */
const SERVER = path.resolve(__dirname, '..', '..', 'server', 'dist', 'index.js');
// Alone, the longest test here takes ~15 s (two boots of a fresh data folder, one painting the art); in
// the full CI pass, beside three other workers and the browsers, one took over 90 s on a slow day.
jest.setTimeout(240_000);

type Running = Instance;

function start(dataDir: string): Promise<Running> {
  if (!fs.existsSync(SERVER)) throw new Error(`${SERVER} is missing: build the server first (npm test does).`);
  return startProcess('server', process.execPath, [SERVER], {
    env: {
      // The one place the suites seed with the real procedural art (jest.config.js makes every other
      // database seed flat placeholders): the default, as `npm start` paints it.
      SEED_IMAGES: 'procedural',
      DATA_DIR: dataDir,
      PORT: '0',
      HOST: '127.0.0.1',
      DATABASE_URL: '',
      NODE_ENV: 'production',
      LOCAL_CHECKOUT_DEMO: 'true',
      LOG_LEVEL: 'warn',
      RATE_LIMIT_KEY_PREFIX: RL_PREFIX,
    },
  });
}

function exitOf(proc: ChildProcess): Promise<number | null> {
  return new Promise((r) => (proc.exitCode !== null ? r(proc.exitCode) : proc.on('exit', (c) => r(c))));
}

describe('the server process on the embedded database', () => {
  it('refuses to boot in production without Stripe keys unless LOCAL_CHECKOUT_DEMO=true', async () => {
    const proc = spawn(process.execPath, [SERVER], {
      env: {
        ...process.env,
        DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'taleforge-boot-')),
        PORT: '0',
        HOST: '127.0.0.1',
        DATABASE_URL: '',
        NODE_ENV: 'production',
        LOCAL_CHECKOUT_DEMO: '',
        STRIPE_SECRET_KEY: '',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    proc.stdout!.on('data', (d) => (out += d));
    proc.stderr!.on('data', (d) => (out += d));
    expect(await exitOf(proc)).toBe(1);
    expect(out).toContain('NODE_ENV=production needs STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET');
    expect(out).not.toContain('is running at');
  });

  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'taleforge-boot-'));
  afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  it('refuses a second process on the same DATA_DIR, stops cleanly on SIGTERM, and keeps the user after a restart', async () => {
    const first = await start(dataDir);
    // Production without Stripe boots only as an explicit demo, and says so where operators look.
    expect(first.output()).toContain('DEMO CHECKOUT: LOCAL_CHECKOUT_DEMO=true and no Stripe keys');
    const email = `boot.${Date.now()}@example.com`;
    const password = 'correct horse battery';

    // A stock GoTrue/Supabase auth client signs up and in against our /api/auth/v1.
    const auth = new AuthClient({ url: `${first.url}/api/auth/v1`, autoRefreshToken: false, persistSession: false });
    const up = await auth.signUp({ email, password, options: { data: { username: 'Boot Tester' } } });
    expect(up.error).toBeNull();
    expect(up.data.session?.access_token).toBeTruthy();
    expect(up.data.user?.user_metadata.username).toBe('Boot Tester');
    const who = await auth.getUser(up.data.session!.access_token);
    expect(who.data.user?.email).toBe(email);
    const refreshed = await auth.refreshSession({ refresh_token: up.data.session!.refresh_token });
    expect(refreshed.error).toBeNull();
    expect(refreshed.data.session?.refresh_token).not.toBe(up.data.session!.refresh_token);
    const bad = await auth.signInWithPassword({ email, password: 'wrong password' });
    expect(bad.error?.message).toBe('Incorrect email or password.');

    // A second process on the same folder is refused with a clear message.
    const second = spawn(process.execPath, [SERVER], {
      env: { ...process.env, DATA_DIR: dataDir, PORT: '0', DATABASE_URL: '', LOG_LEVEL: 'warn', RATE_LIMIT_KEY_PREFIX: RL_PREFIX },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let secondOut = '';
    second.stderr!.on('data', (d) => (secondOut += d));
    expect(await exitOf(second)).toBe(1);
    expect(secondOut).toContain('is already using the data folder');

    first.proc.kill('SIGTERM');
    expect(await exitOf(first.proc)).toBe(0);
    expect(first.output()).toContain('Stopped cleanly.');
    expect(fs.existsSync(path.join(dataDir, 'taleforge.lock'))).toBe(false);

    const again = await start(dataDir);
    try {
      const auth2 = new AuthClient({ url: `${again.url}/api/auth/v1`, autoRefreshToken: false, persistSession: false });
      const signIn = await auth2.signInWithPassword({ email, password });
      expect(signIn.error).toBeNull();
      expect(signIn.data.user?.user_metadata.username).toBe('Boot Tester');
      const worlds = await fetch(`${again.url}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query: '{ featuredWorlds(limit: 100) { id imageUrl } }' }),
      }).then((r) => r.json() as Promise<{ data: { featuredWorlds: unknown } }>);
      const featured = worlds.data.featuredWorlds as Array<{ id: string; imageUrl: string | null }>;
      expect(featured.length).toBeGreaterThanOrEqual(12); // seeded once, not twice
      expect(featured.length).toBeLessThan(24);
      // The default seeding draws each featured world's picture with the offline storyteller,
      // served as a cacheable JPEG.
      expect(featured.every((w) => w.imageUrl)).toBe(true);
      const img = await fetch(`${again.url}${featured[0].imageUrl}`);
      expect(img.headers.get('content-type')).toBe('image/jpeg');
      const bytes = Buffer.from(await img.arrayBuffer());
      expect(bytes.subarray(0, 3)).toEqual(Buffer.from([0xff, 0xd8, 0xff]));
      // Painted, not a flat placeholder: a 1024×576 scene whose pixels vary.
      const meta = await sharp(bytes).metadata();
      expect([meta.width, meta.height]).toEqual([1024, 576]);
      const { channels } = await sharp(bytes).stats();
      expect(Math.min(...channels.map((c) => c.stdev))).toBeGreaterThan(10);
      const etag = img.headers.get('etag')!;
      expect(img.headers.get('cache-control')).toContain('max-age=');
      expect((await fetch(`${again.url}${featured[0].imageUrl}`, { headers: { 'if-none-match': etag } })).status).toBe(304);
    } finally {
      again.proc.kill('SIGINT');
      expect(await exitOf(again.proc)).toBe(0);
    }
  });
});

/** Resolves when the process has exited and its output pipes are closed (no descendant holds them). */
function closed(proc: ChildProcess): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  return new Promise((r) => proc.on('close', (code, signal) => r({ code, signal })));
}

describe('a signal during the first boot', () => {
  it('SIGTERM while migrating and seeding stops cleanly: no listening, the data folder released', async () => {
    // A supervisor may stop a container during a slow first boot. Node's default for a signal with no
    // handler is an abrupt kill in the middle of migrations and seeding.
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'taleforge-early-signal-'));
    try {
      const proc = spawn(process.execPath, [SERVER], {
        env: { ...process.env, DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', DATABASE_URL: '', REDIS_URL: '', NODE_ENV: 'development', LOG_LEVEL: 'warn' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let out = '';
      proc.stdout!.on('data', (d: Buffer) => (out += d.toString()));
      proc.stderr!.on('data', (d: Buffer) => (out += d.toString()));
      const ended = closed(proc);
      // The lock is taken as the database opens, before migrations: the boot is under way.
      const lock = path.join(dataDir, 'taleforge.lock');
      while (!fs.existsSync(lock) && proc.exitCode === null) await new Promise((r) => setTimeout(r, 5));
      proc.kill('SIGTERM');
      const { code, signal } = await ended;
      expect(out).toContain('SIGTERM received: finishing requests and closing the database');
      expect(out).toContain('Stopped cleanly.');
      expect(out).not.toContain('running at');
      expect({ code, signal }).toEqual({ code: 0, signal: null });
      expect(fs.existsSync(lock)).toBe(false);
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe('npm start in a terminal', () => {
  const ROOT = path.resolve(__dirname, '..', '..');
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'taleforge-ctrlc-'));
  afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  /** `npm start` as its own process group, like a shell runs a foreground job. */
  const npmStart = () =>
    startProcess('npm start', 'npm', ['start', '--silent'], {
      cwd: ROOT,
      detached: true,
      env: { DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', DATABASE_URL: '', REDIS_URL: '', NODE_ENV: 'development', LOG_LEVEL: 'warn' },
    });

  it('Ctrl-C (SIGINT to the whole process group) stops cleanly, without "Forced exit."', async () => {
    for (let round = 0; round < 2; round++) {
      const run = await npmStart();
      expect((await fetch(`${run.url}/healthz`)).status).toBe(200);
      process.kill(-run.proc.pid!, 'SIGINT');
      // 'close': every process holding npm's output (the wrapper, the server) has gone.
      const { code, signal } = await closed(run.proc);
      expect(run.output()).toContain('SIGINT received: finishing requests and closing the database');
      expect(run.output()).toContain('Stopped cleanly.');
      expect(run.output()).not.toContain('Forced exit.');
      // npm re-raises a Ctrl-C on itself after its script ended (what a shell expects of a job).
      expect(code === 0 || signal === 'SIGINT').toBe(true);
    }
  });

  it('a SIGTERM to the start wrapper alone (a supervisor) still stops the server cleanly', async () => {
    const run = await npmStart();
    // The wrapper is `node scripts/start.mjs`, a child of npm through a shell (`sh -c node scripts/start.mjs`).
    const wrapper = Number(
      execFileSync('pgrep', ['-g', String(run.proc.pid), '-f', '^node scripts/start.mjs'])
        .toString()
        .trim()
        .split('\n')[0],
    );
    expect(wrapper).toBeGreaterThan(0);
    process.kill(wrapper, 'SIGTERM');
    await closed(run.proc);
    expect(run.output()).toContain('Stopped cleanly.');
    expect(run.output()).not.toContain('Forced exit.');
    await expect(fetch(`${run.url}/healthz`)).rejects.toThrow();
  });
});

describe('a local model server', () => {
  it('MODEL_SERVER=auto: boot says which server writes the stories, and generations go to it with its own model', async () => {
    const fake = new FakeOpenAIServer();
    const baseUrl = await fake.start();
    fake.models = ['nomic-embed-text', 'llama3.2:3b'];
    fake.fallback = {
      kind: 'json',
      content: JSON.stringify({
        description:
          'Saltmarsh is a drowned county of reed towns on stilts, where the tide keeps a ledger of debts and the lantern guilds sell safe passage across the flats at night.',
      }),
    };
    const port = new URL(baseUrl).port;
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'taleforge-local-model-'));
    const server = await startProcess('server', process.execPath, [SERVER], {
      env: {
        DATA_DIR: dataDir,
        PORT: '0',
        HOST: '127.0.0.1',
        DATABASE_URL: '',
        NODE_ENV: 'production',
        LOCAL_CHECKOUT_DEMO: 'true',
        LOG_LEVEL: 'warn',
        RATE_LIMIT_KEY_PREFIX: RL_PREFIX,
        OPENAI_API_KEY: '',
        OPENAI_MODEL: '',
        MODEL_SERVER: 'auto',
        MODEL_SERVER_PORTS: `1,${port}`,
      },
    });
    try {
      await waitUntil(() => server.output().includes('Stories are written by'));
      expect(server.output()).toContain(
        `Stories are written by an OpenAI-compatible server at ${baseUrl} with llama3.2:3b; memories are found by meaning with nomic-embed-text.`,
      );
      const auth = new AuthClient({ url: `${server.url}/api/auth/v1`, autoRefreshToken: false, persistSession: false });
      const up = await auth.signUp({
        email: `local.${Date.now()}@example.com`,
        password: 'correct horse battery',
        options: { data: { username: 'Local Tester' } },
      });
      const res = await fetch(`${server.url}/api/worlds/generate-description`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${up.data.session!.access_token}` },
        body: JSON.stringify({ worldDescription: 'a drowned county of reed towns' }),
      });
      expect(res.status).toBe(200);
      expect(((await res.json()) as { description: string }).description).toContain('Saltmarsh');
      const asked = fake.requests.filter((r) => r.url.endsWith('/chat/completions'));
      expect(asked.length).toBeGreaterThan(0);
      expect(asked.every((r) => r.body.model === 'llama3.2:3b')).toBe(true);
    } finally {
      await server.stop('SIGTERM');
      await fake.stop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

async function waitUntil(ok: () => boolean, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('what the server loads', () => {
  it('loads none of the libraries only some deployments use until they are needed (images, OpenAI, Stripe, Redis, QR codes, mail)', () => {
    const app = path.resolve(__dirname, '..', '..', 'server', 'dist', 'app.js');
    const loaded = execFileSync(
      process.execPath,
      [
        '-e',
        `require(${JSON.stringify(app)});
         const heavy = /node_modules[\\\\/](sharp|openai|stripe|ioredis|qrcode|nodemailer)[\\\\/]/;
         console.log(JSON.stringify([...new Set(Object.keys(require.cache).map((k) => heavy.exec(k)?.[1]).filter(Boolean))]));`,
      ],
      { encoding: 'utf8' },
    );
    expect(JSON.parse(loaded)).toEqual([]);
  });
});
