import { commitChapter, type CommitInput, type StateBefore } from '../../server/src/modules/stories/state/chapter-commit';
import type { MissionEffects } from '../../server/src/modules/stories/chapter.entity';
import { cardsOf } from '../../server/src/modules/stories/memory/story-cards';
import { MemoryBank, memoryQuery, takeMemories } from '../../server/src/modules/stories/memory/memory-bank';
import { makeCharacter } from '../support/story-fixtures';
import type { CheckOutcome } from '../../server/src/ai/story-ai';
import { signUp, startTestApp, type TestApp } from '../support/test-app';

/**
 * The one chapter-commit rule, held to it: a next chapter committed in one call (commit_chapter
 * alone), the same chapter committed by the locking transaction, and the same result written as a
 * regenerated take all leave exactly the same story behind — character, selected chapters, missions.
 */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

type Step = { result: CommitInput['result']; preMission?: string; summary?: CommitInput['summary']; remembers?: string[]; check?: CheckOutcome };

/** A check as the engine rolls it (stakes/checks.ts), for the steps that carry one. */
const check = (over: Partial<CheckOutcome>): CheckOutcome => ({
  attempt: 'climb the sea wall',
  stat: 'agility',
  difficulty: 14,
  roll: 10,
  modifier: 0,
  itemBonus: 0,
  item: null,
  total: 10,
  outcome: 'failure',
  healthLost: 2,
  itemUsedUp: false,
  ...over,
});

const STORY: Step[] = [
  // No mission yet: one generated before the chapter; stats raised, a setting arrives.
  {
    preMission: 'Find the lost compass',
    remembers: ['Odo keeps a lantern lit for ships that never come.', 'The compass was lost in the drowned archive.'],
    result: {
      text: 'The harbour wakes.',
      choices: ['Ask the harbourmaster', 'Board the ship', 'Wait'],
      statIncreases: { strength: 1, charisma: 2 },
      newSetting: 'A misty harbour at dawn.',
      missionCompleted: false,
      newMission: null,
      cast: [
        { name: 'Odo', role: 'harbourmaster', description: 'A gruff old man with a lantern.', status: 'watching' },
        { name: 'Ayla', role: null, description: null, status: null },
      ],
      itemsGained: [
        { name: 'Healing Potion', description: 'A red draught in a stoppered vial.' },
        { name: 'Coil of Rope', description: 'Thirty feet of tarred hemp.' },
      ],
    },
  },
  // Completes the mission and brings the next one; a failed climb costs health; a loss of something never carried is ignored.
  {
    check: check({}),
    remembers: ['Mira promised to light the lamp if the compass came back.'],
    result: {
      text: 'The compass is found.',
      choices: ['Climb', 'Rest', 'Run'],
      statIncreases: { agility: 3 },
      newSetting: null,
      missionCompleted: true,
      newMission: 'Reach the lighthouse',
      cast: [
        { name: 'Odo Brand', role: 'harbourmaster', description: 'A grey-bearded harbourmaster.', status: 'helpful' },
        { name: 'Mira', role: 'keeper', description: 'Keeper of the light.', status: 'wary' },
      ],
      itemsLost: ['Crown of Stars'],
    },
  },
  // A new mission while one is active completes the active one (SPEC §4); a stat at its cap stays.
  // The potion is drunk for a bonus (used up), the rope given away; success at a cost hurts a little.
  {
    check: check({ stat: 'endurance', item: 'Healing Potion', itemBonus: 2, itemUsedUp: true, roll: 9, total: 11, outcome: 'success_at_cost', healthLost: 1 }),
    result: {
      text: 'The lighthouse looms.',
      choices: ['Enter', 'Knock', 'Leave'],
      statIncreases: { intellect: 3, wisdom: 1 },
      newSetting: 'The lighthouse stairwell.',
      missionCompleted: false,
      newMission: 'Light the lamp',
      cast: [{ name: 'Mira', role: 'keeper', description: null, status: 'ally' }],
      itemsLost: ['coil of rope'],
    },
  },
  // Completes it with nothing after; the rolling summary folds the first two chapters.
  {
    summary: { summary: 'Ayla found the compass and reached the lighthouse.', through: 1, expectedThrough: -1 },
    result: {
      text: 'The lamp burns.',
      choices: ['Look out', 'Descend', 'Sleep'],
      statIncreases: {},
      newSetting: null,
      missionCompleted: true,
      newMission: null,
      cast: [],
      healthRestored: 4,
    },
  },
  // No mission again: the one generated first is completed by the same chapter.
  {
    preMission: 'Sail north',
    result: {
      text: 'North, at once.',
      choices: ['Steer', 'Sing', 'Sleep'],
      statIncreases: { endurance: 2 },
      newSetting: 'Open sea.',
      missionCompleted: true,
      newMission: null,
      cast: [{ name: 'The Gull', role: 'ship', description: 'A fast sloop.', status: 'at sea' }],
    },
  },
];
const OTHER: Step = {
  check: check({ outcome: 'critical_failure', roll: 1, total: 1, healthLost: 4 }),
  remembers: ['Something else was remembered.'],
  result: {
    text: 'Something else entirely.',
    choices: ['A', 'B', 'C'],
    statIncreases: { charisma: 3, wisdom: 3 },
    newSetting: 'Elsewhere.',
    missionCompleted: true,
    newMission: 'A different mission',
    cast: [
      { name: 'Mira', role: 'smuggler', description: 'Someone else entirely.', status: 'hostile' },
      { name: 'Stranger', role: null, description: 'A stranger.', status: null },
    ],
    itemsGained: [{ name: 'Black Pearl', description: 'Cold to the touch.' }],
    itemsLost: ['Healing Potion', 'Coil of Rope'],
  },
};

const STATS = { strength: 12, agility: 10, endurance: 11, intellect: 19, wisdom: 9, charisma: 13 };

async function ownerOf(characterId: string): Promise<string> {
  const [r] = (await t.app.db.dataSource.query(`SELECT user_id FROM characters WHERE id = $1`, [characterId])) as Array<{ user_id: string }>;
  return r!.user_id;
}

async function character() {
  const s = await signUp(t);
  return (await makeCharacter(t, s.user.id, STATS)).id;
}

async function claim(characterId: string, index: number): Promise<{ id: string; take: number; createdAt: Date }> {
  const ds = t.app.db.dataSource;
  const rows = (await ds.query(
    `INSERT INTO chapters (character_id, "index", take, is_selected, status, player_choice, text)
     VALUES ($1, $2, (SELECT COUNT(*) FROM chapters WHERE character_id = $1 AND "index" = $2), false, 'generating', $3, '')
     RETURNING id, take, created_at`,
    [characterId, index, index === 0 ? null : `action ${index}`],
  )) as Array<{ id: string; take: number; created_at: Date }>;
  const r = rows[0]!;
  return { id: r.id, take: r.take, createdAt: new Date(r.created_at) };
}

async function stateOf(characterId: string): Promise<StateBefore> {
  const [c] = (await t.app.db.dataSource.query(
    `SELECT stats, current_setting, health, health_max, (SELECT id FROM missions WHERE character_id = $1 AND status = 'active') AS active FROM characters WHERE id = $1`,
    [characterId],
  )) as Array<{ stats: Record<string, number>; current_setting: string | null; health: number; health_max: number; active: string | null }>;
  return {
    stats: c!.stats,
    setting: c!.current_setting,
    activeMissionId: c!.active,
    cards: await cardsOf(t.app.db.dataSource, characterId),
    health: { current: c!.health, max: c!.health_max },
  };
}

/** Commits `step` as chapter `index`: 'one-call' as a next chapter whose context is known, 'locked' through the transaction. */
async function commit(characterId: string, index: number, step: Step, path: 'one-call' | 'locked' | 'regenerate') {
  const row = await claim(characterId, index);
  const input: CommitInput = {
    characterId,
    chapterId: row.id,
    index,
    take: row.take,
    action: index === 0 ? null : `action ${index}`,
    createdAt: row.createdAt,
    mode: path === 'regenerate' ? 'regenerate' : 'next',
    result: step.result,
    preMission: step.preMission ?? null,
    summary: step.summary ?? null,
    heroName: 'Ayla Storm',
    memories: takeMemories({ memories: (step.remembers ?? []).map((text) => ({ kind: 'fact' as const, text })) }, index === 0 ? null : `action ${index}`),
    promptReport: null,
    check: step.check ?? null,
  };
  const ds = t.app.db.dataSource;
  const transaction = jest.spyOn(ds, 'transaction');
  try {
    const outcome = await commitChapter(ds, input, path === 'one-call' ? await stateOf(characterId) : null);
    // The path really taken: the one call needs no transaction, the others exactly one.
    expect(transaction).toHaveBeenCalledTimes(path === 'one-call' ? 0 : 1);
    return outcome;
  } finally {
    transaction.mockRestore();
  }
}

/** The story as a player could ever see it, with generated ids and times replaced by what they name. */
async function snapshot(characterId: string) {
  const ds = t.app.db.dataSource;
  const [c] = (await ds.query(`SELECT stats, current_setting, story_summary, summary_through_index, health, health_max FROM characters WHERE id = $1`, [
    characterId,
  ])) as Array<Record<string, unknown>>;
  const missions = (await ds.query(
    `SELECT id, objective, status, started_at_chapter, completed_at_chapter, completed_at IS NOT NULL AS has_completed_at FROM missions WHERE character_id = $1 ORDER BY started_at_chapter, created_at`,
    [characterId],
  )) as Array<Record<string, unknown> & { id: string; objective: string }>;
  const name = new Map(missions.map((m) => [m.id, m.objective]));
  const chapters = (await ds.query(
    `SELECT "index", status, player_choice, text, choices, setting, stat_increases, stats_before, stats_after, setting_before, mission_effects, cast_members, jsonb_array_length(card_effects) AS card_effects, check_outcome, stakes, completed_at IS NOT NULL AS has_completed_at,
            (SELECT COALESCE(jsonb_agg(e - 'id' ORDER BY o), '[]'::jsonb) FROM jsonb_array_elements(memories) WITH ORDINALITY AS x(e, o)) AS memories
       FROM chapters WHERE character_id = $1 AND is_selected ORDER BY "index"`,
    [characterId],
  )) as Array<Record<string, unknown> & { mission_effects: MissionEffects }>;
  const failedOrGenerating = (await ds.query(`SELECT COUNT(*)::int AS n FROM chapters WHERE character_id = $1 AND status <> 'complete'`, [
    characterId,
  ])) as Array<{ n: number }>;
  const cards = (await ds.query(
    `SELECT kind, name, aliases, description, role, status, pinned, source, edited, last_seen_index, held FROM story_cards WHERE character_id = $1 ORDER BY name`,
    [characterId],
  )) as Array<Record<string, unknown>>;
  return {
    character: c,
    cards,
    chapters: chapters.map(({ mission_effects: e, ...rest }) => ({
      ...rest,
      effects: {
        pre: e.preMission?.objective ?? null,
        completed: e.completedMissionId ? (name.get(e.completedMissionId) ?? 'missing mission') : null,
        next: e.newMission?.objective ?? null,
      },
    })),
    missions: missions.map(({ id: _id, ...m }) => m),
    unfinished: failedOrGenerating[0]!.n,
  };
}

describe('one chapter-commit rule', () => {
  it('a next chapter stores the same story whether it commits in one call or through the locking transaction', async () => {
    const [oneCall, locked] = [await character(), await character()];
    for (const [i, step] of STORY.entries()) {
      const a = await commit(oneCall, i, step, 'one-call');
      const b = await commit(locked, i, step, 'locked');
      // The outcome handed to the player is built from the same plan on both paths.
      expect({ ...a, chapter: undefined, newMission: a.newMission?.objective }).toEqual({ ...b, chapter: undefined, newMission: b.newMission?.objective });
    }
    const s = await snapshot(oneCall);
    expect(await snapshot(locked)).toEqual(s);
    // And that story is the one the steps describe (not two identically wrong ones).
    expect(s.character).toMatchObject({
      stats: { strength: 13, agility: 13, endurance: 13, intellect: 20, wisdom: 10, charisma: 15 },
      current_setting: 'Open sea.',
      story_summary: 'Ayla found the compass and reached the lighthouse.',
      summary_through_index: 1,
      health: 10,
      health_max: 10,
    });
    // Health follows the checks' costs and the rest, chapter by chapter; items what was gained and lost.
    expect(s.chapters.map((c) => (c as Record<string, unknown>).stakes)).toEqual([
      {
        healthBefore: 10,
        healthMaxBefore: 10,
        healthAfter: 10,
        healthMaxAfter: 10,
        defeat: false,
        lastingCost: 0,
        healthRestored: 0,
        itemsGained: ['Healing Potion', 'Coil of Rope'],
        itemsLost: [],
      },
      {
        healthBefore: 10,
        healthMaxBefore: 10,
        healthAfter: 8,
        healthMaxAfter: 10,
        defeat: false,
        lastingCost: 0,
        healthRestored: 0,
        itemsGained: [],
        itemsLost: [],
      },
      {
        healthBefore: 8,
        healthMaxBefore: 10,
        healthAfter: 7,
        healthMaxAfter: 10,
        defeat: false,
        lastingCost: 0,
        healthRestored: 0,
        itemsGained: [],
        itemsLost: ['Coil of Rope', 'Healing Potion'],
      },
      {
        healthBefore: 7,
        healthMaxBefore: 10,
        healthAfter: 10,
        healthMaxAfter: 10,
        defeat: false,
        lastingCost: 0,
        healthRestored: 3,
        itemsGained: [],
        itemsLost: [],
      },
      {
        healthBefore: 10,
        healthMaxBefore: 10,
        healthAfter: 10,
        healthMaxAfter: 10,
        defeat: false,
        lastingCost: 0,
        healthRestored: 0,
        itemsGained: [],
        itemsLost: [],
      },
    ]);
    expect(s.chapters.map((c) => ((c as Record<string, unknown>).check_outcome as CheckOutcome | null)?.outcome ?? null)).toEqual([
      null,
      'failure',
      'success_at_cost',
      null,
      null,
    ]);
    expect((s.chapters[2] as Record<string, unknown>).stat_increases).toEqual({ intellect: 1, wisdom: 1 });
    expect(s.missions).toEqual([
      { objective: 'Find the lost compass', status: 'completed', started_at_chapter: 0, completed_at_chapter: 1, has_completed_at: true },
      { objective: 'Reach the lighthouse', status: 'completed', started_at_chapter: 1, completed_at_chapter: 2, has_completed_at: true },
      { objective: 'Light the lamp', status: 'completed', started_at_chapter: 2, completed_at_chapter: 3, has_completed_at: true },
      { objective: 'Sail north', status: 'completed', started_at_chapter: 4, completed_at_chapter: 4, has_completed_at: true },
    ]);
    expect(s.chapters.map((c) => c.effects)).toEqual([
      { pre: 'Find the lost compass', completed: null, next: null },
      { pre: null, completed: 'Find the lost compass', next: 'Reach the lighthouse' },
      { pre: null, completed: 'Reach the lighthouse', next: 'Light the lamp' },
      { pre: null, completed: 'Light the lamp', next: null },
      { pre: 'Sail north', completed: 'Sail north', next: null },
    ]);
    // The cast keeps a card per person: the hero never gets one, a longer form of a name is the same
    // person (an alias), and updates follow the chapters.
    expect(s.cards).toEqual([
      {
        kind: 'item',
        name: 'Coil of Rope',
        aliases: [],
        description: 'Thirty feet of tarred hemp.',
        role: null,
        status: 'no longer carried',
        pinned: false,
        source: 'model',
        edited: false,
        last_seen_index: 2,
        held: false,
      },
      {
        kind: 'item',
        name: 'Healing Potion',
        aliases: [],
        description: 'A red draught in a stoppered vial.',
        role: null,
        status: 'used up',
        pinned: false,
        source: 'model',
        edited: false,
        last_seen_index: 2,
        held: false,
      },
      {
        kind: 'character',
        name: 'Mira',
        aliases: [],
        description: 'Keeper of the light.',
        role: 'keeper',
        status: 'ally',
        pinned: false,
        source: 'model',
        edited: false,
        last_seen_index: 2,
        held: false,
      },
      {
        kind: 'character',
        name: 'Odo',
        aliases: ['Odo Brand'],
        description: 'A gruff old man with a lantern.',
        role: 'harbourmaster',
        status: 'helpful',
        pinned: false,
        source: 'model',
        edited: false,
        last_seen_index: 1,
        held: false,
      },
      {
        kind: 'character',
        name: 'The Gull',
        aliases: [],
        description: 'A fast sloop.',
        role: 'ship',
        status: 'at sea',
        pinned: false,
        source: 'model',
        edited: false,
        last_seen_index: 4,
        held: false,
      },
    ]);
    expect(s.chapters.map((c) => (c as Record<string, unknown>).card_effects)).toEqual([3, 2, 3, 0, 1]);
    // Each take keeps what it remembers: the storyteller's record, then the player's action.
    expect(
      s.chapters.map((c) => ((c as Record<string, unknown>).memories as Array<{ text: string; source: string }>).map((m) => `${m.source}: ${m.text}`)),
    ).toEqual([
      ['storyteller: Odo keeps a lantern lit for ships that never come.', 'storyteller: The compass was lost in the drowned archive.'],
      ['storyteller: Mira promised to light the lamp if the compass came back.', 'action: action 1'],
      ['action: action 2'],
      ['action: action 3'],
      ['action: action 4'],
    ]);
  });

  it('memories follow undo, another take, a rewind and a restored branch exactly (ids and the player’s edits included)', async () => {
    const id = await character();
    const owner = await ownerOf(id);
    const svc = t.app.services.stories;
    for (const [i, step] of STORY.entries()) await commit(id, i, step, 'one-call');
    const bank = () => svc.listMemories(owner, id);
    // The player pins one and rewrites another, and writes one of their own.
    const all = await bank();
    const odo = all.find((m) => m.text.startsWith('Odo keeps'))!;
    const mira = all.find((m) => m.text.startsWith('Mira promised'))!;
    await svc.updateMemory(owner, id, odo.id, { pinned: true });
    await svc.updateMemory(owner, id, mira.id, { text: 'Mira promised to light the lamp, twice.' });
    const mine = await svc.addMemory(owner, id, { kind: 'promise', text: 'I owe Odo a new lantern.' });
    const full = await bank();
    expect(full.slice(0, 2).map((m) => m.text)).toEqual(['Odo keeps a lantern lit for ships that never come.', 'I owe Odo a new lantern.']);
    expect(full.find((m) => m.id === mira.id)).toMatchObject({ text: 'Mira promised to light the lamp, twice.', edited: true, chapterNumber: 2 });

    // Another take of the latest chapter remembers otherwise; switching back restores it exactly.
    await commit(id, 4, OTHER, 'regenerate');
    expect((await bank()).map((m) => m.text)).toContain('Something else was remembered.');
    await svc.selectTake(owner, id, 0);
    expect(await bank()).toEqual(full);

    // Undo forgets the latest chapter's memories, and only those; the player's own stay.
    await svc.undoLastChapter(owner, id);
    const undone = await bank();
    expect(undone).toEqual(full.filter((m) => m.chapterNumber !== 5));

    // A rewind sets the later chapters' memories aside with them; returning to the branch brings them
    // back under the same ids, with the player's edits.
    await svc.rewind(owner, id, 0);
    expect((await bank()).map((m) => m.chapterNumber)).toEqual([1, null, 1]);
    const [branch] = await svc.listBranches(owner, id);
    await svc.restoreBranch(owner, id, branch!.id);
    expect(await bank()).toEqual(undone);
    expect((await bank()).find((m) => m.id === mine.id)).toMatchObject({ source: 'player', chapterNumber: null });

    // What the bank retrieves for a chapter follows the same rows: an action about the lantern finds Odo.
    const found = await new MemoryBank(t.app.db.dataSource).retrieve(id, 4, memoryQuery(['I ask Odo about the lantern and the ships']));
    expect(found.map((m) => m.text)).toEqual(expect.arrayContaining(['Odo keeps a lantern lit for ships that never come.', 'I owe Odo a new lantern.']));
    expect(found[0]).toMatchObject({ pinned: true, chapterNumber: 1 });
  });

  it('items and health follow undo, another take, a rewind and a restored branch exactly', async () => {
    const id = await character();
    const owner = await ownerOf(id);
    const svc = t.app.services.stories;
    // The story without its rolling summary (an undo keeps a summary of chapters that are still there).
    const story = async () => {
      const x = await snapshot(id);
      return { ...x, character: { ...x.character, story_summary: undefined, summary_through_index: undefined } };
    };
    const at: Array<Awaited<ReturnType<typeof story>>> = [];
    for (const [i, step] of STORY.entries()) {
      await commit(id, i, step, 'one-call');
      at.push(await story());
    }
    const health = async () =>
      ((await t.app.db.dataSource.query(`SELECT health, health_max FROM characters WHERE id = $1`, [id])) as Array<{ health: number; health_max: number }>)[0];
    const held = async () =>
      ((await t.app.db.dataSource.query(`SELECT name FROM story_cards WHERE character_id = $1 AND held ORDER BY name`, [id])) as Array<{ name: string }>).map(
        (r) => r.name,
      );
    // Another take of the latest chapter: a critical failure that costs 4, gains a pearl and loses what is not carried.
    await commit(id, 4, OTHER, 'regenerate');
    expect(await health()).toEqual({ health: 6, health_max: 10 });
    expect(await held()).toEqual(['Black Pearl']);
    await svc.selectTake(owner, id, 0);
    expect(await story()).toEqual(at[4]);
    await svc.selectTake(owner, id, 1);
    expect(await held()).toEqual(['Black Pearl']);
    await svc.selectTake(owner, id, 0);
    // Undo chapter by chapter: each time exactly the story as it stood.
    await svc.undoLastChapter(owner, id);
    expect(await story()).toEqual(at[3]);
    await svc.undoLastChapter(owner, id);
    expect(await story()).toEqual(at[2]);
    expect(await health()).toEqual({ health: 7, health_max: 10 });
    // A rewind to the first chapter: the potion and the rope are carried again, at full health.
    await svc.rewind(owner, id, 0);
    expect(await story()).toEqual(at[0]);
    expect(await held()).toEqual(['Coil of Rope', 'Healing Potion']);
    const [branch] = await svc.listBranches(owner, id);
    await svc.restoreBranch(owner, id, branch!.id);
    expect(await story()).toEqual(at[2]);
    expect(await held()).toEqual([]);
  });

  it('a card the player edited keeps their text when a chapter names that person; undo takes back only what the chapters did', async () => {
    const id = await character();
    await commit(id, 0, STORY[0]!, 'one-call');
    const svc = t.app.services.stories;
    const odo = (await svc.listStoryCards(await ownerOf(id), id)).find((c) => c.name === 'Odo');
    await svc.updateStoryCard(await ownerOf(id), odo!.id, { description: 'Odo lies about the tides.' });
    await commit(id, 1, STORY[1]!, 'one-call');
    const after = await cardsOf(t.app.db.dataSource, id);
    expect(after.find((c) => c.name === 'Odo')).toMatchObject({
      description: 'Odo lies about the tides.',
      status: 'helpful',
      edited: true,
      aliases: ['Odo Brand'],
    });
    // Undo chapter 2: Mira (made by it) goes; Odo is back to the player's card as it was before chapter 2.
    await svc.undoLastChapter(await ownerOf(id), id);
    const undone = await cardsOf(t.app.db.dataSource, id);
    // (The items chapter 1 gave are not chapter 2's to take back.)
    expect(undone.map((c) => c.name)).toEqual(['Coil of Rope', 'Healing Potion', 'Odo']);
    expect(undone[2]).toMatchObject({ description: 'Odo lies about the tides.', status: 'watching', aliases: [], edited: true });
  });

  it('a regenerated take stores exactly what the same result stores as the first take', async () => {
    const [first, regenerated] = [await character(), await character()];
    for (const [i, step] of STORY.entries()) {
      await commit(first, i, step, 'one-call');
      // The other story gets a different take first (other stats, setting and missions), then the
      // same result as a new take: the first take's effects must be taken back completely.
      await commit(regenerated, i, OTHER.result && i === 0 ? { ...OTHER, preMission: 'Some other quest' } : OTHER, 'locked');
      await commit(regenerated, i, step, 'regenerate');
    }
    expect(await snapshot(regenerated)).toEqual(await snapshot(first));
  });

  it('a one-call commit whose story moved meanwhile is refused by the check and decided under the lock', async () => {
    const id = await character();
    await commit(id, 0, STORY[0]!, 'one-call');
    const row = await claim(id, 1);
    const stale = await stateOf(id);
    // The player edits the mission between the chapter's start and its commit: a new active mission.
    await t.app.db.dataSource.query(`UPDATE missions SET status = 'completed', completed_at = now() WHERE character_id = $1`, [id]);
    await t.app.db.dataSource.query(`INSERT INTO missions (character_id, objective, started_at, status) VALUES ($1, 'Edited by the player', now(), 'active')`, [
      id,
    ]);
    const outcome = await commitChapter(
      t.app.db.dataSource,
      {
        characterId: id,
        chapterId: row.id,
        index: 1,
        take: row.take,
        action: 'action 1',
        createdAt: row.createdAt,
        mode: 'next',
        result: STORY[1]!.result,
        preMission: null,
        summary: null,
        heroName: 'Ayla Storm',
        memories: [],
        promptReport: null,
      },
      stale,
    );
    // The locking path planned from the state it read: the mission completed is the edited one.
    expect(outcome.missionCompleted).toBe(true);
    const s = await snapshot(id);
    expect(s.chapters[1]!.effects).toEqual({ pre: null, completed: 'Edited by the player', next: 'Reach the lighthouse' });
    expect(s.missions.filter((m) => m.status === 'active').map((m) => m.objective)).toEqual(['Reach the lighthouse']);
  });
});
