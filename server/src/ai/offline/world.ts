/**
 * Offline world description and questions. The description grows the player's idea into a world
 * with places, powers, a threat and a mystery, in the idea's genre; questions are what a character
 * sheet in that world would need to know.
 */
import { clampMaxLength } from '../story-ai';
import { Rng, hashString, mixSeed } from './prng';
import { finishSentence, render, splitSentences, upperFirst } from './text';
import { inventPlace, readWorld } from './world-model';

const GEOGRAPHY = [
  '{world} is a {label} world of {placeA} and {placeB}, where {sky}',
  'From {placeA} to the edges of {placeB}, {world} is a place where {sky}',
  'In {world}, {sky}, and every road leads past {placeA} sooner or later',
];
const POWER = [
  'Power belongs to {faction}, though {faction2} grow bolder every season',
  '{factionCap} rule what they can; {faction2} whisper about what they cannot',
  'Nothing happens in {placeA} without the blessing of {faction}, and nothing stays secret from {faction2}',
];
const PERSON = [
  '{person}, {role}, is said to know more than anyone admits',
  'Everyone has a story about {person}, {role}, and no two of them agree',
  '{person}, {role}, keeps a door open for those with nowhere else to go',
];
const THREAT = [
  'Lately there is talk of {threat} near {placeB}, and fewer travellers come back',
  'Folk bar their doors at night, for {threat} can no longer be kept beyond the old borders',
  'Trouble is rising with {threat}, and no one agrees who is to blame',
];
const MYSTERY = [
  'Somewhere lies {artifact}, and whoever finds it may change the fate of {world}',
  'Old songs speak of {artifact}, lost long ago and never quite forgotten',
  'Many have searched for {artifact}; a few came close, and none came back the same',
];
const HOOK = [
  'Newcomers arrive with little more than a name, and here a name can still become a legend',
  'It is a hard place to live and a wonderful place to be remembered',
  'Anyone with courage and a little luck can carve out a story here',
];

/** A name for the world itself, distinct from the places the description goes on to mention. */
function inventWorldName(model: ReturnType<typeof readWorld>, rng: Rng): string {
  for (let i = 0; i < 10; i++) {
    const n = inventPlace(model.genre, rng);
    if (!model.places.slice(0, 2).includes(n)) return n;
  }
  return model.places[2] as string;
}

function cleanIdea(idea: string): string {
  return idea
    .replace(/[<>{}]/g, '')
    .replace(/\s+/g, ' ')
    .trim();
}

/** Words of an idea that are about nothing in particular (they name no thing to build on). */
const IDEA_STOP = new Set(
  'a an the of in on at to into inside under over with without and or but where who which that this these those is are was were be been its it their there here city world land place realm story about for from by my your our his her very old new dead great small big little full whole some all every each one two many much far near deep high low long dark bright strange last first ancient living lost hidden broken'.split(
    ' ',
  ),
);
/** What the player's idea is about: its own nouns, most telling first ("a dead god's skeleton" → skeleton, god). */
function ideaNouns(idea: string): string[] {
  const words = (idea.toLowerCase().match(/[a-z][a-z'’-]+/g) ?? []).map((w) => w.replace(/['’]s$/, ''));
  return [...new Set(words.filter((w) => w.length >= 3 && !IDEA_STOP.has(w)))].reverse();
}
/** People's names that belong to no one genre's culture: a world built on the player's idea gets these. */
const PLAIN_FIRST = ['Ash', 'Wren', 'Tamsin', 'Orrin', 'Mara', 'Cael', 'Brannoc', 'Isk', 'Sefa', 'Hollis', 'Ione', 'Ketter', 'Rook', 'Lune'];
const PLAIN_LAST = ['Vale', 'Marrow', 'Quell', 'Harrow', 'Stane', 'Loame', 'Tarrant', 'Fenn', 'Corrick', 'Sallow'];
const ROLES = ['a keeper of the old ways', 'a scavenger who knows every passage', 'a healer with too many patients', 'a guard captain who trusts no one'];
const cap = (w: string) => w.charAt(0).toUpperCase() + w.slice(1);

/**
 * The world's names built on the player's own words (issue 32): places named for what the idea is
 * about, people with names of no borrowed culture — so "a city inside a dead god's skeleton" is not
 * turned into a Greek temple town.
 */
function namesFromIdea(
  idea: string,
  rng: Rng,
): { world: string; placeA: string; placeB: string; person: string; role: string; threat: string; artifact: string; faction: string; faction2: string } | null {
  const nouns = ideaNouns(idea);
  const proper = /([A-Z][a-z]{2,}(?:\s[A-Z][a-z]{2,})?)/.exec(idea.replace(/^\S+\s*/, ''))?.[1];
  if (nouns.length === 0) return null;
  const n1 = cap(nouns[0] as string);
  const n2 = cap((nouns[1] ?? nouns[0]) as string);
  return {
    world: proper ?? `${n1}${rng.pick(['hold', 'reach', 'fall', 'deep', 'mouth', 'wake'])}`,
    placeA: `the ${n1} ${rng.pick(['Gate', 'Stair', 'Market', 'Ward', 'Hollow', 'Reach'])}`,
    placeB: `the ${rng.pick(['Low', 'Old', 'High', 'Deep', 'Far'])} ${n2}`,
    person: `${rng.pick(PLAIN_FIRST)} ${rng.pick(PLAIN_LAST)}`,
    role: rng.pick(ROLES),
    threat: `something that has begun to stir in the ${nouns[0]}`,
    artifact: `the heart of the ${nouns[1] ?? nouns[0]}`,
    faction: `the Keepers of the ${n1}`,
    faction2: `the ${n2} Wardens`,
  };
}

export function worldDescription(ideaRaw: string, maxLength: number | undefined): string {
  const max = clampMaxLength(maxLength);
  const idea = cleanIdea(ideaRaw);
  const model = readWorld(idea);
  const g = model.genre;
  const rng = new Rng(mixSeed('world', idea));
  const [placeA, placeB] = model.places as [string, string];
  const [faction, faction2] = model.factions as [string, string];
  // An idea with substance is built on in its own words; a bare genre word gets the genre's world.
  const own = idea.split(/\s+/).length >= 4 && model.namedInText.length === 0 ? namesFromIdea(idea, rng.fork('idea')) : null;
  const slots = {
    world: own?.world ?? inventWorldName(model, rng),
    label: g.label,
    placeA: own?.placeA ?? placeA,
    placeB: own?.placeB ?? placeB,
    sky: rng.pick(g.sky),
    faction: own?.faction ?? faction,
    factionCap: upperFirst(own?.faction ?? faction),
    faction2: own?.faction2 ?? faction2,
    person: own?.person ?? (model.people[0] as string),
    role: own?.role ?? rng.pick(g.allies),
    they: 'they',
    threat: own?.threat ?? rng.pick(g.threats),
    artifact: own?.artifact ?? rng.pick(g.artifacts),
  };
  // The idea comes first, in the player's own words (as one or more sentences) when it has any
  // substance; a one-word idea ("pirates") is better served by the generated opening alone.
  const sentences: string[] = [];
  if (idea.split(/\s+/).length >= 4) sentences.push(...splitSentences(finishSentence(idea)));
  for (const list of [GEOGRAPHY, POWER, PERSON, THREAT, MYSTERY, HOOK]) sentences.push(finishSentence(render(rng.pick(list), slots, 9)));
  let out = '';
  for (const s of sentences) {
    const next = out ? `${out} ${s}` : s;
    if (next.length > max) break;
    out = next;
  }
  if (out.length < 40) out = sentences.join(' ').slice(0, max);
  return out;
}

const QUESTIONS = [
  'What brought you to {placeA}?',
  'Who in {world} do you trust most, and why?',
  'How do you usually deal with {threat}?',
  'What would you risk to find {artifact}?',
  'Which do you rely on more: your wits, your strength or your {power}?',
  'What do you fear most, and what do you do when you meet it?',
  'What was your trade or calling before your story began?',
  'What do you think of {faction}?',
  'Who is waiting for you back home, if anyone?',
  'What is the one rule you will never break?',
];

export function worldQuestions(description: string): string[] {
  const model = readWorld(description);
  const rng = new Rng(mixSeed('questions', hashString(description)));
  const g = model.genre;
  const slots = {
    placeA: model.places[0] as string,
    world: model.places[1] as string,
    threat: rng.pick(g.threats),
    artifact: rng.pick(g.artifacts),
    power: g.power,
    faction: model.factions[0] as string,
  };
  const count = 3 + rng.int(3);
  // The first question always anchors the character in the world; the rest vary.
  const picked = [QUESTIONS[0] as string, ...rng.sample(QUESTIONS.slice(1), count - 1)];
  return picked.map((q) => upperFirst(render(q, slots, 8)));
}
