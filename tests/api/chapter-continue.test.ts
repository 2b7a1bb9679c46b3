import { chapterMessages } from '../../server/src/ai/openai/prompts';
import { OfflineStoryAI } from '../../server/src/ai/offline/offline-story-ai';
import type { ChapterInput } from '../../server/src/ai/story-ai';
import { makeCharacter, scriptedAI, useStoryAI } from '../support/story-fixtures';
import { signUp, startTestApp, type TestApp } from '../support/test-app';

/**
 * Continue (issue 19): the storyteller goes on with the latest chapter. The continued chapter is a new
 * take — the old text, then the new part — that keeps what the old take did (stats, mission, cast)
 * and adds the continuation's; the old take stays, and switching back or undoing restores exactly.
 */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const CONTINUE = 'mutation($input: RegenerateChapterInput!) { startContinuation(input: $input) { chapterId index take joined } }';
const STORY =
  'query($id: ID!) { character(id: $id) { stats currentMission { objective } storyline { generatingChapterId latestTakes { take } chapters { id index take text choices } } storyCards { name } } }';

type Story = {
  stats: Record<string, number>;
  currentMission: { objective: string } | null;
  storyline: {
    generatingChapterId: string | null;
    latestTakes: Array<{ take: number }>;
    chapters: Array<{ id: string; index: number; take: number; text: string; choices: string[] }>;
  };
  storyCards: Array<{ name: string }>;
};

async function story(token: string, id: string): Promise<Story> {
  for (let i = 0; i < 400; i++) {
    const r = await t.gql(STORY, { id }, token);
    expect(r.errors).toBeUndefined();
    const s = r.data!.character as Story;
    if (!s.storyline.generatingChapterId) return s;
    await new Promise((res) => setTimeout(res, 20));
  }
  throw new Error('the chapter never finished');
}

async function play(token: string, characterId: string, n: number) {
  for (let i = 0; i < n; i++) {
    const r = await t.rest('POST', '/api/stories/generate-chapter', { characterId, userChoice: i === 0 ? '' : `Search the ruins, step ${i}` }, token);
    expect(r.status).toBe(200);
  }
}

it('continues the latest chapter as a new take: old text then the new part; gains, mission and cast kept; the old take comes back exactly', async () => {
  useStoryAI(t, scriptedAI());
  const p = await signUp(t);
  const c = await makeCharacter(t, p.user.id);
  await play(p.accessToken, c.id, 3);
  const before = await story(p.accessToken, c.id);
  const old = before.storyline.chapters.at(-1)!;

  const started = await t.gql(CONTINUE, { input: { characterId: c.id } }, p.accessToken);
  expect(started.errors).toBeUndefined();
  expect(started.data!.startContinuation).toMatchObject({ index: 2, take: 1, joined: false });
  const after = await story(p.accessToken, c.id);
  const continued = after.storyline.chapters.at(-1)!;
  expect(continued).toMatchObject({ index: 2, take: 1 });
  expect(continued.text.startsWith(`${old.text}\n\n`)).toBe(true);
  const more = continued.text.slice(old.text.length + 2);
  expect(more.length).toBeGreaterThan(200);
  // The new part is new prose: none of its sentences repeats the old part's.
  const sentences = (s: string) => s.split(/(?<=[.!?])\s+/).filter((x) => x.length > 30);
  expect(sentences(more).filter((x) => old.text.includes(x))).toEqual([]);
  expect(after.storyline.latestTakes.map((x) => x.take)).toEqual([0, 1]);
  // What the old take gave is kept: no stat went down, the mission did not vanish, no card was lost.
  for (const [k, v] of Object.entries(before.stats)) expect(after.stats[k]).toBeGreaterThanOrEqual(v);
  if (before.currentMission) expect(after.currentMission).not.toBeNull();
  expect(after.storyCards.map((x) => x.name)).toEqual(expect.arrayContaining(before.storyCards.map((x) => x.name)));

  // The old take is one switch away, exactly as it was.
  expect((await t.rest('POST', '/api/stories/select-take', { characterId: c.id, take: 0 }, p.accessToken)).status).toBe(200);
  expect(await story(p.accessToken, c.id)).toEqual({ ...before, storyline: { ...before.storyline, latestTakes: [{ take: 0 }, { take: 1 }] } });

  // REST twin; continuing a continued chapter goes on again.
  expect((await t.rest('POST', '/api/stories/select-take', { characterId: c.id, take: 1 }, p.accessToken)).status).toBe(200);
  const rest = await t.rest('POST', '/api/stories/start-continuation', { characterId: c.id }, p.accessToken);
  expect(rest.status).toBe(200);
  expect(rest.body).toMatchObject({ error: null, index: 2, take: 2 });
  const twice = (await story(p.accessToken, c.id)).storyline.chapters.at(-1)!;
  expect(twice.text.startsWith(`${continued.text}\n\n`)).toBe(true);
});

it('continuing a chapter that completed a mission goes on from there: the mission is not completed a second time', async () => {
  // The offline storyteller ends a mission only by actions about it (and checks may fail them): the
  // fourth chapter here ends one whatever the action; the continuation is the offline storyteller's own.
  const offline = new OfflineStoryAI();
  let n = 0;
  const ai = scriptedAI({
    async *streamChapter(input, opts) {
      const call = n++;
      for await (const ev of offline.streamChapter(input, opts))
        yield ev.type === 'final' && call === 3 && !input.continueFrom
          ? { ...ev, result: { ...ev.result, missionCompleted: true, newMission: 'Find the ferryman who crossed at dusk' } }
          : ev;
    },
  });
  useStoryAI(t, ai);
  const p = await signUp(t);
  const c = await makeCharacter(t, p.user.id);
  // Play until a chapter completes a mission (3–8 chapters a mission).
  let completedAt = -1;
  for (let i = 0; i < 12 && completedAt < 0; i++) {
    const r = await t.rest(
      'POST',
      '/api/stories/generate-chapter',
      { characterId: c.id, userChoice: i === 0 ? '' : `Search the ruins, step ${i}` },
      p.accessToken,
    );
    expect(r.status).toBe(200);
    if ((r.body as { missionCompleted: boolean }).missionCompleted) completedAt = i;
  }
  expect(completedAt).toBeGreaterThan(0);
  const before = await story(p.accessToken, c.id);
  const missions = async () =>
    (await t.app.db.dataSource.query(`SELECT objective, status FROM missions WHERE character_id = $1 ORDER BY started_at, id`, [c.id])) as unknown[];
  const missionsBefore = await missions();
  ai.calls.length = 0;
  await t.rest('POST', '/api/stories/start-continuation', { characterId: c.id }, p.accessToken);
  const after = await story(p.accessToken, c.id);
  // The continuation was written from the state the chapter left: the new mission, not the done one.
  expect(ai.calls[0]!.mission).toBe(before.currentMission?.objective ?? null);
  const old = before.storyline.chapters.at(-1)!.text;
  const more = after.storyline.chapters.at(-1)!.text.slice(old.length + 2);
  const sentences = (s: string) => s.split(/(?<=[.!?])\s+/).filter((x) => x.length > 30);
  expect(sentences(more).filter((x) => old.includes(x))).toEqual([]);
  expect(after.currentMission).toEqual(before.currentMission);
  expect((await missions()).length).toBe(missionsBefore.length);
});

it('the model is given the chapter’s last lines to continue from, and its answer is only the new part', async () => {
  const calls: ChapterInput[] = [];
  const ai = scriptedAI();
  useStoryAI(t, ai);
  const p = await signUp(t);
  const c = await makeCharacter(t, p.user.id);
  await play(p.accessToken, c.id, 2);
  const old = (await story(p.accessToken, c.id)).storyline.chapters.at(-1)!;
  ai.calls.length = 0;
  await t.rest('POST', '/api/stories/start-continuation', { characterId: c.id }, p.accessToken);
  await story(p.accessToken, c.id);
  calls.push(...ai.calls);
  const input = calls[0]!;
  expect(input.continueFrom).toBeTruthy();
  expect(old.text.endsWith(input.continueFrom!)).toBe(true);
  expect(input.action).toBe('Search the ruins, step 1'); // the action the chapter answers
  expect(input.chapterNumber).toBe(2);
  // A remote model is told where the chapter stops and that only the new part is wanted.
  const last = chapterMessages(input).messages.at(-1)!;
  expect(last.role).toBe('user');
  expect(last.content).toContain('CHAPTER 2 SO FAR ENDS WITH:');
  expect(last.content).toContain(input.continueFrom!.slice(-80));
  expect(last.content).toContain('the prose is only the new part');
});

it('refuses what cannot be continued, with a coded error', async () => {
  useStoryAI(t, scriptedAI());
  const p = await signUp(t);
  const c = await makeCharacter(t, p.user.id);
  const code = (r: { errors?: Array<{ extensions?: Record<string, unknown> }> }) => r.errors?.[0]?.extensions?.code;
  expect(code(await t.gql(CONTINUE, { input: { characterId: c.id } }, p.accessToken))).toBe('BAD_USER_INPUT'); // nothing yet
  await play(p.accessToken, c.id, 1);
  const stranger = await signUp(t);
  expect(code(await t.gql(CONTINUE, { input: { characterId: c.id } }, stranger.accessToken))).toBe('NOT_FOUND');
  // A chapter already as long as a chapter can be.
  await t.app.db.dataSource.query(`UPDATE chapters SET text = repeat('The tide rose. ', 500) WHERE character_id = $1`, [c.id]);
  const r = await t.gql(CONTINUE, { input: { characterId: c.id } }, p.accessToken);
  expect(code(r)).toBe('BAD_USER_INPUT');
  expect(r.errors![0]!.message).toBe('This chapter is as long as a chapter can be; play the next one.');
});
