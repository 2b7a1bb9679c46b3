import { makeCharacter } from '../support/story-fixtures';
import { signUp, startTestApp, type TestApp } from '../support/test-app';

/**
 * Streamed regenerate (issue 19): startRegeneration (GraphQL) / POST /api/stories/start-regeneration
 * start a new take of the latest chapter and answer at once; the take is followed like any chapter
 * and, once written, is the selected one, the earlier takes kept.
 */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const TAKES = 'query($id: ID!) { character(id: $id) { storyline { generatingChapterId totalChapters latestTakes { id take } chapters { id take text } } } }';

async function settled(token: string, id: string) {
  for (let i = 0; i < 200; i++) {
    const r = await t.gql(TAKES, { id }, token);
    const s = r.data!.character.storyline;
    if (!s.generatingChapterId)
      return s as { totalChapters: number; latestTakes: Array<{ id: string; take: number }>; chapters: Array<{ id: string; take: number }> };
    await new Promise((res) => setTimeout(res, 25));
  }
  throw new Error('the take never finished');
}

it('GraphQL and REST start a new take at once; it becomes the selected take, the old ones kept', async () => {
  const p = await signUp(t);
  const c = await makeCharacter(t, p.user.id);
  await t.rest('POST', '/api/stories/generate-chapter', { characterId: c.id, userChoice: '' }, p.accessToken);
  await t.rest('POST', '/api/stories/generate-chapter', { characterId: c.id, userChoice: 'Climb the mast' }, p.accessToken);

  const started = await t.gql(
    'mutation($input: RegenerateChapterInput!) { startRegeneration(input: $input) { chapterId index take joined } }',
    { input: { characterId: c.id } },
    p.accessToken,
  );
  expect(started.errors).toBeUndefined();
  expect(started.data!.startRegeneration).toMatchObject({ index: 1, take: 1, joined: false });
  let s = await settled(p.accessToken, c.id);
  expect(s.totalChapters).toBe(2);
  expect(s.latestTakes.map((x) => x.take)).toEqual([0, 1]);
  expect(s.chapters.at(-1)).toMatchObject({ id: started.data!.startRegeneration.chapterId, take: 1 });

  const rest = await t.rest('POST', '/api/stories/start-regeneration', { characterId: c.id }, p.accessToken);
  expect(rest.status).toBe(200);
  expect(rest.body).toMatchObject({ error: null, index: 1, take: 2 });
  s = await settled(p.accessToken, c.id);
  expect(s.latestTakes.map((x) => x.take)).toEqual([0, 1, 2]);
  expect(s.chapters.at(-1)!.take).toBe(2);

  // Nothing to regenerate before the first chapter; someone else's story does not exist.
  const fresh = await makeCharacter(t, p.user.id);
  expect((await t.rest('POST', '/api/stories/start-regeneration', { characterId: fresh.id }, p.accessToken)).status).toBe(400);
  const stranger = await signUp(t);
  expect((await t.rest('POST', '/api/stories/start-regeneration', { characterId: c.id }, stranger.accessToken)).status).toBe(404);
});
