/**
 * What the story returns to and how the player asked it to sound, offline (issue 32): the player's
 * answers come back as threads, memories the bank retrieved are recalled, plot essentials are woven
 * into sentences rather than quoted, the author's note's closing and tone are honoured, the story so
 * far is a paragraph, a chapter leaves memories for the bank, and another take shares at most 30% of
 * its sentences with the one it replaces.
 */
import { FEATURED_WORLDS } from '../../db/seed-data';
import { collectChapter, type ChapterInput } from '../story-ai';
import { buildWorldMaterial } from '../world-material';
import { OfflineStoryAI } from './offline-story-ai';
import { playOfflineStory } from './test-worlds';
import { memoryLine } from './threads';
import { splitSentences } from './text';

const ai = new OfflineStoryAI();
const hollowmere = FEATURED_WORLDS.find((w) => w.name === 'Hollowmere') as (typeof FEATURED_WORLDS)[number];
const hero = {
  name: 'Edmund Hale',
  description: 'A clerk.',
  stats: { strength: 9, agility: 10, endurance: 10, intellect: 13, wisdom: 12, charisma: 9 },
  traits: ['Wary', 'Kind'],
};
const answers = ['A letter from my dead sister Clara', 'My mother, drowned ten years ago', 'Salt on the sill, always', 'That I am already one of them'];
const play = (over: Partial<Parameters<typeof playOfflineStory>[1]> = {}) =>
  playOfflineStory(ai, {
    world: hollowmere,
    answers,
    hero,
    chapters: 30,
    seed: 4,
    choose: (n, last) => (last ? (last.choices[n % last.choices.length] as string) : null),
    ...over,
  });
const narration = (t: string) => t.replace(/“[^”]*”/g, '');

describe('threads, memories, essentials and the author’s note', () => {
  it("the player's answers come back as threads, each several times, told as the hero's own", async () => {
    const story = await play();
    const text = story.chapters.map((c) => c.result.text).join('\n');
    expect((text.match(/your dead sister Clara/g) ?? []).length).toBeGreaterThanOrEqual(2);
    expect((text.match(/your mother, drowned ten years ago/g) ?? []).length).toBeGreaterThanOrEqual(2);
    expect(text).not.toMatch(/\bmy dead sister\b/);
  });

  it('plot essentials are woven into a sentence, never quoted after a colon as they were typed', async () => {
    const story = await play({ plotEssentials: 'Clara wrote the letter a week before she drowned. I carry her ring.' });
    const text = narration(story.chapters.map((c) => c.result.text).join('\n'));
    expect(text).toMatch(/that Clara wrote the letter a week before she drowned|because Clara wrote the letter/);
    expect(text).toMatch(/you carry her ring/);
    expect(text).not.toMatch(/kept one thing in mind: /);
  });

  it('the author’s note: every chapter ends on a sound in the dark, and the tone is eerie', async () => {
    const story = await play({ authorsNote: 'End each chapter on a sound in the dark. Keep it eerie.' });
    const endings = story.chapters.map((c) => splitSentences(c.result.text.replace(/\n+/g, ' ')).pop() as string);
    // The last clause names the dark and what is heard in it (its wording turns: see threads.ts).
    for (const e of endings) expect(e).toMatch(/\bdark\b[^;]*\.$/i);
    expect(new Set(endings).size).toBeGreaterThanOrEqual(8);
    const text = story.chapters.map((c) => c.result.text).join('\n');
    expect(text).toMatch(/stillness (?:is|was) wrong|shadows seem|air feels watched|too quiet/);
  });

  it('memories the bank recalls come back, and every chapter leaves memories for the bank', async () => {
    const story = await play();
    expect(story.chapters.filter((c) => c.result.memories.length > 0).length).toBeGreaterThan(20);
    // Told by name in the third person, whatever the story's point of view, so they read the same anywhere.
    expect(story.chapters.flatMap((c) => c.result.memories).every((m) => /Edmund/.test(m.text) && !/^You\b/.test(m.text))).toBe(true);
    const input: ChapterInput = {
      worldDescription: hollowmere.description,
      world: buildWorldMaterial(hollowmere),
      character: hero,
      mission: 'Find out what the Drowned Choir wants with Ravenscar Hall',
      summary: 'Edmund came with a letter.',
      recentChapters: [{ text: 'Edmund waited at the gate.', playerChoice: null }],
      chapterNumber: 4,
      action: 'I wait',
      readingLevel: 8,
      seed: 3,
      maxContextTokens: 4000,
      memories: [{ kind: 'promise', text: 'Edmund promised Thorne to ring the chapel bell at midnight', chapterNumber: 3, pinned: true }],
    };
    const { result } = await collectChapter(ai.streamChapter(input));
    // Retold in the story's point of view (second person present by default).
    expect(result.text).toMatch(/you promise Thorne to ring the chapel bell at midnight/i);
  });

  it('the story so far is a paragraph of what happened, not a list of choices', async () => {
    const story = await play();
    expect(story.summary.length).toBeGreaterThan(400);
    expect(story.summary).not.toMatch(/\n|Choice: /);
    // Told, not copied: what the hero did and what came of it, by name, and what is still open.
    expect(story.summary).toMatch(/\bEdmund \w+ed\b[^.]*, (?:and it worked|but it came to nothing)/);
    expect(story.summary).toMatch(/Edmund managed to [a-z]/);
    expect(story.summary).toMatch(/Still open: Edmund still has to [a-z][^.]+\.$/);
  });
});

describe('another take (Regenerate)', () => {
  it('shares at most 30% of its sentences with the take it replaces, in every one of 30 chapters', async () => {
    const story = await play();
    for (const [n, c] of story.chapters.entries()) {
      if (n === 0) continue;
      const prev = story.chapters[n - 1] as (typeof story.chapters)[number];
      const input: ChapterInput = {
        worldDescription: hollowmere.description,
        world: story.material,
        character: hero,
        mission: c.mission,
        summary: '',
        recentChapters: [{ text: prev.result.text, playerChoice: prev.action }],
        chapterNumber: n + 1,
        action: c.action,
        readingLevel: 8,
        seed: 4000 + n,
        maxContextTokens: 8000,
      };
      // Three takes in a row, each a new chapter row (its own seed) replacing the one before.
      let before = (await collectChapter(ai.streamChapter(input))).result.text;
      for (let k = 1; k <= 3; k++) {
        const again = (await collectChapter(ai.streamChapter({ ...input, seed: input.seed + 7919 * k, differentFrom: before.slice(0, 300) }))).result.text;
        const a = new Set(splitSentences(before.replace(/\n+/g, ' ')));
        const b = splitSentences(again.replace(/\n+/g, ' '));
        expect(b.filter((s) => a.has(s)).length / b.length).toBeLessThanOrEqual(0.3);
        before = again;
      }
    }
  });
});

describe('memories recalled', () => {
  // Played: "There is a lesson in what has gone before, when Fight your way through and get Nyx…".
  it('never recall a suggested action the player chose as if it were something that happened', () => {
    for (const text of ['Fight your way through and get Nyx Nakamura to talk', 'Set out for the Glass Reef', 'Focus on the mission to reach the Red Canyon'])
      for (let chapter = 4; chapter < 40; chapter += 3) expect(memoryLine([{ kind: 'event', text, chapterNumber: 2, pinned: false }], chapter)).toBeNull();
    expect(memoryLine([{ kind: 'event', text: 'Edmund searched the study; it worked', chapterNumber: 2, pinned: false }], 4)).toMatch(
      /Edmund searched the study/,
    );
  });

  // Played: "The last time still stings a little: Before long, you go back to the task" — the
  // attempt's own opener, capitalised, after the frame's colon.
  it('leave the attempt’s own opener behind', () => {
    for (const opener of ['Before long,', 'With that,', 'After a moment,'])
      for (let chapter = 4; chapter < 40; chapter += 3) {
        const line = memoryLine([{ kind: 'event', text: `${opener} Edmund went back to the task`, chapterNumber: 2, pinned: false }], chapter) ?? '';
        expect(line).toMatch(/Edmund went back to the task/);
        expect(line).not.toContain(opener);
      }
  });

  // Played: "There is still a promise to keep: you take on a new task: Find out what…" for a task done
  // chapters ago (the narration says what the task is, every chapter).
  it('never recall the missions’ own bookkeeping', () => {
    for (const [kind, text] of [
      ['promise', 'Edmund took on a new task: Find out what the Drowned Choir wants with Ravenscar Hall'],
      ['event', 'Edmund completed the task: Keep Draven safe'],
    ] as const)
      for (let chapter = 4; chapter < 40; chapter += 3) expect(memoryLine([{ kind, text, chapterNumber: 2, pinned: false }], chapter)).toBeNull();
  });
});
