/**
 * Keeps a chapter prompt inside the tier's `maxContextTokens` (SPEC §3 subscription status).
 *
 * Recent chapters go to the model verbatim; older ones are folded into a rolling summary that the
 * caller stores next to the storyline together with how many chapters it covers. The summary is
 * updated incrementally: only chapters newly pushed out of the verbatim window are summarised (with
 * the previous summary as input), never the whole story again.
 *
 * Folding happens in batches with hysteresis: when the verbatim window overflows, we fold until it
 * uses at most FOLD_TARGET of its share, so a summary call happens every few chapters rather than on
 * every chapter.
 */
import type { ChapterInput, PastChapter } from './story-ai';

/**
 * Token estimate without a tokenizer dependency: English BPE vocabularies (cl100k, o200k, Llama 3)
 * average ≈4 characters per token on prose; short-word text runs closer to 0.75 words per token, so
 * we take the larger of chars/4 and words×4/3. It errs high, which is the safe side for a budget.
 */
export function estimateTokens(text: string): number {
  if (text.length === 0) return 0;
  return Math.ceil(Math.max(text.length / 4, (wordsOf(text) * 4) / 3));
}

/**
 * estimateTokens(parts.join(separator)) without building the string: the words of whitespace-joined
 * parts are the words of each part. A chapter's usage is the world, the summary and the recent
 * chapters, which are the same strings chapter after chapter (and counted once, see wordsOf).
 */
export function estimateTokensJoined(parts: readonly string[], separator: '\n' | ' '): number {
  let length = 0;
  let words = 0;
  for (const p of parts) {
    length += p.length;
    words += wordsOf(p);
  }
  length += separator.length * Math.max(0, parts.length - 1);
  return length === 0 ? 0 : Math.ceil(Math.max(length / 4, (words * 4) / 3));
}

/**
 * Word counts of long texts (chapters, world descriptions, summaries) are kept: every chapter
 * re-estimates the world and the chapters before it for its budget and its usage. Bounded; the
 * oldest go first.
 */
const WORD_CACHE_MIN_CHARS = 200;
const WORD_CACHE_MAX = 2000;
const wordCache = new Map<string, number>();

function wordsOf(text: string): number {
  if (text.length < WORD_CACHE_MIN_CHARS) return countWords(text);
  let n = wordCache.get(text);
  if (n === undefined) {
    n = countWords(text);
    wordCache.set(text, n);
    if (wordCache.size > WORD_CACHE_MAX) wordCache.delete(wordCache.keys().next().value as string);
  }
  return n;
}

/**
 * Whitespace-separated words (what `text.trim().split(/\s+/).filter(Boolean).length` counts, with the
 * same whitespace set as `\s`), in one pass without building the array: every chapter estimates its
 * whole prompt and history, a few thousand words each time.
 */
export function countWords(text: string): number {
  let words = 0;
  let inWord = false;
  for (let i = 0; i < text.length; i++) {
    const space = isSpace(text.charCodeAt(i));
    if (!space && !inWord) words++;
    inWord = !space;
  }
  return words;
}

/** Whether a UTF-16 code unit is whitespace as `\s` matches it (the ASCII spaces, no-break and Unicode spaces). */
export function isSpace(c: number): boolean {
  if (c <= 0x20) return c === 0x20 || (c >= 0x09 && c <= 0x0d);
  if (c < 0xa0) return false;
  return (
    c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x2028 || c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x3000 || c === 0xfeff
  );
}

/** Tokens kept free for the model's answer (a chapter is ≤ 400 words ≈ 560 tokens + JSON overhead). */
export function outputReserve(maxContextTokens: number): number {
  return Math.min(900, Math.max(300, Math.floor(maxContextTokens * 0.3)));
}
/** Fraction of the verbatim share that remains used right after a fold (hysteresis). */
export const FOLD_TARGET = 0.6;
/** Share of the history budget given to the summary (the rest is for verbatim chapters). */
const SUMMARY_SHARE = 0.35;
/** Smallest budget we accept; below it even the stable prefix would not fit. */
const MIN_CONTEXT_TOKENS = 1024;

export function chapterTokens(c: PastChapter): number {
  return estimateTokens(c.text) + (c.playerChoice ? estimateTokens(c.playerChoice) + 6 : 0) + 4;
}

export interface FoldPlanInput {
  /** Every chapter of the storyline, oldest first. */
  chapters: PastChapter[];
  /** How many of the oldest chapters the stored summary already covers. */
  summarizedCount: number;
  maxContextTokens: number;
  /** Tokens of everything else in the prompt: instructions, world, character, mission, action. */
  fixedTokens: number;
}
export interface FoldPlan {
  /** Indices (into `chapters`) to fold into the summary now, oldest first; empty when none. */
  foldFrom: number;
  foldTo: number;
  /** Index of the first chapter to send verbatim after folding (== new summarizedCount). */
  recentStart: number;
  /** Token budget for the summary text; pass it to summarize({ maxTokens }). */
  summaryMaxTokens: number;
  /** Token budget left for verbatim chapters. */
  recentBudget: number;
}

/**
 * Pure: decides which chapters must be folded into the rolling summary before the next chapter is
 * written. The caller summarises `chapters.slice(foldFrom, foldTo)` (if non-empty) into the stored
 * summary, stores `recentStart` as the new summarizedCount, and sends `chapters.slice(recentStart)`.
 */
export function planFold(input: FoldPlanInput): FoldPlan {
  const max = Math.max(MIN_CONTEXT_TOKENS, input.maxContextTokens);
  const history = Math.max(0, max - outputReserve(max) - input.fixedTokens);
  const summaryMaxTokens = Math.max(60, Math.floor(history * SUMMARY_SHARE));
  const recentBudget = Math.max(0, history - summaryMaxTokens);
  const start = Math.min(Math.max(0, input.summarizedCount), input.chapters.length);
  const sizes = input.chapters.map(chapterTokens);
  let used = 0;
  for (let i = start; i < sizes.length; i++) used += sizes[i] ?? 0;

  let recentStart = start;
  if (used > recentBudget) {
    // Overflow: fold the oldest verbatim chapters until we are at or under the hysteresis target.
    // The newest chapter is always kept verbatim when the fixed part leaves any room at all, because
    // "continue from the previous chapter" needs its exact last lines.
    const target = recentBudget * FOLD_TARGET;
    while (recentStart < sizes.length - 1 && used > target) {
      used -= sizes[recentStart] ?? 0;
      recentStart++;
    }
    // If the newest chapter alone is over budget (tiny tiers), it still stays: buildChapterContext
    // keeps its last lines, which is what the next chapter continues from.
  }
  return { foldFrom: start, foldTo: recentStart, recentStart, summaryMaxTokens, recentBudget };
}

/** Tokens of the stable and changing parts of a chapter prompt that are not history. */
export function fixedChapterTokens(
  input: Pick<ChapterInput, 'worldDescription' | 'character' | 'mission' | 'setting' | 'action' | 'plotEssentials' | 'authorsNote'>,
  instructionsTokens = 350,
): number {
  const c = input.character;
  return (
    instructionsTokens +
    estimateTokens(input.worldDescription) +
    estimateTokens(c.name) +
    estimateTokens(c.description) +
    estimateTokens(JSON.stringify(c.stats)) +
    estimateTokens(c.traits.join(', ')) +
    (c.special ? estimateTokens(c.special.name + c.special.description) : 0) +
    estimateTokens(input.mission ?? '') +
    estimateTokens(input.setting ?? '') +
    estimateTokens(input.action ?? '') +
    estimateTokens(input.plotEssentials ?? '') +
    estimateTokens(input.authorsNote ?? '') +
    40
  );
}

export interface BuiltContext {
  summary: string;
  recentChapters: PastChapter[];
  /** Whether anything had to be cut at prompt-building time (the caller's fold plan was stale). */
  trimmed: boolean;
  estimatedPromptTokens: number;
}

/**
 * Last line of defence at prompt-building time: given what the caller passed, returns a summary and
 * verbatim chapters that fit. Drops the oldest verbatim chapters first, then shortens the summary
 * from its start (the end of a rolling summary is the most recent, most relevant part), then cuts the
 * character description. Never drops the world description: it is the stable prefix.
 */
export function buildChapterContext(input: ChapterInput, instructionsTokens = 350): BuiltContext & { characterDescription: string } {
  const max = Math.max(MIN_CONTEXT_TOKENS, input.maxContextTokens);
  const budget = max - outputReserve(max);
  let characterDescription = input.character.description;
  const fixed = () => fixedChapterTokens({ ...input, character: { ...input.character, description: characterDescription } }, instructionsTokens);
  let trimmed = false;
  const recent = [...input.recentChapters];
  let summary = input.summary;
  const total = () => fixed() + estimateTokens(summary) + recent.reduce((n, c) => n + chapterTokens(c), 0);

  while (total() > budget && recent.length > 1) {
    recent.shift();
    trimmed = true;
  }
  if (total() > budget && summary.length > 0) {
    const over = total() - budget;
    summary = trimStart(summary, Math.max(0, summary.length - over * 4 - 16));
    trimmed = true;
  }
  if (total() > budget && characterDescription.length > 200) {
    const over = total() - budget;
    characterDescription = characterDescription.slice(0, Math.max(200, characterDescription.length - over * 4 - 16));
    trimmed = true;
  }
  if (total() > budget && recent.length === 1) {
    const only = recent[0] as PastChapter;
    const over = total() - budget;
    // Keep the end of the previous chapter: the story continues from its last lines.
    recent[0] = { ...only, text: trimStart(only.text, Math.max(200, only.text.length - over * 4 - 16)) };
    trimmed = true;
  }
  return { summary, recentChapters: recent, trimmed, estimatedPromptTokens: total(), characterDescription };
}

/** Keeps the last `keepChars` characters, starting at a sentence boundary where possible. */
function trimStart(text: string, keepChars: number): string {
  if (keepChars >= text.length) return text;
  if (keepChars <= 0) return '';
  const tail = text.slice(text.length - keepChars);
  const boundary = tail.search(/[.!?]\s+\S/);
  return boundary >= 0 && boundary < tail.length / 2 ? tail.slice(boundary + 1).trimStart() : tail.trimStart();
}
