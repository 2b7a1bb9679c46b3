import { CHECK_OUTCOMES, type CheckOutcome, type CheckOutcomeKind, type Difficulty } from '../../../ai/story-ai';
import type { CardSnapshot } from '../chapter.entity';
import { checkOdds, itemUsed, judgeAction, modifierOf, outcomeOf, rollCheck, rollD20 } from './checks';
import { earnedGrowth, healthGoingOn, inventoryOf, itemEffects, planHealth } from './hero-state';

const N = 20_000;

describe('the dice', () => {
  it('every face of the seeded d20 comes up as often as the others (chi-square, p = 0.001)', () => {
    const faces = new Array<number>(21).fill(0);
    for (let seed = 0; seed < N; seed++) faces[rollD20(seed)]! += 1;
    expect(faces[0]).toBe(0);
    const expected = N / 20;
    const chi = faces.slice(1).reduce((s, n) => s + (n - expected) ** 2 / expected, 0);
    // 19 degrees of freedom: 43.82 is the 0.001 critical value.
    expect(chi).toBeLessThan(43.82);
  });

  it('the same seed always falls the same way', () => {
    expect([1, 2, 3, 99].map(rollD20)).toEqual([1, 2, 3, 99].map(rollD20));
  });

  // Over many seeded rolls the outcome rates match the documented odds, within 4 standard errors of
  // each rate (sqrt(p(1 − p) / N): about ±1.2 points at p = 0.5 and N = 20,000).
  const cases: Array<[stat: number, dc: number, difficulty: Difficulty]> = [
    [10, 12, 'balanced'],
    [14, 15, 'balanced'],
    [8, 14, 'hard'],
    [18, 12, 'story'],
    [12, 20, 'hard'],
  ];
  it.each(cases)('stat %i against DC %i (%s): outcome rates match checkOdds', (stat, dc, difficulty) => {
    const counts = Object.fromEntries(CHECK_OUTCOMES.map((o) => [o, 0])) as Record<CheckOutcomeKind, number>;
    for (let seed = 0; seed < N; seed++) {
      counts[rollCheck({ attempt: 'x', stat: 'agility', difficulty: dc }, { agility: stat }, null, difficulty, rollD20(seed)).outcome] += 1;
    }
    const odds = checkOdds(modifierOf(stat), dc, difficulty);
    expect(Object.values(odds).reduce((a, b) => a + b, 0)).toBeCloseTo(1, 10);
    for (const o of CHECK_OUTCOMES) {
      const p = odds[o];
      const tolerance = 4 * Math.sqrt((p * (1 - p)) / N);
      expect(Math.abs(counts[o] / N - p)).toBeLessThanOrEqual(tolerance + 1e-9);
    }
  });

  it('the documented odds: natural 20 and 1, success at DC, at a cost up to 3 short', () => {
    // d20 + 0 against 12: 20 → critical (5%); 12–19 success (40%); 9–11 at a cost (15%); 2–8 failure (35%); 1 critical failure (5%).
    expect(checkOdds(0, 12, 'balanced')).toEqual({
      critical_success: 0.05,
      success: expect.closeTo(0.4, 10),
      success_at_cost: expect.closeTo(0.15, 10),
      failure: expect.closeTo(0.35, 10),
      critical_failure: 0.05,
    });
    // Story difficulty never rolls a critical failure: a natural 1 is a plain failure.
    expect(checkOdds(0, 12, 'story').critical_failure).toBe(0);
    expect(outcomeOf(1, 25, 12, 'story')).toBe('failure');
    expect(outcomeOf(20, 5, 19, 'hard')).toBe('critical_success');
    expect(modifierOf(8)).toBe(-1);
    expect(modifierOf(20)).toBe(5);
  });
});

describe('who judges an action', () => {
  it('routine actions are never rolled; risks are, on the stat they test', () => {
    expect(judgeAction(null, 'balanced')).toBeNull();
    expect(judgeAction('Look around the tavern', 'balanced')).toBeNull();
    expect(judgeAction('Ask the innkeeper about rooms', 'balanced')).toBeNull();
    expect(judgeAction('Attack the guard', 'balanced')).toMatchObject({ stat: 'strength', difficulty: 14 });
    expect(judgeAction('I confront the Director about the cover-up', 'balanced')).toMatchObject({ stat: 'charisma' });
    expect(judgeAction('Sneak past the sentries', 'balanced')).toMatchObject({ stat: 'agility' });
    expect(judgeAction('Climb the sea wall alone in the dark', 'balanced')).toMatchObject({ stat: 'agility' });
  });

  it('Story makes easy checks routine and lowers the rest; Hard raises them', () => {
    const balanced = judgeAction('Attack the guard', 'balanced')!;
    expect(judgeAction('Attack the guard', 'story')!.difficulty).toBe(balanced.difficulty - 3);
    expect(judgeAction('Attack the guard', 'hard')!.difficulty).toBe(balanced.difficulty + 2);
    expect(judgeAction('Carefully climb the low fence', 'balanced')).not.toBeNull();
    expect(judgeAction('Carefully climb the low fence', 'story')).toBeNull();
  });

  it("a storyteller's proposal is kept within bounds, on a stat the hero has", () => {
    expect(judgeAction('Charm the duke', 'balanced', { stat: 'Wisdom', difficulty: 99 })).toMatchObject({ stat: 'wisdom', difficulty: 20 });
    expect(judgeAction('Charm the duke', 'balanced', { stat: 'luck', difficulty: 3 })).toMatchObject({ stat: 'charisma' });
  });
});

const card = (over: Partial<CardSnapshot>): CardSnapshot => ({
  id: over.name ?? 'id',
  kind: 'item',
  name: 'Rope',
  aliases: [],
  description: 'A coil of rope.',
  role: null,
  status: null,
  pinned: false,
  source: 'model',
  edited: false,
  lastSeenIndex: 0,
  held: true,
  revision: 'r0',
  ...over,
});

describe('items', () => {
  const cards = [
    card({ name: 'Grappling Hook' }),
    card({ name: 'Healing Potion' }),
    card({ name: 'Old Map', held: false }),
    card({ name: 'Mira', kind: 'character', held: false }),
  ];

  it('the inventory is the held item cards; an action naming one uses it for +2', () => {
    expect(inventoryOf(cards).map((i) => i.name)).toEqual(['Grappling Hook', 'Healing Potion']);
    expect(itemUsed('Climb the wall with the hook', inventoryOf(cards))?.name).toBe('Grappling Hook');
    expect(itemUsed('Read the old map', inventoryOf(cards))).toBeNull(); // not carried
    const plan = { attempt: 'climb', stat: 'agility' as const, difficulty: 14 };
    const without = rollCheck(plan, { agility: 10 }, null, 'balanced', rollD20(7));
    const withHook = rollCheck(plan, { agility: 10 }, inventoryOf(cards)[0]!, 'balanced', rollD20(7));
    expect(withHook.total).toBe(without.total + 2);
    expect(withHook).toMatchObject({ item: 'Grappling Hook', itemBonus: 2, itemUsedUp: false });
    expect(rollCheck(plan, { agility: 10 }, inventoryOf(cards)[1]!, 'balanced', rollD20(7)).itemUsedUp).toBe(true);
  });

  it('gains become held item cards, losses of carried things are kept, others ignored, a used-up consumable goes', () => {
    const check = { item: 'Healing Potion', itemUsedUp: true } as CheckOutcome;
    const r = itemEffects(
      cards,
      [
        { name: 'Brass Key', description: 'Opens the vault.' },
        { name: 'Old Map', description: 'x' },
        { name: 'Mira', description: 'x' },
      ],
      ['Grappling Hook', 'Crown of Stars'],
      check,
      3,
    );
    expect(r.gained).toEqual(['Brass Key', 'Old Map']);
    expect(r.lost).toEqual(['Grappling Hook', 'Healing Potion']);
    const after = new Map(r.effects.map((e) => [e.after.name, e.after]));
    expect(after.get('Brass Key')).toMatchObject({ kind: 'item', held: true, lastSeenIndex: 3 });
    expect(after.get('Old Map')).toMatchObject({ held: true });
    expect(after.get('Grappling Hook')).toMatchObject({ held: false });
    expect(after.get('Healing Potion')).toMatchObject({ held: false, status: 'used up' });
    expect(after.has('Mira')).toBe(false);
  });
});

describe('health, defeat and growth', () => {
  const hit = (healthLost: number) => ({ healthLost }) as CheckOutcome;
  it('a check costs what it costs; rest gives back only in a chapter that cost nothing, up to the most', () => {
    expect(planHealth({ current: 10, max: 10 }, hit(2), 5)).toMatchObject({ healthBefore: 10, healthAfter: 8, defeat: false, healthRestored: 0 });
    expect(planHealth({ current: 4, max: 10 }, null, 3)).toMatchObject({ healthAfter: 7, healthRestored: 3 });
    expect(planHealth({ current: 9, max: 10 }, null, 5)).toMatchObject({ healthAfter: 10, healthRestored: 1 });
  });

  it('at 0 the chapter is a defeat; going on costs 2 of the most for good (never below 4) and starts at half', () => {
    expect(planHealth({ current: 2, max: 10 }, hit(4), 0)).toMatchObject({ healthAfter: 0, defeat: true });
    expect(healthGoingOn({ current: 0, max: 10 })).toEqual({ current: 4, max: 8, lastingCost: 2 });
    expect(planHealth({ current: 0, max: 10 }, null, 0)).toMatchObject({
      healthBefore: 0,
      healthMaxBefore: 10,
      healthAfter: 4,
      healthMaxAfter: 8,
      lastingCost: 2,
    });
    expect(healthGoingOn({ current: 0, max: 5 })).toEqual({ current: 2, max: 4, lastingCost: 1 });
  });

  it('stats grow from succeeding against a harder difficulty and from completed missions, at most 2 a chapter', () => {
    const stats = { strength: 12, charisma: 8, wisdom: 20 };
    const won = { stat: 'charisma', difficulty: 14, outcome: 'success' } as CheckOutcome;
    expect(earnedGrowth(stats, won, false, { strength: 3 })).toEqual({ charisma: 1 });
    expect(earnedGrowth(stats, { ...won, outcome: 'failure' }, false, { charisma: 3 })).toEqual({});
    expect(earnedGrowth(stats, { ...won, stat: 'strength', difficulty: 10 }, false, {})).toEqual({}); // too easy to learn from
    expect(earnedGrowth(stats, won, true, { strength: 2, charisma: 1 })).toEqual({ charisma: 1, strength: 1 });
    expect(earnedGrowth(stats, null, true, { wisdom: 1 })).toEqual({}); // at the cap
    expect(earnedGrowth(stats, null, false, { strength: 3, charisma: 3 })).toEqual({}); // proposals alone earn nothing
  });
});
