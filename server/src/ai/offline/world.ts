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

export function worldDescription(ideaRaw: string, maxLength: number | undefined): string {
  const max = clampMaxLength(maxLength);
  const idea = cleanIdea(ideaRaw);
  const model = readWorld(idea);
  const g = model.genre;
  const rng = new Rng(mixSeed('world', idea));
  const [placeA, placeB] = model.places as [string, string];
  const [faction, faction2] = model.factions as [string, string];
  const slots = {
    world: inventWorldName(model, rng),
    label: g.label,
    placeA,
    placeB,
    sky: rng.pick(g.sky),
    faction,
    factionCap: upperFirst(faction),
    faction2,
    person: model.people[0] as string,
    role: rng.pick(g.allies),
    they: 'they',
    threat: rng.pick(g.threats),
    artifact: rng.pick(g.artifacts),
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
