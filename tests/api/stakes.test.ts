import { OfflineStoryAI } from '../../server/src/ai/offline/offline-story-ai';
import { makeCharacter, scriptedAI, scriptedDice, useStoryAI } from '../support/story-fixtures';
import { signUp, startTestApp, type TestApp } from '../support/test-app';

/**
 * Stakes (issue 31) over the API, on PGlite or PostgreSQL (DATABASE_URL): a check rolled before the
 * chapter and carried by GraphQL, REST and exports; the storyteller told the outcome; items used for
 * a bonus and used up; health lost, regained, a defeat and the choice after it (rewind, or go on at
 * a lasting cost); difficulty per story; all of it exact through regenerate and undo.
 */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const PLAY = /* GraphQL */ `
  mutation Play($input: GenerateChapterInput!) {
    generateChapter(input: $input) {
      newChapter {
        id
        index
        text
        check {
          attempt
          stat
          difficulty
          roll
          modifier
          itemBonus
          item
          total
          outcome
          healthLost
          itemUsedUp
        }
        stakes {
          healthBefore
          healthAfter
          healthMax
          defeat
          lastingCost
          healthRestored
          itemsGained
          itemsLost
        }
      }
      newIncreases
    }
  }
`;
const HERO = /* GraphQL */ `
  query Hero($id: ID!) {
    character(id: $id) {
      health
      healthMax
      inventory {
        name
        held
      }
      storyMemory {
        difficulty
      }
    }
  }
`;
const MEMORY = 'mutation($id: ID!, $input: StoryMemoryInput!) { updateStoryMemory(characterId: $id, input: $input) { difficulty } }';

type Played = {
  newChapter: {
    id: string;
    index: number;
    text: string;
    check: null | {
      stat: string;
      difficulty: number;
      roll: number;
      modifier: number;
      itemBonus: number;
      item: string | null;
      total: number;
      outcome: string;
      healthLost: number;
      itemUsedUp: boolean;
    };
    stakes: {
      healthBefore: number;
      healthAfter: number;
      healthMax: number;
      defeat: boolean;
      lastingCost: number;
      healthRestored: number;
      itemsGained: string[];
      itemsLost: string[];
    };
  };
  newIncreases: Record<string, number>;
};

async function setUp(rolls: number[]) {
  const ai = scriptedAI();
  useStoryAI(t, ai, { dice: scriptedDice(rolls) });
  const p = await signUp(t);
  const c = await makeCharacter(t, p.user.id);
  const play = async (action: string | null) => {
    const r = await t.gql(PLAY, { input: { characterId: c.id, userChoice: action } }, p.accessToken);
    expect(r.errors).toBeUndefined();
    return (r.data as { generateChapter: Played }).generateChapter;
  };
  const hero = async () => {
    const r = await t.gql(HERO, { id: c.id }, p.accessToken);
    expect(r.errors).toBeUndefined();
    return (
      r.data as { character: { health: number; healthMax: number; inventory: Array<{ name: string; held: boolean }>; storyMemory: { difficulty: string } } }
    ).character;
  };
  return { ai, token: p.accessToken, id: c.id, play, hero };
}

it('a risky action is rolled before the chapter: the storyteller is told the failure, narrates it, and the hero is hurt (GraphQL and REST)', async () => {
  const s = await setUp([4]);
  await s.play(null);
  expect(await s.hero()).toMatchObject({ health: 10, healthMax: 10, inventory: [], storyMemory: { difficulty: 'balanced' } });

  const attack = await s.play('Attack the guard at the gate');
  // strength 12 → +1; the guard is DC 14: 4 + 1 = 5, more than 3 short: a failure, costing 2.
  expect(attack.newChapter.check).toEqual({
    attempt: 'attack the guard at the gate',
    stat: 'strength',
    difficulty: 14,
    roll: 4,
    modifier: 1,
    itemBonus: 0,
    item: null,
    total: 5,
    outcome: 'failure',
    healthLost: 2,
    itemUsedUp: false,
  });
  expect(attack.newChapter.stakes).toMatchObject({ healthBefore: 10, healthAfter: 8, defeat: false });
  expect(attack.newIncreases).toEqual({});
  // The storyteller was told before it wrote a word, and the chapter reads as a failure.
  expect(s.ai.calls[1]!.check).toMatchObject({ outcome: 'failure', roll: 4 });
  expect(s.ai.calls[1]!.health).toEqual({ current: 8, max: 10 });
  // The attempt (its verb and what it was done to: the typed sentence is not pasted back), then how it failed (in the story's present tense).
  expect(attack.newChapter.text).toMatch(/attack the guard[^.]*[.;,] (?:it goes wrong|it does not work|nothing comes of it|it fails, plainly)/i);
  expect(await s.hero()).toMatchObject({ health: 8 });

  // A routine action is not rolled.
  const look = await t.rest('POST', '/api/stories/generate-chapter', { characterId: s.id, userChoice: 'Look around the square' }, s.token);
  expect(look.status).toBe(200);
  expect(look.body).toMatchObject({ newChapter: { check: null, stakes: { healthBefore: 8, healthAfter: 8 } }, health: { current: 8, max: 10 } });

  // REST reads: the storyline carries each chapter's check; the stakes path the hero's state.
  const line = await t.rest('GET', `/api/stories/storyline/${s.id}`, undefined, s.token);
  expect(
    (line.body as { storyline: { chapters: Array<{ check: { outcome: string } | null }> } }).storyline.chapters.map((c) => c.check?.outcome ?? null),
  ).toEqual([null, 'failure', null]);
  expect((await t.rest('GET', `/api/stories/stakes/${s.id}`, undefined, s.token)).body).toEqual({
    error: null,
    health: 8,
    healthMax: 10,
    difficulty: 'balanced',
    inventory: [],
  });
  // Exports show the dice.
  const md = await t.rest('GET', `/api/stories/export/${s.id}?format=md`, undefined, s.token);
  expect(md.body).toContain('*Check — strength against 14: rolled 4 \\+ 1 \\(strength\\) = 5, failure. Health 10 → 8 of 10.*'); // (Markdown-escaped)
  const html = await t.rest('GET', `/api/stories/export/${s.id}?format=html`, undefined, s.token);
  expect(html.body).toContain('<p class="dice"><small>Check — strength against 14: rolled 4 + 1 (strength) = 5, failure. Health 10 → 8 of 10.</small></p>');
});

it('an item the hero carries gives +2 and a consumable is used up; a success against a harder difficulty grows the stat; regenerate keeps the roll, undo takes it all back', async () => {
  const s = await setUp([12]);
  await s.play(null);
  const potion = await t.gql(
    'mutation($id: ID!) { createStoryCard(characterId: $id, input: { kind: item, name: "Healing Potion", description: "A red draught." }) { id held } }',
    { id: s.id },
    s.token,
  );
  expect(potion.errors).toBeUndefined();
  expect(potion.data).toMatchObject({ createStoryCard: { held: true } });
  const before = await s.hero();
  expect(before.inventory).toEqual([{ name: 'Healing Potion', held: true }]);

  // agility 10 → +0; climbing is DC 12 (travel); the potion +2: 12 + 0 + 2 = 14, a success.
  const climb = await s.play('Drink the healing potion and climb the sea wall');
  expect(climb.newChapter.check).toMatchObject({
    stat: 'agility',
    roll: 12,
    itemBonus: 2,
    item: 'Healing Potion',
    total: 14,
    outcome: 'success',
    itemUsedUp: true,
  });
  expect(climb.newChapter.stakes).toMatchObject({ itemsLost: ['Healing Potion'] });
  expect(climb.newIncreases).toEqual({ agility: 1 });
  expect(s.ai.calls[1]!.inventory).toEqual([{ name: 'Healing Potion', description: 'A red draught.' }]);
  expect(await s.hero()).toMatchObject({ inventory: [] });

  // Another take keeps the roll (writing again never rerolls), with the same outcome.
  const regen = await t.gql(
    'mutation($id: ID!) { regenerateChapter(input: { characterId: $id }) { newChapter { take check { roll outcome item } } } }',
    { id: s.id },
    s.token,
  );
  expect(regen.errors).toBeUndefined();
  expect(regen.data).toMatchObject({ regenerateChapter: { newChapter: { take: 1, check: { roll: 12, outcome: 'success', item: 'Healing Potion' } } } });
  // Undo: the potion is carried again and the stat as it was.
  expect((await t.rest('POST', '/api/stories/undo-chapter', { characterId: s.id }, s.token)).status).toBe(200);
  expect(await s.hero()).toEqual(before);
});

it('at 0 health the chapter is a defeat; the player rewinds, or goes on at a lasting cost; rest restores health (Hard difficulty)', async () => {
  const s = await setUp([1, 1, 15]);
  await s.play(null);
  const set = await t.gql(MEMORY, { id: s.id, input: { difficulty: 'hard' } }, s.token);
  expect(set.errors).toBeUndefined();
  // Hard: a critical failure costs 6.
  const first = await s.play('Attack all of them alone');
  expect(first.newChapter.check).toMatchObject({ outcome: 'critical_failure', healthLost: 6 });
  expect(first.newChapter.stakes).toMatchObject({ healthAfter: 4, defeat: false });
  const down = await s.play('Fight the captain');
  expect(down.newChapter.stakes).toMatchObject({ healthBefore: 4, healthAfter: 0, defeat: true });
  expect(s.ai.calls[2]!.defeat).toBe(true);
  expect(down.newChapter.text).toMatch(/a defeat — not death/);
  expect(await s.hero()).toMatchObject({ health: 0, healthMax: 10 });

  // Rewind: the chapter before the defeat, health as it was there.
  const rewind = await t.rest('POST', '/api/stories/rewind', { characterId: s.id, chapterIndex: 1 }, s.token);
  expect(rewind.status).toBe(200);
  expect(await s.hero()).toMatchObject({ health: 4, healthMax: 10 });
  const [branch] = (await t.rest('GET', `/api/stories/branches/${s.id}`, undefined, s.token)).body.branches as Array<{ id: string }>;
  expect((await t.rest('POST', '/api/stories/restore-branch', { characterId: s.id, branchId: branch!.id }, s.token)).status).toBe(200);
  expect(await s.hero()).toMatchObject({ health: 0, healthMax: 10 });

  // Go on: the most health drops by 2 for good, and the hero starts again at half of it; resting restores.
  const rest = await s.play('Rest and tend my wounds');
  expect(rest.newChapter.check).toBeNull();
  expect(rest.newChapter.stakes).toMatchObject({ healthBefore: 0, lastingCost: 2, healthMax: 8, healthRestored: 3, healthAfter: 7 });
  expect(s.ai.calls[3]!.health).toEqual({ current: 4, max: 8 });
  expect(await s.hero()).toMatchObject({ health: 7, healthMax: 8 });
  // Undo the going on: the defeat again, at the old maximum.
  await t.rest('POST', '/api/stories/undo-chapter', { characterId: s.id }, s.token);
  expect(await s.hero()).toMatchObject({ health: 0, healthMax: 10 });
});

it('difficulty is a story setting with a coded error for anything else (GraphQL and REST), owner only', async () => {
  const s = await setUp([10]);
  const bad = await t.gql(MEMORY, { id: s.id, input: { difficulty: 'nightmare' } }, s.token);
  expect(bad.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
  const r = await t.rest('POST', '/api/stories/difficulty', { characterId: s.id, difficulty: 'nightmare' }, s.token);
  expect(r.status).toBe(400);
  expect(r.body).toMatchObject({ code: 'BAD_USER_INPUT' });
  const ok = await t.rest('POST', '/api/stories/difficulty', { characterId: s.id, difficulty: 'story' }, s.token);
  expect(ok.body).toEqual({ error: null, difficulty: 'story' });
  expect(await s.hero()).toMatchObject({ storyMemory: { difficulty: 'story' } });
  const stranger = await signUp(t);
  expect((await t.rest('GET', `/api/stories/stakes/${s.id}`, undefined, stranger.accessToken)).status).toBe(404);
  expect((await t.rest('POST', '/api/stories/difficulty', { characterId: s.id, difficulty: 'hard' }, stranger.accessToken)).status).toBe(404);
});

it("a suggested choice is rolled on the storyteller's proposal (within bounds); a typed action by the rules", async () => {
  // The storyteller proposes for its first choice: wisdom against 18 (a model's record would say so).
  const base = new OfflineStoryAI();
  const ai = scriptedAI({
    streamChapter: async function* (input, opts) {
      for await (const ev of base.streamChapter(input, opts)) {
        yield ev.type === 'final' ? { ...ev, result: { ...ev.result, choiceChecks: [{ choice: 1, stat: 'wisdom' as const, difficulty: 18 }] } } : ev;
      }
    },
  });
  useStoryAI(t, ai, { dice: scriptedDice([10]) });
  const p = await signUp(t);
  const c = await makeCharacter(t, p.user.id);
  const play = async (action: string | null) => {
    const r = await t.rest('POST', '/api/stories/generate-chapter', { characterId: c.id, userChoice: action }, p.accessToken);
    expect(r.status).toBe(200);
    return r.body as { newChapter: { choices: string[]; check: { stat: string; difficulty: number; outcome: string } | null } };
  };
  const first = await play(null);
  const picked = await play(first.newChapter.choices[0]!);
  // wisdom 9 → −1: 10 − 1 = 9 against 18, a failure — on the proposal, whatever the rules would say of the words.
  expect(picked.newChapter.check).toMatchObject({ stat: 'wisdom', difficulty: 18, outcome: 'failure' });
  expect(ai.calls[1]!.check).toMatchObject({ stat: 'wisdom', difficulty: 18 });
  // Hard difficulty shifts a proposal like any check.
  await t.gql(MEMORY, { id: c.id, input: { difficulty: 'hard' } }, p.accessToken);
  const second = await play(picked.newChapter.choices[0]!);
  expect(second.newChapter.check).toMatchObject({ stat: 'wisdom', difficulty: 20 });
  // A typed action is the rules' to judge, even when it reads like a choice.
  const typed = await play('Look around the square');
  expect(typed.newChapter.check).toBeNull();
});
