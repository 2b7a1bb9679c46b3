/**
 * Token counting for prompts: a real BPE tokenizer with a remote model, an estimate otherwise. What a
 * prompt holds within the tier's context, and when older chapters fold into the summary, is
 * prompt-plan.ts.
 */
import type { PastChapter } from './story-ai';

/**
 * Token counts. With a remote model the prompt is counted by a real BPE tokenizer (gpt-tokenizer's
 * o200k_base by default: GPT-4o and later; cl100k_base for older OpenAI models and close to most open
 * models' vocabularies), so a tier's budget is used, not guessed: the chars/4 estimate ran ~20% high
 * and left 16k/32k tiers half used. The tokenizer's tables cost ~70 MB and ~130 ms to load, so it is
 * loaded only when a provider asks for it (useTokenizer, from createStoryAI with an API key); the
 * offline storyteller sends nothing anywhere and keeps the estimate.
 */
export type TokenizerName = 'o200k_base' | 'cl100k_base' | 'estimate';
let tokenizer: { name: TokenizerName; count: (text: string) => number } | null = null;

export function useTokenizer(name: TokenizerName): void {
  if (name === 'estimate') {
    tokenizer = null;
  } else if (tokenizer?.name !== name) {
    // Required here, not imported at the top: the tables load only for a remote model (see above).
    /* eslint-disable @typescript-eslint/no-require-imports */
    const mod = (name === 'o200k_base' ? require('gpt-tokenizer/cjs/encoding/o200k_base') : require('gpt-tokenizer/cjs/encoding/cl100k_base')) as {
      countTokens: (text: string) => number;
    };
    /* eslint-enable @typescript-eslint/no-require-imports */
    tokenizer = { name, count: (text) => mod.countTokens(text) };
  }
  tokenCache.clear();
}

/** The tokenizer in use ('estimate' when none is loaded). */
export function tokenizerName(): TokenizerName {
  return tokenizer?.name ?? 'estimate';
}

/**
 * Tokens of `text`: the loaded tokenizer's count, else an estimate — English BPE vocabularies average
 * ≈4 characters per token on prose and short-word text runs closer to 0.75 words per token, so the
 * larger of chars/4 and words×4/3 (it errs high, the safe side for a budget).
 */
export function estimateTokens(text: string): number {
  if (text.length === 0) return 0;
  if (tokenizer) return countCached(text, tokenizer.count);
  return Math.ceil(Math.max(text.length / 4, (wordsOf(text) * 4) / 3));
}

/**
 * estimateTokens(parts.join(separator)) without building the string: the words of whitespace-joined
 * parts are the words of each part. A chapter's usage is the world, the summary and the recent
 * chapters, which are the same strings chapter after chapter (and counted once, see wordsOf). With a
 * tokenizer, the parts' counts plus one token per separator (BPE merges across a newline are rare).
 */
export function estimateTokensJoined(parts: readonly string[], separator: '\n' | ' '): number {
  if (tokenizer) {
    let n = 0;
    for (const p of parts) n += estimateTokens(p);
    return n + Math.max(0, parts.length - 1);
  }
  let length = 0;
  let words = 0;
  for (const p of parts) {
    length += p.length;
    words += wordsOf(p);
  }
  length += separator.length * Math.max(0, parts.length - 1);
  return length === 0 ? 0 : Math.ceil(Math.max(length / 4, (words * 4) / 3));
}

/** Token counts of long texts, kept like word counts (the same chapters are counted every turn). */
const tokenCache = new Map<string, number>();

function countCached(text: string, count: (text: string) => number): number {
  if (text.length < WORD_CACHE_MIN_CHARS) return count(text);
  let n = tokenCache.get(text);
  if (n === undefined) {
    n = count(text);
    tokenCache.set(text, n);
    if (tokenCache.size > WORD_CACHE_MAX) tokenCache.delete(tokenCache.keys().next().value as string);
  }
  return n;
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

export function chapterTokens(c: PastChapter): number {
  return estimateTokens(c.text) + (c.playerChoice ? estimateTokens(c.playerChoice) + 6 : 0) + 4;
}
