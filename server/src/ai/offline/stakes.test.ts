/**
 * The offline storyteller narrates the engine's check (issue 31): over hundreds of random worlds and
 * actions, a failed check is told as a failure and never as the action working; a success as a
 * success; a defeat as a defeat; and its record reports what the hero picks up and rests from.
 */
import { collectChapter, type ChapterInput, type CheckOutcome, type CheckOutcomeKind } from '../story-ai';
import { OfflineStoryAI } from './offline-story-ai';
import { Rng } from './prng';
import { normaliseAction } from './text';
import { randomCharacter, randomWorld, SAMPLE_ACTIONS } from './test-worlds';

const ai = new OfflineStoryAI();

function input(rng: Rng, outcome: CheckOutcomeKind | null, over: Partial<ChapterInput> = {}): ChapterInput {
  const world = randomWorld(rng);
  const action = rng.pick(SAMPLE_ACTIONS);
  const check: CheckOutcome | null = outcome
    ? {
        attempt: normaliseAction(action).clause,
        stat: 'agility',
        difficulty: 15,
        roll: outcome === 'critical_failure' ? 1 : outcome === 'critical_success' ? 20 : 8,
        modifier: 0,
        itemBonus: 0,
        item: null,
        total: 8,
        outcome,
        healthLost: outcome === 'failure' ? 2 : outcome === 'critical_failure' ? 4 : 0,
        itemUsedUp: false,
      }
    : null;
  return {
    worldDescription: world.description,
    character: randomCharacter(rng),
    // An old mission: the storyteller would complete it often, were the action not failed.
    mission: `Recover the iron key from ${world.names[1]}`,
    missionAge: 6,
    setting: null,
    summary: '',
    recentChapters: [{ text: 'The rain had not stopped for three days, and the roads were mud.', playerChoice: 'Wait' }],
    chapterNumber: 2 + rng.int(30),
    action,
    readingLevel: 1 + rng.int(12),
    seed: rng.int(1_000_000),
    maxContextTokens: 4000,
    check,
    inventory: [],
    health: { current: 6, max: 10 },
    defeat: false,
    difficulty: 'balanced',
    ...over,
  };
}

/** Wording that tells the action working (the chapter's own lines about how an action went, and the check's success lines). */
const SUCCESS =
  /managed to|paid off|pays off|\bit (?:half )?work(?:ed|s)\b|went right|goes right|luck hold|went better than|got it right|found what \w+ needed|found a clue|no one (?:saw|noticed)|kept (?:their|his|her) feet|fell back|gave ground|one more piece|had guessed right|had been right about|had managed to|made the difference|makes the difference|talk(?:ed|s)\b|c[oa]mes? round|g[ai]ves? way|worth the asking|a long look, then|there it (?:was|is)|the price (?:was|is) more|c[oa]mes? right|price c[oa]mes?|not for free/i;
/** How the offline storyteller tells a failed attempt (answer.ts), in any tense. */
const FAILED = /it (?:went|goes) wrong|it (?:did|does) not work|nothing (?:came|comes) of it|it fail(?:ed|s), plainly/i;

describe('the offline storyteller narrates the check it is given', () => {
  const rng = new Rng(31);
  it.each(['failure', 'critical_failure'] as const)('a %s is told as a failure, never as success, and completes nothing (300 chapters)', async (outcome) => {
    for (let i = 0; i < 300; i++) {
      const chapter = input(rng, outcome);
      const { result } = await collectChapter(ai.streamChapter(chapter));
      const name = result.text;
      expect(name).toMatch(FAILED);
      const success = SUCCESS.exec(result.text);
      expect(success?.[0] ?? null).toBeNull();
      expect(result.missionCompleted).toBe(false);
      expect(result.itemsGained).toEqual([]);
    }
  });

  it.each(['success', 'success_at_cost', 'critical_success'] as const)('a %s is told as the action working', async (outcome) => {
    for (let i = 0; i < 50; i++) {
      const { result } = await collectChapter(ai.streamChapter(input(rng, outcome)));
      expect(result.text).toMatch(SUCCESS);
      expect(result.text).not.toMatch(FAILED);
    }
  });

  it('a defeat is told as a defeat (not death); an item used up is named and reported lost', async () => {
    const chapter = input(rng, 'critical_failure', { defeat: true, health: { current: 0, max: 10 } });
    chapter.check = { ...chapter.check!, item: 'Healing Potion', itemBonus: 2, itemUsedUp: true };
    const { result } = await collectChapter(ai.streamChapter(chapter));
    expect(result.text).toMatch(/defeat — not death/);
    expect(result.text).toMatch(/use Healing Potion, but it is not enough/);
    // (Adult prose may join it to the sentence before: "…; the Healing Potion is used up".)
    expect(result.text).toMatch(/the Healing Potion is used up/i);
    expect(result.text).not.toMatch(/\btheir strength/);
    expect(result.itemsLost).toEqual(['Healing Potion']);
    expect(result.healthRestored).toBe(0);
  });

  it('what the hero takes is reported as gained, unless the check failed; rest restores health', async () => {
    const take = await collectChapter(ai.streamChapter(input(rng, null, { action: 'Take the brass lantern' })));
    expect(take.result.itemsGained).toEqual([expect.objectContaining({ name: 'Brass lantern' })]);
    expect(take.result.text).toMatch(/brass lantern goes with the rest of what you carry/);
    const stolen = await collectChapter(ai.streamChapter(input(rng, 'failure', { action: 'Steal the brass lantern' })));
    expect(stolen.result.itemsGained).toEqual([]);
    const rest = await collectChapter(ai.streamChapter(input(rng, null, { action: 'Rest by the fire' })));
    expect(rest.result.healthRestored).toBe(3);
    const full = await collectChapter(ai.streamChapter(input(rng, null, { action: 'Rest by the fire', health: { current: 10, max: 10 } })));
    expect(full.result.healthRestored).toBe(0);
  });

  it.each([
    'Take the back way out of the square',
    'Take the long road home',
    'Take a chance on the stranger',
    'Take cover behind the cart',
    'Keep watch by the gate',
  ])('"%s" is a way to go or a thing to do, not a thing to carry', async (action) => {
    const { result } = await collectChapter(ai.streamChapter(input(rng, null, { action })));
    expect(result.itemsGained).toEqual([]);
    expect(result.text).not.toMatch(/with the rest of what you carry/);
  });
});
