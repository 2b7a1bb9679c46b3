/**
 * Reads a world description the way a human storyteller would skim it: which genre it is, and which
 * proper nouns it names (people, places, factions). The offline storyteller writes in that genre's
 * register and reuses those names, and invents a few more in the same style, seeded by the text.
 */
import { GENRES, type Genre } from './genres';
import { Rng, hashString } from './prng';

export interface WorldModel {
  genre: Genre;
  /** Second-best genre when it scored close to the first (e.g. "haunted pirate ship"). */
  secondary: Genre | null;
  /** Stable hash of the description: same world → same invented names. */
  key: number;
  /** Named in the description first, then invented ones. Never empty. */
  people: string[];
  places: string[];
  factions: string[];
  /** Names the description itself used (for tests and to prefer them in prose). */
  namedInText: string[];
}

export const TITLES: ReadonlySet<string> = new Set(
  'king queen lord lady captain sir dame doctor dr director detective sheriff prince princess emperor empress admiral professor mayor father mother sister brother baron baroness duke duchess count countess commander agent general marshal inspector chief saint st archmage high priest priestess warlord governor senator chancellor elder master mistress commodore vicar councilman councilwoman constable reverend abbot abbess magistrate warden sergeant lieutenant colonel major officer'.split(
    ' ',
  ),
);
const PLACE_WORDS =
  /\b(city|coast|isles?|islands?|mountains?|sea|station|kingdom|empire|valley|forest|woods?|keep|port|bay|peaks?|wastes?|wasteland|sprawl|reach|district|town|village|desert|plains?|river|lake|marsh|fen|citadel|tower|spire|harbou?r|moon|planet|world|realm|lands?|vale|gulch|creek|springs|falls|heights|sector|quarter|hollow|isle|archipelago|cay|reef|street|square|market|deep|abyss|temple|shrine|castle|fortress|sanctum|ridge|canyon|mesa|county|territory|colony|outpost|base|system|nebula|belt|dome|arcology|docks?)\b/i;
const FACTION_WORDS =
  /\b(order|guild|council|company|corp|corporation|brotherhood|sisterhood|alliance|republic|federation|syndicate|church|house|clan|legion|inquisition|collective|dominion|crew|cult|circle|league|court|family|gang|society|covenant|tribe|union|navy|army|authority|consortium|empire|assembly|cabal|coven|watch|dynamics|industries|inc|barons|lords|rebellion|resistance|choir|admiralty|hegemony|combine|security|biotech|data|systems|ascendancy|parliament|senate|pact|host|syndicates|cartel|mob)\b/i;
/**
 * What shows a name is a person's: what follows it ("Nerea said", "Kronax, who…", "Moretti's men")
 * or an apposition naming a role ("Vane, a smuggler"). A one-word name without such a sign is not
 * made a person: one-word names in world descriptions are as often the world itself, a place, a
 * thing or an idea ("Aethermoor", "Sunstone", "Prohibition"), and a place acting as a person is the
 * worst mistake a storyteller can make.
 */
const PERSON_AFTER =
  /^(?:\s*,?\s*(?:who|whose)\b|\s+(?:said|says|asks|asked|whispers|whispered|rules|ruled|leads|led|commands|commanded|guards|seeks|sought|hunts|hunted|waits|waited|knows|knew|believes|fears|feared|loves|loved|hates|wants|wanted|swore|swears|betrayed|himself|herself)\b|['’]s\s+(?:men|crew|gang|daughter|son|wife|husband|brother|sister|mother|father|heir|apprentice|lover|rival|ghost|blade|hands?|eyes)\b|\s*,\s*(?:a|an|the)\s+(?:\w+\s+)?(?:smuggler|captain|thief|knight|queen|king|witch|wizard|priest|priestess|merchant|soldier|hunter|sailor|pirate|detective|doctor|scientist|engineer|pilot|rebel|spy|assassin|mercenary|bard|ranger|smith|healer|leader|boss|fixer|hacker|courier|widow|orphan|outlaw|gunslinger|scholar|oracle|prophet|god|goddess)\b)/i;
const PLACE_PREP =
  /\b(of|in|at|from|to|across|beyond|near|into|toward|towards|on|past|through|around|over|under|reach|reached|visit|visited|leave|left|sail|sailed|called|named)\s*$/i;
const STOP = new Set(
  "the a an in on at it its this that these those there when where who what once now but and or for from with without here every each all some long after before beneath under above across through few many most only they we you our their his her he she as if yet so no not even far deep high i my one two three four five legends legend rumors rumours nobody none everyone something nothing today tomorrow tonight new old great last first years centuries ages since until while during beyond within among between upon amid then though although because will would can could may might must should here's welcome imagine picture explore play become live forge".split(
    ' ',
  ),
);

/** Stop words that, capitalised in mid-sentence, begin a name ("the High Throne", "the Old Quarter"). */
const NAME_ADJECTIVES = new Set(['high', 'great']);
/** A title at the start of a name: "High" only before another ("High Priestess Ysolde", not "the High Throne"). */
const titleAt = (words: readonly string[], i: number) => {
  const w = (words[i] ?? '').toLowerCase();
  return TITLES.has(w) && (w !== 'high' || TITLES.has((words[i + 1] ?? '').toLowerCase()));
};

function titleCaseRun(text: string): Array<{ name: string; before: string; after: string }> {
  const out: Array<{ name: string; before: string; after: string }> = [];
  // Capitalised words, optionally joined by "of", "of the", "de", "-", e.g. "Order of the Dawn".
  const re = /\b([A-Z][\p{L}'’-]*(?:\s+(?:of\s+the\s+|of\s+|de\s+|del\s+|van\s+|von\s+)?[A-Z][\p{L}'’-]*)*)/gu;
  let m: RegExpExecArray | null;
  while ((m = re.exec(text))) {
    const before = text.slice(Math.max(0, m.index - 24), m.index);
    const after = text.slice(m.index + m[0].length, m.index + m[0].length + 4);
    out.push({ name: m[0], before, after });
  }
  return out;
}

const ALL_FACTIONS = new Set(GENRES.flatMap((g) => g.factions.map((f) => f.toLowerCase())));
const ALL_FIRST_NAMES = new Set(GENRES.flatMap((g) => g.firstNames));
/** Names we invent ourselves (inventPlace) must read back as places when a description is re-read. */
function looksInvented(name: string): boolean {
  return GENRES.some((g) => g.placeStarts.some((st) => name.startsWith(st.trim())) && g.placeEnds.some((en) => name.endsWith(en.trim())));
}

// Compiled once: a new world is read on its first chapter, and compiling ~300 patterns per read
// would dominate the offline chapter's tail latency.
const GENRE_PATTERNS = GENRES.map((genre) => ({
  genre,
  patterns: genre.keywords.map((kw) => ({ re: new RegExp(`\\b${kw.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`, 'g'), weight: kw.includes(' ') ? 2 : 1 })),
}));

function genreScores(lower: string): Array<{ genre: Genre; score: number }> {
  return GENRE_PATTERNS.map(({ genre, patterns }) => {
    let score = 0;
    for (const { re, weight } of patterns) score += (lower.match(re)?.length ?? 0) * weight;
    return { genre, score };
  }).sort((a, b) => b.score - a.score);
}

export function detectGenre(description: string): { genre: Genre; secondary: Genre | null } {
  const scores = genreScores(description.toLowerCase());
  const best = scores[0] as { genre: Genre; score: number };
  if (best.score === 0) {
    // No signal at all: pick by hash so empty-ish worlds still differ from each other.
    return { genre: GENRES[hashString(description) % GENRES.length] as Genre, secondary: null };
  }
  const second = scores[1];
  return { genre: best.genre, secondary: second && second.score > 0 && second.score >= best.score * 0.6 ? second.genre : null };
}

function inventName(genre: Genre, rng: Rng): string {
  return `${rng.pick(genre.firstNames)} ${rng.pick(genre.lastNames)}`;
}
export function inventPlace(genre: Genre, rng: Rng): string {
  return `${rng.pick(genre.placeStarts)}${rng.pick(genre.placeEnds)}`.replace(/\s+/g, ' ').trim();
}

const cache = new Map<string, WorldModel>();

/** Memoised: every chapter reads the same description, and parsing it each time would waste the budget. */
export function readWorld(description: string): WorldModel {
  const hit = cache.get(description);
  if (hit) return hit;
  const model = buildWorldModel(description);
  if (cache.size > 500) cache.delete(cache.keys().next().value as string);
  cache.set(description, model);
  return model;
}

function buildWorldModel(description: string): WorldModel {
  const { genre, secondary } = detectGenre(description);
  const key = hashString(description);
  const rng = new Rng(key);
  const people: string[] = [];
  const places: string[] = [];
  const factions: string[] = [];
  const namedInText: string[] = [];

  // Pass 1: every capitalised run with its contexts, so one clear use ("sailed to Tortuga") can
  // classify a name that is ambiguous elsewhere ("past Tortuga").
  interface Seen {
    name: string;
    words: string[];
    contexts: Array<{ before: string; after: string; initial: boolean }>;
    article: boolean;
  }
  const seen = new Map<string, Seen>();
  for (const { name: rawName, before, after } of titleCaseRun(description)) {
    const words = rawName.split(/\s+/);
    let initial = /(^|[.!?:]["”]?\s*)$/.test(before);
    // Drop sentence-initial stop words ("The Iron Coast" → "Iron Coast", "In" → nothing). In mid-
    // sentence an adjective that starts a run is part of the name ("under the High Throne of Lys").
    while (words.length > 0 && STOP.has((words[0] as string).toLowerCase()) && (initial || !NAME_ADJECTIVES.has((words[0] as string).toLowerCase()))) {
      words.shift();
      initial = false;
    }
    if (words.length === 0) continue;
    // "Director Imani Oduya of the Tidewell Institute": the person is the part before "of".
    const ofAt = words.indexOf('of');
    if (ofAt > 1 && titleAt(words, 0)) words.splice(ofAt);
    const name = words.join(' ');
    if (name.length < 3 || name.length > 40) continue;
    const key = name.toLowerCase();
    const entry = seen.get(key) ?? { name, words, contexts: [], article: false };
    entry.contexts.push({ before, after, initial });
    if (/\bthe\s*$/i.test(before) || /^the\s/i.test(rawName)) entry.article = true;
    seen.set(key, entry);
  }
  // Pass 2: classify. A single capitalised word that only ever starts a sentence is just a word.
  const longerNames = [...seen.keys()].filter((k) => k.includes(' '));
  for (const { name: base, words, contexts, article } of seen.values()) {
    const firstLower = (words[0] as string).toLowerCase();
    if (words.length === 1 && contexts.every((c) => c.initial)) continue;
    if (/^[A-Z0-9]{2,5}$/.test(base)) continue; // acronyms (ICE, AI, USB) are not characters or places
    if (TITLES.has(firstLower) && words.length === 1) continue;
    const prevWords = contexts.map((c) => c.before.trim().split(/\s+/).pop()?.toLowerCase() ?? '');
    const title = prevWords.find((w) => TITLES.has(w));
    let bucket: string[];
    const lowerBase = base.toLowerCase();
    if (FACTION_WORDS.test(base) || ALL_FACTIONS.has(lowerBase) || ALL_FACTIONS.has(`the ${lowerBase}`)) bucket = factions;
    else if (ALL_FIRST_NAMES.has(words[0] as string)) bucket = people;
    else if (looksInvented(base)) bucket = places;
    else if (titleAt(words, 0) || title || (words.length > 1 && words.some((w, i) => titleAt(words, i)))) bucket = people;
    else if (PLACE_WORDS.test(base) || contexts.some((c) => PLACE_PREP.test(c.before))) bucket = places;
    else if (contexts.some((c) => PERSON_AFTER.test(c.after))) bucket = people;
    else if (words.length > 1) bucket = places;
    // One word with no sign of a person: a short form of a longer name ("Requiem" of "Neon
    // Requiem"), a group ("Archivists"), or a thing or idea — never a person (see PERSON_AFTER).
    else if (longerNames.some((n) => n !== lowerBase && n.split(/\s+/).includes(lowerBase))) continue;
    else if (/[a-z]s$/.test(base)) bucket = factions;
    else continue;
    let name = base;
    if (article && bucket !== people) name = `the ${name}`;
    if (title && bucket === people) name = `${title[0]?.toUpperCase()}${title.slice(1)} ${name}`;
    if (!bucket.some((n) => n.toLowerCase() === name.toLowerCase())) {
      bucket.push(name);
      namedInText.push(name);
    }
  }

  // Invented names fill out the cast; they come after the world's own so prose prefers those.
  while (people.length < 6) {
    const n = inventName(genre, rng);
    if (!people.includes(n)) people.push(n);
  }
  while (places.length < 5) {
    const p = inventPlace(genre, rng);
    if (!places.includes(p)) places.push(p);
  }
  for (const f of rng.shuffle(genre.factions)) if (factions.length < 3 && !factions.includes(f)) factions.push(f);
  return { genre, secondary, key, people, places, factions, namedInText };
}

/** The short form of a person's name for prose ("Captain Anne Bonny" → "Anne"). */
export function shortName(full: string): string {
  const words = full.split(/\s+/).filter((w) => !TITLES.has(w.toLowerCase()));
  return words[0] ?? full;
}
