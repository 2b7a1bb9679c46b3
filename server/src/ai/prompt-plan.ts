/**
 * What a chapter prompt holds, chosen by priority within the tier's context (issue 30, item 1).
 *
 * The prompt is a fixed part — the rules, the world, the character, the player's plot essentials,
 * every pinned story card with its description, and the turn (state, the chapter's rules, the
 * author's note, the action) — and shares of what is left:
 *
 *   memory  (SHARES.memory):  the memories the bank retrieved, then the cards the chapter triggers,
 *                             then the names of other people met (capped, merged with the cards);
 *   summary (SHARES.summary): the rolling summary of older chapters;
 *   history (the rest):       the previous chapter's tail first (guaranteed), then the whole previous
 *                             chapter, then older ones, newest first.
 *
 * Memory gets its share before verbatim history, and a share one part leaves unused flows to the
 * others. On a small tier the rules are compact and the character's description is cut before any
 * memory is. What could not be sent is reported with the reason (the "what the storyteller
 * remembered" view), never dropped silently. The engine folds older chapters into the summary with
 * the same shares (context-budget.ts planFold), so a summary is folded only when it will be sent.
 */
import { chapterTokens, estimateTokens } from './context-budget';
import type { ChapterInput, PastChapter, PromptCard, PromptMemory, PromptOmission, PromptReport, PromptSection, WorldMaterial } from './story-ai';

/** Shares of what the fixed part leaves (see above). */
const SHARES = { memory: 0.3, summary: 0.25 } as const;
/** The previous chapter's last lines are always sent (what the chapter continues from), at least this much. */
export const PREVIOUS_TAIL_TOKENS = 150;
/** The summary's share is never below this (a summary of a few lines still orients the storyteller). */
const SUMMARY_MIN_TOKENS = 80;
/** Names of other people met, at most (the rest are in the summary and the memories). */
const PEOPLE_MAX = 12;
/** A character description is cut to this many characters before any memory is left out. */
const DESCRIPTION_MIN_CHARS = 300;
/** The part of the prompt's budget the summary, the memories and older history get at least, before the description is cut. */
const MEMORY_FLOOR = 0.25;

/** How a chapter call is shaped on a tier: how long the prose is, what the answer needs, how compact the rules are. */
export interface ChapterProfile {
  maxContextTokens: number;
  /** Words the chapter's prose should have. */
  words: [number, number];
  /** max_tokens of the chapter call: the prose, the next actions and the chapter's record. */
  outputTokens: number;
  /** Compact rules on small tiers (the full guidance costs ~350 tokens more). */
  compact: boolean;
}

/** Smallest context a chapter can be written in. */
const MIN_CONTEXT_TOKENS = 1024;
/** The next actions and the chapter's record (JSON) after the prose. */
const RECORD_TOKENS = 330;

export function chapterProfile(maxContextTokens: number): ChapterProfile {
  const max = Math.max(MIN_CONTEXT_TOKENS, maxContextTokens);
  const words: [number, number] = max <= 2500 ? [120, 220] : max <= 8000 ? [180, 350] : [200, 450];
  // ≈ 1.35 tokens a word of English prose, and room for a closing paragraph.
  const prose = Math.ceil(words[1] * 1.35) + 40;
  return { maxContextTokens: max, words, outputTokens: prose + RECORD_TOKENS, compact: max < 4096 };
}

/** A story card as one prompt line: name (kind; aka …), role — description [status]. */
export function cardLine(card: PromptCard): string {
  const aka = card.aliases.length ? `; also called ${card.aliases.join(', ')}` : '';
  const role = card.role ? ` ${card.role} —` : ' —';
  const description = card.description.replace(/\s+/g, ' ').trim();
  return `- ${card.name} (${card.kind}${aka})${role}${description ? ` ${description}` : ''}${card.status ? ` [now: ${card.status}]` : ''}`;
}

/** A retrieved memory as one prompt line. */
export function memoryLine(m: PromptMemory): string {
  const when = m.chapterNumber > 0 ? `chapter ${m.chapterNumber}` : 'noted by the player';
  return `- (${when}; ${m.kind}) ${m.text}`;
}

export interface PlannedPrompt {
  characterDescription: string;
  pinnedCards: PromptCard[];
  memories: PromptMemory[];
  /** Cards the chapter triggered, beyond the pinned ones. */
  cards: PromptCard[];
  /** Other people met, without a card in this prompt: name and role only. */
  people: Array<{ name: string; role: string | null }>;
  summary: string;
  /** Oldest first; the previous chapter (last) may be cut to its last lines. */
  recentChapters: PastChapter[];
  omitted: PromptOmission[];
  /** Tokens the planned parts use (the fixed part's estimate included). */
  plannedTokens: number;
  /** Tokens available to the prompt (the context minus the answer's max_tokens). */
  budget: number;
}

/**
 * Chooses what a chapter prompt holds. `fixedTokens` counts everything but the character's
 * description and the parts chosen here, as the caller renders it (rules, world, turn, essentials).
 */
export function planChapterPrompt(input: ChapterInput, profile: ChapterProfile, fixedTokens: number): PlannedPrompt {
  const budget = profile.maxContextTokens - profile.outputTokens;
  const omitted: PromptOmission[] = [];
  const all = input.storyCards ?? [];
  const pinned = all.filter((c) => c.pinned);
  const triggered = all.filter((c) => !c.pinned);
  let description = input.character.description;
  const cardTokens = (c: PromptCard) => estimateTokens(cardLine(c)) + 1;
  let pinnedCards = [...pinned];
  const fixed = () => fixedTokens + estimateTokens(description) + pinnedCards.reduce((n, c) => n + cardTokens(c), 0);

  // The history the chapter continues from: the previous chapter's tail is guaranteed.
  const recent = [...input.recentChapters];
  const previous = recent.pop() ?? null;
  const tail = previous ? cutToTail(previous, PREVIOUS_TAIL_TOKENS) : null;

  // When even the fixed part and the tail do not fit: cut the character's description, then the
  // pinned cards' descriptions (their names and roles stay), then the tail — never the world, the
  // essentials or the action.
  let rest = budget - fixed() - (tail ? chapterTokens(tail) : 0);
  // The character's description is cut (to DESCRIPTION_MIN_CHARS at least) when otherwise the summary
  // and the memories would not get MEMORY_FLOOR of the budget: on a small tier they matter more.
  const floor = Math.floor(budget * MEMORY_FLOOR);
  if (rest < floor && description.length > DESCRIPTION_MIN_CHARS) {
    const over = floor - rest;
    const keep = Math.max(DESCRIPTION_MIN_CHARS, description.length - over * 4 - 16);
    omitted.push({
      section: 'character',
      what: "The end of the character's description",
      tokens: estimateTokens(description.slice(keep)),
      reason: 'cut to fit',
    });
    description = `${description.slice(0, keep).trimEnd()}…`;
    rest = budget - fixed() - (tail ? chapterTokens(tail) : 0);
  }
  for (let i = pinnedCards.length - 1; i >= 0 && rest < 0; i--) {
    const c = pinnedCards[i]!;
    if (!c.description) continue;
    const short = { ...c, description: firstSentence(c.description) };
    if (short.description === c.description) continue;
    omitted.push({
      section: 'pinned_cards',
      what: `The rest of ${c.name}'s card`,
      tokens: cardTokens(c) - cardTokens(short),
      reason: 'cut to fit: only its first sentence was sent',
    });
    pinnedCards = pinnedCards.map((x, k) => (k === i ? short : x));
    rest = budget - fixed() - (tail ? chapterTokens(tail) : 0);
  }
  let previousSent = tail;
  if (rest < 0 && tail && previous) {
    previousSent = cutToTail(previous, Math.max(40, chapterTokens(tail) + rest));
    rest = budget - fixed() - chapterTokens(previousSent);
  }
  rest = Math.max(0, rest);

  // Shares of what is left.
  const summaryShare = Math.max(Math.min(SUMMARY_MIN_TOKENS, rest), Math.floor(rest * SHARES.summary));
  const memoryBudget = Math.min(Math.floor(rest * SHARES.memory), rest - summaryShare);
  let memoryShare = memoryBudget;

  const summary = fit(input.summary, summaryShare);
  if (summary.length < input.summary.length) {
    omitted.push({
      section: 'summary',
      what: 'The start of the summary',
      tokens: estimateTokens(input.summary) - estimateTokens(summary),
      reason: 'cut to fit',
    });
  }
  const summaryUsed = estimateTokens(summary);

  // Retrieved memories first, up to two thirds of the share (pinned ones always), then the cards
  // the chapter triggers, then more memories with what the cards left.
  const memories: PromptMemory[] = [];
  const candidates = [...(input.memories ?? [])];
  const takeMemories = (limit: number) => {
    while (candidates.length) {
      const m = candidates[0]!;
      const n = estimateTokens(memoryLine(m)) + 1;
      if (n > memoryShare - limit && !(m.pinned && n <= memoryShare)) return;
      memories.push(m);
      memoryShare -= n;
      candidates.shift();
    }
  };
  takeMemories(Math.floor(memoryShare / 3));
  const cards: PromptCard[] = [];
  for (const c of triggered) {
    const n = cardTokens(c);
    if (n <= memoryShare) {
      cards.push(c);
      memoryShare -= n;
    } else omitted.push({ section: 'cards', what: `${c.name}'s card`, tokens: n, reason: 'triggered, but no room left' });
  }
  takeMemories(0);
  for (const m of candidates) {
    omitted.push({
      section: 'memories',
      what: `“${m.text}” (${m.chapterNumber ? `chapter ${m.chapterNumber}` : 'noted by the player'})`,
      tokens: estimateTokens(memoryLine(m)) + 1,
      reason: 'less relevant than the memories sent; no room left',
    });
  }
  const withCard = new Set([...pinnedCards, ...cards].flatMap((c) => [c.name.toLowerCase(), ...c.aliases.map((a) => a.toLowerCase())]));
  const people: PlannedPrompt['people'] = [];
  for (const p of input.castList ?? []) {
    if (withCard.has(p.name.toLowerCase())) continue;
    const n = estimateTokens(p.role ? `${p.name} (${p.role}), ` : `${p.name}, `);
    if (people.length >= PEOPLE_MAX || n > memoryShare) {
      omitted.push({
        section: 'people',
        what: p.name,
        tokens: n,
        reason: people.length >= PEOPLE_MAX ? `only the ${PEOPLE_MAX} met most recently are named` : 'no room left',
      });
      continue;
    }
    people.push(p);
    memoryShare -= n;
  }

  // History: whatever is left — the previous chapter whole if it fits, then older chapters, newest first.
  const memoryUsed = memoryBudget - memoryShare;
  let historyLeft = rest - summaryUsed - memoryUsed;
  const chapters: PastChapter[] = [];
  if (previous && previousSent) {
    const whole = chapterTokens(previous) - chapterTokens(previousSent);
    if (whole <= historyLeft) {
      chapters.push(previous);
      historyLeft -= whole;
    } else {
      chapters.push(previousSent);
      omitted.push({ section: 'history', what: 'The start of the previous chapter', tokens: whole, reason: 'only its last lines fit' });
    }
  }
  for (let i = recent.length - 1; i >= 0; i--) {
    const ch = recent[i]!;
    const n = chapterTokens(ch);
    if (ch.text && n <= historyLeft) {
      chapters.unshift(ch);
      historyLeft -= n;
    } else if (ch.text) {
      // This one and every older one: recent[k] is chapter (chapterNumber − 1 − (recent.length − k)).
      for (let k = 0; k <= i; k++) {
        if (!recent[k]!.text) continue;
        omitted.push({
          section: 'history',
          what: `Chapter ${input.chapterNumber - 1 - (recent.length - k)} word for word`,
          tokens: chapterTokens(recent[k]!),
          reason: 'no room for it word for word: the summary takes it in after this chapter, and its memories stay in the bank',
        });
      }
      break;
    }
  }

  // Counted as allocated, item by item (a joined list counts a little less).
  const plannedTokens = fixed() + summaryUsed + memoryUsed + chapters.reduce((n, c) => n + chapterTokens(c), 0);
  return { characterDescription: description, pinnedCards, memories, cards, people, summary, recentChapters: chapters, omitted, plannedTokens, budget };
}

/** The chapter cut to about `tokens` of its last lines (from a sentence start). */
function cutToTail(ch: PastChapter, tokens: number): PastChapter {
  if (chapterTokens(ch) <= tokens) return ch;
  const keep = Math.max(0, tokens * 4 - 16);
  const text = ch.text.slice(ch.text.length - keep);
  const boundary = text.search(/[.!?…]["”’']?\s+\S/);
  const from = boundary >= 0 && boundary < text.length / 2 ? text.slice(boundary).replace(/^[.!?…]["”’']?\s+/, '') : text.trimStart();
  return { ...ch, text: `…${from}` };
}

/** The end of `text` within `tokens` (a summary's end is its most recent part). */
function fit(text: string, tokens: number): string {
  if (estimateTokens(text) <= tokens) return text;
  const keep = Math.max(0, tokens * 4 - 16);
  const tail = text.slice(text.length - keep);
  const boundary = tail.search(/[.!?]\s+\S/);
  return boundary >= 0 && boundary < tail.length / 2 ? tail.slice(boundary + 1).trimStart() : tail.trimStart();
}

function firstSentence(s: string): string {
  const m = /^.*?[.!?](\s|$)/.exec(s.replace(/\s+/g, ' ').trim());
  return m ? m[0].trim() : s;
}

// ---------------------------------------------------------------------------------------------
// The engine's side: folding older chapters into the summary with the same shares.

/** Fraction of the verbatim share that remains used right after a fold (hysteresis). */
export const FOLD_TARGET = 0.6;

export interface FoldPlanInput {
  /** Every chapter of the storyline, oldest first. */
  chapters: PastChapter[];
  /** How many of the oldest chapters the stored summary already covers. */
  summarizedCount: number;
  maxContextTokens: number;
  /** Tokens of the prompt's fixed part (see fixedChapterTokens). */
  fixedTokens: number;
}
export interface FoldPlan {
  /** Indices (into `chapters`) to fold into the summary now, oldest first; empty when none. */
  foldFrom: number;
  foldTo: number;
  /** Index of the first chapter to send verbatim after folding (== new summarizedCount). */
  recentStart: number;
  /** Token budget for the summary text: its share of the prompt; pass it to summarize({ maxTokens }). */
  summaryMaxTokens: number;
  /** Token budget left for verbatim chapters. */
  recentBudget: number;
}

/**
 * Pure: decides which chapters must be folded into the rolling summary, with the prompt's own shares
 * (prompt-plan.ts): the summary is folded to its share, so it is always sent, and chapters leave the
 * verbatim window only when they no longer fit the history's share. The caller summarises
 * `chapters.slice(foldFrom, foldTo)` (if non-empty) into the stored summary, stores `recentStart` as
 * the new summarizedCount, and sends `chapters.slice(recentStart)`.
 */
export function planFold(input: FoldPlanInput): FoldPlan {
  const profile = chapterProfile(input.maxContextTokens);
  const rest = Math.max(0, profile.maxContextTokens - profile.outputTokens - input.fixedTokens);
  const summaryMaxTokens = Math.max(Math.min(SUMMARY_MIN_TOKENS, rest), Math.floor(rest * SHARES.summary));
  const recentBudget = Math.max(PREVIOUS_TAIL_TOKENS, rest - summaryMaxTokens - Math.floor(rest * SHARES.memory));
  const start = Math.min(Math.max(0, input.summarizedCount), input.chapters.length);
  const sizes = input.chapters.map(chapterTokens);
  let used = 0;
  for (let i = start; i < sizes.length; i++) used += sizes[i] ?? 0;

  let recentStart = start;
  if (used > recentBudget) {
    // Overflow: fold the oldest verbatim chapters until we are at or under the hysteresis target.
    // The newest chapter is always kept verbatim: "continue from the previous chapter" needs its
    // exact last lines.
    const target = recentBudget * FOLD_TARGET;
    while (recentStart < sizes.length - 1 && used > target) {
      used -= sizes[recentStart] ?? 0;
      recentStart++;
    }
  }
  return { foldFrom: start, foldTo: recentStart, recentStart, summaryMaxTokens, recentBudget };
}

/** Tokens of a pinned story card's prompt line (see prompt-plan.ts cardLine). */
function cardTokens(card: PromptCard): number {
  return estimateTokens(`${card.name} ${card.kind} ${card.aliases.join(', ')} ${card.role ?? ''} ${card.description} ${card.status ?? ''}`) + 8;
}

/**
 * Tokens of a chapter prompt's fixed part, as the engine estimates it for its fold plan: the rules
 * (compact on small tiers), world, character, the turn's state and action, the plot essentials and
 * the pinned cards. Memories, triggered cards and the people met come from the memory share.
 */
export function fixedChapterTokens(
  input: Pick<
    ChapterInput,
    | 'worldDescription'
    | 'character'
    | 'mission'
    | 'setting'
    | 'action'
    | 'plotEssentials'
    | 'authorsNote'
    | 'storyCards'
    | 'continueFrom'
    | 'maxContextTokens'
    | 'world'
  >,
): number {
  const c = input.character;
  const compact = chapterProfile(input.maxContextTokens).compact;
  const rules = compact ? COMPACT_INSTRUCTIONS_TOKENS : INSTRUCTIONS_TOKENS;
  return (
    rules +
    estimateTokens(input.worldDescription) +
    worldMaterialTokens(input.world, compact) +
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
    (input.storyCards ?? []).filter((k) => k.pinned).reduce((n, card) => n + cardTokens(card), 0) +
    estimateTokens(input.continueFrom ?? '') +
    40
  );
}

/** The heading the world's material is sent under (prompts.ts), in a block like every player text. */
export const WORLD_MATERIAL_HEADING = "THIS WORLD'S OWN MATERIAL (draw the story from it):";

/** Tokens the world's material adds to a chapter prompt: heading and block delimiters too. */
function worldMaterialTokens(world: WorldMaterial | undefined, compact: boolean): number {
  const material = worldMaterialText(world, compact);
  return material ? estimateTokens(`${WORLD_MATERIAL_HEADING}\n<<<\n${material}\n>>>`) : 0;
}

/**
 * The world's own material as the model reads it (issue 32, item 1): its places, factions, people and
 * dangers to draw on, its tone, what cannot happen in it, and the player's answers as threads to come
 * back to. Part of the fixed prompt (it does not change during a story). Empty without material. On a
 * small context (compact) the lists are shorter and the questions are left out.
 */
export function worldMaterialText(world: WorldMaterial | undefined, compact: boolean): string {
  if (!world) return '';
  const n = compact ? 4 : 8;
  const list = (label: string, xs: readonly string[] | undefined) => (xs?.length ? `${label}: ${xs.slice(0, n).join('; ')}` : '');
  const answers = (world.answers ?? []).filter((a) => a.answer.trim());
  return [
    list('Places', world.places),
    list('Factions', world.factions),
    list('People', world.people),
    list('Dangers', world.threats),
    list('Tone', world.tone),
    list('Never in this world', world.constraints),
    answers.length
      ? `The player's answers when the hero was made (the hero's own threads: bring them back in the story, never quote them):\n${answers
          .slice(0, 6)
          .map((a) => (compact ? `- ${a.answer}` : `- ${a.question} — ${a.answer}`))
          .join('\n')}`
      : '',
  ]
    .filter(Boolean)
    .join('\n');
}

/** The rules and labels around the story's own text (measured on the OpenAI prompt: prompts.ts). */
const INSTRUCTIONS_TOKENS = 720;
const COMPACT_INSTRUCTIONS_TOKENS = 380;

/**
 * What a storyteller without a context limit (the offline one) was given, section by section, for
 * "what the storyteller remembered": everything the engine chose, nothing left out for room.
 */
export function givenReport(input: ChapterInput, provider: 'offline', model: string): PromptReport {
  const sections: PromptSection[] = [];
  const add = (key: string, title: string, text: string) => {
    if (text.trim()) sections.push({ key, title, tokens: estimateTokens(text), text });
  };
  const cards = input.storyCards ?? [];
  add('world', 'World', input.worldDescription);
  add('character', 'Player character', `${input.character.name}\n${input.character.description}`);
  add('essentials', 'Plot essentials', input.plotEssentials ?? '');
  add(
    'pinned_cards',
    'Pinned story cards',
    cards
      .filter((c) => c.pinned)
      .map(cardLine)
      .join('\n'),
  );
  add('summary', 'Story so far (summary)', input.summary);
  add('memories', 'Memories from earlier chapters', (input.memories ?? []).map(memoryLine).join('\n'));
  add(
    'cards',
    'Story cards this chapter calls up',
    cards
      .filter((c) => !c.pinned)
      .map(cardLine)
      .join('\n'),
  );
  add('people', 'Other people met', (input.castList ?? []).map((p) => (p.role ? `${p.name} (${p.role})` : p.name)).join(', '));
  add(
    'history',
    'Recent chapters, word for word',
    input.recentChapters
      .filter((c) => c.text)
      .map((c) => c.text)
      .join('\n\n'),
  );
  add(
    'state',
    'Where the story stands',
    [input.setting ? `Setting: ${input.setting}` : '', `Mission: ${input.mission ?? 'none'}`, `Stats: ${JSON.stringify(input.character.stats)}`]
      .filter(Boolean)
      .join('\n'),
  );
  add('authors_note', "Author's note", input.authorsNote ?? '');
  add('action', 'The action', input.action ?? 'The opening of the story.');
  const promptTokens = sections.reduce((n, s) => n + s.tokens, 0);
  return { provider, model, maxContextTokens: input.maxContextTokens, reservedTokens: 0, promptTokens, sections, omitted: [] };
}
