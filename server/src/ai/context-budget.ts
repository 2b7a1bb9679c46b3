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
import type { ChapterInput, PastChapter, PromptCard } from './story-ai';

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

/** Tokens of one story card's prompt line (see prompts.ts cardLine). */
function cardTokens(card: PromptCard): number {
  return estimateTokens(`${card.name} ${card.kind} ${card.aliases.join(', ')} ${card.role ?? ''} ${card.description} ${card.status ?? ''}`) + 8;
}

/**
 * Tokens of the parts of a chapter prompt that are not history: instructions, world, character,
 * mission, setting, action, plot essentials, author's note and the story cards given.
 */
export function fixedChapterTokens(
  input: Pick<
    ChapterInput,
    'worldDescription' | 'character' | 'mission' | 'setting' | 'action' | 'plotEssentials' | 'authorsNote' | 'storyCards' | 'castList' | 'continueFrom'
  >,
  instructionsTokens = INSTRUCTIONS_TOKENS,
): number {
  const c = input.character;
  return (
    instructionsTokens +
    estimateTokens(input.worldDescription) +
    estimateTokens(c.name) +
    estimateTokens(c.description) +
    estimateTokens(JSON.stringify(c.stats)) +
    estimateTokens(c.traits.join(', ')) +
    estimateTokens([...(c.strengths ?? []), ...(c.weaknesses ?? [])].join('; ')) +
    (c.special ? estimateTokens(c.special.name + c.special.description) : 0) +
    estimateTokens(input.mission ?? '') +
    estimateTokens(input.setting ?? '') +
    estimateTokens(input.action ?? '') +
    estimateTokens(input.plotEssentials ?? '') +
    estimateTokens(input.authorsNote ?? '') +
    (input.storyCards ?? []).reduce((n, card) => n + cardTokens(card), 0) +
    estimateTokens((input.castList ?? []).map((p) => `${p.name} (${p.role ?? ''})`).join(', ')) +
    estimateTokens(input.continueFrom ?? '') +
    40
  );
}

/** The rules, the schema and the labels around the story's own text (measured on the OpenAI prompt). */
const INSTRUCTIONS_TOKENS = 700;
/** On small tiers the previous chapter is cut to its last lines before the summary is touched. */
const LAST_CHAPTER_TAIL_TOKENS = 160;

export interface BuiltContext {
  summary: string;
  recentChapters: PastChapter[];
  /** The story cards that fit, in the order given. */
  cards: PromptCard[];
  /** Whether anything had to be cut at prompt-building time (the caller's fold plan was stale). */
  trimmed: boolean;
  estimatedPromptTokens: number;
}

/**
 * Last line of defence at prompt-building time: given what the caller passed, returns a summary,
 * story cards and verbatim chapters that fit, cutting the least important first:
 * 1. the oldest verbatim chapters (the newest always stays);
 * 2. story cards that are only triggered, from the end (least relevant);
 * 3. the newest chapter, down to its last lines (what the next chapter continues from);
 * 4. the summary, from its start (its end is the most recent part);
 * 5. the character description, down to 200 characters;
 * 6. pinned cards, from the end; 7. the newest chapter down to its last 200 characters.
 * On small tiers the summary thus survives, and the last chapter's tail is sent, rather than the
 * other way round. Never drops the world description or the plot essentials.
 */
export function buildChapterContext(input: ChapterInput, instructionsTokens = INSTRUCTIONS_TOKENS): BuiltContext & { characterDescription: string } {
  const max = Math.max(MIN_CONTEXT_TOKENS, input.maxContextTokens);
  const budget = max - outputReserve(max);
  let characterDescription = input.character.description;
  const fixed = () =>
    fixedChapterTokens({ ...input, storyCards: [], character: { ...input.character, description: characterDescription } }, instructionsTokens);
  let trimmed = false;
  const recent = [...input.recentChapters];
  const cards = [...(input.storyCards ?? [])];
  let summary = input.summary;
  const total = () => fixed() + estimateTokens(summary) + recent.reduce((n, c) => n + chapterTokens(c), 0) + cards.reduce((n, card) => n + cardTokens(card), 0);
  const cutLast = (minChars: number) => {
    if (recent.length !== 1 || total() <= budget) return;
    const only = recent[0] as PastChapter;
    const keep = Math.max(minChars, only.text.length - (total() - budget) * 4 - 16);
    if (keep >= only.text.length) return;
    // Keep the end of the previous chapter: the story continues from its last lines.
    recent[0] = { ...only, text: trimStart(only.text, keep) };
    trimmed = true;
  };

  while (total() > budget && recent.length > 1) {
    recent.shift();
    trimmed = true;
  }
  for (let i = cards.length - 1; i >= 0 && total() > budget; i--) {
    if (cards[i]?.pinned) continue;
    cards.splice(i, 1);
    trimmed = true;
  }
  cutLast(LAST_CHAPTER_TAIL_TOKENS * 4);
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
  while (total() > budget && cards.length > 0) {
    cards.pop();
    trimmed = true;
  }
  cutLast(200);
  return { summary, recentChapters: recent, cards, trimmed, estimatedPromptTokens: total(), characterDescription };
}
/** Keeps the last `keepChars` characters, starting at a sentence boundary where possible. */
function trimStart(text: string, keepChars: number): string {
  if (keepChars >= text.length) return text;
  if (keepChars <= 0) return '';
  const tail = text.slice(text.length - keepChars);
  const boundary = tail.search(/[.!?]\s+\S/);
  return boundary >= 0 && boundary < tail.length / 2 ? tail.slice(boundary + 1).trimStart() : tail.trimStart();
}
