/**
 * Offline character generation. Stats follow what the player wrote: each stat has a vocabulary
 * ("sword", "sneak", "read", "charm"…), every hit in the answers (or the personal profile) raises it,
 * so a player who answers like a scholar gets a high intellect. Traits come from the adjectives the
 * player used first, then from the character's strongest stats.
 */
import { STAT_NAMES, type CharacterInput, type CharacterResult, type StatName, type Stats } from '../story-ai';
import { Rng, mixSeed } from './prng';
import { joinList, upperFirst } from './text';
import { readWorld } from './world-model';

const STAT_WORDS: Record<StatName, string[]> = {
  strength: [
    'strong',
    'strength',
    'fight',
    'sword',
    'axe',
    'hammer',
    'muscle',
    'lift',
    'brawl',
    'warrior',
    'soldier',
    'smith',
    'farm',
    'punch',
    'heavy',
    'protect',
    'guard',
    'battle',
    'combat',
    'wrestl',
    'shield',
    'spear',
    'gym',
    'boxing',
    'force',
  ],
  agility: [
    'quick',
    'fast',
    'sneak',
    'steal',
    'thief',
    'climb',
    'run',
    'dance',
    'acrobat',
    'dodge',
    'nimble',
    'agile',
    'stealth',
    'shadow',
    'archer',
    'bow',
    'hunt',
    'ride',
    'swim',
    'pilot',
    'reflex',
    'parkour',
    'knife',
    'dagger',
    'skate',
    'sport',
  ],
  endurance: [
    'endure',
    'survive',
    'surviv',
    'stubborn',
    'tough',
    'hardy',
    'march',
    'labor',
    'labour',
    'work',
    'resilient',
    'persever',
    'hike',
    'marathon',
    'cold',
    'hunger',
    'scar',
    'never give up',
    'keep going',
    'sailor',
    'miner',
    'long',
  ],
  intellect: [
    'read',
    'book',
    'study',
    'learn',
    'clever',
    'smart',
    'science',
    'hack',
    'code',
    'puzzle',
    'engineer',
    'invent',
    'tinker',
    'math',
    'scholar',
    'research',
    'history',
    'map',
    'chess',
    'lore',
    'doctor',
    'medicine',
    'computer',
    'logic',
    'plan',
    'strateg',
    'write',
  ],
  wisdom: [
    'calm',
    'pray',
    'faith',
    'listen',
    'notice',
    'patient',
    'meditat',
    'nature',
    'heal',
    'intuition',
    'wise',
    'quiet',
    'observ',
    'dream',
    'spirit',
    'garden',
    'animal',
    'empath',
    'forest',
    'stars',
    'care',
    'yoga',
    'fish',
  ],
  charisma: [
    'talk',
    'charm',
    'lead',
    'friend',
    'persuad',
    'sing',
    'music',
    'perform',
    'trade',
    'merchant',
    'negotiat',
    'joke',
    'laugh',
    'people',
    'inspire',
    'bard',
    'actor',
    'speech',
    'social',
    'party',
    'family',
    'team',
    'teach',
    'art',
    'paint',
  ],
};

const STAT_PATTERNS = Object.fromEntries(STAT_NAMES.map((s) => [s, STAT_WORDS[s].map((w) => new RegExp(`\\b${w}`, 'g'))])) as Record<StatName, RegExp[]>;

const KNOWN_TRAITS = [
  'brave',
  'loyal',
  'curious',
  'stubborn',
  'cunning',
  'kind',
  'reckless',
  'patient',
  'proud',
  'witty',
  'quiet',
  'ambitious',
  'honest',
  'secretive',
  'cheerful',
  'cautious',
  'generous',
  'clever',
  'calm',
  'fierce',
  'gentle',
  'shy',
  'bold',
  'impulsive',
  'optimistic',
  'cynical',
  'creative',
  'determined',
  'empathetic',
  'funny',
  'hardworking',
  'independent',
  'introverted',
  'extroverted',
  'lazy',
  'meticulous',
  'mysterious',
  'nervous',
  'organized',
  'organised',
  'passionate',
  'practical',
  'protective',
  'rebellious',
  'sarcastic',
  'stoic',
  'thoughtful',
  'trusting',
  'suspicious',
  'adventurous',
  'compassionate',
  'disciplined',
  'easygoing',
  'grumpy',
  'hopeful',
  'humble',
  'loud',
  'playful',
  'romantic',
  'serious',
  'wise',
];
const STAT_TRAIT: Record<StatName, string[]> = {
  strength: ['bold', 'fierce'],
  agility: ['restless', 'quick-witted'],
  endurance: ['stubborn', 'steadfast'],
  intellect: ['curious', 'meticulous'],
  wisdom: ['perceptive', 'calm'],
  charisma: ['warm-hearted', 'silver-tongued'],
};
const STAT_STRENGTH: Record<StatName, string> = {
  strength: 'Hits hard and keeps swinging when others tire',
  agility: 'Quick hands and quicker feet',
  endurance: 'Can outlast almost anyone, on the road or in a fight',
  intellect: 'Sees patterns and solutions others miss',
  wisdom: 'Reads people and places with uncanny accuracy',
  charisma: 'Can talk their way into — or out of — most rooms',
};
const STAT_WEAKNESS: Record<StatName, string> = {
  strength: 'Physically outmatched in a straight fight',
  agility: 'Clumsy when speed or stealth matters',
  endurance: 'Tires quickly under long hardship',
  intellect: 'Struggles with puzzles, books and long plans',
  wisdom: 'Easily fooled by a good liar',
  charisma: 'Blunt to the point of making enemies',
};
const TRAIT_WEAKNESS: Record<string, string> = {
  reckless: 'Acts first and thinks later',
  impulsive: 'Acts first and thinks later',
  stubborn: 'Will not back down, even when they should',
  proud: 'Too proud to ask for help',
  trusting: 'Trusts the wrong people',
  suspicious: 'Slow to trust even true friends',
  shy: 'Goes quiet when it matters most',
  nervous: 'Nerves fray under pressure',
  loyal: 'Loyal even to those who do not deserve it',
  curious: 'Cannot leave a mystery alone, however dangerous',
};
const SPECIAL_ADJ: Record<StatName, string[]> = {
  strength: ['Iron', 'Thunder'],
  agility: ['Swift', 'Shadow'],
  endurance: ['Unbroken', 'Stone'],
  intellect: ['Keen', 'Sharp'],
  wisdom: ['Deep', 'Silent'],
  charisma: ['Silver', 'Golden'],
};
const SPECIAL_EFFECT: Record<StatName, string> = {
  strength: 'unleash one overwhelming burst of force that breaks a door, a line of enemies or a deadlock',
  agility: 'move so fast and so quietly that, for a few heartbeats, no one can follow or even see them',
  endurance: 'shrug off a blow, a poison or a night without rest that would fell anyone else',
  intellect: 'see the hidden workings of a device, a plan or a lie and find the one weak point',
  wisdom: 'sense danger, deceit or a hidden path just before it matters',
  charisma: 'turn a hostile crowd or a stubborn rival with a few well-chosen words',
};

function answerText(input: CharacterInput): { text: string; quotes: Array<{ q: string; a: string }> } {
  if ('profile' in input) {
    const p = input.profile;
    const parts = [p.skills, p.personalityTraits, p.freeTime, p.pastTimes ?? ''];
    return {
      text: parts.join(' \n '),
      quotes: [
        { q: 'skills', a: p.skills },
        { q: 'free time', a: p.freeTime },
      ].filter((x) => x.a.trim()),
    };
  }
  const quotes = input.questions.map((q, i) => ({ q, a: input.answers[i] ?? '' })).filter((x) => x.a.trim());
  return { text: input.answers.join(' \n '), quotes };
}

function clean(s: string, max: number): string {
  const t = s
    .replace(/[<>{}]/g, '')
    .replace(/\s+/g, ' ')
    .trim();
  return t.length > max ? `${t.slice(0, max - 1).replace(/\s+\S*$/, '')}…` : t;
}

function endStop(s: string): string {
  return /[.!?…]$/.test(s) ? s : `${s}.`;
}

/** The player's words about themselves, in the third person ("my sister" → "their sister"). */
function thirdPerson(s: string): string {
  const swaps: Array<[RegExp, string]> = [
    [/\bI am\b/g, 'they are'],
    [/\bI'm\b|\bI’m\b/g, "they're"],
    [/\bI've\b|\bI’ve\b/g, "they've"],
    [/\bI'd\b|\bI’d\b/g, "they'd"],
    [/\bI'll\b|\bI’ll\b/g, "they'll"],
    [/\bI was\b/g, 'they were'],
    [/\bI\b/g, 'they'],
    [/\bmyself\b/gi, 'themself'],
    [/\bmine\b/gi, 'theirs'],
    [/\bmy\b/gi, 'their'],
    [/\bme\b/gi, 'them'],
  ];
  return swaps.reduce((t, [re, to]) => t.replace(re, to), s);
}

/**
 * One answer woven into the portrait instead of quoted back: in the third person, framed by what the
 * question was about (where they come from, what they rely on, who they carry with them, what they
 * want) and by what kind of phrase the answer is (a thing, a description, a statement).
 */
function weave(name: string, question: string, answer: string, rng: Rng): string {
  const p = thirdPerson(clean(answer, 140))
    .replace(/[.!?…]+$/, '')
    .trim();
  const q = question.toLowerCase();
  // A capital that only starts the sentence goes; a name ("Captain Mott", "Apollo") keeps it.
  const words = p.split(/\s+/);
  const name1 = /^[A-Z]/.test(p) && (words.length === 1 || /^[A-Z]/.test(words[1] ?? ''));
  const lowered = name1 ? p : p.charAt(0).toLowerCase() + p.slice(1);
  if (/^they\b/i.test(lowered))
    return endStop(`${rng.pick([`${name} will tell you that`, `By ${name}'s own account,`, `Those who ask learn that`])} ${lowered}`);
  const nounPhrase = name1 || /^(?:a|an|the|their|some|one|two|three|no|every|\d)\b/i.test(lowered);
  if (!nounPhrase) return endStop(`${rng.pick([`At heart, ${name} is`, `Anyone who knows ${name} would call them`, `${name} has always been`])} ${lowered}`);
  if (/\b(?:quick|weapon|skill|fight|tool|carry|craft|good at|rely|trust|best at|train)/.test(q)) {
    return endStop(`${rng.pick([`In a tight spot, ${name} relies on`, `${name} never goes far without`, `${name}'s edge is`])} ${lowered}`);
  }
  if (/\b(?:who|family|friend|sister|brother|parent|mother|father|love|patron|god|mentor|owe)/.test(q)) {
    return endStop(`${rng.pick([`${name} carries the memory of`, `Never far from ${name}'s thoughts:`, `Part of ${name}'s heart belongs to`])} ${lowered}`);
  }
  if (/\b(?:fear|want|dream|hope|seek|goal|desire|wish)/.test(q)) {
    return endStop(`${rng.pick([`What ${name} wants most is`, `Every road ${name} takes bends toward`, `${name} is driven by`])} ${lowered}`);
  }
  return endStop(`${rng.pick([`Behind ${name} lies`, `${name}'s road here began with`, `${name} came here carrying`])} ${lowered}`);
}

export function offlineCharacter(input: CharacterInput): CharacterResult {
  const world = readWorld(input.worldDescription);
  const g = world.genre;
  const username = clean(input.username, 60) || 'Wanderer';
  const { text, quotes } = answerText(input);
  const lower = text.toLowerCase();
  const rng = new Rng(mixSeed('character', input.seed ?? 0, username, lower, world.key));

  // Stats: base 8, +2 per matched word (capped at +8), ±1 jitter; a natural talent when nothing matched.
  const hits = {} as Record<StatName, number>;
  for (const s of STAT_NAMES) hits[s] = STAT_PATTERNS[s].reduce((n, re) => n + (lower.match(re)?.length ?? 0), 0);
  const stats = {} as Stats;
  for (const s of STAT_NAMES) stats[s] = Math.max(4, Math.min(17, 8 + Math.min(8, hits[s] * 2) + rng.range(-1, 1)));
  const totalHits = STAT_NAMES.reduce((n, s) => n + hits[s], 0);
  if (totalHits === 0) {
    const talent = rng.pick(STAT_NAMES);
    stats[talent] = Math.min(17, stats[talent] + 4);
  }
  const ranked = [...STAT_NAMES].sort((a, b) => stats[b] - stats[a] || STAT_NAMES.indexOf(a) - STAT_NAMES.indexOf(b));
  const top = ranked[0] as StatName;
  const second = ranked[1] as StatName;
  const bottom = ranked[ranked.length - 1] as StatName;

  // Traits: adjectives the player used, then ones implied by the strongest stats.
  const traits: string[] = [];
  for (const t of KNOWN_TRAITS) if (new RegExp(`\\b${t}\\b`).test(lower) && traits.length < 3) traits.push(t);
  for (const s of [top, second, ranked[2] as StatName]) {
    const t = rng.pick(STAT_TRAIT[s]);
    if (traits.length < 5 && !traits.includes(t)) traits.push(t);
  }
  while (traits.length < 3) traits.push(rng.pick(['resourceful', 'watchful', 'hopeful'].filter((t) => !traits.includes(t))));

  const strengths = [STAT_STRENGTH[top], STAT_STRENGTH[second]];
  const skillWords =
    'profile' in input
      ? input.profile.skills
          .split(/[,;\n]|\band\b/)
          .map((s) => clean(s, 60))
          .filter((s) => s.length > 2)
      : [];
  if (skillWords[0]) strengths.push(`Skilled at ${skillWords[0].toLowerCase()}`);
  strengths.push(`Knows the ways of ${world.places[0]}`);
  const weaknesses = [STAT_WEAKNESS[bottom]];
  const tw = traits.map((t) => TRAIT_WEAKNESS[t]).find(Boolean);
  weaknesses.push(tw ?? `Has enemies among ${world.factions[0]}`);

  const specialName = `${rng.pick(SPECIAL_ADJ[top])} ${rng.pick(g.specialNouns)}`;
  const special = {
    name: specialName,
    description: `Once per scene, ${username} can call on ${g.power} to ${SPECIAL_EFFECT[top]}. It costs something every time — a little strength, a little luck — so it is never used lightly.`,
  };

  const place = world.places[0] as string;
  const person = world.people[0] as string;
  const para1 = `${username} came to ${place} with ${rng.pick(['little more than a name', 'a pack, a plan and not much else', 'a past they rarely speak of', 'debts, dreams and a stubborn streak'])}. In a ${g.label} world where ${rng.pick(g.sky)}, ${username} stands out as ${joinList(traits.slice(0, 3))}.`;
  const quoteLines = quotes.slice(0, 2).map(({ q, a }, i) => weave(username, q, a, rng.fork(`answer${i}`)));
  const para2 = [
    ...quoteLines,
    `Those who travel with ${username} soon learn the best and the worst of it. The best: ${STAT_STRENGTH[top].charAt(0).toLowerCase()}${STAT_STRENGTH[top].slice(1)}. The worst: ${STAT_WEAKNESS[bottom].charAt(0).toLowerCase()}${STAT_WEAKNESS[bottom].slice(1)}.`,
  ].join(' ');
  const para3 = `${upperFirst(world.factions[0] as string)} have noticed ${username}, and so has ${person}. With ${specialName} to call on and ${rng.pick(g.artifacts)} rumoured to be within reach, ${username}'s story in ${world.places[1]} is only beginning.`;
  return {
    username,
    stats,
    description: [para1, para2, para3].join('\n\n'),
    traits: traits.slice(0, 5).map((t) => upperFirst(t)),
    strengths: strengths.slice(0, 5),
    weaknesses: weaknesses.slice(0, 4),
    special,
  };
}
