/**
 * What the story returns to and how the player asked it to sound (issue 32, items 1 and 6): the
 * player's answers at spawn as threads, memories the bank retrieved, plot essentials woven into a
 * sentence of the chapter rather than quoted, and the author's note's tone and closing directive.
 *
 * Sentences are composed in the third person past with the hero's name and marked pronouns (HERO);
 * the point of view is applied afterwards (narration.ts). Player text is marked (\u0004…\u0005) so
 * the point of view does not retell it, except its first-person words, which become the hero's.
 */
import type { ChapterInput, PromptMemory, WorldMaterial } from '../story-ai';
import { HERO } from './narration';
import { affinePermutation, mixSeed, spreadIndices } from './prng';
import { EXTRA_VERBS, KIND_VERBS } from './text';

/** The player's own first-person words as the hero's ("my sister" → the hero's sister). */
function asHero(text: string): string {
  return text
    .replace(/\bI am\b|\bI'm\b|\bI’m\b/g, `${HERO.they} were`)
    .replace(/\bI was\b/g, `${HERO.they} were`)
    .replace(/\bmyself\b/gi, HERO.themself)
    .replace(/\bmy\b/gi, HERO.their)
    .replace(/\bme\b/gi, HERO.them)
    .replace(/\bI\b/g, HERO.they);
}

/** Marks player text so the point of view leaves its tense alone; the hero's words inside stay marked. */
function kept(text: string): string {
  return `\u0004${text}\u0005`.replace(/\u0002(themself|they|them|their)/g, '\u0005\u0002$1\u0004');
}

function clean(text: string): string {
  const t = text
    .replace(/[<>{}[\]\\\u0000-\u001f]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/[.!?]+$/, '');
  // Only an ordinary first word goes to lower case: a name ("Clara wrote…") or "I" keeps its capital.
  return /^(?:The|A|An|She|He|It|They|We|You|This|That|These|Those|My|Her|His|Our|Their|Your|In|On|At|When|If|Salt|Every|No|Some|One)\b/.test(t)
    ? t.charAt(0).toLowerCase() + t.slice(1)
    : t;
}

/** A frame for an answer, by what its question asked. */
function frameFor(question: string): readonly string[] {
  const q = question.toLowerCase();
  if (/\bfear|afraid|dread\b/.test(q))
    return ['the old fear was still there, the one {name} had never admitted: {a}', '{name} felt the old fear stir again, the one no one knew about: {a}'];
  if (/brought you|why did you come|what led you|came to/.test(q))
    return ['{name} had not forgotten what brought {them} here: {a}', 'it was {a} that had brought {name} this far, and {name} knew it'];
  if (/\blose|lost|left behind|back home|waiting for you|miss\b/.test(q))
    return ['{name} thought of what was at stake for {them}: {a}', 'somewhere behind every step was {a}'];
  if (/\bvoice|face|who\b/.test(q)) return ['the thought came back unbidden: {a}', '{name} could not put it out of mind: {a}'];
  if (/\brite|rule|superstition|never break|oath|keep\b/.test(q))
    return ['{name} kept to it, as always: {a}', 'out of old habit, {name} held to {their} one rule: {a}'];
  return ['{name} thought again of {a}', 'it came back to {name} now: {a}'];
}

/**
 * The chapter's thread: one answer, in turn, every other chapter from the second (answers with some
 * substance first: a person, a place, a reason), told in a frame that fits the question.
 */
export function threadLine(world: WorldMaterial | undefined, chapter: number, storyKey: number, name: string): string | null {
  const answers = (world?.answers ?? []).filter((a) => a.answer.split(/\s+/).length >= 3);
  if (answers.length === 0 || chapter < 2 || chapter % 2 !== 0) return null;
  const turn = chapter / 2 - 1;
  const a = answers[affinePermutation(mixSeed(storyKey, 'threads'), answers.length)(turn % answers.length)] as { question: string; answer: string };
  const frames = frameFor(a.question);
  const frame = frames[Math.floor(turn / answers.length) % frames.length] as string;
  return frame
    .replace(/\{name\}/g, name)
    .replace(/\{them\}/g, HERO.them)
    .replace(/\{their\}/g, HERO.their)
    .replace('{a}', kept(asHero(clean(a.answer))));
}

/** Frames for a recalled memory, by kind; the chapter turns them, so none recurs chapter after chapter. */
const MEMORY_FRAMES: Record<PromptMemory['kind'], readonly string[]> = {
  event: [
    'It was not the first time: {m}',
    'Some of it had happened before. {M}',
    'The last time still stung a little: {m}',
    'There was a lesson in what had gone before, when {m}',
    'That was how it had gone once already: {m}',
  ],
  fact: [
    'By now this much was known: {m}',
    'One thing was certain, at least: {m}',
    'There was no forgetting it: {m}',
    'It mattered now, what had been learned: {m}',
  ],
  promise: ['There was still a promise to keep: {m}', 'A promise waited, unkept as yet: {m}', 'And there was the matter of a promise: {m}'],
  place: ['The way was remembered: {m}', 'Some roads stay with you: {m}', 'The place came back to mind: {m}'],
};

/**
 * A memory the bank retrieved (pinned first), recalled every third chapter, in turn. Memories are
 * written in the third person past by name; the point of view retells them like the narration.
 */
export function memoryLine(memories: readonly PromptMemory[] | undefined, chapter: number, inView = ''): string | null {
  // (A memory of the player's own typed action, "I climb…", would only paste the action back; one the
  // reader has in front of them — the previous chapter, the part being continued — would be repeated.)
  const view = inView.replace(/\s+/g, ' ');
  const usable = (memories ?? []).filter(
    (m) =>
      m.chapterNumber < chapter &&
      m.text.trim().length >= 12 &&
      !/^(?:I|We)\b/.test(m.text.trim()) &&
      !playerCommand(m.text) &&
      // (What the missions were: the narration says what the task is every chapter.)
      !/\b(?:took on a new task|completed the task):/.test(m.text) &&
      !view.includes(m.text.replace(/\s+/g, ' ').trim().slice(0, 60)),
  );
  if (usable.length === 0 || chapter % 3 !== 1) return null;
  const turn = Math.floor(chapter / 3);
  const m = usable[turn % Math.min(usable.length, 3)] as PromptMemory;
  const frames = MEMORY_FRAMES[m.kind];
  const text = m.text
    .replace(/[<>{}[\]\\\u0000-\u001f]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/[.!?]+$/, '')
    // Its own opener ("With that, …") belonged to the chapter it came from.
    .replace(/^(?:With that|Then|So|After a moment|Without waiting|Before long|And),?\s+/, '');
  const lowered = /^(?:The|A|An|It|They|He|She|Then|So|Without|After|With|Once|Even|Some|In|By|Just|Luck|And|For|Nothing|At|When)\b/.test(text)
    ? text.charAt(0).toLowerCase() + text.slice(1)
    : text;
  return (frames[turn % frames.length] as string).replace('{m}', lowered).replace('{M}', text);
}

/**
 * A suggested action the player chose, kept as they chose it ("Fight your way through…", "Set out for
 * the Glass Reef"): an order to the hero, not something that happened ("…a lesson in what has gone
 * before, when Fight your way through").
 */
function playerCommand(text: string): boolean {
  const first = /^\s*([A-Za-z]+)/.exec(text)?.[1]?.toLowerCase() ?? '';
  return COMMAND_VERBS.has(first) || /\byou(?:r|rself)?\b/i.test(text.replace(/[“"][^”"]*[”"]/g, ''));
}
const COMMAND_VERBS = new Set([
  ...[...Object.values(KIND_VERBS).flat(), ...EXTRA_VERBS].filter((v) => !v.includes(' ')),
  // The suggested actions' own openers (chapter-templates.ts CHOICES).
  ...'focus push press keep stay prepare gather fight set head try make take let turn go'.split(' '),
]);

/** Plot essentials woven into the chapter: one fact, every third chapter, as part of a sentence. */
export function essentialLine(input: ChapterInput, name: string, npc: string): string | null {
  if (!input.plotEssentials?.trim() || input.chapterNumber % 3 !== 0) return null;
  const facts = input.plotEssentials
    .split(/(?<=[.!?])\s+|\n+/)
    .map((f) => clean(f.replace(/^[-*•\s]+/, '')))
    .filter((f) => f.length >= 8 && f.length <= 200);
  if (facts.length === 0) return null;
  const turn = Math.floor(input.chapterNumber / 3);
  const fact = kept(asHero(facts[turn % facts.length] as string));
  const frames = [
    `${npc} did not need to be told that ${fact}, and neither did ${name}`,
    `Every choice now leaned on one thing ${name} could not forget, that ${fact}`,
    `So ${name} went on, because ${fact}`,
    `Underneath it all was the plain fact that ${fact}`,
    `${npc} glanced at ${name} as if to say aloud that ${fact}`,
  ];
  return frames[turn % frames.length] as string;
}

/** What an author's note asks of the offline storyteller. */
export interface NoteDirectives {
  /** A closing sentence every chapter ends on ("End each chapter on a sound in the dark"). */
  ending: 'sound' | 'question' | 'cliffhanger' | 'quiet' | null;
  tone: 'grim' | 'light' | 'eerie' | 'hopeful' | 'tense' | null;
  /** Shorter or longer chapters. */
  length: 'short' | 'long' | null;
}

export function readNote(note: string | undefined): NoteDirectives {
  const n = (note ?? '').toLowerCase();
  const endClause = /\bend(?:s|ing)?\b[^.]*?\b(?:on|with)\b([^.]*)/.exec(n)?.[1] ?? '';
  const ending = /sound|noise|hear|whisper|knock|footstep/.test(endClause)
    ? 'sound'
    : /question/.test(endClause)
      ? 'question'
      : /cliffhanger|danger|threat/.test(endClause)
        ? 'cliffhanger'
        : /quiet|calm|peace|rest/.test(endClause)
          ? 'quiet'
          : null;
  // Tone words outside the closing directive ("a sound in the dark" is not a grim tone).
  const rest = n.replace(/\bend(?:s|ing)?\b[^.]*/, '');
  const tone = /\b(grim|bleak|dark|brutal)\b/.test(rest)
    ? 'grim'
    : /\b(light|funny|humou?r|playful|whimsical)\b/.test(rest)
      ? 'light'
      : /\b(eerie|creepy|uncanny|dread|horror)\b/.test(rest)
        ? 'eerie'
        : /\b(hopeful|warm|kind|uplifting)\b/.test(rest)
          ? 'hopeful'
          : /\b(tense|urgent|fast)\b/.test(rest)
            ? 'tense'
            : null;
  const length = /\b(short|brief|terse)\b/.test(n) ? 'short' : /\b(long|detailed|rich)\b/.test(n) ? 'long' : null;
  return { ending, tone, length };
}

const SOUNDS = [
  'a single knock, somewhere below',
  'footsteps that stopped when {name} stopped',
  'a drip, slow and patient, in the dark',
  'a breath that was not {name}’s own',
  'the scrape of something heavy being moved',
  'a door, far off, closing very softly',
  'a voice saying {name}’s name, once',
  'a low hum that might have been a song',
  'the creak of a board under no one’s weight',
  'laughter, very faint, and then none',
];
/** How a closing sound comes out of the dark (each names the dark: the note asked for it). */
const DARK_OPENERS = [
  'Then, in the dark, a sound:',
  'And out of the dark came',
  'Last of all, from the dark,',
  'Then the dark gave back',
  'The dark was not silent for long:',
  'Across the dark there carried',
  'Just as the dark settled, there came',
  'Deep in the dark,',
  'Beyond the last light, the dark held',
  'Later, somewhere in the dark,',
  'The dark answered with',
  'Out of the dark, close now,',
];
const QUESTIONS = [
  'who had known {name} would come this way',
  'why no one had mentioned {threat} until now',
  'what {npc} had left unsaid',
  'how long {threat} had been waiting',
  'whose side {npc} was really on',
];
const CLIFFS = [
  '{threat} was closer than anyone had thought',
  'something had followed {name} all the way here',
  'the way back was already closed',
  '{npc} had not come alone',
];
const QUIETS = ['For one night, at least, nothing more came', 'The quiet held, and {name} let it', 'It was, for now, enough'];

/** The closing sentence the author's note asks for (turned by chapter so no two chapters end alike). */
export function endingLine(d: NoteDirectives, chapter: number, storyKey: number, slots: { name: string; npc: string; threat: string }): string | null {
  if (!d.ending) return null;
  const fill = (t: string) =>
    t
      .replace(/\{name\}/g, slots.name)
      .replace(/\{npc\}/g, slots.npc)
      .replace(/\{threat\}/g, slots.threat);
  const at = <T>(list: readonly T[]) => list[affinePermutation(mixSeed(storyKey, 'ending'), list.length)(chapter % list.length)] as T;
  if (d.ending === 'sound') {
    // Opener and sound each come round evenly (prng.ts): the note's ending is kept every chapter
    // without its words becoming the story's refrain.
    const [o, k] = spreadIndices(mixSeed(storyKey, 'ending'), chapter, [DARK_OPENERS.length, SOUNDS.length]) as [number, number];
    return `${DARK_OPENERS[o] as string} ${fill(SOUNDS[k] as string)}.`;
  }
  if (d.ending === 'question') return `${slots.name} was left with one question: ${fill(at(QUESTIONS))}.`;
  if (d.ending === 'cliffhanger') return `And then ${slots.name} understood: ${fill(at(CLIFFS))}.`;
  return `${fill(at(QUIETS))}.`;
}

const TONES: Record<NonNullable<NoteDirectives['tone']>, readonly string[]> = {
  grim: [
    'Nothing here came without a price',
    'Hope, in this place, was something people paid for',
    'It was the kind of day that leaves a mark',
    'No one here expected mercy',
  ],
  light: [
    'Even now, something about it was a little absurd',
    '{name} almost laughed, which helped',
    'It was ridiculous, and {name} knew it, and went on anyway',
    'Somewhere a dog barked as if to comment',
  ],
  eerie: [
    'Something about the stillness was wrong',
    'The shadows seemed to lean a little closer',
    'For a moment the air felt watched',
    'It was too quiet, the way a held breath is quiet',
  ],
  hopeful: [
    'For the first time in days, it felt possible',
    'There was light at the edge of it all',
    '{name} let {them} hope, a little',
    'It would be hard, but not hopeless',
  ],
  tense: ['There was no time to think', 'Every second counted now', 'One wrong step would be the last', '{name} moved before the fear could catch up'],
};

/** A sentence in the note's tone, one per chapter. */
export function toneLine(d: NoteDirectives, chapter: number, name: string): string | null {
  if (!d.tone) return null;
  const list = TONES[d.tone];
  return `${(list[chapter % list.length] as string).replace(/\{name\}/g, name).replace(/\{them\}/g, HERO.themself)}.`;
}
