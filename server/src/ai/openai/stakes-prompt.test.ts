import type { ChapterInput } from '../story-ai';
import { chapterMessages } from './prompts';
import { chapterRecordSchema, normaliseWire, recordFromWire, wire } from './wire-schemas';

/** The prompt to a model states the engine's outcome, health, belongings and a defeat (issue 31). */
const base: ChapterInput = {
  worldDescription: 'A drowned city of bells and lanterns, where the tide rules the streets.',
  character: { name: 'Ayla Storm', description: 'A cartographer.', stats: { agility: 12, strength: 9 }, traits: ['curious'] },
  mission: 'Reach the lighthouse',
  summary: '',
  recentChapters: [],
  chapterNumber: 3,
  action: 'Climb the sea wall',
  readingLevel: 8,
  seed: 1,
  maxContextTokens: 8000,
  inventory: [{ name: 'Grappling Hook', description: 'Iron, three-pronged.' }],
  health: { current: 6, max: 10 },
  difficulty: 'balanced',
};
const lastTurn = (input: ChapterInput) => {
  const m = chapterMessages(input).messages;
  return m[m.length - 1]!.content as string;
};

it('states the check and its outcome, and what it costs, as decided', () => {
  const text = lastTurn({
    ...base,
    check: {
      attempt: 'climb the sea wall',
      stat: 'agility',
      difficulty: 15,
      roll: 7,
      modifier: 1,
      itemBonus: 2,
      item: 'Grappling Hook',
      total: 10,
      outcome: 'failure',
      healthLost: 2,
      itemUsedUp: false,
    },
  });
  expect(text).toContain('agility against 15: rolled 7 + 3 = 10. FAILURE: it does not work. Do not let it succeed in any way');
  expect(text).toContain('The hero uses the «Grappling Hook» for it.');
  expect(text).toContain('The outcome costs the hero 2 health');
  expect(text).toContain("HERO'S HEALTH: 6/10.");
  expect(text).toContain('THE HERO CARRIES ONLY: «Grappling Hook» («Iron, three-pronged.»)');
  expect(chapterMessages(base).report.sections.map((s) => s.key)).toContain('stakes');
});

it('a routine action is said to happen; a defeat is a defeat, not death', () => {
  expect(lastTurn(base)).toContain('ROUTINE ACTION: no roll');
  const defeat = lastTurn({ ...base, defeat: true, health: { current: 0, max: 10 } });
  expect(defeat).toContain("This chapter is the hero's defeat");
  expect(defeat).toContain('NOT dead');
});

it('on a small context (the Free tier) the same is said in fewer words', () => {
  const check = {
    attempt: 'climb the sea wall',
    stat: 'agility' as const,
    difficulty: 15,
    roll: 7,
    modifier: 1,
    itemBonus: 0,
    item: null,
    total: 8,
    outcome: 'failure' as const,
    healthLost: 2,
    itemUsedUp: false,
  };
  const small = chapterMessages({ ...base, maxContextTokens: 2000, check }).report.sections.find((s) => s.key === 'stakes')!;
  const large = chapterMessages({ ...base, check }).report.sections.find((s) => s.key === 'stakes')!;
  expect(small.text).toContain("THE ACTION'S OUTCOME (decided; never contradict it): FAILURE: it does not work.");
  expect(small.text).toContain('CARRIES ONLY: «Grappling Hook».');
  expect(small.text).toContain('Hurt: −2 health.');
  expect(small.tokens).toBeLessThan(large.tokens * 0.5);
});

it("a model's proposals for its next actions are read from its record, brought within bounds, and the rest left out", () => {
  const raw = {
    statIncreases: [],
    newSetting: null,
    missionCompleted: false,
    newMission: null,
    cast: [],
    memories: [],
    itemsGained: [],
    itemsLost: [],
    healthRestored: 0,
    choiceChecks: [
      { choice: '2', stat: 'Agility', difficulty: 25 },
      { choice: 1, stat: 'luck', difficulty: 10 },
      { choice: 3, stat: 'charisma', difficulty: '12' },
    ],
  };
  const parsed = wire.record.parse(normaliseWire('record', raw));
  expect(chapterRecordSchema.parse(recordFromWire(parsed)).choiceChecks).toEqual([
    { choice: 2, stat: 'agility', difficulty: 20 },
    { choice: 3, stat: 'charisma', difficulty: 12 },
  ]);
  // A record without them (an older model, a terse one) is not wrong: none.
  const { choiceChecks: _, ...without } = raw;
  expect(chapterRecordSchema.parse(recordFromWire(wire.record.parse(normaliseWire('record', without)))).choiceChecks).toEqual([]);
});

it("a party round: each companion's own check is stated for them, by name, apart from the hero's", () => {
  const companion = (attempt: string, stat: 'strength' | 'charisma', roll: number, outcome: 'success' | 'failure') => ({
    attempt,
    stat,
    difficulty: 12,
    roll,
    modifier: 1,
    itemBonus: 0,
    item: null,
    total: roll + 1,
    outcome,
    healthLost: 0,
    itemUsedUp: false,
  });
  const input: ChapterInput = {
    ...base,
    action: 'Ayla Storm: looks around. Tom: attacks the guard. Ada: persuade the innkeeper.',
    companionChecks: [
      { name: 'Tom', check: companion('attack the guard', 'strength', 14, 'success') },
      { name: 'Ada', check: companion('persuade the innkeeper', 'charisma', 3, 'failure') },
    ],
  };
  const text = lastTurn(input);
  expect(text).toContain(
    "COMPANION CHECK (rolled by the game on «Tom»'s own strength; narrate exactly this outcome for «Tom», never for the hero): «Tom» tries to «attack the guard» — strength against 12: rolled 14 + 1 = 15. SUCCESS: it works.",
  );
  expect(text).toContain('«Ada» tries to «persuade the innkeeper» — charisma against 12: rolled 3 + 1 = 4. FAILURE: it does not work.');
  expect(text).toContain("THE HERO'S PART IS ROUTINE: no roll");
  // A small context: the outcomes alone, by name.
  const small = chapterMessages({ ...input, maxContextTokens: 2048 })
    .messages.map((m) => m.content)
    .join('\n');
  expect(small).toContain("«Ada»'S OUTCOME (decided): FAILURE: it does not work.");
});
