/**
 * The offline storyteller and the engine's stakes (issue 31): the check's outcome is decided before
 * the chapter (ChapterInput.check), and the chapter narrates it — a failure is told as a failure,
 * never as the action working — together with an item it used, the health it cost, a defeat, and
 * the things the hero picks up or rests from, which it reports in its record.
 *
 * Kept apart from the chapter's sentence families (chapter.ts): these lines are the outcome itself,
 * and the chapter leaves out its own lines about how the action went when the check failed.
 */
import type { ChapterInput, ChapterResult, CheckOutcomeKind } from '../story-ai';
import { HERO } from './narration';
import { normaliseAction } from './text';

interface Who {
  name: string;
  they: string;
  them: string;
  their: string;
}

const LINES: Record<CheckOutcomeKind, Array<(w: Who, attempt: string) => string>> = {
  critical_success: [
    (w, a) => `${w.name} tried to ${a}, and it went better than ${w.they} had dared to hope`,
    (w, a) => `Everything came together at once: ${w.name} managed to ${a}, cleanly and completely`,
  ],
  success: [(w, a) => `It was not easy, but ${w.name} managed to ${a}`, (w, a) => `${w.name} set ${w.their} jaw and managed to ${a}`],
  success_at_cost: [
    (w, a) => `${w.name} managed to ${a}, but not cleanly, and it cost ${w.them}`,
    (w, a) => `In the end ${w.name} managed to ${a}, though ${w.they} paid for it`,
  ],
  failure: [(w, a) => `${w.name} tried to ${a}, and failed`, (w, a) => `${w.name} tried to ${a}, but it did not work`],
  critical_failure: [
    (w, a) => `${w.name} tried to ${a}, and it went badly wrong`,
    (w, a) => `${w.name} tried to ${a}, and failed as badly as ${w.they} could have`,
  ],
};

const AFTERMATH: Partial<Record<CheckOutcomeKind, Array<(w: Who) => string>>> = {
  failure: [
    (w) => `Nothing gave way; the moment was lost, and ${w.name} would have to find another way`,
    (w) => `It was a setback, plain and simple, and ${w.they} knew it`,
  ],
  critical_failure: [() => `Worse, the failure made things harder than before`, (w) => `It left ${w.name} worse off than when ${w.they} started`],
};

/** Whether the check (if any) failed: the chapter then tells no line of the action working. */
export function checkFailed(input: ChapterInput): boolean {
  const o = input.check?.outcome;
  return o === 'failure' || o === 'critical_failure';
}

/** The sentences that narrate the check, the item it used, the harm, and a defeat (without final stops). */
export function stakesLines(input: ChapterInput, w: Who, told = false): string[] {
  const c = input.check;
  const lines: string[] = [];
  const turn = input.chapterNumber;
  // `told`: the chapter already answered the action with this outcome, its item and its harm
  // (answer.ts); what is left to say is an item used up and a defeat.
  if (c && told) {
    if (c.item && c.itemUsedUp) lines.push(`The ${c.item} was used up`);
  } else if (c) {
    if (c.item) lines.push(`${w.name} used the ${c.item}${c.itemUsedUp ? `, and the ${c.item} was used up` : ''}`);
    lines.push(pick(LINES[c.outcome], turn)(w, c.attempt));
    const after = AFTERMATH[c.outcome];
    if (after) lines.push(pick(after, turn)(w));
    if (c.healthLost > 0 && !input.defeat) lines.push(`${w.name} came away hurt${c.healthLost >= 3 ? ', badly' : ''}`);
  }
  if (input.defeat) {
    lines.push(`${w.name} went down and did not get up again`, `It was a defeat — not death, but ${w.their} strength was spent and the day was lost`);
  }
  return lines;
}

/** Verbs of taking something into the hero's keeping. */
const TAKING = /^(?:take|grab|pick up|pocket|buy|loot|collect|gather|steal|claim|keep)\b/i;
/** Taking on, down or out is a fight, not a thing to carry ("take on the pack of hounds"). */
const TAKING_ON = /^take (?:on|down|out|apart|over)\b/i;
/** What is taken but not carried: a way to go ("take the back way"), a thing done ("take cover", "keep watch"). */
const NOT_CARRIED =
  /\b(?:way|road|path|route|trail|shortcut|stairs|steps?|turn|lead|chance|risk|cover|watch|look|breath|rest|moment|time|stand|aim|care|heart|shelter|position|oath|vow|word|notes?|stock|count|guard|charge|place|seat|side|sides|strength|wits|courage|nerve|thoughts|senses)\b/i;

/**
 * What the chapter reports of the hero's belongings and rest: a thing the action takes (when the
 * action did not fail), and rest that did the hero good.
 */
export function stakesRecord(input: ChapterInput): Pick<ChapterResult, 'itemsGained' | 'itemsLost' | 'healthRestored'> & { gainedLine: string | null } {
  const failed = checkFailed(input);
  const action = input.action?.trim() ? normaliseAction(input.action) : null;
  let gained: ChapterResult['itemsGained'] = [];
  if (
    action &&
    !failed &&
    !input.defeat &&
    TAKING.test(action.clause) &&
    action.object &&
    !NOT_CARRIED.test(action.clause.split(/\s+/).slice(1, 5).join(' ')) &&
    !TAKING_ON.test(action.clause)
  ) {
    const name = action.object
      .replace(/^(?:the|their)\s+/i, '')
      .replace(/[^\p{L}\p{N}' -]/gu, '')
      .trim()
      .slice(0, 60);
    if (name.length >= 3)
      gained = [{ name: name[0]!.toUpperCase() + name.slice(1), description: `Taken when the hero chose to ${action.clause}.`.slice(0, 300) }];
  }
  const held = new Set((input.inventory ?? []).map((i) => i.name.toLowerCase()));
  if (gained[0] && held.has(gained[0].name.toLowerCase())) gained = [];
  const rests = action?.kind === 'rest' && !input.check && !input.defeat;
  return {
    itemsGained: gained,
    itemsLost: input.check?.itemUsedUp && input.check.item ? [input.check.item] : [],
    healthRestored: rests && input.health && input.health.current < input.health.max ? 3 : 0,
    gainedLine: gained[0] ? `The ${gained[0].name.toLowerCase()} went with the rest of what ${HERO.they} carried` : null,
  };
}

function pick<T>(list: readonly T[], turn: number): T {
  return list[turn % list.length] as T;
}
