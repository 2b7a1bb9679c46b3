import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { FakeOpenAIServer } from '../../server/src/ai/openai/fake-openai-server';
import { SERVER, startProcess, type Instance } from '../support/cluster';
import { newIdentity } from '../support/test-app';
import { waitFor } from '../support/wait';
import { AETHERMOOR, characterPayload } from './domain-helpers';

/**
 * A real kill -9 of the server process in the middle of two generations — a character (3 credits
 * charged) and a chapter — behind a model server that never answers; then a restart on the same data.
 * Nothing may stay lost or stuck: the charge comes back as a refund in the ledger, and the player can
 * play the story again (on the embedded database at once; on PostgreSQL, where other instances could
 * still be writing, within the bounded staleness wait).
 */
jest.setTimeout(150_000);
const onPg = Boolean(process.env.DATABASE_URL);

function start(env: Record<string, string>): Promise<Instance> {
  return startProcess('server', process.execPath, [SERVER], {
    env: { PORT: '0', HOST: '127.0.0.1', NODE_ENV: 'development', LOG_LEVEL: 'warn', REDIS_URL: '', ...env },
  });
}

async function call(url: string, method: string, p: string, body?: unknown, token?: string) {
  const r = await fetch(`${url}${p}`, {
    method,
    headers: { ...(body ? { 'content-type': 'application/json' } : {}), ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await r.text();
  return { status: r.status, body: text ? JSON.parse(text) : null };
}
const gql = async (url: string, query: string, variables: unknown, token: string) => (await call(url, 'POST', '/graphql', { query, variables }, token)).body;

const STORY = `query($id: ID!) { character(id: $id) { storyline(limit: 5) { generatingChapterId totalChapters } } }`;

describe('kill -9 mid-generation, then restart on the same data', () => {
  let fake: FakeOpenAIServer;
  let env: Record<string, string>;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'taleforge-crash-'));

  beforeAll(async () => {
    fake = new FakeOpenAIServer();
    const baseUrl = await fake.start();
    fake.fallback = { kind: 'hang' }; // accepts every request, never answers
    env = { DATA_DIR: dataDir, DATABASE_URL: '', OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: baseUrl, OPENAI_TIMEOUT_MS: '120000' };
    if (onPg) {
      // The test file's own database (tests/support/database-environment.js): a boot reconciliation
      // never touches what other test files run.
      env.DATABASE_URL = process.env.DATABASE_URL!;
      env.CHARGE_RECONCILE_SECONDS = '1';
    }
  });
  afterAll(async () => {
    await fake?.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('refunds the character charge and frees the story', async () => {
    const first = await start(env);
    const id = newIdentity('crash');
    const up = await call(first.url, 'POST', '/api/auth/v1/signup', { email: id.email, password: id.password, data: { username: id.username } });
    expect(up.status).toBe(200);
    const token = up.body.access_token as string;
    const saved = await call(first.url, 'POST', '/api/profile/insert-characters', characterPayload(AETHERMOOR), token);
    expect(saved.status).toBe(201);
    const characterId = saved.body.id as string;

    // Both generations start and wait on the model, which never answers.
    void call(
      first.url,
      'GET',
      `/api/characters/generate?worldDescription=${encodeURIComponent('A city of canals and clockwork.')}&username=Vell&answers=%5B%5D&questions=%5B%5D`,
      undefined,
      token,
    ).catch(() => undefined);
    void call(first.url, 'POST', '/api/stories/generate-chapter', { characterId, userChoice: 'I open the door.' }, token).catch(() => undefined);
    await waitFor(async () => (await call(first.url, 'GET', '/api/subscription/status', undefined, token)).body.credits === 7, 'the debit', 20_000);
    await waitFor(
      async () => (await gql(first.url, STORY, { id: characterId }, token)).data?.character.storyline.generatingChapterId,
      'the chapter to be generating',
      20_000,
    );

    first.proc.kill('SIGKILL');
    await new Promise((r) => first.proc.once('exit', r));
    if (onPg) await new Promise((r) => setTimeout(r, 1200)); // past CHARGE_RECONCILE_SECONDS

    // The restart has no model key: the offline storyteller answers from here on.
    const second = await start({ ...env, OPENAI_API_KEY: '', OPENAI_BASE_URL: '' });
    try {
      // The charge came back, and the ledger says why.
      const status = await call(second.url, 'GET', '/api/subscription/status', undefined, token);
      expect(status.body.credits).toBe(10);
      const ledger = await gql(second.url, '{ creditLedger { delta reason } }', {}, token);
      expect(ledger.data.creditLedger.slice(0, 2)).toEqual([
        { delta: 3, reason: 'refund_unfinished' },
        { delta: -3, reason: 'character_generate' },
      ]);

      if (!onPg) {
        // Embedded: nothing else can be writing, so the dead chapter is failed at boot…
        expect((await gql(second.url, STORY, { id: characterId }, token)).data.character.storyline.generatingChapterId).toBeNull();
        // …and a different action plays at once (no CONFLICT).
        const started = Date.now();
        const next = await call(second.url, 'POST', '/api/stories/generate-chapter', { characterId, userChoice: 'I climb out of the window.' }, token);
        expect(next.status).toBe(200);
        expect(Date.now() - started).toBeLessThan(10_000);
      } else {
        // PostgreSQL: the same action joins the dead chapter, and the wait is bounded (the writer's
        // heartbeat stopped): it fails instead of hanging, and the next request takes over.
        const started = Date.now();
        const joined = await call(second.url, 'POST', '/api/stories/generate-chapter', { characterId, userChoice: 'I open the door.' }, token);
        expect(Date.now() - started).toBeLessThan(45_000);
        expect(joined.body.code).toBe('GENERATION_FAILED');
        const next = await call(second.url, 'POST', '/api/stories/generate-chapter', { characterId, userChoice: 'I open the door.' }, token);
        expect(next.status).toBe(200);
      }
      const after = (await gql(second.url, STORY, { id: characterId }, token)).data.character.storyline;
      expect(after.generatingChapterId).toBeNull();
      expect(after.totalChapters).toBe(1);
      expect(second.output()).toMatch(/refunded charges whose generation never finished/);
    } finally {
      second.proc.kill('SIGTERM');
      await new Promise((r) => second.proc.once('exit', r));
    }
  });
});
