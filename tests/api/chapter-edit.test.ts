import { makeCharacter, scriptedAI, useStoryAI } from '../support/story-fixtures';
import { signUp, startTestApp, type TestApp } from '../support/test-app';

/**
 * Players fix their story (issue 19): the latest chapter's text and any earlier action can be
 * rewritten; the edit is stored, is what the next chapter is written from, and exports mark it.
 */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const EDIT =
  'mutation($c: ID!, $ch: ID!, $input: ChapterEditInput!) { editChapter(characterId: $c, chapterId: $ch, input: $input) { id text playerChoice edited actionEdited } }';

async function story(chapters: number) {
  const p = await signUp(t);
  const c = await makeCharacter(t, p.user.id);
  const ids: string[] = [];
  for (let i = 0; i < chapters; i++) {
    const r = await t.rest('POST', '/api/stories/generate-chapter', { characterId: c.id, userChoice: i === 0 ? '' : `Action number ${i}` }, p.accessToken);
    expect(r.status).toBe(200);
    ids.push((r.body as { newChapter: { id: string } }).newChapter.id);
  }
  return { token: p.accessToken, characterId: c.id, ids };
}

it("the latest chapter's text and an earlier action are rewritten; the next chapter is written from them; exports mark them", async () => {
  const ai = scriptedAI();
  useStoryAI(t, ai);
  const s = await story(3);
  const rewritten = 'The storm broke over the harbour, and Ayla ran for the lighthouse with the map under her coat. '.repeat(3).trim();
  const r = await t.gql(EDIT, { c: s.characterId, ch: s.ids[2], input: { text: `${rewritten} a <3 b` } }, s.token);
  expect(r.errors).toBeUndefined();
  expect(r.data!.editChapter).toMatchObject({ text: `${rewritten} a ‹3 b`, edited: true, actionEdited: false });

  const action = await t.rest(
    'POST',
    '/api/stories/edit-chapter',
    { characterId: s.characterId, chapterId: s.ids[2], playerChoice: 'Climb the sea wall instead' },
    s.token,
  );
  expect(action.status).toBe(200);
  expect(action.body).toMatchObject({ error: null, chapter: { playerChoice: 'Climb the sea wall instead', actionEdited: true, edited: true } });
  // Any earlier action too.
  const earlier = await t.gql(EDIT, { c: s.characterId, ch: s.ids[1], input: { playerChoice: 'Swim for the reef' } }, s.token);
  expect(earlier.data!.editChapter).toMatchObject({ playerChoice: 'Swim for the reef', actionEdited: true, edited: false });

  // The next chapter is written from the edited text and action.
  await t.rest('POST', '/api/stories/generate-chapter', { characterId: s.characterId, userChoice: 'Go on' }, s.token);
  const prompt = ai.calls[ai.calls.length - 1]!;
  expect(prompt.recentChapters.map((c) => c.text)).toContain(`${rewritten} a ‹3 b`);
  expect(prompt.recentChapters.map((c) => c.playerChoice)).toContain('Climb the sea wall instead');

  const md = (await t.rest('GET', `/api/stories/export/${s.characterId}?format=md`, undefined, s.token)).body as string;
  expect(md).toContain('## Chapter 3 *(edited by the player)*');
  expect(md).toContain('> Climb the sea wall instead *(edited)*');
  expect(md).toContain('> Swim for the reef *(edited)*');
  const html = (await t.rest('GET', `/api/stories/export/${s.characterId}?format=html`, undefined, s.token)).body as string;
  expect(html).toContain('<h2>Chapter 3 <small>(edited by the player)</small></h2>');
});

it('refuses what cannot be edited, with a coded error, and changes nothing', async () => {
  const s = await story(2);
  const code = (r: { errors?: Array<{ extensions?: Record<string, unknown> }> }) => r.errors?.[0]?.extensions?.code;
  // An earlier chapter's text: only the latest one's.
  expect(code(await t.gql(EDIT, { c: s.characterId, ch: s.ids[0], input: { text: 'x'.repeat(300) } }, s.token))).toBe('BAD_USER_INPUT');
  // The opening chapter has no action.
  expect(code(await t.gql(EDIT, { c: s.characterId, ch: s.ids[0], input: { playerChoice: 'Something' } }, s.token))).toBe('BAD_USER_INPUT');
  // Markup, emptiness, nothing at all.
  expect(code(await t.gql(EDIT, { c: s.characterId, ch: s.ids[1], input: { text: 'It was <script>alert(1)</script>' } }, s.token))).toBe('BAD_USER_INPUT');
  expect(code(await t.gql(EDIT, { c: s.characterId, ch: s.ids[1], input: { text: '   ' } }, s.token))).toBe('BAD_USER_INPUT');
  expect(code(await t.gql(EDIT, { c: s.characterId, ch: s.ids[1], input: {} }, s.token))).toBe('BAD_USER_INPUT');
  // Someone else's story, or an unknown chapter.
  const stranger = await signUp(t);
  expect(code(await t.gql(EDIT, { c: s.characterId, ch: s.ids[1], input: { text: 'Mine now.' } }, stranger.accessToken))).toBe('NOT_FOUND');
  expect(code(await t.gql(EDIT, { c: s.characterId, ch: '00000000-0000-4000-8000-000000000000', input: { text: 'x' } }, s.token))).toBe('NOT_FOUND');
  const rows = (await t.app.db.dataSource.query(
    `SELECT text_edited_at, choice_edited_at FROM chapters WHERE character_id = $1 AND (text_edited_at IS NOT NULL OR choice_edited_at IS NOT NULL)`,
    [s.characterId],
  )) as unknown[];
  expect(rows).toEqual([]);
});
