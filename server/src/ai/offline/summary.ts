/**
 * Offline rolling summary (issue 32, item 6): a paragraph that tells the story so far — who did what,
 * what came of it, who was met, what was won and where the hero went — and ends on what is still
 * open. It is written from what the chapters report in their own stock wordings (the outcome of an
 * attempt, a mission done, a new task, a place reached, the people the story's cards name) rather
 * than by copying their sentences, in the third person past by the hero's name, whatever the
 * story's point of view.
 */
import type { PastChapter, SummarizeInput } from '../story-ai';
import { SUMMARY_MAX_CHARS } from '../story-ai';
import { pastOf } from './answer';
import { ownAction } from './round';
import { normaliseAction, splitSentences } from './text';

const FAILED =
  /\b(?:goes wrong|went wrong|does not work|did not work|nothing comes of it|nothing came of it|it fails|it failed|comes to nothing|came to nothing)\b/i;
const COSTLY = /\b(?:half works|half worked|a price|not cleanly|not for free|after a fashion|the cost)\b/i;
const WORKED =
  /\b(?:it works|it worked|pays off|paid off|luck holds|luck held|goes right|went right|there it is|there it was|talks, in the end|talked, in the end|comes round|came round|worth the asking|gives way|gave way)\b/i;
/** A mission done, as the chapters tell it ("…managed to find the bell", "the task to find the bell is complete"). */
const DONE = [
  /\bmanaged to ([^.;:—]+)/i,
  /\bthe task to ([^.;:—]+?) (?:is|was) complete/i,
  /\bthe mission to ([^.;:—]+?) (?:is|was) (?:over|finished)/i,
  /\btask — to ([^.;:—]+?) — (?:is|was) done/i,
];
/** A new place ("…come to X", "the way leads onward to X"). */
const REACHED =
  /\b(?:comes? to|came to|arrives? at|arrived at|reach(?:es|ed)?|finds? (?:your|their|his|her) way to|found (?:your|their|his|her) way to|onward to|onward and away to|leads on to|led on to)\s+((?:the\s+)?[A-Z][\p{L}'’-]+(?:\s+(?:of\s+(?:the\s+)?)?[A-Z][\p{L}'’-]+)*)/u;
const OPEN = 'Still open:';
const LINKS = ['Then', 'After that,', 'Next,', 'Later,', 'Soon after,', 'From there,'];
/** A stock aside a chapter may end its mission line on ("…at long last"): not part of the mission. */
const TRAILER = /\s+(?:at long, long last|at long last|at last|in the end|when all was said and done.*|though .*|and it felt .*|as the .*)$/i;

/** What one chapter did to the story, as facts. */
interface Beat {
  did: string | null;
  how: 'worked' | 'cost' | 'failed' | null;
  met: string[];
  done: string | null;
  reached: string | null;
}

function beatOf(c: PastChapter, hero: string, people: readonly string[], places: readonly string[] | null, known: string): Beat {
  const text = c.text.replace(/\n+/g, ' ');
  // What people say is theirs: the facts are in the narration.
  const told = splitSentences(text)
    .filter((s) => !/[“”"]/.test(s))
    .join(' ');
  // (A suggestion says "you": in the summary that is the hero.)
  // (A party round names each player's part: the hero's is what the hero did.)
  const own = c.playerChoice?.trim() ? ownAction(c.playerChoice, hero) : '';
  const action = own
    ? normaliseAction(own)
        .clause.replace(/\byour\b/gi, `${hero}'s`)
        .replace(/\byou\b/gi, hero)
    : '';
  const words = action.split(/\s+/).filter(Boolean);
  // The verb and what it was done to, up to where a purpose or a second action begins.
  const head = (
    words.length > 0
      ? (words
          .slice(0, 7)
          .join(' ')
          .split(/\s+(?:for|and|then|while|until|before|after|to see|to find|to learn|what|who|where|how|whether|if)\b/)[0] ?? '')
      : ''
  )
    // (Cut at seven words: no preposition or article left hanging.)
    .replace(/(?:\s+(?:with|to|of|at|in|by|from|into|the|a|an|your|their|his|her))+$/i, '');
  const did = head ? `${pastOf(head.split(/\s+/)[0] as string)}${head.slice(head.indexOf(' ') >= 0 ? head.indexOf(' ') : head.length)}` : null;
  const how = !did ? null : FAILED.test(told) ? 'failed' : COSTLY.test(told) ? 'cost' : WORKED.test(told) ? 'worked' : null;
  const met = people.filter((p) => new RegExp(`\\b${escape(p)}\\b`).test(text) && !new RegExp(`\\b${escape(p)}\\b`).test(known));
  let done: string | null = null;
  for (const re of DONE) {
    const m = re.exec(told);
    if (m) {
      done = (m[1] as string)
        .trim()
        .replace(TRAILER, '')
        .replace(/[\s,;:]+$/, '');
      break;
    }
  }
  const reached = REACHED.exec(told)?.[1] ?? null;
  // Where the world names its places, only those are reached (not "the Ashworths", a family).
  if (reached && places && !places.some((p) => p.replace(/^the /, '') === reached.replace(/^the /, ''))) return { did, how, met, done, reached: null };
  return { did, how, met, done, reached };
}

/**
 * A paragraph of the story so far: the previous one (less its "still open" ending), a sentence for
 * each chapter folded in, and what is still open (the current mission). When it outgrows its budget
 * the oldest sentences go, never the ending.
 */
export function offlineSummary(input: SummarizeInput): string {
  const maxChars = Math.min(SUMMARY_MAX_CHARS, Math.max(200, (input.maxTokens ?? 400) * 4));
  const hero = (input.story?.character.name ?? '').trim().split(/\s+/)[0] || 'The hero';
  const people = [
    ...new Set(
      (input.story?.cards ?? [])
        .filter((k) => k.kind === 'character')
        .map((k) => k.name.split(/\s+/).find((w) => /^[A-Z][a-z]/.test(w) && !TITLES.has(w)) ?? k.name),
    ),
  ].filter((p) => p !== hero);
  const previous = input.previousSummary
    .trim()
    .split(new RegExp(`\\s*${escape(OPEN)}`))[0]
    ?.trim();
  const parts: string[] = previous ? [previous] : [];
  let known = previous ?? '';
  input.chapters.forEach((c) => {
    const b = beatOf(c, hero, people, input.story?.world?.places?.length ? input.story.world.places : null, known);
    const link = parts.length === 0 ? '' : `${LINKS[splitSentences(known).length % LINKS.length] as string} `;
    const clauses: string[] = [];
    if (b.did) {
      const how =
        b.how === 'failed' ? ', but it came to nothing' : b.how === 'cost' ? ', and it worked at a price' : b.how === 'worked' ? ', and it worked' : '';
      clauses.push(`${hero} ${b.did}${how}`);
    }
    if (b.met.length > 0) clauses.push(`${clauses.length ? 'met' : `${hero} met`} ${listOf(b.met)}`);
    if (b.reached && !known.includes(b.reached)) clauses.push(`${clauses.length ? 'then reached' : `${hero} reached`} ${b.reached}`);
    let sentence = clauses.length > 0 ? `${link}${clauses.join(clauses.length > 2 ? ', ' : clauses[0]?.includes(', ') ? '; ' : ' and ')}.` : '';
    if (b.done) sentence += `${sentence ? ' ' : ''}${hero} managed to ${b.done}.`;
    // A chapter with nothing to report (the opening): where it happened.
    if (!sentence) {
      const where = placeIn(c);
      sentence = parts.length === 0 ? `${hero}'s story began${where ? ` in ${where}` : ''}.` : where ? `${link}${hero} was in ${where}.` : '';
    }
    if (sentence) {
      parts.push(upperFirst(sentence));
      known += ` ${sentence}`;
    }
  });
  const mission = input.story?.mission?.trim().replace(/[.!?]+$/, '');
  const open = mission ? `${OPEN} ${hero} still has to ${lowerFirst(mission)}.` : '';
  let body = parts.join(' ').replace(/\s+/g, ' ').trim();
  // Rolling: the newest events matter most for what happens next, so the oldest sentences go first.
  const room = maxChars - open.length - 1;
  if (body.length > room) {
    const cut = body.slice(body.length - room);
    const start = cut.search(/(?<=[.!?]["”]?)\s+\S/);
    body = (start >= 0 ? cut.slice(start) : cut).trim();
  }
  const summary = [body, open].filter(Boolean).join(' ');
  return summary || 'The story has only just begun.';
}

/** The last name the chapter's first line of narration gives (where the opening stands). */
function placeIn(c: PastChapter): string | null {
  const s = splitSentences(c.text.replace(/\n+/g, ' ')).find((x) => !/[“”"]/.test(x)) ?? '';
  const runs = [...s.matchAll(/\b(?:the\s+)?[A-Z][\p{L}'’-]+(?:\s+(?:of\s+(?:the\s+)?)?[A-Z][\p{L}'’-]+)*/gu)].filter((m) => (m.index ?? 0) > 0);
  return runs.length > 0 ? ((runs[runs.length - 1] as RegExpMatchArray)[0] as string) : null;
}

function listOf(xs: readonly string[]): string {
  return xs.length <= 1 ? (xs[0] ?? '') : `${xs.slice(0, -1).join(', ')} and ${xs[xs.length - 1] as string}`;
}

const TITLES = new Set(['Dr', 'Doctor', 'Director', 'Captain', 'Marshal', 'Vicar', 'Sheriff', 'Lord', 'Lady', 'Sir', 'Mother', 'Father', 'Sister', 'Brother']);

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function upperFirst(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

/** An objective goes on in lower case ("still has to find the bell"): it begins with a verb. */
function lowerFirst(s: string): string {
  return s.charAt(0).toLowerCase() + s.slice(1);
}
