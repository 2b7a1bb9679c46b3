/**
 * Offline rolling summary: extractive, because with no model we cannot paraphrase honestly. For each
 * chapter being folded it keeps the player's choice and the sentences that carry names and the
 * mission, then appends them to the previous summary and drops the oldest lines beyond the budget.
 */
import type { PastChapter, SummarizeInput } from '../story-ai';
import { SUMMARY_MAX_CHARS } from '../story-ai';
import { normaliseAction, splitSentences } from './text';

/** Sentences that carry what happened: an outcome, a mission done, a new task, a new place. */
const OUTCOME =
  /\b(?:works|worked|pays off|paid off|goes wrong|went wrong|does not work|did not work|comes right|came right|half works|half worked|luck holds|luck held|it failed|it fails|nothing comes|nothing came|talked|came round|comes round)\b/i;
const MISSION = /\b(?:managed to|is finished|was finished|new task|new goal|new request|next goal|has found a way|had found a way|have found a way)\b/i;
const PLACE = /\b(?:a new place|new place opens|came to|comes to|the way led|the way leads)\b/i;

function keySentences(c: PastChapter): string[] {
  const sentences = splitSentences(c.text.replace(/\n+/g, ' ')).filter((s) => !/^[“"]/.test(s) && !/[“”"]/.test(s));
  const scored = sentences.map((s, i) => {
    let score = 0;
    if (MISSION.test(s)) score += 5;
    if (OUTCOME.test(s)) score += 4;
    if (PLACE.test(s)) score += 2;
    if (/\b(mission|task|goal)\b/i.test(s)) score += 1;
    score += (s.match(/\s[A-Z][a-z]+/g)?.length ?? 0) * 0.3;
    return { s, i, score };
  });
  // One sentence a chapter, its first clause when adult prose joined two ("…; …"): a small budget
  // (Free's is a few hundred characters) still holds several chapters.
  return scored
    .sort((a, b) => b.score - a.score)
    .slice(0, 1)
    .map((x) => x.s.split(/;\s+/).find((part) => MISSION.test(part) || OUTCOME.test(part)) ?? x.s.split(/;\s+/)[0] ?? x.s)
    .map((x) => (/[.!?]$/.test(x) ? x : `${x}.`));
}

/**
 * A paragraph of the story so far: for each chapter folded in, the choice that led to it and what
 * came of it (the outcome, a mission done, a new task or place), appended to the previous summary;
 * the oldest sentences go first when it outgrows its budget. Extractive, because with no model the
 * storyteller cannot paraphrase honestly — but it reads as one paragraph, not a list.
 */
export function offlineSummary(input: SummarizeInput): string {
  const maxChars = Math.min(SUMMARY_MAX_CHARS, Math.max(200, (input.maxTokens ?? 400) * 4));
  const lines = input.previousSummary.trim() ? [input.previousSummary.trim()] : [];
  for (const c of input.chapters) {
    const compact = compactLine(c);
    if (compact) {
      lines.push(compact);
      continue;
    }
    const key = keySentences(c);
    // The choice as an action ("I follow the tracks" → "follow the tracks").
    const choice = c.playerChoice?.trim() ? normaliseAction(c.playerChoice).clause.replace(/[<>]/g, '').slice(0, 160) : '';
    if (choice && key.length > 0) key[0] = `After the choice to ${choice.charAt(0).toLowerCase()}${choice.slice(1)}: ${lowerStart(key[0] as string)}`;
    lines.push(key.join(' '));
  }
  let summary = lines.filter(Boolean).join(' ').replace(/\s+/g, ' ');
  // Rolling: the newest events matter most for what happens next, so the oldest text goes first.
  if (summary.length > maxChars) {
    const cut = summary.slice(summary.length - maxChars);
    const start = cut.search(/(?<=[.!?]["”]?)\s+\S/);
    summary = (start >= 0 ? cut.slice(start) : cut).trim();
  }
  return summary || 'The story has only just begun.';
}

/**
 * A chapter in one short sentence — what the hero did and how it went ("You search the study: it half
 * works.") and a mission done or a new task when there was one — so a small budget holds several
 * chapters. Null when the chapter's attempt cannot be found (an opening, an unusual action).
 */
function compactLine(c: PastChapter): string | null {
  if (!c.playerChoice?.trim()) return null;
  const words = normaliseAction(c.playerChoice).clause.split(/\s+/);
  if (words.length < 2) return null;
  const all = splitSentences(c.text.replace(/\n+/g, ' ')).flatMap((x) => x.split(/;\s+/));
  // The attempt: the sentence that has the action's verb (as told) right before its next word.
  const at = all.findIndex((x) => !/[“”"]/.test(x) && new RegExp(`\\b${escape(words[0] as string)}\\w*\\s+${escape(words[1] as string)}\\b`, 'i').test(x));
  if (at < 0) return null;
  const attempt = (all[at] as string).replace(/^(?:After a moment|Without waiting|With that|Then|So)[,]?\s+/i, '').split(/,\s/)[0] as string;
  const how = ((all[at + 1] ?? '').split(/[:,;]/)[0] ?? '').trim();
  const done = all.find((x) => MISSION.test(x) && !/[“”"]/.test(x));
  const first = `${upperFirst(attempt.replace(/[.!?]+$/, ''))}${how && how.split(/\s+/).length <= 6 ? `: ${lowerStart(how).replace(/[.!?]+$/, '')}` : ''}.`;
  return done ? `${first} ${upperFirst(done.replace(/^[^,:]{0,20},\s*/, '')).replace(/([^.!?])$/, '$1.')}` : first;
}

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function upperFirst(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

/** A sentence continued after a colon: its first word in lower case unless it is a name or "I". */
function lowerStart(s: string): string {
  return /^(?:I\b|[A-Z][a-z]+\s+[A-Z]|[A-Z]{2})/.test(s) ||
    !/^(?:The|A|An|It|You|They|He|She|We|Then|So|After|Some|In|Once|Even|By|All|Before|Just|Luck|For|Nothing|And)\b/.test(s)
    ? s
    : s.charAt(0).toLowerCase() + s.slice(1);
}
