import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ConfigError, loadBootConfig, loadConfig, readDotEnv } from './env';

describe('loadConfig', () => {
  it('defaults to the embedded database under data/ on port 4000', () => {
    const c = loadConfig({});
    expect(c.port).toBe(4000);
    expect(c.databaseUrl).toBeUndefined();
    expect(c.dataDir).toBe(path.resolve(__dirname, '..', '..', '..', 'data'));
    expect(c.publicUrl).toBe('http://localhost:4000');
    expect(c.pgliteThread).toBe('worker');
    expect(c.seedImages).toBe('procedural');
  });

  it('PORT, DATA_DIR and DATABASE_URL change it', () => {
    const c = loadConfig({ PORT: '4555', DATA_DIR: '/tmp/tf-x', DATABASE_URL: 'postgres://u@h:5432/db' });
    expect(c.port).toBe(4555);
    expect(c.dataDir).toBe('/tmp/tf-x');
    expect(c.databaseUrl).toBe('postgres://u@h:5432/db');
    expect(loadConfig({ PGLITE_THREAD: 'main' }).pgliteThread).toBe('main');
    expect(loadConfig({ SEED_IMAGES: 'placeholder' }).seedImages).toBe('placeholder');
  });

  it('refuses bad values with one message naming every bad variable', () => {
    let err: unknown;
    try {
      loadConfig({ PORT: 'eighty', DATABASE_URL: 'mysql://x', JWT_SECRET: 'short', LOG_LEVEL: 'loud', PGLITE_THREAD: 'both', SEED_IMAGES: 'none' });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ConfigError);
    const msg = (err as Error).message;
    for (const name of ['PORT', 'DATABASE_URL', 'JWT_SECRET', 'LOG_LEVEL', 'PGLITE_THREAD', 'SEED_IMAGES']) expect(msg).toContain(name);
  });

  it('treats blank values as unset', () => {
    expect(loadConfig({ DATABASE_URL: '  ', PORT: '' }).databaseUrl).toBeUndefined();
  });
});

describe("read-aloud's server voice (TTS_*)", () => {
  it('is offered only with a key: its own, else the story AI’s; TTS_MODEL=off turns it off', () => {
    expect(loadConfig({}).tts).toMatchObject({ apiKey: undefined, model: 'gpt-4o-mini-tts', voices: expect.arrayContaining(['alloy', 'nova']) });
    expect(loadConfig({ OPENAI_API_KEY: 'sk-a', OPENAI_BASE_URL: 'http://127.0.0.1:9/v1' }).tts).toMatchObject({
      apiKey: 'sk-a',
      baseUrl: 'http://127.0.0.1:9/v1',
    });
    const own = loadConfig({ OPENAI_API_KEY: 'sk-a', TTS_API_KEY: 'sk-b', TTS_BASE_URL: 'http://127.0.0.1:8880/v1', TTS_VOICES: 'af_bella, am_adam' }).tts;
    expect(own).toMatchObject({ apiKey: 'sk-b', baseUrl: 'http://127.0.0.1:8880/v1', voices: ['af_bella', 'am_adam'] });
    expect(loadConfig({ OPENAI_API_KEY: 'sk-a', TTS_MODEL: 'off' }).tts.apiKey).toBeUndefined();
  });

  it('refuses a bad voice list, server URL or timeout, naming the variable', () => {
    expect(() => loadConfig({ TTS_VOICES: 'alloy,<script>' })).toThrow(/TTS_VOICES/);
    expect(() => loadConfig({ TTS_VOICES: ' , ' })).toThrow(/TTS_VOICES/);
    expect(() => loadConfig({ TTS_BASE_URL: 'ftp://x' })).toThrow(/TTS_BASE_URL/);
    expect(() => loadConfig({ TTS_TIMEOUT_MS: '5' })).toThrow(/TTS_TIMEOUT_MS/);
  });
});

describe('the local test checkout in production', () => {
  it('refuses to boot in production without Stripe, unless LOCAL_CHECKOUT_DEMO=true says it is a demo', () => {
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(/LOCAL_CHECKOUT_DEMO/);
    expect(loadConfig({ NODE_ENV: 'production', LOCAL_CHECKOUT_DEMO: 'true' }).localCheckoutDemo).toBe(true);
    expect(() => loadConfig({ NODE_ENV: 'production', STRIPE_SECRET_KEY: 'sk_live_x', STRIPE_WEBHOOK_SECRET: 'whsec_x' })).not.toThrow();
    expect(() => loadConfig({ NODE_ENV: 'production', LOCAL_CHECKOUT_DEMO: 'maybe' })).toThrow(/LOCAL_CHECKOUT_DEMO must be true or false/);
    // Development keeps the test checkout: that is what it is for.
    expect(loadConfig({}).localCheckoutDemo).toBe(false);
    expect(() => loadConfig({ NODE_ENV: 'development' })).not.toThrow();
  });
});

describe('.env and .env.example', () => {
  const ROOT = path.resolve(__dirname, '..', '..', '..');
  const read = (f: string) => fs.readFileSync(path.join(ROOT, f), 'utf8');

  it('a .env file is read at boot, and the environment wins over it', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'taleforge-env-'));
    const file = path.join(dir, '.env');
    fs.writeFileSync(file, '# keys\nPORT=4555\nOPENAI_MODEL="my-model"\nSIGNUP_CREDITS=20\n');
    const saved = { ...process.env };
    try {
      delete process.env.PORT;
      delete process.env.OPENAI_MODEL;
      process.env.SIGNUP_CREDITS = '30';
      const c = loadBootConfig(file);
      expect(c.port).toBe(4555);
      expect(c.openai.model).toBe('my-model');
      expect(c.signupCredits).toBe(30);
      expect(readDotEnv(path.join(dir, 'missing.env'))).toEqual({});
    } finally {
      process.env = saved;
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('.env.example and the README list every variable the server reads', () => {
    const names = new Set(
      [...read('server/src/config/env.ts').matchAll(/(?:str|int|bool|url|origins|fraction|oneOf|emailAddress)\('([A-Z_]+)'/g)].map((m) => m[1]),
    );
    expect(names.size).toBeGreaterThan(40);
    const example = read('.env.example');
    const readme = read('README.md');
    for (const name of names) {
      expect([name, example.includes(`# ${name}=`)]).toEqual([name, true]);
      expect([name, readme.includes(`| \`${name}\` |`)]).toEqual([name, true]);
    }
  });
});
