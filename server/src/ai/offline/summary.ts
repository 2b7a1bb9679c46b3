/**
 * Offline rolling summary: extractive, because with no model we cannot paraphrase honestly. For each
 * chapter being folded it keeps the player's choice and the sentences that carry names and the
 * mission, then appends them to the previous summary and drops the oldest lines beyond the budget.
 */
import type { PastChapter, SummarizeInput } from '../story-ai';
import { SUMMARY_MAX_CHARS } from '../story-ai';
import { splitSentences } from './text';

function keySentences(c: PastChapter): string[] {
  const sentences = splitSentences(c.text.replace(/\n+/g, ' ')).filter((s) => !/^[“"]/.test(s));
  const scored = sentences.map((s, i) => {
    let score = 0;
    if (/\b(mission|task|goal|done|complete|new task|arrived|reached)\b/i.test(s)) score += 3;
    score += (s.match(/\s[A-Z][a-z]+/g)?.length ?? 0) * 0.5;
    if (i === 0) score += 1;
    return { s, i, score };
  });
  return scored
    .sort((a, b) => b.score - a.score)
    .slice(0, 2)
    .sort((a, b) => a.i - b.i)
    .map((x) => x.s);
}

export function offlineSummary(input: SummarizeInput): string {
  const maxChars = Math.min(SUMMARY_MAX_CHARS, Math.max(200, (input.maxTokens ?? 400) * 4));
  const lines = input.previousSummary.trim() ? [input.previousSummary.trim()] : [];
  for (const c of input.chapters) {
    const choice = c.playerChoice?.trim()
      ? `Choice: ${c.playerChoice
          .trim()
          .replace(/[<>]/g, '')
          .slice(0, 160)
          .replace(/[.!?]*$/, '.')} `
      : '';
    lines.push(`${choice}${keySentences(c).join(' ')}`.trim());
  }
  let summary = lines.filter(Boolean).join(' ');
  // Rolling: the newest events matter most for what happens next, so the oldest text goes first.
  if (summary.length > maxChars) {
    const cut = summary.slice(summary.length - maxChars);
    const start = cut.search(/(?<=[.!?]["”]?)\s+\S/);
    summary = (start >= 0 ? cut.slice(start) : cut).trim();
  }
  return summary || 'The story has only just begun.';
}
