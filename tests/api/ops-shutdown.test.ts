import { Client } from 'pg';
import { FakeOpenAIServer } from '../../server/src/ai/openai/fake-openai-server';
import { loadConfig } from '../../server/src/config/env';
import { INSTANCE_BOOT_TIMEOUT_MS, startInstance, type Instance } from '../support/cluster';
import { makeCharacter } from '../support/story-fixtures';
import { signUp, startTestApp, type TestApp } from '../support/test-app';
import { waitFor } from '../support/wait';

/**
 * Graceful shutdown (what SIGTERM runs, see index.ts): /readyz turns 503 at once, new chapters are
 * refused, and a chapter being written when the signal came is finished and committed within
 * SHUTDOWN_GRACE_MS before the database closes.
 */
jest.setTimeout(60_000);

const TEXT =
  'Ayla pushed the heavy door open and stepped into the drowned archive. Water dripped from the vaulted ceiling, and somewhere below the tide breathed in and out like a sleeping animal. She followed the line of lanterns to the reading room, where an old keeper waited with folded hands.\n\n"You came," the keeper said. "Then the map is still within reach." Ayla told him what she had found in the flooded stacks: a name, and a warning scratched into a shelf by someone who had not made it out.';
const CHAPTER = {
  text: TEXT,
  choices: ['Descend into the stacks', 'Ask about the warning', 'Wait for low tide'],
  statIncreases: [{ stat: 'wisdom', amount: 1 }],
  newSetting: null,
  missionCompleted: false,
  newMission: null,
};

describe('graceful shutdown', () => {
  let fake: FakeOpenAIServer;
  let t: TestApp;
  let closed = false;
  beforeAll(async () => {
    fake = new FakeOpenAIServer();
    const baseUrl = await fake.start();
    const base = loadConfig({ NODE_ENV: 'test' });
    t = await startTestApp({
      openai: { ...base.openai, apiKey: 'sk-test', baseUrl, timeoutMs: 10_000 },
      ops: { ...base.ops, shutdownGraceMs: 10_000, rateLimit: { perIp: 0, perUser: 0, windowSeconds: 60 } },
    });
  });
  afterAll(async () => {
    if (!closed) await t?.close();
    await fake?.stop();
  });

  it('finishes the chapter in flight, refuses new work while draining, then stops', async () => {
    const p = await signUp(t);
    const c = await makeCharacter(t, p.user.id);
    const other = await makeCharacter(t, p.user.id);
    // No mission call first (the OpenAI provider proposes the first mission in the chapter); the
    // chapter streams for ~1.5 s.
    const json = JSON.stringify(CHAPTER);
    const pieces = Array.from({ length: 30 }, (_, i) => json.slice(Math.floor((i * json.length) / 30), Math.floor(((i + 1) * json.length) / 30)));
    fake.push({ kind: 'sse', pieces, gapMs: 50 });

    const pending = t.gql(
      'mutation($input: GenerateChapterInput!) { generateChapter(input: $input) { newChapter { id text } } }',
      { input: { characterId: c.id } },
      p.accessToken,
    );
    // Wait until the chapter is being written (its first text is persisted), then shut down.
    await waitFor(
      async () => {
        const [row] = await t.app.db.dataSource.query(`SELECT text FROM chapters WHERE character_id = $1 AND status = 'generating'`, [c.id]);
        return row && row.text.length > 0;
      },
      'the chapter to start streaming',
      10_000,
    );
    const closing = t.app.close();
    closed = true;

    const ready = await fetch(`${t.url}/readyz`).catch(() => null);
    // Draining is never "ready": a connection still open answers 503, a new one is refused (the
    // listener closes as HTTP drains). Either way the balancer moves on.
    expect(ready === null ? 'refused' : String(ready.status)).toMatch(/^(refused|503)$/);
    const refused = await t.app.services.stories.generateChapter(p.user.id, { characterId: other.id }).catch((e: { code?: string }) => e);
    expect((refused as { code?: string }).code).toBe('SERVICE_UNAVAILABLE');

    // The answer is only sent after the chapter's commit (the service resolves after its transaction).
    const r = await pending;
    expect(r.errors).toBeUndefined();
    expect(r.data!.generateChapter.newChapter.text).toBe(TEXT);
    await closing;
    if (process.env.DATABASE_URL) {
      // On PostgreSQL the commit is checked from outside, after the app closed its database.
      const pg = new Client({ connectionString: process.env.DATABASE_URL });
      await pg.connect();
      try {
        const { rows } = await pg.query(`SELECT status, is_selected, text FROM chapters WHERE id = $1`, [r.data!.generateChapter.newChapter.id]);
        expect(rows).toEqual([{ status: 'complete', is_selected: true, text: TEXT }]);
      } finally {
        await pg.end();
      }
    }
  });
});

(process.env.DATABASE_URL ? describe : describe.skip)('Ctrl-C while a chapter is written', () => {
  let fake: FakeOpenAIServer;
  let app: Instance;
  let token: string;
  let characterId: string;
  // The process, its player and character: booting is not what is judged here (see INSTANCE_BOOT_TIMEOUT_MS).
  beforeAll(async () => {
    fake = new FakeOpenAIServer();
    const baseUrl = await fake.start();
    app = await startInstance('ctrl-c', {
      DATABASE_URL: process.env.DATABASE_URL!,
      OPENAI_API_KEY: 'sk-test',
      OPENAI_BASE_URL: baseUrl,
      SHUTDOWN_GRACE_MS: '0',
      LOG_LEVEL: 'info',
    });
    const up = await fetch(`${app.url}/api/auth/v1/signup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: `ctrlc.${Date.now()}@example.com`, password: 'correct horse ctrl c', data: { username: 'Ctrl C' } }),
    });
    token = ((await up.json()) as { access_token: string }).access_token;
    const [world] = (await (await fetch(`${app.url}/api/worlds/fetch-world-cards`)).json()) as Array<{ id: string }>;
    const saved = await fetch(`${app.url}/api/profile/insert-characters`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({
        name: 'Ayla Storm',
        world_id: world!.id,
        stats: { strength: 12, agility: 10, endurance: 11, intellect: 14, wisdom: 9, charisma: 13 },
        description: 'A wandering cartographer who maps places nobody else dares to visit.',
        traits: ['curious'],
        strengths: ['maps'],
        weaknesses: ['impatience'],
        special: { name: 'True Bearing', description: 'Always knows the way back.' },
        created_at: new Date().toISOString(),
      }),
    });
    const body = (await saved.json()) as { id?: string; character?: { id: string } };
    characterId = body.id ?? body.character!.id;
  }, INSTANCE_BOOT_TIMEOUT_MS);
  afterAll(async () => {
    await app?.stop('SIGKILL');
    await fake?.stop();
  });

  it('ends the chapter as a failed take the player can retry, and logs it as a warning, not an error', async () => {
    // A chapter that streams for a long time: the signal comes in the middle of it.
    const json = JSON.stringify(CHAPTER);
    fake.push({
      kind: 'sse',
      pieces: Array.from({ length: 200 }, (_, i) => json.slice(Math.floor((i * json.length) / 200), Math.floor(((i + 1) * json.length) / 200))),
      gapMs: 100,
    });
    const before = app.output().length;
    const pending = fetch(`${app.url}/api/stories/generate-chapter`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ characterId, userChoice: '' }),
    }).catch(() => null);
    await waitFor(() => fake.requests.some((r) => r.url.endsWith('/chat/completions') && r.body.stream === true), 'the chapter to start', 10_000);
    await new Promise((r) => setTimeout(r, 300));
    expect(await app.stop('SIGINT')).toBe(0);
    await pending;
    const lines = app
      .output()
      .slice(before)
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as { level: string; msg: string });
    expect(lines.filter((l) => l.level === 'error')).toEqual([]);
    expect(lines.find((l) => /shutdown/.test(l.msg) && /chapter/.test(l.msg))).toMatchObject({ level: 'warn' });
  });
});
