import {
  buildChapterContext,
  chapterTokens,
  countWords,
  estimateTokens,
  estimateTokensJoined,
  FOLD_TARGET,
  outputReserve,
  planFold,
  tokenizerName,
  useTokenizer,
} from './context-budget';
import type { ChapterInput, PastChapter } from './story-ai';

const chapter = (i: number, words = 250): PastChapter => ({
  text: Array.from({ length: words }, (_, k) => `word${i}x${k}`).join(' ') + '.',
  playerChoice: `action ${i}`,
});

describe('estimateTokens', () => {
  it('is about 4 characters per token on prose and never under words × 4/3', () => {
    expect(estimateTokens('')).toBe(0);
    const prose = 'The quick brown fox jumps over the lazy dog near the riverbank at dawn.';
    expect(estimateTokens(prose)).toBeGreaterThanOrEqual(Math.ceil(prose.length / 4));
    expect(estimateTokens('a b c d e f')).toBe(8);
  });
});

describe('countWords and estimateTokensJoined', () => {
  const samples = [
    '',
    ' ',
    'one',
    '  two  words  ',
    'tab\tand\nnewline',
    'nbsp\u00a0and\u2003em\u3000ideo\ufeffbom',
    '“Quoted,” she said — and left.',
    'x'.repeat(300) + ' y',
  ];
  it('counts what split(/\\s+/) counts', () => {
    for (const s of samples) expect(countWords(s)).toBe(s.trim().split(/\s+/).filter(Boolean).length);
  });
  it('estimates joined parts exactly as the joined text (long parts counted once and remembered)', () => {
    const parts = [samples[6] as string, '', samples[7] as string, samples[4] as string];
    for (let i = 0; i < 2; i++) {
      expect(estimateTokensJoined(parts, '\n')).toBe(estimateTokens(parts.join('\n')));
      expect(estimateTokensJoined(parts, ' ')).toBe(estimateTokens(parts.join(' ')));
    }
    expect(estimateTokensJoined([], '\n')).toBe(0);
  });
});

describe('planFold', () => {
  it('folds nothing while everything fits', () => {
    const plan = planFold({ chapters: [chapter(0), chapter(1)], summarizedCount: 0, maxContextTokens: 8000, fixedTokens: 800 });
    expect(plan.foldTo - plan.foldFrom).toBe(0);
    expect(plan.recentStart).toBe(0);
  });

  it('folds the oldest chapters in a batch down to the hysteresis target, keeping the newest', () => {
    const chapters = Array.from({ length: 12 }, (_, i) => chapter(i));
    const plan = planFold({ chapters, summarizedCount: 0, maxContextTokens: 4000, fixedTokens: 800 });
    expect(plan.foldFrom).toBe(0);
    expect(plan.foldTo).toBeGreaterThan(0);
    expect(plan.recentStart).toBeLessThan(chapters.length);
    const kept = chapters.slice(plan.recentStart).reduce((n, c) => n + chapterTokens(c), 0);
    expect(kept).toBeLessThanOrEqual(plan.recentBudget * FOLD_TARGET + chapterTokens(chapters[11] as PastChapter));
    expect(plan.summaryMaxTokens + plan.recentBudget + outputReserve(4000) + 800).toBeLessThanOrEqual(4000);
  });

  it('is incremental: a growing story folds each chapter once, only from where the summary ends', () => {
    const all = Array.from({ length: 40 }, (_, i) => chapter(i));
    let summarized = 0;
    const folded: number[] = [];
    let summaryCalls = 0;
    for (let n = 1; n <= all.length; n++) {
      const plan = planFold({ chapters: all.slice(0, n), summarizedCount: summarized, maxContextTokens: 4096, fixedTokens: 600 });
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

describe('buildChapterContext', () => {
  const base: ChapterInput = {
    worldDescription: 'A world. '.repeat(100),
    character: { name: 'Mara', description: 'A long description. '.repeat(80), stats: { strength: 10 }, traits: ['Brave'], special: null },
    mission: 'Find the key',
    summary: 'Earlier things happened. '.repeat(200),
    recentChapters: Array.from({ length: 8 }, (_, i) => chapter(i, 300)),
    chapterNumber: 20,
    action: 'Open the door',
    readingLevel: 8,
    seed: 1,
    maxContextTokens: 2048,
  };
  it('fits the budget by dropping old chapters, then trimming the summary from its start', () => {
    const ctx = buildChapterContext(base);
    expect(ctx.trimmed).toBe(true);
    expect(ctx.estimatedPromptTokens).toBeLessThanOrEqual(2048 - outputReserve(2048));
    expect(ctx.recentChapters.length).toBeGreaterThanOrEqual(1);
    expect(ctx.recentChapters[ctx.recentChapters.length - 1]?.playerChoice).toBe('action 7');
  });
  it('leaves a context that already fits untouched', () => {
    const small = {
      ...base,
      summary: 'Short.',
      recentChapters: [chapter(1, 50)],
      character: { ...base.character, description: 'Short.' },
      maxContextTokens: 16000,
    };
    const ctx = buildChapterContext(small);
    expect(ctx.trimmed).toBe(false);
    expect(ctx.summary).toBe('Short.');
    expect(ctx.recentChapters).toEqual(small.recentChapters);
  });
  it('on a small tier the summary survives and the previous chapter is cut to its last lines first; pinned cards outlast triggered ones', () => {
    const card = (name: string, pinned: boolean) => ({
      kind: 'character' as const,
      name,
      aliases: [],
      description: `${name} is someone who matters. `.repeat(6),
      role: null,
      status: null,
      pinned,
    });
    const small: ChapterInput = {
      ...base,
      character: { ...base.character, description: 'A diver with a grudge.' },
      worldDescription: 'A drowned city.',
      summary: 'SUMMARY-START Mara lost the key and swore to find it. '.repeat(12),
      recentChapters: [{ text: 'FIRST-LINES ' + 'The water rose around the gate. '.repeat(200) + 'LAST-LINES the lamp went out.', playerChoice: 'dive' }],
      storyCards: [card('Pinned Ilse', true), card('Triggered Oren', false)],
    };
    const ctx = buildChapterContext(small);
    expect(ctx.estimatedPromptTokens).toBeLessThanOrEqual(2048 - outputReserve(2048));
    expect(ctx.summary).toBe(small.summary);
    const last = ctx.recentChapters[0]!.text;
    expect(last).toContain('LAST-LINES the lamp went out.');
    expect(last).not.toContain('FIRST-LINES');
    expect(ctx.cards.map((c) => c.name)).toEqual(['Pinned Ilse']);
  });
});

describe('the tokenizer', () => {
  afterEach(() => useTokenizer('estimate'));
  it('counts with a real BPE vocabulary once a remote model asks for it, and the estimate otherwise', () => {
    const prose = 'The quick brown fox jumps over the lazy dog near the riverbank at dawn.';
    expect(tokenizerName()).toBe('estimate');
    const estimated = estimateTokens(prose);
    useTokenizer('o200k_base');
    expect(tokenizerName()).toBe('o200k_base');
    // o200k_base: one token per word (riverbank is two) and one for the full stop.
    expect(estimateTokens(prose)).toBe(16);
    expect(estimated).toBeGreaterThan(16);
    const long = 'The tide rises over the drowned city of Varnholt. '.repeat(40);
    expect(estimateTokens(long)).toBe(estimateTokens(long)); // cached counts stay the same
    expect(estimateTokensJoined([prose, prose], '\n')).toBe(33);
  });
});
