import { chapterTokens, estimateTokens } from './context-budget';
import { cardLine, chapterProfile, FOLD_TARGET, memoryLine, planChapterPrompt, planFold, PREVIOUS_TAIL_TOKENS } from './prompt-plan';
import type { ChapterInput, PastChapter, PromptCard, PromptMemory } from './story-ai';

/**
 * What a chapter prompt holds within a tier's context (issue 30, item 1): memory before verbatim
 * history, the essentials and pinned cards always, a summary always, the previous chapter's tail
 * always; and what was left out, with the reason. The engine folds with the same shares.
 */
const chapter = (i: number, words = 250): PastChapter => ({
  text: Array.from({ length: words }, (_, k) => `word${i}x${k}`).join(' ') + '.',
  playerChoice: `action ${i}`,
});
const card = (name: string, pinned: boolean, sentences = 6): PromptCard => ({
  kind: 'character',
  name,
  aliases: [],
  description: `${name} is someone who matters. `.repeat(sentences).trim(),
  role: 'keeper',
  status: null,
  pinned,
});
const memory = (i: number): PromptMemory => ({
  kind: 'event',
  text: `Memory ${i}: something that happened by the harbour wall.`,
  chapterNumber: i + 1,
  pinned: false,
});

const base: ChapterInput = {
  worldDescription: 'A drowned city where the tide keeps a ledger. '.repeat(20),
  character: { name: 'Mara', description: 'A diver with a grudge against the tide. '.repeat(30), stats: { strength: 10 }, traits: ['Brave'], special: null },
  mission: 'Find the key',
  plotEssentials: 'Mara is the last of the lamp-keepers.',
  summary: 'SUMMARY-START Mara lost the key and swore to find it. '.repeat(30),
  recentChapters: Array.from({ length: 8 }, (_, i) => chapter(i, 300)),
  chapterNumber: 20,
  action: 'Open the door',
  readingLevel: 8,
  seed: 1,
  maxContextTokens: 2048,
  storyCards: [card('Pinned Ilse', true), card('Triggered Oren', false)],
  memories: Array.from({ length: 30 }, (_, i) => memory(i)),
  castList: Array.from({ length: 20 }, (_, i) => ({ name: `Person ${i}`, role: 'sailor' })),
};
/** The fixed part of a Free-tier prompt: compact rules, the world, the turn (state, rules, action, format), essentials. */
const FIXED = 770;

describe('planChapterPrompt', () => {
  it('on Free 2k: the pinned card whole, a summary, memories and the previous chapter’s tail all fit; what does not is said, with why', () => {
    const profile = chapterProfile(2048);
    const p = planChapterPrompt(base, profile, FIXED);
    expect(p.plannedTokens).toBeLessThanOrEqual(p.budget);
    expect(p.budget).toBe(2048 - profile.outputTokens);
    expect(p.pinnedCards).toEqual([base.storyCards![0]]);
    expect(estimateTokens(p.summary)).toBeGreaterThan(40);
    expect(p.memories.length).toBeGreaterThan(0);
    // The previous chapter: at least its guaranteed tail, and it is the chapter before this one.
    const last = p.recentChapters[p.recentChapters.length - 1]!;
    expect(last.playerChoice).toBe('action 7');
    expect(chapterTokens(last)).toBeGreaterThanOrEqual(Math.min(chapterTokens(base.recentChapters[7]!), PREVIOUS_TAIL_TOKENS) - 10);
    // Older chapters are left to the summary; each omission says why.
    expect(p.omitted.filter((o) => o.section === 'history').map((o) => o.what)).toContain('Chapter 12 word for word');
    for (const o of p.omitted) expect(o.reason.length).toBeGreaterThan(5);
    // People with no card are named (capped); the triggered card may not fit at all on 2k.
    expect(p.people.length).toBeLessThanOrEqual(12);
  });

  it("when even the fixed part does not fit, the character's description is cut first, then pinned cards to their first sentence", () => {
    const p = planChapterPrompt(base, chapterProfile(2048), FIXED + 350);
    expect(p.omitted.find((o) => o.section === 'character')).toMatchObject({ reason: 'cut to fit' });
    expect(p.characterDescription.length).toBeLessThan(base.character.description.length);
    expect(p.plannedTokens).toBeLessThanOrEqual(p.budget);
    expect(p.pinnedCards).toHaveLength(1);
  });

  it('memory gets its share before verbatim history', () => {
    const profile = chapterProfile(4096);
    const p = planChapterPrompt(base, profile, FIXED);
    const memoryTokens =
      p.memories.reduce((n, m) => n + estimateTokens(memoryLine(m)) + 1, 0) + p.cards.reduce((n, c) => n + estimateTokens(cardLine(c)) + 1, 0);
    expect(memoryTokens).toBeGreaterThan(0);
    expect(p.cards.map((c) => c.name)).toEqual(['Triggered Oren']);
    // Older chapters are left to the summary before any memory is.
    expect(p.omitted.some((o) => o.section === 'history')).toBe(true);
  });

  it('leaves a context that fits untouched', () => {
    const small: ChapterInput = {
      ...base,
      summary: 'Short.',
      recentChapters: [chapter(1, 50)],
      character: { ...base.character, description: 'Short.' },
      memories: [memory(1)],
      castList: [],
      maxContextTokens: 16000,
    };
    const p = planChapterPrompt(small, chapterProfile(16000), FIXED);
    expect(p.omitted).toEqual([]);
    expect(p.summary).toBe('Short.');
    expect(p.recentChapters).toEqual(small.recentChapters);
    expect(p.characterDescription).toBe('Short.');
  });

  it('never drops a pinned card: past every other cut, it keeps its first sentence', () => {
    const crowded: ChapterInput = { ...base, storyCards: Array.from({ length: 6 }, (_, i) => card(`Pinned ${i}`, true, 12)) };
    const p = planChapterPrompt(crowded, chapterProfile(2048), FIXED + 300);
    expect(p.pinnedCards.map((c) => c.name)).toEqual(crowded.storyCards!.map((c) => c.name));
    expect(p.omitted.some((o) => o.section === 'pinned_cards' && o.reason.startsWith('cut to fit'))).toBe(true);
  });
});

describe('planFold', () => {
  it('folds nothing while everything fits', () => {
    const plan = planFold({ chapters: [chapter(0), chapter(1)], summarizedCount: 0, maxContextTokens: 8000, fixedTokens: 800 });
    expect(plan.foldTo - plan.foldFrom).toBe(0);
    expect(plan.recentStart).toBe(0);
  });

  it('folds the oldest chapters in a batch down to the hysteresis target, keeping the newest; the summary gets its share', () => {
    const chapters = Array.from({ length: 12 }, (_, i) => chapter(i));
    const plan = planFold({ chapters, summarizedCount: 0, maxContextTokens: 4000, fixedTokens: 800 });
    expect(plan.foldFrom).toBe(0);
    expect(plan.foldTo).toBeGreaterThan(0);
    expect(plan.recentStart).toBeLessThan(chapters.length);
    const kept = chapters.slice(plan.recentStart).reduce((n, c) => n + chapterTokens(c), 0);
    expect(kept).toBeLessThanOrEqual(plan.recentBudget * FOLD_TARGET + chapterTokens(chapters[11] as PastChapter));
    expect(plan.summaryMaxTokens + plan.recentBudget + chapterProfile(4000).outputTokens + 800).toBeLessThanOrEqual(4000);
  });

  it('is incremental: a growing story folds each chapter once, only from where the summary ends', () => {
    const all = Array.from({ length: 40 }, (_, i) => chapter(i));
    let summarized = 0;
    const folded: number[] = [];
    let summaryCalls = 0;
    for (let n = 1; n <= all.length; n++) {
      const plan = planFold({ chapters: all.slice(0, n), summarizedCount: summarized, maxContextTokens: 8192, fixedTokens: 600 });
      expect(plan.foldFrom).toBe(summarized);
      if (plan.foldTo > plan.foldFrom) {
        summaryCalls++;
        for (let i = plan.foldFrom; i < plan.foldTo; i++) folded.push(i);
      }
      summarized = plan.recentStart;
    }
    expect(folded).toEqual(Array.from({ length: folded.length }, (_, i) => i));
    expect(folded.length).toBeGreaterThan(30);
    // Hysteresis: not a summary call per chapter.
    expect(summaryCalls).toBeLessThan(folded.length * 0.7);
  });

  it('never folds the newest chapter, even on a tiny budget', () => {
    const plan = planFold({ chapters: [chapter(0, 600), chapter(1, 600)], summarizedCount: 0, maxContextTokens: 1024, fixedTokens: 500 });
    expect(plan.recentStart).toBe(1);
  });
});
