import type { FakeOpenAIServer } from '../../server/src/ai/openai/fake-openai-server';
import { chapterAnswer } from '../../server/src/ai/openai/fake-openai-server';
import { MemoryBank, memoryQuery } from '../../server/src/modules/stories/memory/memory-bank';
import { makeCharacter } from '../support/story-fixtures';
import { signUp, startWithFakeModel, type TestApp } from '../support/test-app';

/**
 * The memory bank with an embeddings model (EMBEDDINGS_MODEL, an OpenAI-compatible /embeddings):
 * a memory that shares no word with the action is still found by meaning and reaches the prompt;
 * every memory gets a vector after its chapter is stored, a rewritten one a new vector, a forgotten
 * one none; when the embeddings server fails, chapters go on with full-text search.
 */
jest.setTimeout(60_000);

/**
 * The tests' model of meaning: words of one idea share a dimension (a key opens a vault, a well is
 * water and stone), every other word of four letters or more gets a small dimension by hash.
 */
const IDEAS = [
  ['key', 'keys', 'lock', 'unlock', 'unlocks', 'vault', 'opens', 'latch'],
  ['well', 'stone', 'water', 'spring'],
  ['bell', 'bells', 'ring', 'rang', 'chime'],
  ['boat', 'ship', 'harbour', 'ferry', 'oars'],
];
function meaning(text: string): number[] {
  const v = new Array<number>(IDEAS.length + 28).fill(0);
  for (const w of text.toLowerCase().match(/[a-z]+/g) ?? []) {
    const idea = IDEAS.findIndex((words) => words.includes(w));
    if (idea >= 0) v[idea]! += 1;
    else if (w.length > 3) {
      let h = 0;
      for (const ch of w) h = (h * 31 + ch.charCodeAt(0)) >>> 0;
      v[IDEAS.length + (h % 28)]! += 0.15;
    }
  }
  return v;
}

const KEY_MEMORY = 'The brass key went under the blue stone by the old well.';
const CHAPTERS: Array<{ action: string; memory: string }> = [
  { action: '', memory: KEY_MEMORY },
  { action: 'Walk to the market square', memory: 'The bells of the drowned chapel rang at noon.' },
  { action: 'Talk to the fishmonger', memory: 'A ferry leaves the harbour every third morning.' },
  { action: 'Buy bread and cheese', memory: 'Old Tamsin sells bread at the corner of Rope Lane.' },
  { action: 'Sleep at the inn', memory: 'The innkeeper owes the hero a favour.' },
];
const ASK = 'Where did I leave the thing that unlocks the vault?';

function prose(n: number): string {
  const line = `Grey light lay over the rooftops in part ${n}, and the gulls argued over scraps while carts rattled past the shuttered shops.`;
  return `${line} ${line}\n\n${line} ${line}`;
}

let t: TestApp;
let fake: FakeOpenAIServer;
beforeAll(async () => {
  ({ t, fake } = await startWithFakeModel({}, { embeddingsModel: 'fake-embed' }));
});
afterAll(async () => {
  await t.close();
  await fake.stop();
});

function serve(memoryOf: (n: number) => string | null) {
  fake.embed = meaning;
  fake.respond = (body) => {
    if (!body.stream) return null;
    const messages = body.messages as Array<{ content: string }>;
    const n = Number(/CHAPTER (\d+):/.exec(messages[messages.length - 1]!.content)?.[1] ?? 0);
    const memory = memoryOf(n);
    return {
      kind: 'sse',
      pieces: [chapterAnswer({ text: prose(n), choices: ['Go on', 'Turn back', 'Wait'], memories: memory ? [{ kind: 'fact', text: memory }] : [] })],
    };
  };
}

const vectors = async (characterId: string) =>
  (await t.app.db.dataSource.query(`SELECT memory_id::text AS id, model, digest FROM memory_embeddings WHERE character_id = $1`, [characterId])) as Array<{
    id: string;
    model: string;
    digest: string;
  }>;

it('finds a memory by meaning when it shares no word with the action, and keeps the vectors in step with the memories', async () => {
  serve((n) => CHAPTERS[n - 1]?.memory ?? null);
  const p = await signUp(t);
  const c = await makeCharacter(t, p.user.id);
  for (const ch of CHAPTERS) {
    const r = await t.rest('POST', '/api/stories/generate-chapter', { characterId: c.id, userChoice: ch.action }, p.accessToken);
    expect(r.status).toBe(200);
    await t.app.services.stories.idle();
  }
  // Every memory of the story has its vector (the storyteller's five and the player's four actions).
  const bank = (await t.rest('GET', `/api/stories/memories/${c.id}`, undefined, p.accessToken)).body.memories as Array<{ id: string; text: string }>;
  expect(bank).toHaveLength(9);
  expect((await vectors(c.id)).map((v) => v.id).sort()).toEqual(bank.map((m) => m.id).sort());
  expect((await vectors(c.id)).every((v) => v.model === 'fake-embed')).toBe(true);
  const embedCalls = fake.requests.filter((r) => r.url.endsWith('/embeddings'));
  expect(embedCalls.every((r) => r.body.model === 'fake-embed')).toBe(true);

  // Full-text search alone cannot find it: not one word of the question is in the memory.
  const byWords = await new MemoryBank(t.app.db.dataSource).retrieve(c.id, CHAPTERS.length, memoryQuery([ASK]));
  expect(byWords.map((m) => m.text)).not.toContain(KEY_MEMORY);

  fake.requests.length = 0;
  const r = await t.rest('POST', '/api/stories/generate-chapter', { characterId: c.id, userChoice: ASK }, p.accessToken);
  expect(r.status).toBe(200);
  await t.app.services.stories.idle();
  const chapter = fake.requests.find((q) => q.body.stream === true)!;
  const sent = JSON.stringify(chapter.body.messages);
  expect(sent).toMatch(/MEMORIES[^"]*brass key went under the blue stone/);
  // The question was embedded before the chapter was asked for.
  const question = fake.requests.findIndex((q) => q.url.endsWith('/embeddings') && JSON.stringify(q.body.input).includes('unlocks the vault'));
  expect(question).toBeGreaterThanOrEqual(0);
  expect(question).toBeLessThan(fake.requests.indexOf(chapter));

  // A rewritten memory is embedded again; a forgotten one loses its vector.
  const key = bank.find((m) => m.text === KEY_MEMORY)!;
  const before = (await vectors(c.id)).find((v) => v.id === key.id)!.digest;
  expect(
    (await t.rest('PUT', `/api/stories/memories/${key.id}`, { characterId: c.id, text: 'The brass key is now in the chapel crypt.' }, p.accessToken)).status,
  ).toBe(200);
  await t.app.services.stories.idle();
  expect((await vectors(c.id)).find((v) => v.id === key.id)!.digest).not.toBe(before);
  expect((await t.rest('DELETE', `/api/stories/memories/${key.id}?characterId=${c.id}`, undefined, p.accessToken)).status).toBe(204);
  expect((await vectors(c.id)).some((v) => v.id === key.id)).toBe(false);
  // An undone chapter's memories lose theirs at the next catch-up.
  const last = (await t.rest('GET', `/api/stories/memories/${c.id}`, undefined, p.accessToken)).body.memories as Array<{ id: string; text: string }>;
  const asked = last.find((m) => m.text === ASK)!;
  expect((await t.gql('mutation($id: ID!) { undoLastChapter(characterId: $id) { id } }', { id: c.id }, p.accessToken)).errors).toBeUndefined();
  await t.rest('POST', '/api/stories/memories', { characterId: c.id, kind: 'fact', text: 'The vault is under the mill.' }, p.accessToken);
  await t.app.services.stories.idle();
  const now = await vectors(c.id);
  expect(now.some((v) => v.id === asked.id)).toBe(false);
  const own = (await t.rest('GET', `/api/stories/memories/${c.id}?search=mill`, undefined, p.accessToken)).body.memories as Array<{ id: string }>;
  expect(now.some((v) => v.id === own[0]!.id)).toBe(true);
});

it('goes on with full-text search when the embeddings server fails', async () => {
  serve(() => 'The lantern hangs by the door.');
  fake.embedFails = true;
  const p = await signUp(t);
  const c = await makeCharacter(t, p.user.id);
  for (const action of ['', 'Take the lantern from beside the door']) {
    const r = await t.rest('POST', '/api/stories/generate-chapter', { characterId: c.id, userChoice: action }, p.accessToken);
    expect(r.status).toBe(200);
    await t.app.services.stories.idle();
  }
  expect(JSON.stringify(fake.requests.filter((q) => q.body.stream === true).at(-1)!.body.messages)).toContain('The lantern hangs by the door.');
  expect(await vectors(c.id)).toEqual([]);
  // Back up: the next chapter's catch-up embeds what was missed.
  fake.embedFails = false;
  expect((await t.rest('POST', '/api/stories/generate-chapter', { characterId: c.id, userChoice: 'Light it' }, p.accessToken)).status).toBe(200);
  await t.app.services.stories.idle();
  expect((await vectors(c.id)).length).toBe(
    ((await t.rest('GET', `/api/stories/memories/${c.id}`, undefined, p.accessToken)).body.memories as unknown[]).length,
  );
});
