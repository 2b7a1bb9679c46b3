/**
 * The story engine over GraphQL and REST against a real database: generating chapters (the SPEC's
 * fields), input, ownership and rate limits, failures that leave the story untouched, missions and
 * their effects, takes and undo, story memory, no model call before the first word, long stories
 * folded into the rolling summary, immersive styles and the export.
 */
import { DEFAULT_STYLES } from '../../server/src/ai/style-guard';
import { AppError } from '../../server/src/common/app-error';
import { Chapter } from '../../server/src/modules/stories/chapter.entity';
import { Mission } from '../../server/src/modules/stories/missions/mission.entity';
import { BASE_STATS, makeCharacter, scriptedAI, useStoryAI } from '../support/story-fixtures';
import { signUp, startTestApp, type TestApp } from '../support/test-app';

/** Storylines over GraphQL and the SPEC §7 REST paths: generation, missions, stats, reads, validation. */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const GENERATE = /* GraphQL */ `
  mutation Gen($input: GenerateChapterInput!) {
    generateChapter(input: $input) {
      newChapter {
        id
        index
        take
        text
        playerChoice
        choices
        setting
        statIncreases
      }
      updatedStats
      newIncreases
      newSettingGenerated
      settingText
      missionCompleted
      newMission {
        id
        objective
        status
        startedAt
      }
    }
  }
`;

const STORYLINE = /* GraphQL */ `
  query Story($id: ID!, $limit: Int, $before: Int) {
    character(id: $id) {
      id
      stats
      currentSetting
      storyline(limit: $limit, beforeIndex: $before) {
        currentChapter
        currentSetting
        totalChapters
        hasOlder
        chapters {
          index
          text
          playerChoice
          choices
        }
        latestTakes {
          take
        }
        generatingChapterId
      }
      missionHistory {
        objective
        status
        startedAt
      }
      currentMission {
        objective
      }
    }
  }
`;

async function player() {
  const s = await signUp(t);
  const c = await makeCharacter(t, s.user.id);
  return { token: s.accessToken, userId: s.user.id, characterId: c.id };
}

describe('generate chapter', () => {
  it('REST: the first chapter answers with the SPEC fields, starts a mission and raises stats from the stored character', async () => {
    useStoryAI(t, scriptedAI());
    const p = await player();
    const r = await t.rest('POST', '/api/stories/generate-chapter', { characterId: p.characterId, userChoice: '', readingLevel: 8 }, p.token);
    expect(r.status).toBe(200);
    const b = r.body;
    expect(b.error).toBeNull();
    expect(Object.keys(b)).toEqual(
      expect.arrayContaining([
        'error',
        'newChapter',
        'updatedStats',
        'newIncreases',
        'updatedCurrentCharacters',
        'newSettingGenerated',
        'settingText',
        'newMission',
      ]),
    );
    expect(b.newChapter).toMatchObject({ index: 0, take: 0, playerChoice: null });
    expect(b.newChapter.text.length).toBeGreaterThan(200);
    expect(b.newChapter.choices.length).toBeGreaterThanOrEqual(3);
    // Stats: every increase is real and the sheet is the old one plus the increases.
    for (const [k, v] of Object.entries(b.newIncreases as Record<string, number>))
      expect(b.updatedStats[k]).toBe((BASE_STATS as Record<string, number>)[k]! + v);
    expect(Object.keys(b.updatedStats).sort()).toEqual(Object.keys(BASE_STATS).sort());
    // No mission before the first chapter: one was generated first and is active.
    expect(b.newMission).toMatchObject({ status: 'active' });
    expect(typeof b.newMission.objective).toBe('string');

    const ds = t.app.db.dataSource;
    const stored = await ds.getRepository(Chapter).findOneByOrFail({ id: b.newChapter.id });
    expect(stored).toMatchObject({
      status: 'complete',
      isSelected: true,
      text: b.newChapter.text,
      statIncreases: b.newIncreases,
      statsAfter: b.updatedStats,
      statsBefore: BASE_STATS,
    });
    const missions = await ds.getRepository(Mission).findBy({ characterId: p.characterId });
    expect(missions.map((m) => [m.objective, m.status])).toEqual([[b.newMission.objective, 'active']]);
  });

  it('GraphQL: chapters follow the chosen action; the storyline reads back paginated with the mission history', async () => {
    useStoryAI(t, scriptedAI());
    const p = await player();
    const first = await t.gql(GENERATE, { input: { characterId: p.characterId } }, p.token);
    expect(first.errors).toBeUndefined();
    let choice = first.data!.generateChapter.newChapter.choices[1];
    for (let i = 1; i < 4; i++) {
      const r = await t.gql(GENERATE, { input: { characterId: p.characterId, userChoice: `  ${choice}  `, expectedIndex: i } }, p.token);
      expect(r.errors).toBeUndefined();
      expect(r.data!.generateChapter.newChapter).toMatchObject({ index: i, playerChoice: choice });
      choice = r.data!.generateChapter.newChapter.choices[0];
    }
    const all = await t.gql(STORYLINE, { id: p.characterId }, p.token);
    expect(all.errors).toBeUndefined();
    const s = all.data!.character.storyline;
    expect(s).toMatchObject({ currentChapter: 3, totalChapters: 4, hasOlder: false, generatingChapterId: null });
    expect(s.chapters.map((c: { index: number }) => c.index)).toEqual([0, 1, 2, 3]);
    expect(all.data!.character.missionHistory.length).toBeGreaterThanOrEqual(1);
    expect(all.data!.character.currentMission).not.toBeNull();

    const page = await t.gql(STORYLINE, { id: p.characterId, limit: 2 }, p.token);
    expect(page.data!.character.storyline.chapters.map((c: { index: number }) => c.index)).toEqual([2, 3]);
    expect(page.data!.character.storyline.hasOlder).toBe(true);
    const older = await t.gql(STORYLINE, { id: p.characterId, limit: 2, before: 2 }, p.token);
    expect(older.data!.character.storyline.chapters.map((c: { index: number }) => c.index)).toEqual([0, 1]);
    expect(older.data!.character.storyline.hasOlder).toBe(false);

    const rest = await t.rest('GET', `/api/stories/storyline/${p.characterId}?limit=3`, undefined, p.token);
    expect(rest.status).toBe(200);
    expect(rest.body.storyline).toMatchObject({ current_chapter: 3, total_chapters: 4 });
    expect(rest.body.storyline.chapters.map((c: { index: number }) => c.index)).toEqual([1, 2, 3]);
    expect(rest.body.mission_history[0]).toEqual(
      expect.objectContaining({ objective: expect.any(String), status: expect.any(String), startedAt: expect.any(String) }),
    );
  });
});

// ---------------------------------------------------------------------------------------------

/** Rewrites the final result of each streamed chapter (call number → patch). */
function patchedAI(patch: (callNo: number) => Record<string, unknown>, extra: Parameters<typeof scriptedAI>[0] = {}) {
  const base = scriptedAI();
  let n = 0;
  return scriptedAI({
    ...extra,
    async *streamChapter(input, opts) {
      const p = patch(n++);
      for await (const ev of base.streamChapter(input, opts)) {
        yield ev.type === 'final' ? { ...ev, result: { ...ev.result, ...p } } : ev;
      }
    },
  });
}

/** Everything a chapter may change, with ids and times, for exact before/after comparisons. */
async function snapshot(characterId: string) {
  const ds = t.app.db.dataSource;
  const [c] = await ds.query(`SELECT stats, current_setting, health, health_max FROM characters WHERE id = $1`, [characterId]);
  const missions = await ds.query(
    `SELECT id, objective, status, started_at, completed_at, started_at_chapter, completed_at_chapter FROM missions WHERE character_id = $1 ORDER BY started_at, id`,
    [characterId],
  );
  const chapters = await ds.query(`SELECT id, "index", take, text FROM chapters WHERE character_id = $1 AND is_selected ORDER BY "index"`, [characterId]);
  return JSON.parse(JSON.stringify({ c, missions, chapters }));
}

const code = (r: { errors?: Array<{ extensions?: { code?: string } }> }) => r.errors?.[0]?.extensions?.code;

describe('input, ownership and limits', () => {
  it('a blank or too long action is BAD_USER_INPUT on both surfaces (blank is allowed only to open the story)', async () => {
    useStoryAI(t, scriptedAI());
    const p = await player();
    expect(code(await t.gql(GENERATE, { input: { characterId: p.characterId, userChoice: '' } }, p.token))).toBeUndefined();
    for (const userChoice of ['', '   ', null, 'x'.repeat(501)]) {
      expect(code(await t.gql(GENERATE, { input: { characterId: p.characterId, userChoice } }, p.token))).toBe('BAD_USER_INPUT');
    }
    const rest = await t.rest('POST', '/api/stories/generate-chapter', { characterId: p.characterId, userChoice: 'y'.repeat(501) }, p.token);
    expect(rest.status).toBe(400);
    expect(rest.body).toMatchObject({ code: 'BAD_USER_INPUT', error: expect.stringContaining('500') });
    expect(code(await t.gql(GENERATE, { input: { characterId: p.characterId, userChoice: 'Run', readingLevel: 13 } }, p.token))).toBe('BAD_USER_INPUT');
    // 500 characters exactly is fine.
    expect(code(await t.gql(GENERATE, { input: { characterId: p.characterId, userChoice: 'z'.repeat(500) } }, p.token))).toBeUndefined();
    expect(await t.app.db.dataSource.getRepository(Chapter).countBy({ characterId: p.characterId, isSelected: true })).toBe(2);
  });

  it("a stranger's character is NOT_FOUND everywhere, and nothing is written", async () => {
    useStoryAI(t, scriptedAI());
    const p = await player();
    const stranger = await signUp(t);
    const id = p.characterId;
    expect(code(await t.gql(GENERATE, { input: { characterId: id } }, stranger.accessToken))).toBe('NOT_FOUND');
    expect(code(await t.gql(GENERATE, { input: { characterId: 'not-a-uuid' } }, stranger.accessToken))).toBe('NOT_FOUND');
    expect(code(await t.gql(`mutation { undoLastChapter(characterId: "${id}") { id } }`, {}, stranger.accessToken))).toBe('NOT_FOUND');
    expect(code(await t.gql(`query { exportStory(characterId: "${id}", format: md) { content } }`, {}, stranger.accessToken))).toBe('NOT_FOUND');
    for (const [method, path, body] of [
      ['POST', '/api/stories/generate-chapter', { characterId: id }],
      ['POST', '/api/stories/update-mission', { characterId: id, updatedMission: 'Steal it' }],
      ['POST', '/api/stories/update-mission-history', { characterId: id, missionHistory: [] }],
      ['POST', '/api/stories/undo-chapter', { characterId: id }],
      ['GET', `/api/stories/storyline/${id}`, undefined],
      ['GET', `/api/stories/export/${id}?format=html`, undefined],
    ] as const) {
      const r = await t.rest(method, path, body, stranger.accessToken);
      expect([path, r.status, r.body.code]).toEqual([path, 404, 'NOT_FOUND']);
    }
    expect((await t.rest('POST', '/api/stories/generate-chapter', { characterId: id })).status).toBe(401);
    expect(await t.app.db.dataSource.getRepository(Chapter).countBy({ characterId: id })).toBe(0);
  });

  it('generation is rate-limited per player (RATE_LIMITED, 429 with Retry-After)', async () => {
    const limited = await startTestApp({ generationRateLimit: { perUserPerWindow: 2, windowSeconds: 60 } });
    try {
      const s = await signUp(limited);
      const c = await makeCharacter(limited, s.user.id);
      const o = await signUp(limited);
      const other = await makeCharacter(limited, o.user.id);
      expect((await limited.rest('POST', '/api/stories/generate-chapter', { characterId: c.id }, s.accessToken)).status).toBe(200);
      expect((await limited.rest('POST', '/api/stories/generate-chapter', { characterId: c.id, userChoice: 'Go on' }, s.accessToken)).status).toBe(200);
      const third = await limited.rest('POST', '/api/stories/generate-chapter', { characterId: c.id, userChoice: 'Go on again' }, s.accessToken);
      expect(third.status).toBe(429);
      expect(third.body.code).toBe('RATE_LIMITED');
      expect(third.headers.get('retry-after')).toMatch(/^\d+$/);
      const gq = await limited.gql(GENERATE, { input: { characterId: c.id, userChoice: 'Once more' } }, s.accessToken);
      expect(code(gq)).toBe('RATE_LIMITED');
      // Per player: someone else still plays.
      expect((await limited.rest('POST', '/api/stories/generate-chapter', { characterId: other.id }, o.accessToken)).status).toBe(200);
    } finally {
      await limited.close();
    }
  });
});

describe('failures leave the storyline exactly as it was', () => {
  it('a generation that fails mid-stream: coded GENERATION_FAILED, REST error set, nothing of it in the story', async () => {
    useStoryAI(t, scriptedAI());
    const p = await player();
    const ok = await t.rest('POST', '/api/stories/generate-chapter', { characterId: p.characterId }, p.token);
    expect(ok.status).toBe(200);
    const before = await snapshot(p.characterId);

    const base = scriptedAI();
    useStoryAI(
      t,
      scriptedAI({
        async *streamChapter(input) {
          let n = 0;
          for await (const ev of base.streamChapter(input)) {
            if (ev.type === 'delta' && n++ === 3) throw new Error('upstream model connection reset');
            yield ev;
          }
        },
      }),
    );
    const failed = await t.rest('POST', '/api/stories/generate-chapter', { characterId: p.characterId, userChoice: ok.body.newChapter.choices[0] }, p.token);
    expect(failed.status).toBe(502);
    expect(failed.body).toMatchObject({ code: 'GENERATION_FAILED', error: expect.any(String) });
    expect(failed.body.error.length).toBeGreaterThan(0);
    const gq = await t.gql(GENERATE, { input: { characterId: p.characterId, userChoice: 'Try again' } }, p.token);
    expect(code(gq)).toBe('GENERATION_FAILED');

    expect(await snapshot(p.characterId)).toEqual(before);
    const rows = await t.app.db.dataSource.getRepository(Chapter).findBy({ characterId: p.characterId });
    for (const r of rows.filter((r) => r.index > 0)) expect([r.status, r.isSelected, r.text]).toEqual(['failed', false, '']);

    // The character is not stuck: the next attempt works and continues from chapter 0.
    useStoryAI(t, scriptedAI());
    const next = await t.rest('POST', '/api/stories/generate-chapter', { characterId: p.characterId, userChoice: 'Try again' }, p.token);
    expect(next.status).toBe(200);
    expect(next.body.newChapter.index).toBe(1);
  });

  it('an invalid model answer (schema violation) fails the same way', async () => {
    const base = scriptedAI();
    useStoryAI(
      t,
      scriptedAI({
        async *streamChapter(input) {
          for await (const ev of base.streamChapter(input)) {
            if (ev.type === 'final') throw new AppError('GENERATION_FAILED', 'model answer failed validation');
            yield ev;
          }
        },
      }),
    );
    const p = await player();
    const before = await snapshot(p.characterId);
    const r = await t.rest('POST', '/api/stories/generate-chapter', { characterId: p.characterId }, p.token);
    expect(r.status).toBe(502);
    expect(r.body.code).toBe('GENERATION_FAILED');
    expect(await snapshot(p.characterId)).toEqual(before);
  });
});

describe('missions', () => {
  it('lifecycle: mission failure → story goes on without; then generated; edited; completed and replaced by a chapter; history replaced', async () => {
    const brokenMissions = patchedAI(() => ({ missionCompleted: false, newMission: null }), {
      generateMission: async () => {
        throw new Error('mission model down');
      },
    });
    useStoryAI(t, brokenMissions);
    const p = await player();
    const c0 = await t.rest('POST', '/api/stories/generate-chapter', { characterId: p.characterId }, p.token);
    expect(c0.status).toBe(200);
    expect(c0.body.newMission).toBeNull();
    expect(brokenMissions.calls[0]!.mission).toBeNull();
    expect(await t.app.db.dataSource.getRepository(Mission).countBy({ characterId: p.characterId })).toBe(0);

    // Next chapter: no mission yet → one is generated first and given to the storyteller.
    const working = patchedAI(() => ({ missionCompleted: false, newMission: null }));
    useStoryAI(t, working);
    const c1 = await t.rest('POST', '/api/stories/generate-chapter', { characterId: p.characterId, userChoice: c0.body.newChapter.choices[0] }, p.token);
    expect(c1.body.newMission).toMatchObject({ status: 'active' });
    expect(working.calls[0]!.mission).toBe(c1.body.newMission.objective);

    // update-mission edits the objective of the current mission.
    const edit = await t.rest(
      'POST',
      '/api/stories/update-mission',
      { characterId: p.characterId, missionHistory: [], updatedMission: { objective: '  Find the lighthouse keeper  ' } },
      p.token,
    );
    expect(edit.status).toBe(200);
    expect(edit.body).toMatchObject({ error: null, updatedMission: { objective: 'Find the lighthouse keeper', status: 'active' } });
    expect(edit.body.updatedMissionHistory).toHaveLength(1);
    expect((await t.rest('POST', '/api/stories/update-mission', { characterId: p.characterId, updatedMission: '   ' }, p.token)).status).toBe(400);

    // A chapter completes it and brings the next one.
    const completing = patchedAI(() => ({ missionCompleted: true, newMission: 'Light the beacon before the storm' }));
    useStoryAI(t, completing);
    const c2 = await t.rest('POST', '/api/stories/generate-chapter', { characterId: p.characterId, userChoice: 'Climb the stairs' }, p.token);
    expect(completing.calls[0]!.mission).toBe('Find the lighthouse keeper');
    expect(c2.body).toMatchObject({ missionCompleted: true, newMission: { objective: 'Light the beacon before the storm', status: 'active' } });
    const story = await t.gql(STORYLINE, { id: p.characterId }, p.token);
    expect(story.data!.character.missionHistory.map((m: { objective: string; status: string }) => [m.objective, m.status])).toEqual([
      ['Find the lighthouse keeper', 'completed'],
      ['Light the beacon before the storm', 'active'],
    ]);

    // A new mission in a chapter while one is active also completes the current one (SPEC §4).
    useStoryAI(
      t,
      patchedAI(() => ({ missionCompleted: false, newMission: 'Warn the harbour' })),
    );
    const c3 = await t.rest('POST', '/api/stories/generate-chapter', { characterId: p.characterId, userChoice: 'Run down' }, p.token);
    expect(c3.body).toMatchObject({ missionCompleted: true, newMission: { objective: 'Warn the harbour' } });

    // update-mission-history replaces the history; at most one active.
    const history = [
      { objective: 'Find the lighthouse keeper', status: 'completed', startedAt: '2024-01-01T00:00:00.000Z' },
      { objective: 'Sail north', status: 'active', startedAt: '2024-01-02T00:00:00.000Z' },
    ];
    const replaced = await t.rest('POST', '/api/stories/update-mission-history', { characterId: p.characterId, missionHistory: history }, p.token);
    expect(replaced.status).toBe(200);
    expect(replaced.body.error).toBeNull();
    expect(replaced.body.missionHistory.map((m: { objective: string; status: string; startedAt: string }) => [m.objective, m.status, m.startedAt])).toEqual(
      history.map((h) => [h.objective, h.status, h.startedAt]),
    );
    const twoActive = await t.rest(
      'POST',
      '/api/stories/update-mission-history',
      { characterId: p.characterId, missionHistory: history.map((h) => ({ ...h, status: 'active' })) },
      p.token,
    );
    expect(twoActive.status).toBe(400);
    const bad = await t.rest(
      'POST',
      '/api/stories/update-mission-history',
      { characterId: p.characterId, missionHistory: [{ objective: 'x', status: 'won' }] },
      p.token,
    );
    expect(bad.status).toBe(400);

    // get-new-mission: a suggestion only.
    const suggestion = await t.rest(
      'POST',
      '/api/stories/get-new-mission',
      { worldDescription: 'A drowned city of bells and lanterns under a violet sky.', userPersonality: 'curious', previousMission: 'Sail north' },
      p.token,
    );
    expect(suggestion.status).toBe(200);
    expect(suggestion.body).toMatchObject({ error: null, objective: expect.any(String) });
    const gq = await t.gql(
      `mutation { suggestMission(input: { worldDescription: "A drowned city of bells and lanterns under a violet sky." }) { objective } updateMissionObjective(characterId: "${p.characterId}", objective: "Sail far north") { objective status } }`,
      {},
      p.token,
    );
    expect(gq.errors).toBeUndefined();
    expect(gq.data!.updateMissionObjective).toEqual({ objective: 'Sail far north', status: 'active' });
  });
});

describe('mission effects of a chapter', () => {
  // These chapters commit through commit_chapter (the API suite runs it on PGlite and on
  // PostgreSQL); undo then takes each back in its own transaction.
  it('a first mission completed by its own chapter, a completion without a successor, a new one after it; undo takes each back exactly', async () => {
    const ai = patchedAI((n) =>
      n === 0
        ? { missionCompleted: true, newMission: 'Cross the salt flats' }
        : n === 1
          ? { missionCompleted: true, newMission: null }
          : { missionCompleted: false, newMission: null },
    );
    useStoryAI(t, ai);
    const p = await player();
    const missions = async () =>
      (
        (await t.app.db.dataSource.query(
          `SELECT objective, status, started_at_chapter AS s, completed_at_chapter AS c, completed_at IS NOT NULL AS done FROM missions WHERE character_id = $1 ORDER BY started_at, status DESC`,
          [p.characterId],
        )) as Array<{ objective: string; status: string; s: number; c: number | null; done: boolean }>
      ).map((m) => [
        m.objective === 'Cross the salt flats' ? m.objective : m.status === 'completed' && m.s === 0 ? 'first' : 'later',
        m.status,
        m.s,
        m.c,
        m.done,
      ]);

    const s0 = await snapshot(p.characterId);
    const c0 = await t.rest('POST', '/api/stories/generate-chapter', { characterId: p.characterId }, p.token);
    expect(c0.status).toBe(200);
    // The mission generated before chapter 0 was given to the storyteller, completed by it, and replaced.
    expect(ai.calls[0]!.mission).toEqual(expect.any(String));
    expect(c0.body).toMatchObject({ missionCompleted: true, newMission: { objective: 'Cross the salt flats', status: 'active' } });
    expect(await missions()).toEqual([
      ['first', 'completed', 0, 0, true],
      ['Cross the salt flats', 'active', 0, null, false],
    ]);
    const s1 = await snapshot(p.characterId);

    const c1 = await t.rest('POST', '/api/stories/generate-chapter', { characterId: p.characterId, userChoice: 'Walk on' }, p.token);
    expect(c1.body).toMatchObject({ missionCompleted: true, newMission: null });
    expect(await missions()).toEqual([
      ['first', 'completed', 0, 0, true],
      ['Cross the salt flats', 'completed', 0, 1, true],
    ]);
    const s2 = await snapshot(p.characterId);

    // No mission left: one is generated before chapter 2 and stays active.
    const c2 = await t.rest('POST', '/api/stories/generate-chapter', { characterId: p.characterId, userChoice: 'Rest' }, p.token);
    expect(c2.body).toMatchObject({ missionCompleted: false, newMission: { status: 'active' } });
    expect(ai.calls[2]!.mission).toBe(c2.body.newMission.objective);
    expect((await missions()).slice(2)).toEqual([['later', 'active', 2, null, false]]);

    for (const before of [s2, s1, s0]) {
      expect((await t.rest('POST', '/api/stories/undo-chapter', { characterId: p.characterId }, p.token)).status).toBe(200);
      expect(await snapshot(p.characterId)).toEqual(before);
    }
  });

  it('the chapter a generation answers with is exactly the row it stored (every column, with the missions it brought)', async () => {
    // The usual commit builds the answer from the values it wrote instead of reading the row back:
    // nothing of it may differ from what a later read finds.
    const stories = useStoryAI(
      t,
      patchedAI((n) => (n === 1 ? { missionCompleted: true, newMission: 'Find the ferryman' } : {})),
    );
    const p = await player();
    for (const [n, action] of [
      [0, null],
      [1, 'Walk on'],
      [2, 'Rest'],
    ] as const) {
      const out = await stories.generateChapter(p.userId, { characterId: p.characterId, userChoice: action, expectedIndex: n });
      // As a later read finds it: the prompt report (select: false) is in neither.
      const stored = await t.app.db.dataSource.getRepository(Chapter).findOneByOrFail({ id: out.chapter.id });
      expect({ ...out.chapter }).toEqual({ ...stored });
      expect(out.chapter.createdAt.getTime()).toBe(stored.createdAt.getTime());
      expect(out.chapter.updatedAt.getTime()).toBe(stored.updatedAt.getTime());
    }
  });
});

describe('regenerate and undo', () => {
  it('takes are kept, the chosen take decides stats and missions exactly, and undo restores the state before the chapter', async () => {
    // Call 0: chapter 0. Call 1: chapter 1 take 0 (quiet). Call 2: chapter 1 take 1 (completes the mission, new setting).
    const ai = patchedAI((n) =>
      n === 0
        ? { missionCompleted: false, newMission: null, statIncreases: { wisdom: 1 } }
        : n === 1
          ? { missionCompleted: false, newMission: null, statIncreases: { strength: 1 }, newSetting: null }
          : {
              missionCompleted: true,
              newMission: 'Escape the collapsing observatory',
              statIncreases: { agility: 2, intellect: 3 },
              newSetting: 'A collapsing observatory of brass and glass, high above the clouds.',
            },
    );
    useStoryAI(t, ai);
    const p = await player();
    const initial = await snapshot(p.characterId);
    const c0 = await t.rest('POST', '/api/stories/generate-chapter', { characterId: p.characterId }, p.token);
    expect(c0.status).toBe(200);
    const s0 = await snapshot(p.characterId);

    // A routine action (no check): the storyteller's proposed gain alone earns nothing (issue 31's growth).
    const c1 = await t.rest('POST', '/api/stories/generate-chapter', { characterId: p.characterId, userChoice: 'Look around the hall' }, p.token);
    expect(c1.body.newIncreases).toEqual({});
    const s1a = await snapshot(p.characterId);

    const regen = await t.gql(
      `mutation R($id: ID!) { regenerateChapter(input: { characterId: $id }) { newChapter { index take playerChoice } newIncreases missionCompleted newSettingGenerated newMission { objective } } }`,
      { id: p.characterId },
      p.token,
    );
    expect(regen.errors).toBeUndefined();
    expect(regen.data!.regenerateChapter).toMatchObject({
      newChapter: { index: 1, take: 1, playerChoice: 'Look around the hall' },
      // The completed mission grows the first stat the storyteller proposes, by 1.
      newIncreases: { agility: 1 },
      missionCompleted: true,
      newSettingGenerated: true,
      newMission: { objective: 'Escape the collapsing observatory' },
    });
    // The new take was written from the state before chapter 1, not on top of take 0.
    expect(ai.calls[2]!.character.stats).toEqual(s0.c.stats);
    expect(ai.calls[2]!.recentChapters.map((c) => c.text)).toEqual([c0.body.newChapter.text]);
    const s1b = await snapshot(p.characterId);
    expect(s1b.c.stats).toEqual({ ...s0.c.stats, agility: s0.c.stats.agility + 1 });

    const story = await t.gql(STORYLINE, { id: p.characterId }, p.token);
    expect(story.data!.character.storyline.latestTakes.map((x: { take: number }) => x.take)).toEqual([0, 1]);
    expect(story.data!.character.storyline.totalChapters).toBe(2);

    const select = (take: number) =>
      t.gql(`mutation { selectChapterTake(characterId: "${p.characterId}", take: ${take}) { newChapter { take } updatedStats } }`, {}, p.token);
    expect((await select(0)).errors).toBeUndefined();
    expect(await snapshot(p.characterId)).toEqual(s1a);
    expect((await select(1)).errors).toBeUndefined();
    expect(await snapshot(p.characterId)).toEqual(s1b);
    expect((await t.rest('POST', '/api/stories/select-take', { characterId: p.characterId, take: 0 }, p.token)).status).toBe(200);
    expect(await snapshot(p.characterId)).toEqual(s1a);
    expect(code(await select(7))).toBe('NOT_FOUND');

    const undo = await t.rest('POST', '/api/stories/undo-chapter', { characterId: p.characterId }, p.token);
    expect(undo.status).toBe(200);
    expect(await snapshot(p.characterId)).toEqual(s0);
    expect(await t.app.db.dataSource.getRepository(Chapter).countBy({ characterId: p.characterId, index: 1 })).toBe(0);

    // Undo from take 1's state too: back to s0 exactly.
    useStoryAI(
      t,
      patchedAI(() => ({ missionCompleted: true, newMission: 'Climb the broken spire', statIncreases: { charisma: 2 } })),
    );
    await t.rest('POST', '/api/stories/generate-chapter', { characterId: p.characterId, userChoice: 'Jump' }, p.token);
    expect(await snapshot(p.characterId)).not.toEqual(s0);
    expect((await t.gql(`mutation { undoLastChapter(characterId: "${p.characterId}") { id stats } }`, {}, p.token)).errors).toBeUndefined();
    expect(await snapshot(p.characterId)).toEqual(s0);

    // And the first chapter: back to the character as saved, with no missions.
    await t.rest('POST', '/api/stories/undo-chapter', { characterId: p.characterId }, p.token);
    expect(await snapshot(p.characterId)).toEqual(initial);
    const nothing = await t.rest('POST', '/api/stories/undo-chapter', { characterId: p.characterId }, p.token);
    expect(nothing.status).toBe(400);
  });
});

describe('story memory', () => {
  const MEMORY = /* GraphQL */ `
    mutation Memory($id: ID!, $input: StoryMemoryInput!) {
      updateStoryMemory(characterId: $id, input: $input) {
        plotEssentials
        authorsNote
        summary
        summaryCoversChapters
      }
    }
  `;
  const READ = /* GraphQL */ `
    query Read($id: ID!) {
      character(id: $id) {
        storyMemory {
          plotEssentials
          authorsNote
          summary
          summaryCoversChapters
        }
      }
    }
  `;

  it("plot essentials and the author's note are the player's to edit, and every next chapter is written with them", async () => {
    const ai = scriptedAI();
    useStoryAI(t, ai);
    const p = await player();
    const set = await t.gql(
      MEMORY,
      { id: p.characterId, input: { plotEssentials: 'Ayla is the lost heir of the Collegium.', authorsNote: 'Dark and tense; short sentences.' } },
      p.token,
    );
    expect(set.errors).toBeUndefined();
    expect(set.data!.updateStoryMemory).toEqual({
      plotEssentials: 'Ayla is the lost heir of the Collegium.',
      authorsNote: 'Dark and tense; short sentences.',
      summary: '',
      summaryCoversChapters: 0,
    });
    // A field left out keeps its value; the summary is editable too.
    await t.gql(MEMORY, { id: p.characterId, input: { summary: 'Ayla reached the tower.' } }, p.token);
    const read = await t.gql(READ, { id: p.characterId }, p.token);
    expect(read.data!.character.storyMemory).toMatchObject({ plotEssentials: 'Ayla is the lost heir of the Collegium.', summary: 'Ayla reached the tower.' });

    const r = await t.rest('POST', '/api/stories/generate-chapter', { characterId: p.characterId, userChoice: '' }, p.token);
    expect(r.status).toBe(200);
    expect(ai.calls[0]).toMatchObject({
      plotEssentials: 'Ayla is the lost heir of the Collegium.',
      authorsNote: 'Dark and tense; short sentences.',
      summary: 'Ayla reached the tower.',
    });

    // Too long, or someone else's story: refused, nothing changed.
    const long = await t.gql(MEMORY, { id: p.characterId, input: { authorsNote: 'x'.repeat(501) } }, p.token);
    expect(long.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    const stranger = await signUp(t);
    const theirs = await t.gql(MEMORY, { id: p.characterId, input: { plotEssentials: 'hijacked' } }, stranger.accessToken);
    expect(theirs.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
    const after = await t.gql(READ, { id: p.characterId }, p.token);
    expect(after.data!.character.storyMemory).toMatchObject({
      plotEssentials: 'Ayla is the lost heir of the Collegium.',
      authorsNote: 'Dark and tense; short sentences.',
    });
  });
});

describe('nothing before the first word', () => {
  it('a model that proposes missions in its chapter gets no mission call first: the chapter brings the first mission', async () => {
    const missionCalls: unknown[] = [];
    const summaryCalls: unknown[] = [];
    const ai = patchedAI((n) => (n === 0 ? { newMission: 'Find the lighthouse keeper', missionCompleted: false } : {}), {
      missionInChapter: true,
      generateMission: async (input) => {
        missionCalls.push(input);
        return { objective: 'A mission call that should not happen' };
      },
      summarize: async (input) => {
        summaryCalls.push(input);
        return { summary: 'unused' };
      },
    });
    useStoryAI(t, ai);
    const p = await player();
    const r = await t.rest('POST', '/api/stories/generate-chapter', { characterId: p.characterId, userChoice: '' }, p.token);
    expect(r.status).toBe(200);
    expect(missionCalls).toHaveLength(0);
    expect(ai.calls[0]!.mission).toBeNull();
    expect(r.body.newMission).toMatchObject({ objective: 'Find the lighthouse keeper', status: 'active' });
    const gq = await t.gql(STORYLINE, { id: p.characterId }, p.token);
    expect(gq.data!.character.currentMission).toEqual({ objective: 'Find the lighthouse keeper' });
  });
});

describe('long stories stay within the tier context', () => {
  it('older chapters are folded into the stored rolling summary, incrementally', async () => {
    const ds = t.app.db.dataSource;
    const summarized: number[][] = [];
    const base = scriptedAI();
    const ai = scriptedAI({
      summarize: async (input, opts) => {
        summarized.push(input.chapters.map((c) => c.text.length));
        return base.summarize(input, opts);
      },
    });
    const stories = useStoryAI(t, ai);
    const p = await player();
    // No subscription row → the Free default of 2k tokens (SPEC §9); shared tiers stay untouched.
    await ds.query(`DELETE FROM subscriptions WHERE user_id = $1`, [p.userId]);
    let choice: string | null = null;
    for (let i = 0; i < 10; i++) {
      const r = await t.rest('POST', '/api/stories/generate-chapter', { characterId: p.characterId, userChoice: choice }, p.token);
      expect(r.status).toBe(200);
      expect(r.body.newChapter.index).toBe(i);
      choice = r.body.newChapter.choices[0];
    }
    // Folds run after commits, in the background (never before a chapter's first word).
    await stories.idle();
    const [c] = await ds.query(`SELECT story_summary, summary_through_index FROM characters WHERE id = $1`, [p.characterId]);
    expect(c.summary_through_index).toBeGreaterThanOrEqual(0);
    expect(c.story_summary.length).toBeGreaterThan(0);
    expect(summarized.length).toBeGreaterThan(0);
    // Incremental: every chapter was summarised at most once.
    expect(summarized.flat().length).toBe(c.summary_through_index + 1);
    const last = ai.calls[ai.calls.length - 1]!;
    expect(last.maxContextTokens).toBe(2000);
    // The summary the last prompt used is the stored one (or its successor, stored with the chapter).
    expect(last.summary.length).toBeGreaterThan(0);
    expect(last.recentChapters.length).toBeLessThan(9);
    expect(last.recentChapters.every((ch) => ch.text.length > 0)).toBe(true);
  });
});

describe('immersive styles', () => {
  const hostile = {
    containerBackground: 'url(javascript:alert(1))',
    contentBackground: 'expression(alert(1))',
    contentTextColor: '#000000</style><script>alert(1)</script>',
    ContainerTextColor: '#0b1426', // same as the default background: unreadable
    statsPanelBackground: '#ffffff',
    statsPanelTextColor: '#fefefe', // white on white
    statsItemBackground: 'red; background-image: url(http://evil.example/x.png)',
    statsItemTextColor: '@import "http://evil.example"',
    buttonBackground: '#222222',
    buttonTextColor: '#f5f5f5',
    borderColor: 'rgb(10, 20, 30)',
    fontFamily: 'Comic Sans; } body { display:none',
    borderRadius: '9999px',
  };

  it('hostile model output never survives validation; results are cached per setting; failures give the default set', async () => {
    let calls = 0;
    useStoryAI(t, scriptedAI({ generateStyles: async () => (calls++, hostile as never) }));
    const p = await player();
    const setting = `A neon bazaar under acid rain ${Date.now()}`;
    const r = await t.rest('POST', '/api/stories/fetch-styles', { settingDescription: setting }, p.token);
    expect(r.status).toBe(200);
    const values = Object.values(r.body as Record<string, string>).join('\n');
    for (const bad of ['url(', 'expression', '</style', '<script', '@import', 'evil', '9999', 'Comic', ';', '{', '}']) expect(values).not.toContain(bad);
    expect(r.body.ContainerTextColor).toBe(DEFAULT_STYLES.ContainerTextColor);
    expect(r.body.statsPanelTextColor).toBe(DEFAULT_STYLES.statsPanelTextColor);
    expect(r.body.buttonBackground).toBe('#222222');
    expect(r.body.borderColor).toBe('rgb(10, 20, 30)');
    const again = await t.gql(
      `query S($s: String!) { settingStyles(settingDescription: $s) { containerBackground ContainerTextColor borderRadius } }`,
      { s: setting },
      p.token,
    );
    expect(again.data!.settingStyles).toEqual({
      containerBackground: r.body.containerBackground,
      ContainerTextColor: r.body.ContainerTextColor,
      borderRadius: r.body.borderRadius,
    });
    expect(calls).toBe(1);

    useStoryAI(t, scriptedAI({ generateStyles: async () => Promise.reject(new Error('down')) }));
    const failed = await t.rest('POST', '/api/stories/fetch-styles', { settingDescription: 'Somewhere else entirely' }, p.token);
    expect(failed.status).toBe(200);
    expect(failed.body).toEqual(DEFAULT_STYLES);
    expect((await t.rest('POST', '/api/stories/fetch-styles', {}, p.token)).body).toEqual(DEFAULT_STYLES);
  });

  it('export: Markdown and one self-contained HTML file, escaped, script-free and with no outside references', async () => {
    useStoryAI(t, scriptedAI({ generateStyles: async () => hostile as never }));
    const p = await player();
    const c0 = await t.rest('POST', '/api/stories/generate-chapter', { characterId: p.characterId }, p.token);
    await t.rest('POST', '/api/stories/generate-chapter', { characterId: p.characterId, userChoice: 'Take the left path & hope' }, p.token);
    // Untrusted content as hostile as it gets, straight into the rows.
    const ds = t.app.db.dataSource;
    await ds.query(`UPDATE chapters SET text = $2, player_choice = $3 WHERE id = $1`, [
      c0.body.newChapter.id,
      'It began.</p><script>alert(1)</script><img src=x onerror=alert(2)>\n\n[link](javascript:alert(3)) ![img](http://evil.example/p.png)',
      '"><svg onload=alert(4)>',
    ]);
    await ds.query(`UPDATE characters SET current_setting = $2, name = $3 WHERE id = $1`, [p.characterId, 'A </style> hall of mirrors', 'Ayla <b>Storm</b>']);
    // A story card as hostile as the rows (cards from a model or a card file are untrusted too).
    await ds.query(
      `INSERT INTO story_cards (character_id, kind, name, aliases, description, role, status, source, revision) VALUES ($1, 'character', $2, $3, $4, $5, 'in *hiding*', 'model', gen_random_uuid())`,
      [p.characterId, 'Ilse <i>Varn</i>', JSON.stringify(['the [Witch](javascript:x)']), 'Smuggler.<script>alert(5)</script>', 'queen'],
    );

    const html = await t.rest('GET', `/api/stories/export/${p.characterId}?format=html`, undefined, p.token);
    expect(html.status).toBe(200);
    expect(html.headers.get('content-type')).toContain('text/html');
    expect(html.headers.get('content-disposition')).toMatch(/attachment; filename="[a-z0-9-]+\.html"/);
    const doc = html.body as string;
    expect(doc.startsWith('<!DOCTYPE html>')).toBe(true);
    expect(doc).toContain(`<meta http-equiv="Content-Security-Policy" content="default-src 'none'`);
    expect(doc.toLowerCase()).not.toMatch(/<script|<img|<svg|<b>|javascript:alert\(1\)<|onerror=alert\(2\)>/);
    // No element anywhere fetches anything (the escaped prose may mention src=, as text).
    expect(doc).not.toMatch(/<[^>]*\b(src|href|action)=/i);
    expect(doc).not.toMatch(/<(link|iframe|object|embed|base|form)\b/i);
    expect(doc).not.toMatch(/url\(|@import|expression\(/i);
    expect(doc.match(/<\/style>/g)).toHaveLength(1);
    expect(doc).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(doc).toContain('Ayla &lt;b&gt;Storm&lt;/b&gt;');
    expect(doc).toContain('Take the left path &amp; hope');
    expect(doc).toContain('<h3>Story cards</h3>');
    expect(doc).toContain(
      '<strong>Ilse &lt;i&gt;Varn&lt;/i&gt; (character, also the [Witch](javascript:x))</strong> queen — Smuggler.&lt;script&gt;alert(5)&lt;/script&gt; — Now: in *hiding*.',
    );

    const md = await t.rest('GET', `/api/stories/export/${p.characterId}?format=md`, undefined, p.token);
    expect(md.status).toBe(200);
    expect(md.headers.get('content-type')).toContain('text/markdown');
    const text = md.body as string;
    expect(text).toContain('## Chapter 1');
    expect(text).toContain('## Chapter 2');
    expect(text).not.toMatch(/<script|<img|<svg/i);
    expect(text).toContain('\\[link\\]\\(javascript:alert\\(3\\)\\)');
    expect(text).toContain('## Story cards');
    expect(text).toContain('the \\[Witch\\]\\(javascript:x\\)');
    expect(text).toContain('Now: in \\*hiding\\*.');

    const gq = await t.gql(`query { exportStory(characterId: "${p.characterId}", format: html) { filename mimeType content } }`, {}, p.token);
    expect(gq.data!.exportStory.content).toBe(doc);
    expect((await t.rest('GET', `/api/stories/export/${p.characterId}?format=pdf`, undefined, p.token)).status).toBe(400);
  });
});
