/**
 * Checks: whether an action can fail, and how it came out — decided by the engine before a word of
 * the chapter is written (issue 31). The storyteller (model or offline) is told the outcome and
 * narrates it; it never decides it.
 *
 * The rules, as the README states them:
 * - Who judges. Typed and suggested actions alike are judged by these rules (judgeAction): an action
 *   is routine (no roll) unless it fights, sneaks, steals, persuades against someone's will, climbs,
 *   leaps, escapes, or otherwise risks something (its verb and a few risk words). A routine action
 *   never fails. The difficulty number (DC) comes from the kind of action and its wording, 8–20.
 *   When a suggested choice came with the storyteller's own proposal (proposedCheck), that proposal
 *   is used instead — clamped to the same bounds, on a stat the hero has.
 * - The roll. d20 + the stat's modifier (⌊(stat − 10) / 2⌋) + 2 for an item the action uses, against
 *   the DC, from a seeded generator (the chapter's id), recorded with the take: another take of the
 *   same chapter keeps the roll (regenerating never rerolls a failure).
 * - The outcome. A natural 20 is a critical success, a natural 1 a critical failure (on Story
 *   difficulty a plain failure); otherwise total ≥ DC succeeds, up to 3 short succeeds at a cost,
 *   further short fails. checkOdds gives the exact probabilities; a statistical test holds the
 *   generator to them.
 * - Difficulty (per story). Story: DC − 3, checks of DC ≤ 10 become routine, no critical failure,
 *   gentler harm. Balanced: as written. Hard: DC + 2, harsher harm.
 */
import { STAT_NAMES, type CheckOutcome, type CheckOutcomeKind, type Difficulty, type HeroItem, type StatName } from '../../../ai/story-ai';
import { Rng, mixSeed } from '../../../ai/offline/prng';
import { normaliseAction, type ActionKind } from '../../../ai/offline/text';

const DC_MIN = 8;
const DC_MAX = 20;
/** The band below the DC that still succeeds, at a cost. */
const COST_BAND = 3;
/** What an item the action uses adds to the roll. */
const ITEM_BONUS = 2;

/** A check before it is rolled: what is attempted, on which stat, against what. */
export interface CheckPlan {
  attempt: string;
  stat: StatName;
  difficulty: number;
}

/** The storyteller's proposal for a suggested choice (a model's record), before the bounds. */
interface ProposedCheck {
  stat: string;
  difficulty: number;
}

/** A proposal as a take keeps it: the choice as it was offered. */
export interface ChoiceCheck extends ProposedCheck {
  choice: string;
}

/** The proposals of a chapter's record, by the text of the choices they are about. */
export function choiceChecksOf(result: { choices: string[]; choiceChecks?: Array<{ choice: number; stat: string; difficulty: number }> }): ChoiceCheck[] {
  return (result.choiceChecks ?? [])
    .filter((p) => p.choice >= 1 && p.choice <= result.choices.length)
    .map((p) => ({ choice: result.choices[p.choice - 1]!, stat: p.stat, difficulty: p.difficulty }));
}

/** The proposal for the action the player took, if it is one of the choices offered. */
export function proposalFor(action: string | null, offered: readonly ChoiceCheck[]): ChoiceCheck | null {
  const a = action?.trim().toLowerCase();
  return (a && offered.find((p) => p.choice.trim().toLowerCase() === a)) || null;
}

/** The stat each kind of action tests (the offline storyteller reads actions the same way). */
const KIND_STAT: Record<ActionKind, StatName> = {
  combat: 'strength',
  social: 'charisma',
  investigate: 'intellect',
  stealth: 'agility',
  travel: 'endurance',
  rest: 'wisdom',
  craft: 'intellect',
  bold: 'charisma',
};
/** The DC a kind of action starts from, when it is a check at all. */
const KIND_DC: Record<ActionKind, number> = {
  combat: 14,
  stealth: 13,
  social: 12,
  investigate: 12,
  travel: 12,
  craft: 12,
  bold: 13,
  rest: 10,
};
/** Kinds that are always a risk. */
const RISKY_KINDS = new Set<ActionKind>(['combat', 'stealth']);
/** Words that make any action a risk, with the stat they test when the kind does not say better. */
const RISK_WORDS: Array<[RegExp, StatName | null]> = [
  [/\b(?:climb|scale|leap|jump|vault|dodge|swing|balance)\w*/i, 'agility'],
  [/\b(?:swim|run|race|chase|flee|escape|outrun|endure|resist|hold (?:out|on))\w*/i, 'endurance'],
  [/\b(?:persuade|convince|lie|deceive|bluff|bribe|threaten|intimidate|confront|negotiate|haggle|seduce|charm|demand|command)\w*/i, 'charisma'],
  [/\b(?:steal|pickpocket|pick the lock|lockpick|sneak|hide|slip past|disguise)\w*/i, 'agility'],
  [/\b(?:force|break|smash|lift|wrestle|push|pull|grapple|fight|attack|strike|duel|kill)\w*/i, 'strength'],
  [/\b(?:decipher|decode|hack|disarm|solve|unravel|translate|pick apart)\w*/i, 'intellect'],
  [/\b(?:sense|read (?:him|her|them)|see through|notice|spot|track)\w*/i, 'wisdom'],
];
/** Wording that makes it harder or easier. */
const HARDER = /\b(?:alone|all of them|every|impossible|against|under fire|in the dark|without being seen|before (?:they|anyone)|at once|the whole)\b/i;
const EASIER = /\b(?:carefully|slowly|patiently|with help|together|gently|quietly)\b/i;

const DIFFICULTY_RULES: Record<Difficulty, { dcShift: number; routineUpTo: number; criticalFailure: boolean; harm: Record<CheckOutcomeKind, number> }> = {
  story: {
    dcShift: -3,
    routineUpTo: 10,
    criticalFailure: false,
    harm: { critical_success: 0, success: 0, success_at_cost: 0, failure: 1, critical_failure: 2 },
  },
  balanced: {
    dcShift: 0,
    routineUpTo: 0,
    criticalFailure: true,
    harm: { critical_success: 0, success: 0, success_at_cost: 1, failure: 2, critical_failure: 4 },
  },
  hard: { dcShift: 2, routineUpTo: 0, criticalFailure: true, harm: { critical_success: 0, success: 0, success_at_cost: 2, failure: 3, critical_failure: 6 } },
};

export function isDifficulty(v: unknown): v is Difficulty {
  return v === 'story' || v === 'balanced' || v === 'hard';
}

const clampDc = (n: number) => Math.min(DC_MAX, Math.max(DC_MIN, Math.round(n)));

/**
 * Whether an action is a check, on which stat and against what (null: routine, no roll). The
 * opening chapter (no action) is never a check.
 */
export function judgeAction(action: string | null, difficulty: Difficulty, proposed?: ProposedCheck | null): CheckPlan | null {
  const text = action?.trim();
  if (!text) return null;
  const rules = DIFFICULTY_RULES[difficulty];
  const attempt = normaliseAction(text).clause.slice(0, 120);
  let plan: CheckPlan;
  const proposedStat = STAT_NAMES.find((s) => s === proposed?.stat?.toLowerCase());
  if (proposed && proposedStat && Number.isFinite(proposed.difficulty)) {
    plan = { attempt, stat: proposedStat, difficulty: clampDc(proposed.difficulty) };
  } else {
    const kind = normaliseAction(text).kind;
    const risk = RISK_WORDS.find(([re]) => re.test(text));
    if (!RISKY_KINDS.has(kind) && !risk) return null;
    // The risk word says best what is tested ("confront" is a matter of charisma, "climb" of agility).
    const stat = risk?.[1] ?? KIND_STAT[kind];
    // A risk inside an otherwise calm action ("drink the potion and climb") is at least an ordinary one.
    let dc = risk ? Math.max(KIND_DC[kind], 12) : KIND_DC[kind];
    if (HARDER.test(text)) dc += 3;
    if (EASIER.test(text)) dc -= 2;
    plan = { attempt, stat, difficulty: clampDc(dc) };
  }
  const difficultyNumber = clampDc(plan.difficulty + rules.dcShift);
  if (difficultyNumber <= rules.routineUpTo) return null;
  return { ...plan, difficulty: difficultyNumber };
}

/** The modifier a stat gives a roll. */
export function modifierOf(stat: number): number {
  return Math.floor((stat - 10) / 2);
}

/** How a natural roll and a total come out against a DC. */
export function outcomeOf(natural: number, total: number, dc: number, difficulty: Difficulty): CheckOutcomeKind {
  if (natural === 20) return 'critical_success';
  if (natural === 1) return DIFFICULTY_RULES[difficulty].criticalFailure ? 'critical_failure' : 'failure';
  if (total >= dc) return 'success';
  if (total >= dc - COST_BAND) return 'success_at_cost';
  return 'failure';
}

/** The exact odds of each outcome for a total modifier against a DC (what the README documents). */
export function checkOdds(modifier: number, dc: number, difficulty: Difficulty): Record<CheckOutcomeKind, number> {
  const odds: Record<CheckOutcomeKind, number> = { critical_success: 0, success: 0, success_at_cost: 0, failure: 0, critical_failure: 0 };
  for (let n = 1; n <= 20; n++) odds[outcomeOf(n, n + modifier, dc, difficulty)] += 1 / 20;
  return odds;
}

/** A d20 from a seed: the same seed always falls the same way (it is recorded with the take anyway). */
export function rollD20(seed: number): number {
  return 1 + new Rng(mixSeed('check', seed)).int(20);
}

/** The item the action uses, if it names one the hero carries (its name, or the name's last word). */
export function itemUsed(action: string | null, inventory: readonly HeroItem[]): HeroItem | null {
  const text = action?.toLowerCase() ?? '';
  if (!text) return null;
  const has = (w: string) => w.length >= 3 && new RegExp(`(^|[^\\p{L}])${w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}s?($|[^\\p{L}])`, 'iu').test(text);
  return inventory.find((i) => has(i.name.toLowerCase())) ?? inventory.find((i) => has(i.name.toLowerCase().split(/\s+/).pop() ?? '')) ?? null;
}

/** Things that are gone once used. */
const CONSUMABLE =
  /\b(?:potion|elixir|salve|bandage|ration|bomb|grenade|flask|scroll|dart|arrow|torch|tonic|draught|vial|stim|medkit|herb|poultice|charge|flare|bread|apple|food)s?\b/i;
function isConsumable(name: string): boolean {
  return CONSUMABLE.test(name);
}

/**
 * Rolls a planned check: the outcome, the health it costs (decided with it) and whether the item
 * it used is used up.
 */
export function rollCheck(
  plan: CheckPlan,
  stats: Record<string, number>,
  item: HeroItem | null,
  difficulty: Difficulty,
  /** The d20 as it fell (rollD20 of the take's seed; tests script it). */
  roll: number,
): CheckOutcome {
  const statKey = Object.keys(stats).find((k) => k.toLowerCase() === plan.stat);
  const modifier = modifierOf(statKey !== undefined ? (stats[statKey] ?? 10) : 10);
  const itemBonus = item ? ITEM_BONUS : 0;
  const total = roll + modifier + itemBonus;
  const outcome = outcomeOf(roll, total, plan.difficulty, difficulty);
  return {
    attempt: plan.attempt,
    stat: plan.stat,
    difficulty: plan.difficulty,
    roll,
    modifier,
    itemBonus,
    item: item?.name ?? null,
    total,
    outcome,
    healthLost: DIFFICULTY_RULES[difficulty].harm[outcome],
    itemUsedUp: Boolean(item && isConsumable(item.name)),
  };
}

/** Whether an outcome is a success of any kind (the storyteller narrates the attempt working). */
export function succeeded(outcome: CheckOutcomeKind): boolean {
  return outcome === 'critical_success' || outcome === 'success' || outcome === 'success_at_cost';
}
