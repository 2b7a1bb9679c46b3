/**
 * Small text tools for the offline storyteller: template rendering with reading-level tiers, turning
 * a player's free-text action into a clause the narrator can use, and sentence utilities.
 *
 * Template syntax:
 *   {slot}          filled from the slot map (missing slots render as an empty string and are a bug)
 *   [a|b|c]         tiered wording: levels 1–4 take a, 5–8 take b, 9–12 take c ([a|b]: 1–6 / 7–12)
 */

import { isSpace } from '../context-budget';

export type Slots = Record<string, string>;

/** 0: early reader (1–4), 1: middle grades (5–8), 2: adult (9–12). */
function band(readingLevel: number): 0 | 1 | 2 {
  return readingLevel <= 4 ? 0 : readingLevel <= 8 ? 1 : 2;
}

/** `extra`'s slots take precedence over `slots`' (as if rendering with `{ ...slots, ...extra }`). */
export function render(template: string, slots: Slots, readingLevel: number, extra?: Slots): string {
  const parts = compiled(template, readingLevel);
  // parts: literal, slot name, literal, slot name, …, literal
  let out = parts[0] as string;
  for (let i = 1; i < parts.length; i += 2) {
    const key = parts[i] as string;
    const value = extra !== undefined && hasOwn.call(extra, key) ? extra[key] : slots[key];
    const next = parts[i + 1] as string;
    // (After a preposition the name is not the verb's subject: "who in the Ashworths stands".)
    const subject = value && pluralName(value) && !/\b(?:in|of|from|with|among|by|to|against|over|behind|past)\s*$/i.test(out);
    out += (value ?? '') + (subject ? pluralAfter(next) : value && pluralName(value) ? next.replace(/^(['’])s\b/, '$1') : next);
  }
  return out;
}

/**
 * A name of many ("the Ashworths", "the Iron Reclaimers", "a railroad baron's hired guns", "the hounds
 * of the underworld"), not of one ("the Drowned Choir", "a troll who guards the toll roads", "Silas"):
 * by the noun its phrase is about, before "of", "who" and the like.
 */
export function pluralName(value: string): boolean {
  if (!/^(?:the|a|an)\s/i.test(value)) return false;
  const phrase = value.split(/\s+(?:of|who|that|which|from|with|in|on|at|under|beyond|near)\s+/)[0] as string;
  const head = phrase.split(/\s+/).pop() as string;
  if (/^(?:dead|people|folk|police|living|faithful)$/i.test(head)) return true;
  return /^[\p{L}-]*[^s'’]s$/u.test(head) && !/(?:ss|us|is|ics|news)$/i.test(head);
}

/** The template's words after a plural name: its verb in the plural ("does" → "do"), its possessive "'". */
function pluralAfter(literal: string): string {
  return literal.replace(/^(['’])s\b/, '$1').replace(/^ (is|was|has|does|\w+s)\b/, (m, verb: string) => {
    const plural = PLURAL_VERBS[verb] ?? (THIRD_PERSON.test(verb) ? verb.replace(/(?<=(?:sh|ch|x|ss))es$|s$/, '') : null);
    return plural ? ` ${plural}` : m;
  });
}
const PLURAL_VERBS: Record<string, string> = { is: 'are', was: 'were', has: 'have', does: 'do' };
/** Verbs the templates put after a group (a noun ending in s, like "lands", is left alone). */
const THIRD_PERSON =
  /^(?:wants|answers|stands|keeps|holds|rules|pays|owns|runs|hides|watches|sends|needs|fears|guards|knows|takes|controls|waits|moves|comes|says|seems|looks)$/;
const hasOwn = Object.prototype.hasOwnProperty;

/**
 * A template with its tiers resolved for a reading level, split around its slots. Templates are
 * the storyteller's own constants (and pairs of them), so there are a few thousand at most, and a
 * chapter renders dozens: resolving each one once instead of running two regex passes every time.
 */
const COMPILED_MAX = 10_000;
const compiledTemplates = new Map<string, Array<string[] | undefined>>();

function compiled(template: string, readingLevel: number): string[] {
  let byLevel = compiledTemplates.get(template);
  let parts = byLevel?.[readingLevel];
  if (parts) return parts;
  const b = band(readingLevel);
  // Tiers first (they may contain slots), innermost brackets only — tiers never nest.
  const tiered = template.replace(/\[([^[\]]*)\]/g, (_m, body: string) => {
    const opts = body.split('|');
    if (opts.length === 3) return opts[b] as string;
    if (opts.length === 2) return opts[readingLevel <= 6 ? 0 : 1] as string;
    return opts[0] as string;
  });
  parts = tiered.split(/\{(\w+)\}/);
  if (!byLevel) {
    if (compiledTemplates.size >= COMPILED_MAX) compiledTemplates.clear();
    compiledTemplates.set(template, (byLevel = []));
  }
  byLevel[readingLevel] = parts;
  return parts;
}

/** Anything finishSentence's clean-up below would change; most sentences have none of it. */
const NEEDS_CLEANUP = /\s\s|[^\S ]|,\s*[,.!?:;—]|\s[,.;:!?]|:\s*:|^\s|\s$/;

export function finishSentence(s: string): string {
  let t = endsSentence(s) ? s : `${s}.`;
  if (!NEEDS_CLEANUP.test(t)) return upperFirst(t);
  t = t
    .replace(/\s+/g, ' ')
    .replace(/,\s*,/g, ',')
    .replace(/,\s*([.!?:;—])/g, '$1')
    // A space before punctuation goes, but not before a number's point ("a .38", "the .45 calibre").
    .replace(/\s+([,.;:!?])(?!\d)/g, '$1')
    .replace(/:\s*:/g, ':')
    .trim();
  return upperFirst(t);
}

export function upperFirst(s: string): string {
  const i = s.search(/\p{L}/u);
  if (i < 0) return s;
  // Keep a leading quote mark in place: "“you came…” → “You came…”.
  return s.slice(0, i) + (s[i] as string).toUpperCase() + s.slice(i + 1);
}
export function lowerFirst(s: string, keep: ReadonlySet<string> = new Set()): string {
  const first = (/^\S*/.exec(s) as RegExpExecArray)[0].replace(/(?:['’]s)?[,;:.!?]*$/, '');
  if (keep.has(first) || /^[A-Z]{2,}/.test(first) || (first.length > 1 && /^[A-Z]/.test(first) && /[A-Z]/.test(first.slice(1)))) return s;
  return s.charAt(0).toLowerCase() + s.slice(1);
}

/** Splits prose into sentences (terminal punctuation, optionally followed by a closing quote). */
export function splitSentences(text: string): string[] {
  return text
    .split(/(?<=[.!?]["”]?)\s+(?=["“]?[A-Z0-9])/)
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
}
/** Whether `s` ends with terminal punctuation, optionally followed by a closing quote and spaces. */
function endsSentence(s: string): boolean {
  let i = s.length - 1;
  while (i >= 0 && isSpace(s.charCodeAt(i))) i--;
  if (i >= 0 && (s[i] === '"' || s[i] === '”')) i--;
  const c = s[i];
  return c === '.' || c === '!' || c === '?';
}

/** Words: runs of non-space characters with at least one letter or digit in them. */
export function wordCount(text: string): number {
  let n = 0;
  let inWord = false;
  let counted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (isSpace(c)) {
      inWord = false;
      continue;
    }
    if (!inWord) {
      inWord = true;
      counted = false;
    }
    if (!counted && isWordChar(c, text, i)) {
      counted = true;
      n++;
    }
  }
  return n;
}

function isWordChar(c: number, text: string, i: number): boolean {
  if (c < 128) return (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
  return /[\p{L}\p{N}]/u.test(String.fromCodePoint(text.codePointAt(i) as number));
}

export type ActionKind = 'combat' | 'social' | 'investigate' | 'stealth' | 'travel' | 'rest' | 'craft' | 'bold';

export const KIND_VERBS: Record<Exclude<ActionKind, 'bold'>, string[]> = {
  combat: [
    'attack',
    'fight',
    'strike',
    'hit',
    'shoot',
    'kill',
    'stab',
    'charge',
    'duel',
    'battle',
    'punch',
    'kick',
    'slay',
    'confront',
    'ambush',
    'defend',
    'draw',
    'stand',
    'face',
    'challenge',
    'wrestle',
    'fire',
    'hunt',
    'storm',
  ],
  social: [
    'share',
    'meet',
    'join',
    'rally',
    'lead',
    'console',
    'confess',
    'hug',
    'kiss',
    'dance',
    'ask',
    'talk',
    'speak',
    'tell',
    'persuade',
    'convince',
    'negotiate',
    'bargain',
    'bribe',
    'threaten',
    'charm',
    'greet',
    'thank',
    'befriend',
    'lie',
    'trade',
    'buy',
    'sell',
    'offer',
    'apologize',
    'apologise',
    'plead',
    'call',
    'question',
    'interrogate',
    'win',
    'recruit',
    'warn',
    'invite',
    'introduce',
    'help',
    'comfort',
    'promise',
    'agree',
    'refuse',
    'accept',
    'flirt',
    'sing',
    'pray',
  ],
  investigate: [
    'search',
    'look',
    'examine',
    'inspect',
    'investigate',
    'read',
    'study',
    'listen',
    'check',
    'find',
    'explore',
    'track',
    'follow',
    'observe',
    'watch',
    'analyze',
    'analyse',
    'scan',
    'decipher',
    'decode',
    'research',
    'inquire',
    'dig',
    'open',
    'learn',
    'figure',
    'consult',
    'map',
    'solve',
  ],
  stealth: [
    'sneak',
    'hide',
    'steal',
    'creep',
    'slip',
    'pickpocket',
    'spy',
    'eavesdrop',
    'shadow',
    'tail',
    'lurk',
    'pick',
    'disguise',
    'evade',
    'avoid',
    'escape',
    'flee',
    'run',
    'vanish',
    'lie low',
  ],
  travel: [
    'go',
    'head',
    'travel',
    'walk',
    'ride',
    'sail',
    'fly',
    'climb',
    'cross',
    'enter',
    'leave',
    'return',
    'move',
    'journey',
    'set',
    'push',
    'press',
    'descend',
    'ascend',
    'swim',
    'drive',
    'board',
    'jump',
    'continue',
    'take',
    'visit',
    'reach',
    'approach',
    'wander',
    'march',
    'race',
    'chase',
    'pursue',
    'seek',
    'venture',
    'make',
  ],
  rest: [
    'rest',
    'sleep',
    'eat',
    'drink',
    'heal',
    'camp',
    'wait',
    'sit',
    'relax',
    'meditate',
    'recover',
    'bandage',
    'tend',
    'cook',
    'bathe',
    'breathe',
    'nap',
    'stay',
  ],
  craft: [
    'use',
    'cast',
    'hack',
    'build',
    'craft',
    'repair',
    'fix',
    'brew',
    'enchant',
    'summon',
    'activate',
    'invoke',
    'channel',
    'forge',
    'invent',
    'program',
    'jack',
    'rewire',
    'mix',
    'write',
    'draw upon',
    'unleash',
    'try',
    'light',
    'burn',
    'cure',
    'reload',
    'tinker',
    'calibrate',
    'power',
  ],
};
const VERB_KIND = new Map<string, ActionKind>();
for (const [kind, verbs] of Object.entries(KIND_VERBS) as Array<[ActionKind, string[]]>) for (const v of verbs) if (!VERB_KIND.has(v)) VERB_KIND.set(v, kind);

export const EXTRA_VERBS = new Set(
  'give grab pull push throw catch break smash lift carry drop hold keep let put show turn raise lower knock shout yell whisper scream laugh cry run open close lock unlock shut pay send bring get do be become save rescue protect guard free release destroy burn kiss hug dance play order command demand sacrifice surrender obey ignore deny admit reveal hand pour drink taste smell touch feel grab gather collect pack wake warn report'.split(
    ' ',
  ),
);

const NOT_VERBS = new Set(
  'the a an this that these those some any every each my your his her its our their they them he she it you we i me one two three four five many much more most no not yes to at in on of for from with by into onto over under about after before behind beyond near toward towards maybe perhaps what why how when where who which if because very really quite just only also too'.split(
    ' ',
  ),
);

export interface NormalisedAction {
  /** A base-form verb phrase usable after "to": "search the old library". */
  clause: string;
  /** The thing acted on, for later references: "the old library" (or null). */
  object: string | null;
  kind: ActionKind;
  /** The lower-cased content words of the action, to check it is visibly used. */
  keywords: string[];
}

const PRONOUNS: Array<[RegExp, string]> = [
  [/\bmyself\b/gi, 'themself'],
  [/\bourselves\b/gi, 'themselves'],
  [/\bmy\b/gi, 'their'],
  [/\bmine\b/gi, 'theirs'],
  [/\bme\b/gi, 'them'],
  [/\bour\b/gi, 'their'],
  [/\bus\b/gi, 'them'],
  [/\bI\b/g, 'they'],
  [/\bwe\b/gi, 'they'],
  [/\byour\b/gi, 'their'],
  [/\byourself\b/gi, 'themself'],
];

/** Lead-ins before the verb ("okay", "I'd like to", "let's"…), stripped in up to three passes. */
const PREFIXES = [
  /^(?:ok(?:ay)?|well|so|then|now|alright|yes|no)[,!]?\s+/i,
  /^(?:i|we)\s+(?:would|'d|’d)\s+like\s+to\s+/i,
  /^(?:i|we)\s+(?:want|wanna|need|decide|choose|try|plan|intend|mean|attempt|hope)(?:\s+to)?\s+/i,
  /^(?:i|we)\s+(?:will|shall|'ll|’ll|am going to|'m going to|’m going to|are going to|'re going to|gonna)\s+/i,
  /^(?:i|we)\s+(?:carefully|quickly|slowly|quietly|calmly|then|now|also|just)\s+/i,
  /^(?:let's|let’s|lets|let us)\s+/i,
  /^(?:i|we)\s+(?=\w)/i,
  /^(?:please|try to|attempt to)\s+/i,
];

/**
 * Normalised actions by raw text, bounded: a story's actions are mostly its suggested choices, read
 * again when the next chapter recalls the last one, and normalising is a few dozen regex passes.
 * Results are frozen: they are shared.
 */
const normalised = new Map<string, Readonly<NormalisedAction>>();
const NORMALISED_MAX = 2000;

/**
 * Turns "I'd like to sneak past my old mentor!" into { clause: "sneak past their old mentor", … }.
 * First-person present ("I search") is already the base form, which is what makes this work without
 * a conjugation table. Text we cannot read as a verb phrase is kept verbatim in a safe frame.
 */
export function normaliseAction(raw: string): Readonly<NormalisedAction> {
  let n = normalised.get(raw);
  if (n) return n;
  n = Object.freeze(normalise(raw));
  Object.freeze(n.keywords);
  if (normalised.size >= NORMALISED_MAX) normalised.clear();
  normalised.set(raw, n);
  return n;
}

function normalise(raw: string): NormalisedAction {
  let a = raw
    .replace(/[\u0000-\u001f<>{}[\]]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/[.!?…]+$/, '')
    .slice(0, 200);
  a = a.replace(/^["“']|["”']$/g, '').trim();
  for (let pass = 0; pass < 3; pass++) for (const p of PREFIXES) a = a.replace(p, '');
  a = a.replace(/^(?:am|'m|’m|are)\s+(\w+ing\b)/i, 'keep $1');
  for (const [re, to] of PRONOUNS) a = a.replace(re, to);
  a = a.trim();
  const words = a.split(/\s+/);
  const firstRaw = (words[0] ?? '').toLowerCase();
  // "searches"/"searched" from third-person or past-tense input: strip to the base form if known.
  const candidates = [firstRaw, firstRaw.replace(/(?:es|s|ed|d)$/, ''), firstRaw.replace(/ies$/, 'y').replace(/ied$/, 'y')];
  const base = candidates.find((c) => VERB_KIND.has(c) || EXTRA_VERBS.has(c));
  const keywords = a
    .toLowerCase()
    .split(/[^\p{L}\p{N}'-]+/u)
    .filter(
      (w) =>
        w.length > 3 &&
        !['their', 'them', 'they', 'themself', 'with', 'from', 'into', 'that', 'this', 'then', 'there', 'about', 'over', 'what', 'where'].includes(w),
    );
  if (a.length === 0) return { clause: 'press on', object: null, kind: 'travel', keywords: [] };
  if (base) {
    const rest = words.slice(1).join(' ');
    const clause = `${base}${rest ? ` ${rest}` : ''}`;
    let kind: ActionKind = VERB_KIND.get(base) ?? 'bold';
    // "set out" is travel; "set an ambush"/"set a trap" is a fight; anything else is just bold.
    if (base === 'set' && !/^(?:out|off|sail|forth)\b/i.test(rest)) kind = /\b(?:ambush|trap)\b/i.test(rest) ? 'combat' : 'bold';
    return { clause, object: extractObject(rest), kind, keywords };
  }
  // Imperatives usually start with a verb we have no list for ("whistle", "paint the wall"): trust
  // that unless the first word is clearly not a verb.
  if (!NOT_VERBS.has(firstRaw) && /^[a-z][a-z'-]*$/.test(firstRaw)) {
    const rest = words.slice(1).join(' ');
    return { clause: `${firstRaw}${rest ? ` ${rest}` : ''}`, object: extractObject(rest), kind: 'bold', keywords };
  }
  // Not a verb phrase ("the red door", "a song for the dead"): act on it as stated.
  const lowered = lowerFirst(a);
  return { clause: `follow a sudden idea: ${lowered}`, object: extractObject(lowered), kind: 'bold', keywords };
}

/**
 * What an action is done to, for the outcome sentence: the first noun phrase that names a thing
 * ("the vault", "a young wyvern"), preferred over one the hero owns ("their ground", "their hands"),
 * which is usually an idiom or a body part, not what the action is about.
 */
function extractObject(rest: string): string | null {
  // A phrase that ends inside a proper name ("the chapel of Saint" of "the chapel of Saint Ebba")
  // takes the rest of the name.
  const phrases = [...rest.matchAll(OBJECT_PHRASE)].map((p) =>
    /\s\p{Lu}[\p{L}'’-]*$/u.test(p[0]) ? p[0] + (/^(?:\s+\p{Lu}[\p{L}'’-]*)+/u.exec(rest.slice(p.index + p[0].length))?.[0] ?? '') : p[0],
  );
  const m = phrases.find((p) => !/^their\s/i.test(p)) ?? phrases[0];
  if (m) {
    const obj = m.replace(/(?:\s+(?:the|a|an|of|and|to|beyond|their))+$/i, '');
    return obj.replace(/^(?:a|an|some)\s/i, 'the ').replace(/^this\s|^that\s/i, 'the ');
  }
  return null;
}
/** A determiner and up to three words, stopping at a preposition, conjunction or adverb. */
const OBJECT_PHRASE =
  /\b(?:the|a|an|their|this|that|some)\s+[\p{L}'’-]+(?:\s+(?!(?:and|to|with|about|what|who|before|after|while|so|then|under|past|into|onto|through|over|behind|near|for|from|at|in|on|by|without|unseen|quietly|quickly|carefully|again|now|if|or|but|until|toward|towards|across|around|inside|outside|beneath|below|above|against|among|along|between|beside|beyond|up|down|off|out|away|back|instead)\b)[\p{L}'’-]+){0,2}/giu;

export function joinList(items: string[]): string {
  if (items.length <= 1) return items[0] ?? '';
  return `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}
