import { companionsLine, roundParts } from '../../../ai/offline/round';
import { composeRoundAction } from '../../parties/party-rules';
import { rollD20 } from './checks';
import { companionChecksOf, companionGrowth, memberSeed, rollCompanions, type CompanionPart } from './party-checks';

const BASE = { strength: 10, agility: 10, endurance: 10, intellect: 10, wisdom: 10, charisma: 10 };

describe("a party round's companions: each part judged and rolled on its own", () => {
  const parts: CompanionPart[] = [
    { userId: 'u-tom', name: 'Tom', action: 'attacks the guard', stats: { ...BASE, strength: 16 } },
    { userId: 'u-ada', name: 'Ada', action: 'climb the wall', stats: { ...BASE, agility: 6 } },
    { userId: 'u-bo', name: 'Bo', action: 'looks around the square', stats: BASE },
  ];

  it("judges each member's own text (not the round's) and rolls it on that member's stats", () => {
    const rolls: number[] = [];
    const checks = rollCompanions(parts, 'balanced', 42, (seed) => {
      rolls.push(seed);
      return 10;
    });
    // Tom's attack is strength (his 16: +3), Ada's climb agility (her 6: −2); Bo's look is routine: no roll.
    expect(checks.map((c) => c.check && [c.check.stat, c.check.difficulty, c.check.modifier, c.check.total, c.check.outcome])).toEqual([
      ['strength', 14, 3, 13, 'success_at_cost'],
      ['agility', 12, -2, 8, 'failure'],
      null,
    ]);
    // No item of the hero's: a companion carries none of them.
    expect(checks.every((c) => !c.check || (c.check.itemBonus === 0 && c.check.item === null))).toBe(true);
    // One d20 per rolled part, each from the chapter's seed and the member.
    expect(rolls).toEqual([memberSeed(42, 'u-tom'), memberSeed(42, 'u-ada')]);
  });

  it('the seed is per chapter and member: the same for another take, different between members and chapters', () => {
    expect(memberSeed(42, 'u-tom')).toBe(memberSeed(42, 'u-tom'));
    expect(memberSeed(42, 'u-tom')).not.toBe(memberSeed(42, 'u-ada'));
    expect(memberSeed(42, 'u-tom')).not.toBe(memberSeed(43, 'u-tom'));
    const once = rollCompanions(parts, 'balanced', 7, rollD20);
    expect(rollCompanions(parts, 'balanced', 7, rollD20)).toEqual(once);
  });

  it("grows a member's own stat by the hero's rule (a success against a difficulty above it), never by a mission", () => {
    const [tom, ada] = rollCompanions(parts, 'balanced', 1, () => 20);
    // A natural 20 for Tom against 14, above his strength 16? No: 14 is below it, so nothing grows.
    expect(tom!.statIncreases).toEqual({});
    expect(tom!.statsAfter).toEqual(tom!.statsBefore);
    // Ada's 20 against 12, above her agility 6: +1 on her stats only.
    expect(ada!.statIncreases).toEqual({ agility: 1 });
    expect(ada!.statsAfter).toEqual({ ...BASE, agility: 7 });
    // A failure grows nothing; a routine part grows nothing.
    const [, failed, routine] = rollCompanions(parts, 'balanced', 1, () => 2);
    expect(failed!.statIncreases).toEqual({});
    expect(routine!.statIncreases).toEqual({});
    expect(companionGrowth({ userId: 'u', name: 'N', action: 'a', check: null, statsBefore: BASE }).statsAfter).toEqual(BASE);
  });

  it("a part that is one of the offered choices is judged on the storyteller's proposal for it, within bounds", () => {
    const offered = [{ choice: 'Looks around the square', stat: 'wisdom', difficulty: 30 }];
    const [, , bo] = rollCompanions(parts, 'balanced', 5, () => 10, offered);
    expect(bo!.check).toMatchObject({ stat: 'wisdom', difficulty: 20, total: 10, outcome: 'failure' });
  });

  it('tells the storyteller only the rolled checks, by name', () => {
    const checks = rollCompanions(parts, 'balanced', 3, () => 11);
    expect(companionChecksOf(checks).map((c) => c.name)).toEqual(['Tom', 'Ada']);
  });

  it("the offline narration tells each companion's outcome, naming who", () => {
    const action = composeRoundAction([
      { name: 'Kael Stormborn', text: 'climbs the bell tower' },
      { name: 'Tom', text: 'attacks the guard' },
      { name: 'Ada', text: 'climb the wall' },
      { name: 'Bo', text: 'looks around the square' },
    ]);
    const round = roundParts(action, 'Kael Stormborn')!;
    const checks = companionChecksOf(rollCompanions(parts, 'balanced', 3, (seed) => (seed === memberSeed(3, 'u-tom') ? 20 : 1)));
    expect(companionsLine(round.others, 'Kael', true, checks)).toBe(
      'Beside Kael, Tom managed to attack the guard, brilliantly, better than anyone had hoped, Ada tried to climb the wall and failed badly, which made things worse, and Bo looked around the square',
    );
    // Without checks, as before.
    expect(companionsLine(round.others, 'Kael', true)).toBe('Beside Kael, Tom attacked the guard, Ada climbed the wall, and Bo looked around the square');
  });
});
