/**
 * Actions answered (issue 32, item 3): what the player attempted is told briefly, then what came of
 * it — an outcome about the thing the action names, decided before a word is written (the engine's
 * check when there is one, issue 31), and its consequence for the story. The player's sentence is not
 * pasted back: the verb and what it is done to are, and what they were after is answered.
 *
 * Sentences are composed in the third person past with the hero's name and marked pronouns; the
 * point of view is applied afterwards (narration.ts).
 */
import type { ChapterInput, StatName } from '../story-ai';
import { HERO } from './narration';
import { mixSeed, spreadIndices, type Rng } from './prng';
import type { ActionKind, NormalisedAction } from './text';

export type OutcomeClass = 'success' | 'cost' | 'failure';

/**
 * How the attempt went. The engine's check decides when the input carries one (issue 31's roll);
 * without one, the hero's stat tilts a draw. Kept in this one function so the check's fields are
 * read in one place.
 */
export function outcomeOf(input: ChapterInput, stat: StatName, rng: Rng): { outcome: OutcomeClass; hurt: boolean; item: string | null } {
  const check = input.check;
  if (check) {
    const outcome: OutcomeClass =
      check.outcome === 'critical_success' || check.outcome === 'success' ? 'success' : check.outcome === 'success_at_cost' ? 'cost' : 'failure';
    return { outcome, hurt: check.healthLost > 0, item: check.item };
  }
  const value = input.character.stats[stat] ?? 10;
  const roll = rng.int(100);
  const success = 45 + (value - 10) * 3;
  return { outcome: roll < success ? 'success' : roll < success + 30 ? 'cost' : 'failure', hurt: false, item: null };
}

/** Past tense of the verbs players type (the narration turns it back for present-tense stories). */
const IRREGULAR_PAST: Record<string, string> = {
  go: 'went',
  come: 'came',
  see: 'saw',
  know: 'knew',
  take: 'took',
  give: 'gave',
  find: 'found',
  tell: 'told',
  say: 'said',
  think: 'thought',
  feel: 'felt',
  leave: 'left',
  keep: 'kept',
  stand: 'stood',
  hold: 'held',
  bring: 'brought',
  begin: 'began',
  run: 'ran',
  fall: 'fell',
  speak: 'spoke',
  break: 'broke',
  choose: 'chose',
  make: 'made',
  get: 'got',
  meet: 'met',
  sit: 'sat',
  lead: 'led',
  hear: 'heard',
  pay: 'paid',
  send: 'sent',
  build: 'built',
  catch: 'caught',
  fight: 'fought',
  seek: 'sought',
  buy: 'bought',
  draw: 'drew',
  throw: 'threw',
  fly: 'flew',
  wear: 'wore',
  strike: 'struck',
  sing: 'sang',
  drink: 'drank',
  shake: 'shook',
  wake: 'woke',
  write: 'wrote',
  ride: 'rode',
  drive: 'drove',
  hide: 'hid',
  slide: 'slid',
  win: 'won',
  steal: 'stole',
  sleep: 'slept',
  creep: 'crept',
  kneel: 'knelt',
  swim: 'swam',
  dig: 'dug',
  light: 'lit',
  shoot: 'shot',
  swing: 'swung',
  bend: 'bent',
  lend: 'lent',
  eat: 'ate',
  forget: 'forgot',
  understand: 'understood',
  climb: 'climbed',
  set: 'set',
  put: 'put',
  cut: 'cut',
  hit: 'hit',
  let: 'let',
  read: 'read',
  cast: 'cast',
  shut: 'shut',
  be: 'was',
  have: 'had',
  do: 'did',
  sell: 'sold',
  teach: 'taught',
  lose: 'lost',
  spend: 'spent',
  feed: 'fed',
  flee: 'fled',
  wait: 'waited',
  become: 'became',
  program: 'programmed',
};

export function pastOf(verb: string): string {
  const v = verb.toLowerCase();
  if (IRREGULAR_PAST[v]) return IRREGULAR_PAST[v];
  if (/e$/.test(v)) return `${v}d`;
  if (/[^aeiou]y$/.test(v)) return `${v.slice(0, -1)}ied`;
  // One short syllable ending consonant-vowel-consonant doubles ("stop" → "stopped").
  if (/^[^aeiou]*[aeiou][bdgmnprt]$/.test(v)) return `${v}${v.slice(-1)}ed`;
  return `${v}ed`;
}

/** What the action was after ("search the room for a hidden door" → "a hidden door"). */
function purposeOf(clause: string): string | null {
  const m = /\b(?:for|about|to find|looking for|in search of)\s+((?:a|an|the|some|any|their|what|who|where|how|whether)\b[^,.;]{2,60})/i.exec(clause);
  return m ? (m[1] as string).replace(/\b(?:their)\b/g, HERO.their).trim() : null;
}

interface AnswerSlots {
  name: string;
  object: string;
  npc: string;
  threat: string;
  place: string;
  faction: string;
  finding: string;
  /** The chapter number: wordings turn with it, so none recurs chapter after chapter. */
  turn: number;
  /** The story's key (the same for every chapter of a story). */
  key: number;
  /** The current mission: an action that takes it up is told as going after the task. */
  mission?: string | null;
}

/** How each kind of attempt is told (verb and object come from the player's own action). */
const ATTEMPT_LEAD: Record<ActionKind, readonly string[]> = {
  combat: [
    'without waiting to be struck first',
    'fast and low',
    'with everything {they} had',
    'before the other side was ready',
    'hard, and without a word',
    'with no thought of holding back',
    'without a second thought',
  ],
  social: [
    'plainly, then let the silence work',
    'choosing each word',
    'and did not let the silence win',
    'quietly, without pleading',
    'and listened more than {they} spoke',
    'as honestly as {they} dared',
    'and kept {their} voice low',
  ],
  investigate: [
    'inch by inch',
    'slowly, trusting nothing',
    'the way a careful hand would',
    'twice over, to be sure',
    'with patience {they} did not feel',
    'corner by corner',
    'looking for what did not belong',
  ],
  stealth: [
    'keeping to the shadows',
    'without a sound',
    '\u0004one held breath at a time\u0005',
    'unseen, or so {they} hoped',
    'low and slow',
    'with every sense awake',
    'as quietly as {they} could',
  ],
  travel: [
    'without looking back',
    'at a hard pace',
    'by the quickest way {they} knew',
    'and did not stop to rest',
    'by the long way round',
    'step after stubborn step',
    'by roads few people used',
  ],
  rest: [
    'while the chance lasted',
    'and let the quiet do its work',
    'for as long as {they} dared',
    'with one eye open',
    'and for once did not argue with {their} body',
    'until the shaking stopped',
    'and let the hours pass',
  ],
  craft: [
    'with careful hands',
    'working fast',
    'the way {they} had been taught',
    'and did not rush it',
    'by trial and stubborn error',
    'with what little was at hand',
    'testing each piece as {they} went',
  ],
  bold: [
    'before the doubt could catch up',
    'all at once',
    'and did not hold back',
    'with a wild kind of certainty',
    'against every sensible voice',
    'and let the moment decide',
    'with nothing held in reserve',
  ],
};
/** Openers of the attempt sentence: with the lead, a schedule no story repeats within 42 chapters. */
const ATTEMPT_OPENERS = ['', 'Without waiting,', 'Then', 'So', 'With that,', 'After a moment,', 'Before long,'];

/**
 * An action that takes the mission up, told without the player's sentence (a turn each chapter).
 * (Lists turned by the chapter have lengths that are not multiples of three: with a typed action
 * every third chapter, as lint:story plays, a third of such a list's wordings never came up.)
 */
const TOOK_UP = [
  'went after the task',
  'took up the task',
  'set about the task',
  'turned to the task at hand',
  'pressed on with the task',
  'threw {themself} into the task',
  'got on with the task',
  'kept at the task',
  'went at the task head-on',
  'went back to the task',
];

/** A person asked, a bargain struck: what they said is the answer. */
const TALKED = [
  '{objectCap} talked, in the end, and what came out mattered: {finding}',
  'It took patience, but {object} came round, and told {name} that {finding}',
  '{objectCap} gave way, and the gist of it was this: {finding}',
  'A long look, then {object} spoke: {finding}',
  'What {object} told {name} was worth the asking: {finding}',
  'In the end {object} talked, and it was worth the hearing: {finding}',
  'After a while {object} gave way, and told {name} that {finding}',
];
const SUCCESS = [
  'It worked: {purpose}',
  'It paid off: {purpose}',
  'And there it was: {purpose}',
  'Luck held: {purpose}',
  'For once it went right: {purpose}',
  'The effort paid off: {purpose}',
  'It worked, and cleanly: {purpose}',
  'All of it went right: {purpose}',
];
const FINDINGS_SUCCESS = [
  'and with it a piece of the larger puzzle: {finding}',
  'and something more besides: {finding}',
  'and more than that, {name} learned that {finding}',
  'and it told {name} something else: {finding}',
  'and, better still, {finding}',
  'and it brought news as well: {finding}',
  'and there was a bonus in it: {finding}',
  'and {name} came away sure that {finding}',
];
const COST = [
  'It half worked: {purpose}, but not cleanly',
  '{purposeCap}, though the price was more than {name} wanted to pay',
  'It worked, after a fashion: {purpose}, and a price came with it',
  'It came right in the end, {purpose}, but not for free',
  'It worked, though not cleanly: {purpose}',
  'It worked, at a price: {purpose}',
  'It worked, but the price came due at once: {purpose}',
  'It came off, though not for free: {purpose}',
];
const COSTS = [
  'someone saw it all and slipped away to tell',
  'a cut across the palm bled through the cloth',
  'the time it took was time {name} did not have',
  'the noise carried further than it should have',
  'a promise had to be made that {name} would regret',
  'a good knife was left behind in the hurry',
  'an old friend’s trust wore thinner',
];
const FAILURE = [
  'It went wrong: {object} gave {name} nothing but trouble, and',
  'It did not work: {name} got nothing out of {object}, and worse,',
  'Nothing came of it, and worse,',
  'It failed, plainly and at once, and',
  'It did not work: {object} would not be moved, and',
  'Nothing came of it: {object} stayed as it was, and',
  'It went wrong with {object} from the first moment, and',
  'It went wrong almost at once: {object} came to nothing, however hard {name} tried, and',
];
const SETBACKS = [
  '{threat} had been waiting for exactly this',
  'word of it reached {faction} before nightfall',
  '{name} lost the trail and most of an hour',
  '{npc} saw the failure and said nothing, which was worse',
  'the way back was no longer safe',
  'somebody now knew {name}’s face',
  'the chance would not return soon',
];
/** How being hurt is told. */
const HURT = [
  '{name} was hurt in it, and felt every step afterwards',
  'It left its mark on {name}: a wound that would ache for days',
  'Blood, and a sharp pain that did not fade quickly',
  '{name} came away bruised and bleeding',
  'The hurt of it caught up with {name} a moment later',
  'Something tore, and {name} bit back a cry',
  'A blow landed, and the pain of it would last for days',
];
/** Closing asides of an outcome sentence. */
const TAILS = ['', ', as it turned out', ' in the end', ', this time', ' soon enough', ', that much was clear', ', for the moment', ', by the look of it'];
const FOUND = [
  'found at last',
  'right where no one had thought to look',
  'just as hoped',
  'there for the taking',
  'within reach now',
  'no longer a guess',
  'plain to see at last',
  'there all along',
];
const GAVE = [
  'gave up what it held',
  'yielded',
  'told a story of its own',
  'gave way',
  'answered',
  'turned out as hoped',
  'opened up',
  'came through',
  'was worth the trouble',
  'gave something up',
];

/** Findings: what a successful attempt turns up, from the world's own conflicts. */
const FINDINGS = [
  '{faction} had been at {place} before {name}',
  'the trail led on toward {place}',
  '{threat} had been seen near {place}',
  '{npc} had not told {name} everything',
  'someone in {faction} was paying for silence',
  '{place} was not as empty as it looked',
  '{faction} had a friend where {name} least expected one',
  'the answer lay somewhere past {place}',
];

/**
 * Picks one variant from each list for a chapter (prng.ts spreadIndices): a story walks through every
 * combination before one comes round again, and each list's entries come round evenly.
 */
function schedule(key: number, turn: number, lists: ReadonlyArray<readonly string[]>): string[] {
  const at = spreadIndices(
    key,
    turn,
    lists.map((l) => l.length),
  );
  return lists.map((l, k) => l[at[k] as number] as string);
}

/** The answer to the action: the attempt, the outcome about what it named, and its consequence (and the thing it was about). */
export function answerAction(
  action: NormalisedAction,
  outcome: { outcome: OutcomeClass; hurt: boolean; item: string | null },
  slots: Omit<AnswerSlots, 'finding'>,
): { sentences: string[]; thing: string } {
  // "Push on and find out…", "focus on the mission to …": the action is what follows.
  const clause = action.clause.replace(/^(?:push on|press on|go on|carry on|move on|set out|focus on the mission|keep going)\s+(?:and|to)\s+/i, '');
  const words = clause.split(/\s+/);
  const verb = words[0] ?? 'act';
  const known = /^[a-z][a-z'-]*$/.test(verb) && !clause.startsWith('follow a sudden idea');
  const rest = words.slice(1).join(' ');
  // The verb and what it was done to ("bargain with the merchant"), not the player's whole sentence:
  // it stops where the purpose or a second action begins.
  // A way set out on ("set out for the flats", "head for the hall") is where, not what for: the "for"
  // after a verb of going (and its particle) stays in.
  const way = /^(?:set|head|make|leave|start|strike|sail|ride|march|run|race|bolt|dash)$/i.test(verb)
    ? (/^(?:(?:out|off|forth|back|away)\s+)?for\s+/i.exec(rest)?.[0] ?? '')
    : '';
  const target = (
    way +
    (
      ` ${rest.slice(way.length)}`.split(/\s+(?:for|about|and|then|while|until|before|after|what|who|where|how|whether|why|if|to see|to find|to learn)\b/)[0] ??
      ''
    ).trim()
  ).trim();
  // What was acted on, as a noun ("the merchant" of "with the merchant").
  let thing =
    (
      (clause === action.clause ? action.object : null) ??
      target.replace(/^(?:to|with|into|at|on|toward|towards|through|across|over|past|from|in|up|down|out)\s+/i, '')
    )
      // A verb caught at the end of the phrase ("the presence took") is not part of the thing.
      .replace(/\s+(?:\w+ed|took|went|came|saw|knew|made|held|left|kept|was|were|had)$/i, '')
      .replace(/\btheir\b/g, HERO.their) || 'the attempt';
  // A thing cut before its end ("a reliquary of" for "a reliquary of blackened silver"): the whole phrase.
  if (/\s(?:of|to|with|from|in|on|at|for|by|into)$/i.test(thing))
    thing = target
      .replace(/^(?:to|with|into|at|on|toward|towards|through|across|over|past|from|in|up|down|out)\s+/i, '')
      .replace(/\s+\w+ly$/i, '')
      .replace(/\btheir\b/g, HERO.their);
  // "Ask Thorne about a blade that drinks light": Thorne is the one asked, the blade what about (the
  // action's object is the blade: told as "you ask the blade that drinks about…").
  const asked = action.kind === 'social' ? /^\S+\s+(?:(?:with|to)\s+)?(.+?)\s+about\s/i.exec(clause)?.[1] : undefined;
  const askedWho = asked && !/\b(?:what|who|where|how|whether|why|if|and|then|to)\b/i.test(asked) ? asked.replace(/\btheir\b/g, HERO.their) : null;
  // What the people met afterwards speak of is what was asked about, never the one asked (they may be
  // that person: "well done with Eliza", said by Eliza).
  const spokenOf = thing;
  if (askedWho) thing = askedWho;
  const t = slots.turn;
  // An action that takes up the mission ("keep Ravi safe from the Reclaimers") is about the task.
  const missionHead = (slots.mission ?? '').toLowerCase().split(/\s+/).slice(0, 3).join(' ');
  const forMission = missionHead.length > 0 && clause.toLowerCase().includes(missionHead);
  // The verb, a leading preposition and what it was done to ("follow the fresh tracks", "climb to the highest point").
  const prep = /^(to|with|into|at|on|toward|towards|through|across|over|past|from|in|up|down|out)\s/i.exec(target)?.[1];
  // A question keeps what it was about ("ask the stranger what they know about the mission" → "asked
  // the stranger about the mission"): that is what the player asked, in the storyteller's words.
  const topic = action.kind === 'social' ? /\babout ((?:the|your|my|their|this|that|a|an) [\p{L}'’ -]{2,40}?)\s*$/iu.exec(clause)?.[1] : undefined;
  // Every word from the verb to the thing ("stand your ground against the Drowned Choir", "kneel
  // beside the grave"): a preposition or a phrase before it is part of what was done.
  const plainThing = thing.replace(/\u0002/g, '');
  // (The thing may have taken "the" for the player's "a": "on a single bold move".)
  const bare = plainThing.replace(/^(?:the|a|an)\s+/i, '');
  const at = (s: string) => (thing === 'the attempt' ? -1 : target.toLowerCase().indexOf(s.toLowerCase()));
  const [upTo, len] = at(plainThing) > 0 ? [at(plainThing), plainThing.length] : at(bare) > 0 ? [at(bare), bare.length] : [-1, 0];
  const done =
    upTo > 0
      ? target.slice(0, upTo + len).replace(/\b(?:their|your)\b/g, HERO.their)
      : thing !== 'the attempt'
        ? `${prep ? `${prep} ` : ''}${thing}`
        : target.replace(/\btheir\b/g, HERO.their);
  const told = forMission
    ? (schedule(mixSeed(slots.key, 'task'), t, [TOOK_UP])[0] as string)
    : `${pastOf(verb)}${done ? ` ${done}` : ''}${
        topic && thing !== 'the attempt' && !thing.includes(topic) ? ` about ${topic.replace(/\b(?:their|my)\b/g, HERO.their)}` : ''
      }`;
  const [opener, lead] = schedule(mixSeed(slots.key, 'attempt'), t, [ATTEMPT_OPENERS, ATTEMPT_LEAD[action.kind]]) as [string, string];
  const attempt = known ? `${opener} ${slots.name} ${told}, ${lead}` : `${opener} ${slots.name} went straight for ${thing}, ${lead}`;
  const purpose = purposeOf(clause);
  // Going after the mission is about what the mission names ("the chapel of Saint Ebba"), else the task.
  if (forMission) thing = missionPlace(slots.mission ?? '') ?? 'the task';
  const [finding, found, gave] = schedule(mixSeed(slots.key, 'finding'), t, [FINDINGS, FOUND, GAVE]) as [string, string, string];
  const fill = (tpl: string) =>
    tpl
      // A participle phrase the point of view must leave alone ("found at last"): marked.
      .replace(/\{purposeCap\}/g, cap(purpose ? `${purpose}, \u0004${found}\u0005` : `${thing} ${gave}`))
      .replace(/\{purpose\}/g, purpose ? `${purpose}, \u0004${found}\u0005` : `${thing} ${gave}`)
      .replace(/\{finding\}/g, finding)
      .replace(/\{name\}/g, slots.name)
      .replace(/\{objectCap\}/g, cap(thing))
      .replace(/\{object\}/g, thing)
      .replace(/\{threat\}/g, slots.threat)
      .replace(/\{place\}/g, slots.place)
      .replace(/\{faction\}/g, slots.faction)
      .replace(/\{npc\}/g, slots.npc)
      .replace(/\{they\}/g, HERO.they)
      .replace(/\{themself\}/g, HERO.themself)
      .replace(/\{their\}/g, HERO.their);
  const out = [fill(attempt).trim()];
  if (outcome.item)
    out.push(
      fill(
        outcome.outcome === 'failure'
          ? `${slots.name} used ${outcome.item}, but it was not enough`
          : `${slots.name} used ${outcome.item}, and it made the difference`,
      ),
    );
  const key = mixSeed(slots.key, 'outcome', outcome.outcome);
  // A closing aside, on a schedule of its own: one schedule per outcome let one aside ("that much is
  // clear") fall in 9 of a story's 30 chapters; on one, each comes round once in 8 chapters.
  const aside = schedule(mixSeed(slots.key, 'aside'), t, [TAILS])[0] as string;
  if (outcome.outcome === 'success' && action.kind === 'social' && target) out.push(fill(`${schedule(key, t, [TALKED])[0] as string}${aside}`));
  else if (outcome.outcome === 'success') {
    const [a, b] = schedule(key, t, [SUCCESS, FINDINGS_SUCCESS]) as [string, string];
    out.push(fill(`${a}, ${b}${aside}`));
  } else if (outcome.outcome === 'cost') {
    const [a, b] = schedule(key, t, [COST, COSTS]) as [string, string];
    out.push(fill(`${a}; ${b}${aside}`));
  } else {
    const [a, b] = schedule(key, t, [FAILURE, SETBACKS]) as [string, string];
    out.push(fill(`${a} ${b}${aside}`));
  }
  // The harm, said a different way each chapter (a story with many risky actions is hurt often).
  if (outcome.hurt) out.push(fill(schedule(mixSeed(slots.key, 'hurt'), t, [HURT])[0] as string));
  return { sentences: out, thing: askedWho ? spokenOf : thing };
}

/** The last name a mission gives ("…about the Bitterwater Flats" → "the Bitterwater Flats"): what going after it is about. */
function missionPlace(mission: string): string | null {
  const runs = [...mission.matchAll(/\b(?:the\s+)?[A-Z][\p{L}'’-]+(?:\s+(?:of\s+(?:the\s+)?)?[A-Z][\p{L}'’-]+)*/gu)].filter((m) => (m.index ?? 0) > 0);
  return runs.length > 0 ? (runs[runs.length - 1] as RegExpMatchArray)[0] : null;
}

function cap(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}
