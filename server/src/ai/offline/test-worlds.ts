/**
 * Random worlds, characters and actions for property tests and the bench. Built from the genre
 * vocabulary plus invented proper nouns so the generator sees names it has never seen before.
 */
import type { ChapterCharacter } from '../story-ai';
import { GENRES } from './genres';
import { Rng } from './prng';

const SYL = ['ka', 'ri', 'mor', 'tha', 'vel', 'is', 'an', 'dor', 'lu', 'sen', 'gar', 'oth', 'ys', 'qua', 'ne', 'bra', 'zu', 'el'];
function properNoun(rng: Rng): string {
  const n = 2 + rng.int(2);
  let s = '';
  for (let i = 0; i < n; i++) s += rng.pick(SYL);
  return s.charAt(0).toUpperCase() + s.slice(1);
}

export function randomWorld(rng: Rng): { description: string; genreId: string; names: string[] } {
  const g = rng.pick(GENRES);
  const person = properNoun(rng);
  const place = properNoun(rng);
  const kws = rng.sample(g.keywords, 4);
  const openers = [
    `In the ${kws[0]} lands of ${place}, ${rng.pick(['Queen', 'Captain', 'Doctor', 'Lord', 'Sheriff'])} ${person} rules with an iron will.`,
    `${place} is a place of ${kws[0]} and ${kws[1]}, where ${person} keeps the old secrets.`,
    `Welcome to ${place}. Here ${kws[0]} and ${kws[1]} shape every life, and ${person}'s name is spoken softly.`,
  ];
  const description = [
    rng.pick(openers),
    `Travellers speak of ${kws[2]} and ${rng.pick(g.threats)}.`,
    `Everyone wants ${rng.pick(g.artifacts)}, and ${rng.pick(g.factions)} will do anything to get it.`,
    rng.chance(0.5) ? `The ${kws[3]} never sleeps in ${place}.` : '',
  ]
    .filter(Boolean)
    .join(' ');
  return { description, genreId: g.id, names: [person, place] };
}

export const SAMPLE_ACTIONS = [
  'I search the abandoned library for clues',
  'Attack the guard at the gate',
  'Talk to the old innkeeper about the missing map',
  'sneak past the sleeping sentries',
  'I want to climb the northern tower',
  "Let's rest by the fire and tend my wounds",
  'Use my special ability to open the sealed door',
  'I will follow the stranger into the market',
  'Ask the captain what she knows about the storm',
  'Run!',
  'the red door',
  'I carefully examine the strange coin',
  'Bribe the customs officer with my last silver',
  'Head west toward the mountains',
  'I try to hack the security terminal',
  'Challenge the champion to a duel',
  'Hide in the cellar until nightfall',
  'Sing a song to calm the crowd',
];

export function randomCharacter(rng: Rng): ChapterCharacter {
  const name = rng.pick(['Mara', 'Tobin Vale', 'Ketra', 'Oswin', 'Lio', 'Sunniva Crane', 'Dax', 'Idris', 'Wren', 'Quill']);
  return {
    name,
    description: `${name} is a wanderer with a long memory and a short temper.`,
    stats: {
      strength: rng.range(4, 17),
      agility: rng.range(4, 17),
      endurance: rng.range(4, 17),
      intellect: rng.range(4, 17),
      wisdom: rng.range(4, 17),
      charisma: rng.range(4, 17),
    },
    traits: rng.sample(['Brave', 'Curious', 'Stubborn', 'Kind', 'Reckless', 'Witty', 'Loyal'], 3),
    special: { name: rng.pick(['Iron Ward', 'Swift Exploit', 'Silver Tongue']), description: 'A gift used sparingly.' },
  };
}
