import { OfflineStoryAI } from '../../server/src/ai/offline/offline-story-ai';
import { makeCharacter, scriptedAI, useStoryAI } from '../support/story-fixtures';
import { signUp, startTestApp, type TestApp } from '../support/test-app';

/**
 * Rewind (issue 19): a story goes back to any earlier chapter with stats, setting, missions and story
 * cards exactly as they were there; the chapters after it stay as a branch the player returns to —
 * every take, under the same ids — and returning sets the newer chapters aside in their turn.
 */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const REWIND = 'mutation($c: ID!, $i: Int!) { rewindStory(characterId: $c, chapterIndex: $i) { id stats storyline { currentChapter } } }';
const BRANCHES = 'query($c: ID!) { character(id: $c) { storyBranches { id fromChapterNumber chapterCount firstAction preview createdAt } } }';
const RESTORE = 'mutation($c: ID!, $b: ID!) { restoreStoryBranch(characterId: $c, branchId: $b) { id storyline { currentChapter } } }';

type Branch = { id: string; fromChapterNumber: number; chapterCount: number; firstAction: string | null; preview: string };
const code = (r: { errors?: Array<{ extensions?: Record<string, unknown> }> }) => r.errors?.[0]?.extensions?.code;

/** Everything a player can see of the story, ids and times included: a rewind must restore it exactly. */
async function state(characterId: string) {
  const ds = t.app.db.dataSource;
  const [character] = (await ds.query(`SELECT stats, current_setting, health, health_max FROM characters WHERE id = $1`, [characterId])) as unknown[];
  const chapters = await ds.query(
    `SELECT id, "index", take, is_selected, text, player_choice, choices, stats_after, check_outcome, stakes FROM chapters WHERE character_id = $1 ORDER BY "index", take`,
    [characterId],
  );
  const missions = await ds.query(
    `SELECT id, objective, status, started_at, started_at_chapter, completed_at, completed_at_chapter FROM missions WHERE character_id = $1 ORDER BY started_at, id`,
    [characterId],
  );
  const cards = await ds.query(
    `SELECT id, kind, name, aliases, description, role, status, pinned, edited, last_seen_index, held, revision FROM story_cards WHERE character_id = $1 ORDER BY name`,
    [characterId],
  );
  return { character, chapters, missions, cards };
}

async function play(token: string, characterId: string, action: string) {
  const r = await t.rest('POST', '/api/stories/generate-chapter', { characterId, userChoice: action }, token);
  expect(r.status).toBe(200);
}

async function branches(token: string, characterId: string): Promise<Branch[]> {
  const r = await t.gql(BRANCHES, { c: characterId }, token);
  expect(r.errors).toBeUndefined();
  return (r.data as { character: { storyBranches: Branch[] } }).character.storyBranches;
}

it('rewinds to an earlier chapter exactly, and returns to the branch (every take, same ids), setting the newer chapters aside', async () => {
  // The offline storyteller ends a mission only by actions about it; here the fourth chapter ends
  // one whatever the action, so the rewind always has a completed mission to restore.
  const offline = new OfflineStoryAI();
  let calls = 0;
  useStoryAI(
    t,
    scriptedAI({
      async *streamChapter(input, opts) {
        const n = calls++;
        for await (const ev of offline.streamChapter(input, opts))
          yield ev.type === 'final' && n === 3
            ? { ...ev, result: { ...ev.result, missionCompleted: true, newMission: 'Find the ferryman who crossed at dusk' } }
            : ev;
      },
    }),
  );
  const p = await signUp(t);
  const c = await makeCharacter(t, p.user.id);
  const at: Array<Awaited<ReturnType<typeof state>>> = [];
  for (let i = 0; i < 8; i++) {
    await play(p.accessToken, c.id, i === 0 ? '' : `Action number ${i}`);
    at.push(await state(c.id));
  }
  // A second take of the latest chapter, the first one chosen again: both must survive the branch.
  expect((await t.rest('POST', '/api/stories/regenerate-chapter', { characterId: c.id }, p.accessToken)).status).toBe(200);
  expect((await t.rest('POST', '/api/stories/select-take', { characterId: c.id, take: 0 }, p.accessToken)).status).toBe(200);
  const full = await state(c.id);
  expect(full.missions.length).toBeGreaterThan(1); // the story completed a mission on the way: rewind has missions to restore
  expect(full.cards.length).toBeGreaterThan(0);

  const r = await t.gql(REWIND, { c: c.id, i: 3 }, p.accessToken);
  expect(r.errors).toBeUndefined();
  expect(r.data).toMatchObject({ rewindStory: { storyline: { currentChapter: 3 } } });
  expect(await state(c.id)).toEqual(at[3]);
  const [branch, ...none] = await branches(p.accessToken, c.id);
  expect(none).toEqual([]);
  expect(branch).toMatchObject({ fromChapterNumber: 4, chapterCount: 4, firstAction: 'Action number 4' });
  expect(branch!.preview.length).toBeGreaterThan(20);

  // The story goes on another way; a card the player edits meanwhile keeps the player's text.
  await play(p.accessToken, c.id, 'Turn back to the gate');
  await play(p.accessToken, c.id, 'Call for the guards');
  const other = await state(c.id);

  const restored = await t.rest('POST', '/api/stories/restore-branch', { characterId: c.id, branchId: branch!.id }, p.accessToken);
  expect(restored.status).toBe(200);
  expect(restored.body).toMatchObject({ error: null, updatedStats: (full.character as { stats: unknown }).stats });
  expect(await state(c.id)).toEqual(full);

  // The other way is a branch now, and returning to it is just as exact.
  const listed = await t.rest('GET', `/api/stories/branches/${c.id}`, undefined, p.accessToken);
  expect(listed.body).toMatchObject({ error: null, branches: [{ fromChapter: 4, chapterCount: 2, firstAction: 'Turn back to the gate' }] });
  const back = await t.gql(RESTORE, { c: c.id, b: (listed.body as { branches: Array<{ id: string }> }).branches[0]!.id }, p.accessToken);
  expect(back.errors).toBeUndefined();
  expect(await state(c.id)).toEqual(other);
  expect(await branches(p.accessToken, c.id)).toEqual([expect.objectContaining({ fromChapterNumber: 4, chapterCount: 4 })]);
});

it("a card the player edited after the rewind keeps the player's text when the branch comes back", async () => {
  const p = await signUp(t);
  const c = await makeCharacter(t, p.user.id);
  for (let i = 0; i < 6; i++) await play(p.accessToken, c.id, i === 0 ? '' : `Action number ${i}`);
  expect((await t.gql(REWIND, { c: c.id, i: 1 }, p.accessToken)).errors).toBeUndefined();
  const cards = (await t.app.db.dataSource.query(`SELECT id FROM story_cards WHERE character_id = $1 ORDER BY name`, [c.id])) as Array<{ id: string }>;
  const card = cards[0]!;
  expect(card).toBeDefined(); // the opening chapters' cast made cards
  {
    const edit = await t.gql(
      'mutation($id: ID!) { updateStoryCard(id: $id, input: { description: "Written by the player." }) { id } }',
      { id: card.id },
      p.accessToken,
    );
    expect(edit.errors).toBeUndefined();
  }
  const [branch] = await branches(p.accessToken, c.id);
  expect((await t.gql(RESTORE, { c: c.id, b: branch!.id }, p.accessToken)).errors).toBeUndefined();
  {
    const [row] = (await t.app.db.dataSource.query(`SELECT description FROM story_cards WHERE id = $1`, [card.id])) as Array<{ description: string }>;
    expect(row?.description).toBe('Written by the player.');
  }
  const [n] = (await t.app.db.dataSource.query(`SELECT COUNT(*)::int AS n FROM chapters WHERE character_id = $1 AND is_selected`, [c.id])) as Array<{
    n: number;
  }>;
  expect(n!.n).toBe(6);
});

it('refuses what cannot be rewound or restored, with a coded error, and changes nothing', async () => {
  const p = await signUp(t);
  const c = await makeCharacter(t, p.user.id);
  for (let i = 0; i < 4; i++) await play(p.accessToken, c.id, i === 0 ? '' : `Action number ${i}`);
  const before = await state(c.id);
  expect(code(await t.gql(REWIND, { c: c.id, i: 3 }, p.accessToken))).toBe('BAD_USER_INPUT'); // already the latest
  expect(code(await t.gql(REWIND, { c: c.id, i: 9 }, p.accessToken))).toBe('BAD_USER_INPUT');
  expect(code(await t.gql(REWIND, { c: c.id, i: -1 }, p.accessToken))).toBe('BAD_USER_INPUT');
  const stranger = await signUp(t);
  expect(code(await t.gql(REWIND, { c: c.id, i: 1 }, stranger.accessToken))).toBe('NOT_FOUND');
  expect((await t.rest('POST', '/api/stories/rewind', { characterId: c.id, chapterIndex: '1' }, p.accessToken)).status).toBe(400);
  expect(await state(c.id)).toEqual(before);

  // A branch that grew from another take of its chapter waits until that take is chosen again.
  expect((await t.gql(REWIND, { c: c.id, i: 2 }, p.accessToken)).errors).toBeUndefined();
  const [branch] = await branches(p.accessToken, c.id);
  expect(code(await t.gql(RESTORE, { c: c.id, b: branch!.id }, stranger.accessToken))).toBe('NOT_FOUND');
  expect((await t.rest('POST', '/api/stories/regenerate-chapter', { characterId: c.id }, p.accessToken)).status).toBe(200);
  const r = await t.gql(RESTORE, { c: c.id, b: branch!.id }, p.accessToken);
  expect(code(r)).toBe('BAD_USER_INPUT');
  expect(r.errors![0]!.message).toMatch(/another version of chapter 3/);
  expect((await t.rest('POST', '/api/stories/select-take', { characterId: c.id, take: 0 }, p.accessToken)).status).toBe(200);
  expect((await t.gql(RESTORE, { c: c.id, b: branch!.id }, p.accessToken)).errors).toBeUndefined();
  expect(await state(c.id)).toEqual({ ...before, chapters: expect.any(Array) });

  // Undoing the chapter a branch continues removes the branch: what it continued is gone.
  expect((await t.gql(REWIND, { c: c.id, i: 1 }, p.accessToken)).errors).toBeUndefined();
  expect(await branches(p.accessToken, c.id)).toHaveLength(1);
  expect((await t.rest('POST', '/api/stories/undo-chapter', { characterId: c.id }, p.accessToken)).status).toBe(200);
  expect(await branches(p.accessToken, c.id)).toEqual([]);
});
