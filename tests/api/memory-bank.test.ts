import { makeCharacter } from '../support/story-fixtures';
import { signUp, startTestApp, type TestApp } from '../support/test-app';

/**
 * The memory bank in Story Memory (issue 30): each chapter leaves memories (the storyteller's record
 * and the player's own action), the player writes, pins, edits and deletes memories, on GraphQL and
 * REST, and nobody else sees any of it.
 */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const MEMORIES = 'query($id: ID!) { character(id: $id) { memories { id kind text pinned chapterNumber source edited } } }';
const ADD = 'mutation($c: ID!, $i: MemoryInput!) { addMemory(characterId: $c, input: $i) { id kind text pinned chapterNumber source } }';
const UPDATE = 'mutation($c: ID!, $id: ID!, $i: MemoryInput!) { updateMemory(characterId: $c, id: $id, input: $i) { id text pinned edited chapterNumber } }';
const DELETE = 'mutation($c: ID!, $id: ID!) { deleteMemory(characterId: $c, id: $id) }';

async function play(token: string, characterId: string, actions: string[]) {
  for (const [i, userChoice] of ['', ...actions].entries()) {
    const r = await t.rest('POST', '/api/stories/generate-chapter', { characterId, userChoice }, token);
    expect([i, r.status]).toEqual([i, 200]);
  }
}

it("each chapter remembers the player's own action; the player writes, pins, edits and forgets memories (GraphQL)", async () => {
  const p = await signUp(t);
  const c = await makeCharacter(t, p.user.id);
  await play(p.accessToken, c.id, ['I hide the brass key under the blue stone by the old well', 'Ask the innkeeper about the bells']);
  const list = async () => (await t.gql(MEMORIES, { id: c.id }, p.accessToken)).data!.character.memories as Array<Record<string, unknown>>;
  const first = await list();
  expect(first.filter((m) => m.source === 'action').map((m) => [m.chapterNumber, m.text])).toEqual([
    [3, 'Ask the innkeeper about the bells'],
    [2, 'I hide the brass key under the blue stone by the old well'],
  ]);

  const added = await t.gql(ADD, { c: c.id, i: { kind: 'promise', text: 'I owe the ferryman two silver coins.', pinned: true } }, p.accessToken);
  expect(added.errors).toBeUndefined();
  expect(added.data!.addMemory).toMatchObject({ kind: 'promise', pinned: true, chapterNumber: null, source: 'player' });
  const key = first.find((m) => String(m.text).includes('brass key'))!;
  const edited = await t.gql(
    UPDATE,
    { c: c.id, id: key.id, i: { text: 'The brass key is under the blue stone by the old well.', pinned: true } },
    p.accessToken,
  );
  expect(edited.data!.updateMemory).toMatchObject({
    text: 'The brass key is under the blue stone by the old well.',
    pinned: true,
    edited: true,
    chapterNumber: 2,
  });
  const now = await list();
  // Pinned first; the player's own before the chapters'.
  expect(now.slice(0, 2).map((m) => m.text)).toEqual(['I owe the ferryman two silver coins.', 'The brass key is under the blue stone by the old well.']);
  expect((await t.gql(DELETE, { c: c.id, id: added.data!.addMemory.id }, p.accessToken)).data!.deleteMemory).toBe(true);
  expect((await list()).map((m) => m.id)).not.toContain(added.data!.addMemory.id);

  // Bad input is refused plainly.
  for (const [i, message] of [
    [{ text: '' }, 'Write the memory first.'],
    [{ text: 'x'.repeat(201) }, 'A memory is at most 200 characters.'],
    [{ text: 'two\nlines' }, 'A memory is one line.'],
  ] as const) {
    const r = await t.gql(ADD, { c: c.id, i }, p.accessToken);
    expect([r.errors?.[0]?.extensions?.code, r.errors?.[0]?.message]).toEqual(['BAD_USER_INPUT', message]);
  }
  expect((await t.gql(ADD, { c: c.id, i: { kind: 'rumour', text: 'x' } }, p.accessToken)).errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
});

it('REST twins, and strangers see and change nothing', async () => {
  const [p, stranger] = [await signUp(t), await signUp(t)];
  const c = await makeCharacter(t, p.user.id);
  const made = await t.rest('POST', '/api/stories/memories', { characterId: c.id, kind: 'place', text: 'The boat is tied at the north pier.' }, p.accessToken);
  expect(made.status).toBe(201);
  const id = made.body.memory.id as string;
  expect((await t.rest('PUT', `/api/stories/memories/${id}`, { characterId: c.id, pinned: true }, p.accessToken)).body.memory).toMatchObject({ pinned: true });
  const listed = await t.rest('GET', `/api/stories/memories/${c.id}?limit=10`, undefined, p.accessToken);
  expect(listed.body.memories).toEqual([expect.objectContaining({ id, kind: 'place', pinned: true, source: 'player' })]);
  expect((await t.rest('GET', `/api/stories/memories/${c.id}?limit=abc`, undefined, p.accessToken)).status).toBe(400);

  expect((await t.rest('GET', `/api/stories/memories/${c.id}`, undefined, stranger.accessToken)).status).toBe(404);
  expect((await t.rest('PUT', `/api/stories/memories/${id}`, { characterId: c.id, text: 'Mine now.' }, stranger.accessToken)).status).toBe(404);
  expect((await t.rest('DELETE', `/api/stories/memories/${id}?characterId=${c.id}`, undefined, stranger.accessToken)).status).toBe(404);
  expect((await t.gql(MEMORIES, { id: c.id }, stranger.accessToken)).errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
  expect((await t.rest('DELETE', `/api/stories/memories/${id}?characterId=${c.id}`, undefined, p.accessToken)).status).toBe(204);
  expect((await t.rest('GET', `/api/stories/memories/${c.id}`, undefined, p.accessToken)).body.memories).toEqual([]);
});
