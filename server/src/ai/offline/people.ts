/**
 * A cast that holds (issue 32, item 2): each person in a story has one look, one manner of speech,
 * one want and one habit, kept for the whole story (derived from their name and the world, so every
 * chapter finds the same person), and no two people of a world share a look. What they say is written
 * for the moment — the hero's last attempt, the mission, what they want — in their own manner, rather
 * than drawn from a list of stock lines.
 *
 * Composed in the third person past with the hero's name; the point of view comes after (narration.ts).
 */
import { breaksWorld, type ConstraintKey } from '../world-material';
import type { OutcomeClass } from './answer';
import type { GroundedWorld } from './grounded';
import { affinePermutation, hashString, mixSeed, spreadIndices } from './prng';
import { shortName } from './world-model';
import { pluralName, render } from './text';

const LOOKS = [
  'had a burn scar along one jaw',
  'wore a coat patched at both elbows',
  'was tall and stooped, with ink-stained fingers',
  "had close-cropped grey hair and a soldier's stillness",
  'was small and quick, always half a step from leaving',
  'had tired eyes that missed nothing',
  'wore three rings on one hand',
  'had a voice like gravel',
  'was young, with careful, steady hands',
  'had one milky eye and one sharp one',
  'was broad as a door and moved softly for it',
  'had hair braided tight and a chipped front tooth',
  'smelled of smoke and cheap soap',
  'was thin as a rail, with a nervous laugh',
  'had a crooked nose, broken more than once',
  'wore black, neatly mended',
  'had freckles and a frown that never quite left',
  'was old, with a straight back and a slow way of looking',
  'had a limp and refused to mention it',
  'had ink tattoos climbing both wrists',
  'kept a scarf wound high, even indoors',
  'had calloused hands and clean nails',
  'was heavy-lidded and wide awake',
  'had a loud laugh and quiet eyes',
];
/**
 * Habits, each in several wordings: the same habit, told every few chapters, is recognisable without
 * the same words each time (the first wording is the habit's name).
 */
const HABITS: ReadonlyArray<readonly string[]> = [
  ['turned a coin over and over between two fingers', 'walked a coin across the knuckles', 'flipped a coin and caught it without looking'],
  ['kept glancing at the nearest way out', 'had one eye on the door the whole time', 'checked the exits twice, then again'],
  ['hummed under their breath between sentences', 'hummed a few bars of something, then stopped', 'kept a tune going, very low'],
  ['never once sat down', 'stayed on their feet, as ever', 'would not take a seat, though one was offered'],
  ['counted something silently on their fingers', 'tallied something on their fingers, lips moving', 'ticked off some private count, finger by finger'],
  ['rubbed at an old scar when thinking', 'touched the old scar, absently', 'traced the line of an old scar with a thumb'],
  ['spoke to the floor more than to faces', 'kept their eyes on the floorboards', 'found the ground more interesting than anyone present'],
  ['smiled at the wrong moments', 'smiled where no smile belonged', 'let a smile slip at an odd moment'],
  ['kept both hands where they could be seen', 'held both palms open, in plain view', 'rested both hands flat on the table, always visible'],
  ['cracked their knuckles one by one', 'worked the knuckles of one hand until they cracked', 'flexed stiff fingers with a crack'],
  ['watched everyone’s hands, never their faces', 'followed hands, not eyes', 'kept track of what every hand in the room was doing'],
  ['tapped a boot as if keeping time', 'beat a slow rhythm with one heel', 'kept a boot tapping, steady as a clock'],
];

interface Manner {
  tags: readonly string[];
  open: readonly string[];
  close: readonly string[];
}
/**
 * Manners of speech: how a person's lines open and close, and the verbs that tag them (one sentence
 * each). A manner is a register, not a catchphrase: each has many forms that share its flavour and
 * no four words (and two or three verbs of its own, dressed differently), and about half of a person's lines carry none, so the person stays recognisable
 * without any one form turning up in more than a tenth of a story's chapters (lint:story counts them).
 */
const MANNERS: readonly Manner[] = [
  {
    // Blunt.
    tags: [
      'said',
      'said flatly',
      'said, not unkindly',
      'said shortly',
      'said, without a smile',
      'said bluntly',
      'said, arms folded',
      'said evenly',
      'said, and meant it',
      'said plainly',
    ],
    open: ['', '', '', '', 'Listen: ', 'Plainly, ', 'No use dressing it up: ', 'Straight out, ', 'Hear it once: ', 'Here it is: '],
    close: [
      '',
      '',
      '',
      '',
      '',
      ', and that is all',
      ', and I will not repeat myself',
      ', full stop',
      ', no more to it',
      ', like it or not',
      ', take it or leave it',
    ],
  },
  {
    // Gentle.
    tags: [
      'said',
      'said gently',
      'said softly',
      'murmured',
      'said kindly',
      'said, with a sad smile',
      'said warmly',
      'murmured, almost fondly',
      'said with quiet care',
      'murmured, not unkindly',
    ],
    open: ['', '', '', '', 'Oh, my dear, ', 'Forgive me, but ', 'Child, ', 'I am sorry to say it, but ', 'Gently now: ', 'Sit a moment: '],
    close: ['', '', '', '', '', ', so be careful', ', please', ', for your own sake', ', and mind yourself', ', if you will let me say so', ', love'],
  },
  {
    // Wry.
    tags: [
      'said',
      'said with a crooked smile',
      'drawled',
      'said, amused',
      'said dryly',
      'said, half laughing',
      'remarked',
      'drawled, eyes bright',
      'remarked, deadpan',
      'said, grinning',
    ],
    open: ['', '', '', '', 'Well, well: ', 'Funny thing, ', 'Now here is a joke: ', 'Believe it or not, ', 'Ha, ', 'Between friends, '],
    close: [
      '',
      '',
      '',
      '',
      '',
      ', or so the story goes',
      ', for what it is worth',
      ', which is almost funny',
      ', if you can believe it',
      ', and I am only half joking',
      ', go figure',
    ],
  },
  {
    // Secretive.
    tags: [
      'said',
      'whispered',
      'said, barely above a whisper',
      'breathed',
      'said, low',
      'said behind a hand',
      'whispered, glancing round',
      'breathed, eyes on the door',
      'said under the noise',
      'breathed, hardly moving',
    ],
    open: [
      '',
      '',
      '',
      '',
      'I should not say this, but ',
      'Quietly, now: ',
      'Between us, ',
      'Closer, now: ',
      'Keep this close: ',
      'Not a word of it to anyone: ',
    ],
    close: [
      '',
      '',
      '',
      '',
      '',
      ', and you did not hear it from me',
      ', but not here',
      ', so keep it to yourself',
      ', and then forget I spoke',
      ', if anyone asks, I was asleep',
      ', not that I told you',
    ],
  },
  {
    // Gruff.
    tags: [
      'said',
      'growled',
      'grunted',
      'said roughly',
      'growled, scowling',
      'grunted, not looking up',
      'said, jaw tight',
      'growled low',
      'grunted, arms crossed',
      'said, spitting to one side',
    ],
    open: ['', '', '', '', 'Hah, ', 'Right, ', 'Bah, ', 'Look here, ', 'Fine, ', 'Ach, '],
    close: ['', '', '', '', '', ', now go', ', and spare me the questions', ', so stop gawping', ', and do not thank me', ', get on with it', ', enough said'],
  },
  {
    // Precise.
    tags: [
      'said',
      'said precisely',
      'said, choosing each word',
      'observed',
      'noted',
      'said, measuring the words',
      'observed drily',
      'noted, after a pause',
      'said, ticking points off on two fingers',
      'observed, quite calmly',
    ],
    open: ['', '', '', '', 'Consider this: ', 'To be exact, ', 'In short, ', 'Strictly speaking, ', 'Let me be accurate: ', 'First things first: '],
    close: [
      '',
      '',
      '',
      '',
      '',
      ', so think on it',
      ', and the rest follows',
      ', to put it precisely',
      ', as the facts stand',
      ', and I have checked twice',
      ', no more and no less',
    ],
  },
];

/** What a person wants, from the world's own conflicts. */
const WANTS = [
  'to see {threat} gone from {place}',
  'to learn what {faction} is hiding',
  'to keep {place} standing',
  'to get free of a debt to {faction}',
  'to find someone {threat} took',
  // (Said by the person: nothing about them in the third person, "…, and never is".)
  'to be left alone for once',
];

export interface Persona {
  look: string;
  /** One habit, in its wordings (the first names it). */
  habit: readonly string[];
  manner: Manner;
  want: string;
}

/**
 * The person as the story keeps them. The world's people take distinct looks in their order; anyone
 * else (a card's person) gets one by name, never one of theirs.
 */
export function personaOf(world: GroundedWorld, fullName: string, keys: readonly ConstraintKey[]): Persona {
  const looks = LOOKS.filter((l) => !breaksWorld(l, keys));
  const idx = world.people.indexOf(fullName);
  const h = hashString(`${world.key}:${fullName}`);
  const n = world.people.length;
  // The world's people: a permutation of the looks by position. Others: the looks after theirs.
  const perm = affinePermutation(world.key, looks.length);
  const lookAt = idx >= 0 ? perm(idx) : perm(n + (h % Math.max(1, looks.length - n)));
  // The world's own dangers when it names them: what its people want is about their world.
  const threats = world.material?.threats?.length ? world.material.threats : world.genre.threats;
  // render: "what the Ashworths are hiding" (a faction named in the plural takes a plural verb).
  const want = render(
    WANTS[h % WANTS.length] as string,
    {
      threat: threats[h % threats.length] as string,
      faction: (world.factions[h % Math.max(1, world.factions.length)] ?? 'the powerful') as string,
      place: world.places[(h >>> 3) % world.places.length] as string,
    },
    8,
  );
  return {
    look: looks[lookAt % looks.length] as string,
    habit: HABITS[(h >>> 5) % HABITS.length] as readonly string[],
    manner: MANNERS[(h >>> 9) % MANNERS.length] as Manner,
    want,
  };
}

/** A danger that is many ("the Rust Barons", "harpies") or a person ("a troll who guards…"): "they", not "it". */
function manyOrSomeone(threat: string): boolean {
  const head = threat.split(/\s+(?:who|that|of|from|with|in)\s+/)[0] ?? threat;
  return /\bwho\b/.test(threat) || (/[a-z]s$/i.test(head) && !/(?:ss|us|is)$/.test(head));
}

export interface Moment {
  hero: string;
  /** The hero's attempt this chapter and how it went (null: no action). */
  attempt: { thing: string; outcome: OutcomeClass } | null;
  mission: string | null;
  place: string;
  threat: string;
  faction: string;
  chapter: number;
  storyKey: number;
  /** A second line in the chapter: no opener or closer. */
  plain?: boolean;
}

/**
 * A line written for the moment, in the speaker's manner: about what the hero just tried, about the
 * mission, or about what the speaker wants — then tagged the way they talk.
 */
export function lineFor(speaker: string, persona: Persona, m: Moment): string {
  const short = shortName(speaker);
  const key = mixSeed(m.storyKey, speaker, 'line');
  const about: string[] = [];
  // Several phrasings of each thing a person might say, taken in a per-speaker order by chapter, so
  // no phrasing becomes a refrain.
  // (Turned by chapter, with a step every ten chapters: a tag comes round every ten chapters, and
  // then the phrasing has moved on, so no line is said twice in a story.)
  // (On the story's schedule, not the speaker's: whoever says "if trouble from … finds anyone, it
  // will be at …" says it in its turn; on a schedule each, the people of a Hollowmere story said it
  // word for word in 3 of 30 chapters, lint:story's 10% limit.)
  const v = (list: string[]) =>
    list[
      affinePermutation(mixSeed(m.storyKey, 'phrasing', list.length, list[0] ?? ''), list.length)((m.chapter + Math.floor(m.chapter / 10)) % list.length)
    ] as string;
  if (m.attempt && m.attempt.thing !== 'the attempt' && m.attempt.thing !== 'the task') {
    const t = m.attempt.thing;
    // A thing named in the plural ("the fresh tracks") takes a plural verb and pronoun.
    const [was, its, it] = pluralName(t) ? ['were', 'their', 'they'] : ['was', 'its', 'it'];
    if (m.attempt.outcome === 'success')
      about.push(
        v([
          `so ${t} gave way for you, and ${m.faction} will hear of it by morning`,
          `${t}, of all things; I would not have bet on it`,
          `well done with ${t}, though someone will want to know how`,
          `word of ${t} is already going round`,
        ]),
        v([
          `you got what you wanted from ${t}; now be ready to pay for it`,
          `${t} ${was} the easy part, believe me`,
          `I saw what you did with ${t}, and so did others`,
          `do not let ${t} go to your head`,
        ]),
      );
    else if (m.attempt.outcome === 'cost')
      about.push(
        v([
          `you came out of ${t} with something and lost something, which is how it goes here`,
          `${t} took ${its} price from you, I see`,
          `half a win at ${t} is still half a loss`,
          `nothing comes free, and ${t} least of all`,
        ]),
        v([
          `${t} cost you; I hope it was worth it`,
          `${was} ${t} worth what you paid`,
          `I would not go back to ${t} soon`,
          `count what ${t} cost you before you go on`,
        ]),
      );
    else
      about.push(
        v([
          `${t} ${was} never going to be that easy, not with ${m.threat} about`,
          `${t} beat you this time`,
          `you went at ${t} like someone who had never been warned`,
          `${t} will not fall to the same try twice`,
        ]),
        v([
          `next time you go at ${t}, go at it with me`,
          `forget ${t} for a night, ${it} will still be there`,
          `${m.threat} knew you were coming to ${t}`,
          `somebody warned them about ${t} before you got there`,
        ]),
      );
  }
  // (A mission about the speaker is not theirs to advise on as if it were about someone else.)
  if (m.mission && !m.mission.includes(short)) {
    const mission = lower(m.mission.replace(/[.!?]+$/, ''));
    about.push(
      v([
        `if you mean to ${mission}, start at ${m.place}`,
        `you want to ${mission}; then ${m.place} is where I would look`,
        `to ${mission} you will need more friends than you have`,
        `nobody at ${m.place} will help you ${mission} for free`,
        `try ${m.place} first, if you are set on it`,
      ]),
      v([
        `people who tried to ${mission} did not come back the same`,
        `nobody has yet found how to ${mission}, you know`,
        `I can guess what brings you: to ${mission} will not be easy`,
        `others have tried to ${mission}, and look where it got them`,
        `you are not the first who set out to ${mission}, only the latest`,
      ]),
    );
  }
  about.push(
    v([
      `what I want is ${persona.want}; help me, and you will have a friend here`,
      `I have my own reasons to be here: ${persona.want}`,
      `you and I want different things, and mine is ${persona.want}`,
      `all I ask of this life is ${persona.want}`,
      `ask me what keeps me going and I will tell you: ${persona.want}`,
      `since you ask, I want ${persona.want}, nothing grander`,
      `what I lie awake wanting is ${persona.want}`,
      `someday, if I live, I mean ${persona.want}`,
    ]),
    // render: "the Rust Barons have been closer…" (a name of many takes a plural verb).
    v([
      `watch ${m.threat}, because ${manyOrSomeone(m.threat) ? 'they move' : 'it moves'} when ${m.place} sleeps`,
      render('{threat} has been closer to {place} than anyone admits', { threat: m.threat, place: m.place }, 8),
      render('stay away from {place} after dark, for {threat} is about', { threat: m.threat, place: m.place }, 8),
      `there was word of ${m.threat} near ${m.place} again`,
      render('they say {threat} is waiting for someone at {place}', { threat: m.threat, place: m.place }, 8),
      `if trouble from ${m.threat} finds anyone, it will be at ${m.place}`,
      `keep clear of ${m.place}; there are friends of ${m.threat} there`,
      `nobody sleeps well near ${m.place} with ${m.threat} so close`,
    ]),
  );
  // The manner's opener, closer and tag cycle on the story's schedule for that manner, apart from
  // what is said: each form comes round about once in ten chapters, whatever the line is about and
  // whoever of the people who talk that way says it (on a schedule per person, three people of one
  // manner said "…, spitting to one side" in 8 of a story's 30 chapters).
  // (Each a plain cycle by chapter: a form of ten comes round exactly once in ten chapters; the
  // closers' cycle is one longer, so opener and closer do not travel in pairs.)
  const mannerKey = mixSeed(m.storyKey, persona.manner.tags.join('|'), 'manner');
  const cycle = (list: readonly string[], label: string) => list[affinePermutation(mixSeed(mannerKey, label), list.length)(m.chapter % list.length)] as string;
  const [open, close, tag] = [cycle(persona.manner.open, 'open'), cycle(persona.manner.close, 'close'), cycle(persona.manner.tags, 'tag')];
  const body = about[spreadIndices(mixSeed(key, 'about', about.length), m.chapter, [about.length])[0] as number] as string;
  // One sentence, in the speaker's manner: "Listen: you got what you wanted…, and that is all," Thorne said.
  // (A second line in the same chapter goes on plainly: the manner shows once a chapter at most. It
  // keeps the tag of its turn: a plain "said" let the same second line come back word for word.)
  if (m.plain) return `“${cap(body)},” ${short} ${tag}.`;
  return `“${cap(`${open}${body}${close}`)},” ${short} ${tag}.`;
}

/** How a person looks, told once, when they are first met. */
export function lookLine(speaker: string, persona: Persona): string {
  return `${shortName(speaker)} ${persona.look}.`;
}

/** What a person keeps doing, told when they are met again (frame and aside turn with the chapter). */
export function habitLine(speaker: string, persona: Persona, chapter: number, storyKey: number): string {
  // (Never the bare "{npc} {habit}": "Kenji has one eye on the door" reads as how Kenji looks, and
  // two people with one habit would share a look.)
  const frames = [
    'Even now, {npc} {habit}',
    'Now and then {npc} {habit}',
    'All the while, {npc} {habit}',
    'While they talked, {npc} {habit}',
    'Once again {npc} {habit}',
  ];
  const asides = [
    '',
    ', as always',
    ', and did not seem to know it',
    ', which was almost a comfort',
    ', same as the last time',
    ', a little faster than before',
  ];
  const i = affinePermutation(mixSeed(storyKey, speaker, 'habit'), frames.length * asides.length)(chapter);
  const out =
    (frames[i % frames.length] as string)
      .replace('{npc}', shortName(speaker))
      .replace('{habit}', persona.habit[Math.floor(chapter / 3) % persona.habit.length] as string) + (asides[Math.floor(i / frames.length)] as string);
  return `${cap(out)}.`;
}

function cap(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}
/** An objective goes on in lower case ("if you mean to keep Elias safe…"): it begins with a verb, not a name. */
function lower(s: string): string {
  return s.charAt(0).toLowerCase() + s.slice(1);
}
