/**
 * Point of view and tense, offline (issue 32): chapters are composed in the third person past, with
 * the hero's name and marked pronouns (HERO), then told the way the story is set — second person
 * present by default ("you step inside"), first person past ("I stepped inside"), or third person past
 * by name. Speech inside quotation marks is left as it was spoken.
 */
import type { PointOfView } from '../story-ai';
import { EXTRA_VERBS, KIND_VERBS } from './text';

/** The hero's pronouns as the composer writes them: marked, so "they" for a crowd stays "they". */
export const HERO = { they: '\u0002they', them: '\u0002them', their: '\u0002their', themself: '\u0002themself' } as const;

/** Past → base form of the irregular verbs the storyteller writes. */
const IRREGULAR: Record<string, string> = {
  was: 'be',
  were: 'be',
  had: 'have',
  did: 'do',
  went: 'go',
  came: 'come',
  became: 'become',
  saw: 'see',
  knew: 'know',
  took: 'take',
  gave: 'give',
  found: 'find',
  told: 'tell',
  said: 'say',
  thought: 'think',
  felt: 'feel',
  left: 'leave',
  kept: 'keep',
  stood: 'stand',
  held: 'hold',
  brought: 'bring',
  began: 'begin',
  ran: 'run',
  fell: 'fall',
  rose: 'rise',
  spoke: 'speak',
  broke: 'break',
  chose: 'choose',
  made: 'make',
  got: 'get',
  met: 'meet',
  sat: 'sit',
  lay: 'lie',
  led: 'lead',
  meant: 'mean',
  heard: 'hear',
  lost: 'lose',
  paid: 'pay',
  sent: 'send',
  spent: 'spend',
  built: 'build',
  caught: 'catch',
  taught: 'teach',
  fought: 'fight',
  sought: 'seek',
  bought: 'buy',
  drew: 'draw',
  grew: 'grow',
  threw: 'throw',
  blew: 'blow',
  flew: 'fly',
  wore: 'wear',
  tore: 'tear',
  swore: 'swear',
  struck: 'strike',
  stuck: 'stick',
  hung: 'hang',
  rang: 'ring',
  sang: 'sing',
  drank: 'drink',
  sank: 'sink',
  shook: 'shake',
  woke: 'wake',
  wrote: 'write',
  rode: 'ride',
  drove: 'drive',
  hid: 'hide',
  bit: 'bite',
  slid: 'slide',
  won: 'win',
  spun: 'spin',
  understood: 'understand',
  forgot: 'forget',
  froze: 'freeze',
  stole: 'steal',
  slept: 'sleep',
  swept: 'sweep',
  crept: 'creep',
  wept: 'weep',
  knelt: 'kneel',
  dealt: 'deal',
  shone: 'shine',
  overcame: 'overcome',
  withdrew: 'withdraw',
  swam: 'swim',
  dug: 'dig',
  clung: 'cling',
  flung: 'fling',
  slung: 'sling',
  strode: 'stride',
  arose: 'arise',
  awoke: 'awake',
  bent: 'bend',
  lent: 'lend',
  leapt: 'leap',
  fed: 'feed',
  fled: 'flee',
  bled: 'bleed',
  bred: 'breed',
  sped: 'speed',
  lit: 'light',
  shot: 'shoot',
  stung: 'sting',
  swung: 'swing',
  wound: 'wind',
  ground: 'grind',
  bound: 'bind',
  bore: 'bear',
  forgave: 'forgive',
  foresaw: 'foresee',
  undertook: 'undertake',
  mistook: 'mistake',
  shrank: 'shrink',
  sprang: 'spring',
  stank: 'stink',
  beat: 'beat',
  ate: 'eat',
  sold: 'sell',
  laid: 'lay',
  could: 'can',
  would: 'will',
};
/** Past forms that are also common nouns or adjectives: changed only right after their subject. */
const RISKY = new Set([
  'left',
  'found',
  'saw',
  'felt',
  'lay',
  'rose',
  'fell',
  'bore',
  'wound',
  'ground',
  'bound',
  'spoke',
  'led',
  'lit',
  'shot',
  'bit',
  'beat',
  'sat',
  'won',
  'met',
  'hung',
]);
/** -ed words the storyteller uses as adjectives: never verbs to change. */
const ADJECTIVES = new Set(
  'crossed folded clasped tired worn armed cursed hooded scarred wicked crooked beloved aged naked ragged rugged sacred wretched rusted hunched masked robed cloaked drowned haunted gifted skilled battered faded tangled twisted polished painted carved stained weathered abandoned forgotten hidden sealed locked chained barred marked frayed rotted buried scented bored unmarked unnamed unexpected unguarded unlocked unarmed muffled hushed gnarled bearded wrinkled freckled crowded shuttered boarded bloodied blackened charred shattered hollowed winged horned armoured armored bandaged ashamed tangled curled curved jagged crooked beaded braided veiled unseen hardened seasoned scattered mixed assorted ruined flooded frozen stolen broken chosen fallen sworn amused pleased satisfied surprised startled relieved worried annoyed puzzled troubled unsettled alarmed stunned dazed exhausted'.split(
    ' ',
  ),
);
/** Before these a past-looking word is a participle or an adjective: left as it is. */
const KEEP_AFTER = new Set(
  'had has have having was were is are be been being am the a an this these those his her its their your my our some no any every each well very so too more as than most less get got gets getting seemed seems looked looks felt feels became becomes remained remains stayed stays grew grows kept keeps newly long freshly once all by of with'.split(
    ' ',
  ),
);
const PLURAL_SUBJECTS = new Set(['you', 'i', 'they', 'we']);
/** Pronouns start a clause of their own even after a verb ("it is time you did not have"). */
const PRONOUN_SUBJECTS = new Set(['you', 'i', 'they', 'we', 'he', 'she', 'it']);

/** Whether `past` is a spelling of the past of `base` (so "bed" is not the past of "b"). */
function pastLike(base: string, past: string): boolean {
  return past === `${base}ed` || past === `${base}d` || past === `${base}${base.slice(-1)}ed` || past === `${base.slice(0, -1)}ied`;
}

/** -ed words that are not past verbs at all. */
const NOT_PAST = new Set(
  'hundred kindred hatred shred seabed riverbed embed infrared steed creed deed weed seed greed indeed proceed speed breed exceed succeed sled'.split(' '),
);

/**
 * Verbs whose base form spelling rules cannot guess ("opened" → "open", "invited" → "invite"): the
 * verbs players type (text.ts) and the narrative verbs the storyteller writes.
 */
const KNOWN_BASES = new Set([
  ...Object.values(KIND_VERBS).flat(),
  ...EXTRA_VERBS,
  ...'complete open listen gather wander enter offer answer whisper shiver flicker mutter murmur remember hover cover discover order bother happen waken frighten threaten beckon reckon summon visit limit edit exit consider glimmer shimmer linger wonder shudder stagger falter invite unite ignite recite excite persuade raise release disguise venture figure console negotiate analyze analyse inquire taste become paste waste hate rate state create imagine examine determine smile glance sense pause notice promise practise practice welcome drawl growl crawl sprawl howl scowl prowl'.split(
    ' ',
  ),
]);

/** The base form of a regular past (-ed) verb: "hoped" → "hope", "stopped" → "stop", "tried" → "try". */
function regularBase(w: string, afterSubject = false): string | null {
  if (!/^[a-z]{2,}ed$/.test(w) || (ADJECTIVES.has(w) && !afterSubject) || NOT_PAST.has(w) || (/^un/.test(w) && !afterSubject)) return null;
  for (const b of [w.slice(0, -2), w.slice(0, -1), w.slice(0, -3), `${w.slice(0, -3)}y`]) if (KNOWN_BASES.has(b) && pastLike(b, w)) return b;
  if (/eed$/.test(w)) return /^(?:agreed|freed|decreed|guaranteed)$/.test(w) ? w.slice(0, -1) : null;
  if (/ied$/.test(w)) return w.length <= 4 ? w.slice(0, -1) : `${w.slice(0, -3)}y`;
  const stem = w.slice(0, -2);
  if (/(?:ll|ss|ff|zz)$/.test(stem)) return stem;
  if (/([bdgmnprt])\1$/.test(stem)) return stem.slice(0, -1);
  if (/[vcu]$/.test(stem) || /[^aeiou]l$/.test(stem) || /(?:dg|rg|th|ns|rs|ps|ls)$/.test(stem) || /(?:ang|ung|eng|inge|ange)$/.test(stem)) return `${stem}e`;
  if (/[aeiou]z$/.test(stem) || /(?:^|[^aeiou])[aeiou]s$/.test(stem)) return /(?:focus|bias)$/.test(stem) ? stem : `${stem}e`;
  // A single vowel before a single consonant with no doubling: the silent e was dropped ("smiled"),
  // unless the last syllable is unstressed ("opened", "whispered", "visited").
  if (/(?:^|[^aeiou])[aeiou][bdgklmnprt]$/.test(stem)) {
    if (/or$/.test(stem) && !/(?:honor|anchor|favor|color|labor|harbor|author|monitor|armor)$/.test(stem)) return `${stem}e`;
    if (/(?:clar|par|scar|star|glar|shar|car|dar|flar|spar|blar)$/.test(stem)) return `${stem}e`;
    const unstressed = stem.length > 4 && /(?:er|en|on|it|et|el|op|om|ol|al|ar|ur|im|ic)$/.test(stem);
    return unstressed ? stem : `${stem}e`;
  }
  return stem;
}

/** "be" → is/are, "have" → has/have…: the present form for a subject (plural: you, I, they, plural nouns). */
function present(base: string, plural: boolean, first: boolean): string {
  if (base === 'be') return first ? 'am' : plural ? 'are' : 'is';
  if (base === 'can' || base === 'will') return base;
  if (plural) return base;
  if (base === 'have') return 'has';
  if (base === 'do' || base === 'go') return `${base}es`;
  if (/(?:s|sh|ch|x|z|o)$/.test(base)) return `${base}es`;
  if (/[^aeiou]y$/.test(base)) return `${base.slice(0, -1)}ies`;
  return `${base}s`;
}

/** Is the word a noun's plural (a subject that takes "are")? Names and "-ss" words are not. */
const PLURAL_WORDS = new Set([
  'those',
  'these',
  'people',
  'folk',
  'men',
  'women',
  'children',
  'dead',
  'police',
  'cattle',
  'others',
  'few',
  'many',
  'both',
  'several',
  'crew',
  'villagers',
]);
function pluralNoun(word: string): boolean {
  if (PLURAL_WORDS.has(word)) return true;
  return /^[a-z]+s$/.test(word) && !/(?:ss|us|is|ics|news)$/.test(word);
}

/** Words that start a new clause: the next past verb is that clause's own. */
const CLAUSE_WORDS = new Set([
  'and',
  'but',
  'or',
  'so',
  'then',
  'when',
  'as',
  'than',
  'while',
  'because',
  'until',
  'before',
  'after',
  'if',
  'though',
  'although',
  'since',
  'where',
  'who',
  'which',
  'that',
  'once',
  'whatever',
  'whoever',
  'what',
]);
const ADVERBS = new Set([
  'not',
  'never',
  'still',
  'also',
  'just',
  'only',
  'then',
  'already',
  'always',
  'often',
  'even',
  'almost',
  'soon',
  'now',
  'once',
  'again',
  'at',
  'first',
  'last',
  'finally',
  'least',
  // Particles: never a subject ("And out of the dark came…": the subject follows the verb).
  'out',
  'up',
  'down',
  'away',
  'off',
]);

const DETERMINERS = new Set([
  'the',
  'a',
  'an',
  'this',
  'that',
  'these',
  'those',
  'his',
  'her',
  'its',
  'their',
  'your',
  'my',
  'our',
  'some',
  'no',
  'every',
  'each',
  'to',
]);
const PREPOSITIONS = new Set([
  'in',
  'of',
  'at',
  'on',
  'to',
  'from',
  'with',
  'by',
  'for',
  'near',
  'under',
  'over',
  'across',
  'around',
  'past',
  'toward',
  'towards',
  'beyond',
  'behind',
  'inside',
  'through',
  'into',
  'about',
  'along',
  'among',
  'beneath',
  'below',
  'above',
  'against',
  'between',
  'without',
  'like',
]);

/**
 * Turns a past-tense stretch of narration (no quotes in it) into the present. A clause has one finite
 * verb: a past-looking word after it is a participle ("a gift called Blood-craft").
 */
function toPresent(text: string): string {
  const tokens = text.split(/(\s+|[,;:—–()]|\.)/);
  let subject = '';
  let mainSubject = '';
  let inPhrase = false;
  let phraseNoun = false;
  let clauseHasVerb = false;
  /**
   * A relative clause on the sentence's subject ("those who knew you…"): its subject, until the
   * sentence's own verb comes after the clause ("…called you curious").
   */
  let relativeOn: string | null = null;
  /** The sentence's subject while a "what" clause has its own ("…of what is left, then nod"). */
  let beforeWhat = '';
  /** The subject is the noun a relative clause is about: it does not become the sentence's. */
  let subjectIsAntecedent = false;
  /** In a clause that hangs on another ("when it matters most"): its subject is not the sentence's. */
  let subordinate = false;
  /** Words written with a capital inside the sentence: names. */
  const names = new Set<string>();
  /** Tokens turned into this sentence's verbs. */
  const verbAt = new Set<number>();
  for (let i = 0; i < tokens.length; i++) {
    const raw = tokens[i] as string;
    if (!/^[\p{L}'’-]+$/u.test(raw)) {
      if (/[,;:—–.()]/.test(raw)) {
        // A comma keeps the sentence's subject ("You wonder whom to trust, and press on").
        if (!/,/.test(raw)) {
          mainSubject = '';
          relativeOn = null;
          beforeWhat = '';
        } else if (!mainSubject && beforeWhat) mainSubject = beforeWhat;
        subject = '';
        inPhrase = false;
        clauseHasVerb = false;
        subordinate = false;
      }
      continue;
    }
    const lower = raw.toLowerCase();
    if (CLAUSE_WORDS.has(lower)) {
      // "who", "which", "that" after a noun: the clause is about that noun ("footsteps that stop",
      // "a troll who guards"); after a verb or a pronoun "that" starts a clause with its own subject.
      const antecedent = /^(?:who|which|that)$/.test(lower) ? antecedentOf(tokens, i, verbAt) : null;
      if (antecedent) {
        if (!clauseHasVerb && (subject === antecedent || mainSubject === '')) relativeOn = antecedent;
        subject = antecedent;
        subjectIsAntecedent = true;
        clauseHasVerb = false;
        inPhrase = false;
        // A clause already in the present ("a hedge-witch who asks no questions"): its verb is that
        // word, so what follows it is its object, not a new subject.
        const k = nextWordIndex(tokens, i);
        const next = k >= 0 ? (tokens[k] as string).toLowerCase() : '';
        if (/^(?:is|are|has|have|does|do|can|will|must)$/.test(next) || (!pluralNoun(antecedent) && /^[a-z]{3,}s$/.test(next) && !/ss$/.test(next))) {
          verbAt.add(k);
          clauseHasVerb = true;
          i = k;
        }
        continue;
      }
      // "…, and that was not nothing": after a joining word, "that" before a verb is the clause's own
      // subject (one thing), not the sentence's subject going on.
      if (lower === 'that' && /^(?:and|but|or|so)$/.test((prevWordOf(tokens, i) ?? '').toLowerCase())) {
        const k = nextWordIndex(tokens, i);
        if (k >= 0 && /^(?:was|were|had|is|has|did|could|would)$/.test((tokens[k] as string).toLowerCase())) {
          subject = 'that';
          subjectIsAntecedent = false;
          clauseHasVerb = false;
          subordinate = false;
          inPhrase = false;
          continue;
        }
      }
      clauseHasVerb = false;
      subordinate = !/^(?:and|but|or|so|then)$/.test(lower);
      // ", which was just as well": about all that came before, one thing.
      if (lower === 'which') {
        subject = 'which';
        subjectIsAntecedent = true;
        inPhrase = false;
        continue;
      }
      // A new clause is not inside the phrase before it ("on a day when crows wheel…").
      if (lower !== 'and' && lower !== 'or') inPhrase = false;
      if (lower !== 'and' && lower !== 'or') subject = lower === 'who' || lower === 'which' || lower === 'that' ? subject : '';
      if (lower === 'what') {
        // "with what little was at hand": a clause of its own, with its own subject.
        inPhrase = false;
        if (mainSubject) beforeWhat = mainSubject;
        mainSubject = '';
      }
      continue;
    }
    const prevRaw = prevWordOf(tokens, i) ?? '';
    const prevWord = prevRaw.toLowerCase();
    // "…and neither did Edmund", "nor had Edmund": the subject comes after its verb.
    const inverted = /^(?:neither|nor)$/.test(prevWord) && /^(?:had|was|were|did|could|would)$/.test(lower);
    let base: string | null = IRREGULAR[lower] ?? null;
    const auxiliary = base !== null && /^(?:had|was|were|did|could|would)$/.test(lower);
    // A word that is also a noun ("left", "ground", "rose") is a verb only where a clause's verb is due.
    if (base && RISKY.has(lower) && (clauseHasVerb || DETERMINERS.has(prevWord) || PREPOSITIONS.has(prevWord))) base = null;
    if (!base) base = regularBase(lower, PRONOUN_SUBJECTS.has(prevWord));
    // ("it all came down to…": "all" after a pronoun is part of the subject.)
    const allOfThem = prevWord === 'all' && PRONOUN_SUBJECTS.has(tokenAt(tokens, i, -2).toLowerCase());
    if (base && !auxiliary && ((KEEP_AFTER.has(prevWord) && !allOfThem) || /['’]s$/.test(prevWord))) base = null;
    // The sentence's own verb after a relative clause on its subject and the clause's object (a
    // pronoun or a name: "those who knew you called…"). After another noun it may be a participle
    // ("the sailor who found the body washed up"): left as it is.
    const mainAfterRelative = base !== null && clauseHasVerb && relativeOn !== null && (OBJECT_PRONOUNS.has(prevWord) || names.has(prevWord));
    if (base && clauseHasVerb && !auxiliary && !mainAfterRelative) base = null;
    // ", neatly mended." — a participle after an adverb, ending the sentence, describes; it is no verb.
    if (base && !auxiliary && /ly$/.test(prevWord) && tokenAt(tokens, i, -2) === ',' && /^(?:\.|)$/.test(tokenAt(tokens, i, 1))) base = null;
    if (base) {
      const who = mainAfterRelative ? (relativeOn as string) : inverted ? (nextWordOf(tokens, i) ?? '').toLowerCase() : subject || mainSubject;
      if (clauseHasVerb) relativeOn = null;
      const first = who === 'i';
      // No subject before the verb: the one after it decides ("out of the dark come footsteps").
      const after = who === '' ? (nextWordOf(tokens, i) ?? '') : '';
      // A name is one person, whatever its last letter ("Amos notices").
      const plural =
        PLURAL_SUBJECTS.has(who) || (!names.has(who) && pluralNoun(who)) || (lower === 'were' && who === '') || (/^[a-z]/.test(after) && pluralNoun(after));
      let out = present(base, plural, first);
      if (/^[A-Z]/.test(raw)) out = out.charAt(0).toUpperCase() + out.slice(1);
      tokens[i] = out;
      verbAt.add(i);
      clauseHasVerb = true;
      inPhrase = false;
      // The latest subject named is the one a clause after a comma goes on with ("…, but you are
      // curious, and press on").
      if (!mainSubject || (who && who === subject && !subjectIsAntecedent && !subordinate)) mainSubject = who;
      continue;
    }
    // Nouns after a preposition are not the subject ("most people in the hall know it"); a second
    // noun phrase after one ends it ("for a moment the whole world seemed…").
    if (PREPOSITIONS.has(lower)) {
      inPhrase = true;
      phraseNoun = false;
    } else if (inPhrase && phraseNoun && DETERMINERS.has(lower) && lower !== 'to') inPhrase = false;
    else if (inPhrase && !DETERMINERS.has(lower)) phraseNoun = true;
    // A pronoun straight after a verb is its object ("that had carried you this far had…"), not the
    // subject of what follows.
    else if (PRONOUN_SUBJECTS.has(lower) && !inPhrase) {
      // (…and one not after a verb starts a clause of its own: "the day you first came".)
      if (!afterVerb(tokens, i, verbAt)) {
        subject = lower;
        subjectIsAntecedent = false;
        clauseHasVerb = false;
      }
    } else if (!inPhrase && !ADVERBS.has(lower) && (!/(?:ly|ing)$/.test(lower) || /^(?:every|no|some|any)thing$/.test(lower)) && !clauseHasVerb) {
      subject = lower;
      subjectIsAntecedent = false;
      // A capital inside the sentence is a name, but "the Ashworths", "the Reclaimers" are many.
      // (After a comma the sentence has begun: "Later, Elias breathed" is one Elias.)
      const midSentence = prevRaw !== '' || /^[,;:—–]$/.test(tokenAt(tokens, i, -1));
      if (/^[A-Z]/.test(raw) && midSentence && !(prevWord === 'the' && pluralNoun(lower))) names.add(lower);
    }
  }
  return tokens.join('').replace(/\bcan not\b/g, 'cannot');
}

const OBJECT_PRONOUNS = new Set(['you', 'him', 'her', 'them', 'me', 'us', 'it']);

/** The noun a relative pronoun at i follows, lower case; null after a verb, a pronoun or a function word. */
function antecedentOf(tokens: string[], i: number, verbAt: ReadonlySet<number>): string | null {
  for (let j = i - 1; j >= 0; j--) {
    const t = tokens[j] as string;
    if (/^\s*$/.test(t)) continue;
    if (!/^[\p{L}'’-]+$/u.test(t) || verbAt.has(j)) return null;
    const w = t.toLowerCase();
    // ("those who…", "these that…": the determiner stands for the people.)
    if (w === 'those' || w === 'these') return w;
    if (PRONOUN_SUBJECTS.has(w) || OBJECT_PRONOUNS.has(w) || DETERMINERS.has(w) || PREPOSITIONS.has(w) || CLAUSE_WORDS.has(w) || ADVERBS.has(w)) return null;
    if (w in IRREGULAR || (/^[a-z]{3,}ed$/.test(w) && !ADJECTIVES.has(w) && !NOT_PAST.has(w))) return null;
    return w;
  }
  return null;
}

/** The `step`-th token from i (negative: before), spaces and empty tokens aside ('' past either end). */
function tokenAt(tokens: string[], i: number, step: number): string {
  let left = Math.abs(step);
  for (let j = i + Math.sign(step); j >= 0 && j < tokens.length; j += Math.sign(step)) {
    if (/^\s*$/.test(tokens[j] as string)) continue;
    if (--left === 0) return tokens[j] as string;
  }
  return '';
}

/** Whether the word before token i is a verb: one this pass turned, or a past form left as a participle. */
function afterVerb(tokens: string[], i: number, verbAt: ReadonlySet<number>): boolean {
  for (let j = i - 1; j >= 0; j--) {
    const t = tokens[j] as string;
    if (/^\s*$/.test(t)) continue;
    if (!/^[\p{L}'’-]+$/u.test(t)) return false;
    const w = t.toLowerCase();
    return verbAt.has(j) || (/^[a-z]{3,}ed$/.test(w) && !ADJECTIVES.has(w) && !NOT_PAST.has(w)) || (w in IRREGULAR && !RISKY.has(w));
  }
  return false;
}

/** Index of the next word token after i (-1 when punctuation or the end comes first). */
function nextWordIndex(tokens: string[], i: number): number {
  for (let j = i + 1; j < tokens.length; j++) {
    const t = tokens[j] as string;
    if (/^\s*$/.test(t)) continue;
    return /^[\p{L}'’-]+$/u.test(t) ? j : -1;
  }
  return -1;
}

function nextWordOf(tokens: string[], i: number): string | null {
  for (let j = i + 1; j < tokens.length; j++) {
    const t = tokens[j] as string;
    if (/^\s*$/.test(t)) continue;
    return /^[\p{L}'’-]+$/u.test(t) ? t : null;
  }
  return null;
}

function prevWordOf(tokens: string[], i: number): string | null {
  for (let j = i - 1; j >= 0; j--) {
    const t = tokens[j] as string;
    if (/^\s*$/.test(t)) continue;
    return /^[\p{L}'’-]+$/u.test(t) ? t : null;
  }
  return null;
}

/** Words after which the hero is the object ("told me"), not the subject ("I told"). */
const OBJECT_AFTER =
  /(?:\b(?:to|at|with|for|from|toward|towards|behind|beside|on|about|of|around|past|near|like|than|before|after|into|upon|against|over|under|without|let|made|help|helped|watch|watched|saw|see|told|tell|asked|ask|gave|give|showed|show|thanked|called|warned|followed|found|met|greeted|noticed|stopped|joined|beckoned|studied|handed|pulled|pushed|left|took|brought|sent|led|guided|reached|hit|struck|rushed|surrounded|caught|heard|knew|trusted|believed|paid|owed|offered|promised)\s+)$/i;

/**
 * Tells composed paragraphs from the story's point of view. `heroNames`: the names the composer
 * used for the hero (full name and the short one).
 */
export function narrate(sentence: string, pov: PointOfView, heroNames: readonly string[]): string {
  const names = [...heroNames].filter(Boolean).sort((a, b) => b.length - a.length);
  // Quoted speech stays as spoken: split it out, convert the narration around it.
  return (
    sentence
      .split(/([“"][^”"]*[”"]|\u0004[^\u0005]*\u0005)/)
      .map((part, i) => (i % 2 === 1 ? part.replace(/[\u0002\u0004\u0005]/g, '') : narrateOutside(part, pov, names)))
      .join('')
      .replace(/^(\W*)(\p{Ll})/u, (_m, pre: string, c: string) => pre + c.toUpperCase())
      // A sentence inside the line that began with the hero's name ("…before. Edmund asked" → "…before.
      // You ask"); an ellipsis goes on mid-sentence.
      .replace(/(?<!\.)([.!?]\s+)(\p{Ll})/gu, (_m, stop: string, c: string) => stop + c.toUpperCase())
  );
}

function narrateOutside(text: string, pov: PointOfView, names: string[]): string {
  if (pov === 'third') return text.replace(/\u0002/g, '');
  // The composer's sentence start capitalised a pronoun ("\u0002They had…"): the mark goes first.
  // (narrate capitalises the sentence's first letter again at the end).
  text = text.replace(/\u0002([A-Z])/g, (_m, c: string) => `\u0002${c.toLowerCase()}`);
  const nameRe = names.length > 0 ? new RegExp(`\\b(?:${names.map((n) => n.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|')})(['’]s)?\\b`, 'g') : null;
  let out = text;
  if (pov === 'second') {
    if (nameRe) out = out.replace(nameRe, (_m, poss?: string) => (poss ? '\u0003your' : '\u0003you'));
    out = out
      .replace(/\u0002themself/g, 'yourself')
      .replace(/\u0002they\b/g, '\u0003you')
      .replace(/\u0002them\b/g, 'you')
      .replace(/\u0002their\b/g, 'your');
    out = toPresent(out.replace(/\u0003/g, '')).replace(/\b([Tt])he story of you\b/g, (_m, t: string) => (t === 'T' ? 'Your story' : 'your story'));
    return out;
  }
  // First person, past.
  if (nameRe)
    out = out.replace(nameRe, (m, poss: string | undefined, offset: number, whole: string) =>
      poss ? 'my' : OBJECT_AFTER.test(whole.slice(0, offset)) ? 'me' : 'I',
    );
  out = out
    .replace(/\u0002themself/g, 'myself')
    .replace(/\u0002they\b/g, 'I')
    .replace(/\u0002them\b/g, 'me')
    .replace(/\u0002their\b/g, 'my');
  return out.replace(/\bI were\b/g, 'I was').replace(/\bI has\b/g, 'I have');
}
