/**
 * The one interface every generation in Taleforge goes through (SPEC §7: descriptions, questions,
 * images, characters, chapters, missions, styles, summaries). Two implementations exist: the offline
 * storyteller (no network, deterministic) and the OpenAI-compatible provider. Services depend on this
 * file only; `createStoryAI` in ./index.ts picks the implementation from configuration.
 *
 * Every result type here is backed by a zod schema, and both providers run their output through it
 * before returning: model output is untrusted, and the offline storyteller is held to the same bar so
 * a bug in it can never corrupt a storyline either.
 */
import { z } from 'zod';

// ---------------------------------------------------------------------------------------------
// Stats

/**
 * Six stats on one scale: 1–20, where 10 is a capable adult, 14 is notably gifted, 18+ is legendary.
 * Starting characters land between 4 and 17; chapters raise a stat by 1–3 at a time, capped at 20.
 */
export const STAT_NAMES = ['strength', 'agility', 'endurance', 'intellect', 'wisdom', 'charisma'] as const;
export type StatName = (typeof STAT_NAMES)[number];
export const STAT_MIN = 1;
export const STAT_MAX = 20;

const statValue = z.number().int().min(STAT_MIN).max(STAT_MAX);
const statsSchema = z.object({
  strength: statValue,
  agility: statValue,
  endurance: statValue,
  intellect: statValue,
  wisdom: statValue,
  charisma: statValue,
});
export type Stats = z.infer<typeof statsSchema>;

/** Plain text only: chapter and description text is rendered as text, never as HTML. */
const plainText = (min: number, max: number) =>
  z
    .string()
    .trim()
    .min(min)
    .max(max)
    .refine((s) => !/[<>]/.test(s), 'must be plain text (no angle brackets)');

const shortLine = (max: number) => plainText(1, max).refine((s) => !s.includes('\n'), 'must be one line');

// ---------------------------------------------------------------------------------------------
// Worlds

import { CHAPTER_TEXT_MAX, WORLD_DESCRIPTION_MAX } from '../modules/shared/limits';

export interface WorldDescriptionInput {
  /** The player's idea: a few words or a draft description. May be empty (we invent one). */
  idea: string;
  /** Upper bound on the result length in characters; clamped to [200, 1200]. */
  maxLength?: number;
}
export const worldDescriptionSchema = z.object({ description: plainText(40, WORLD_DESCRIPTION_MAX) });
export type WorldDescriptionResult = z.infer<typeof worldDescriptionSchema>;

export interface WorldQuestionsInput {
  worldDescription: string;
}
export const worldQuestionsSchema = z.object({
  questions: z
    .array(shortLine(200).refine((q) => q.endsWith('?'), 'a question ends with "?"'))
    .min(3)
    .max(5),
});
export type WorldQuestionsResult = z.infer<typeof worldQuestionsSchema>;

export interface WorldImageInput {
  worldDescription: string;
  /** Same description + seed → same offline picture. */
  seed?: number;
}
export interface WorldImageResult {
  mime: 'image/jpeg' | 'image/png';
  bytes: Buffer;
  width: number;
  height: number;
  /** 'procedural' when the offline art was used (offline mode, or the images API failed). */
  source: 'model' | 'procedural';
}

// ---------------------------------------------------------------------------------------------
// Characters

interface CharacterProfileSource {
  skills: string;
  personalityTraits: string;
  freeTime: string;
  pastTimes?: string;
}
export type CharacterInput =
  | { worldDescription: string; questions: string[]; answers: string[]; username: string; seed?: number }
  | { worldDescription: string; profile: CharacterProfileSource; username: string; seed?: number };

const specialSchema = z.object({ name: shortLine(60), description: plainText(10, 400) });
export const characterSchema = z.object({
  username: shortLine(60),
  stats: statsSchema,
  description: plainText(80, 3000),
  traits: z.array(shortLine(40)).min(3).max(5),
  strengths: z.array(shortLine(120)).min(2).max(5),
  weaknesses: z.array(shortLine(120)).min(1).max(4),
  special: specialSchema,
});
export type CharacterResult = z.infer<typeof characterSchema>;

// ---------------------------------------------------------------------------------------------
// Chapters

const READING_LEVEL_MIN = 1;
const READING_LEVEL_MAX = 12;

export interface ChapterCharacter {
  name: string;
  description: string;
  stats: Record<string, number>;
  traits: string[];
  strengths?: string[];
  weaknesses?: string[];
  special?: { name: string; description: string } | null;
}
export interface PastChapter {
  text: string;
  /** The action the player took before this chapter was written (null for the first chapter). */
  playerChoice?: string | null;
}
/** What a story card is about (AI Dungeon's story cards, SillyTavern's world info entries). */
export const STORY_CARD_KINDS = ['character', 'place', 'item', 'faction', 'lore'] as const;
export type StoryCardKind = (typeof STORY_CARD_KINDS)[number];

/** A story card as the prompt gets it: chosen by the engine (pinned, or triggered by a name). */
export interface PromptCard {
  kind: StoryCardKind;
  name: string;
  aliases: string[];
  description: string;
  /** For people: what they are in the story ("innkeeper", "rival"); else null. */
  role: string | null;
  /** Where they stand now ("ally, wounded", "missing"); else null. */
  status: string | null;
  pinned: boolean;
}

/** The narration's person and tense; second person present by default, as AI Dungeon does. */
export const POINTS_OF_VIEW = ['second', 'first', 'third'] as const;
export type PointOfView = (typeof POINTS_OF_VIEW)[number];

// ---------------------------------------------------------------------------------------------
// Memory, stakes and the world's own material (issues 30, 31, 32): what the engine decides or
// keeps, which both storytellers read. The engine fills these; a storyteller narrates them and may
// not contradict them.

/** What a memory of the memory bank records. */
export const MEMORY_KINDS = ['event', 'fact', 'promise', 'place'] as const;
export type MemoryKind = (typeof MEMORY_KINDS)[number];
/** A short memory the bank retrieved for this chapter (by relevance to the action and the latest text). */
export interface PromptMemory {
  kind: MemoryKind;
  text: string;
  /** The chapter (1-based) it comes from. */
  chapterNumber: number;
  /** The player pinned it: it is sent every chapter. */
  pinned: boolean;
}

/** How a check came out, decided by the engine's roll before a word is written. */
export const CHECK_OUTCOMES = ['critical_success', 'success', 'success_at_cost', 'failure', 'critical_failure'] as const;
export type CheckOutcomeKind = (typeof CHECK_OUTCOMES)[number];
/** How hard the story is on the hero (Story Memory): Story never fails a routine action; Hard fails more and hurts more. */
export const DIFFICULTIES = ['story', 'balanced', 'hard'] as const;
export type Difficulty = (typeof DIFFICULTIES)[number];

/** A check the engine rolled for the player's action (null in ChapterInput: a routine action, no roll). */
export interface CheckOutcome {
  /** What the action attempts, as the engine read it ("climb the sea wall"). */
  attempt: string;
  stat: StatName;
  /** The number to reach (a d20 plus the modifiers). */
  difficulty: number;
  /** The d20 as it fell (1–20). */
  roll: number;
  /** From the stat (see stakes: (stat − 10) / 2, rounded down). */
  modifier: number;
  /** From an item the hero used, 0 without one. */
  itemBonus: number;
  item: string | null;
  total: number;
  outcome: CheckOutcomeKind;
  /** Health the outcome costs the hero, decided with it (0 for a clean success). */
  healthLost: number;
  /** The item is used up by it (a consumable). */
  itemUsedUp: boolean;
}

/**
 * A party companion's check (issue 34, step 7): another player's own part of the round, judged on
 * its own and rolled on that player's party stats by the engine before the chapter. The chapter's
 * `check` stays the hero's (the story character's) own.
 */
export interface CompanionCheck {
  /** The companion's character name, as the round's action names them. */
  name: string;
  check: CheckOutcome;
}

/** Something the hero carries (an item card held by the hero). */
export interface HeroItem {
  name: string;
  description: string;
}

/**
 * A world's own material (kept with the story: Character.worldSnapshot), read from its description and
 * questions, and the player's answers at spawn: what the story is made of. Optional fields are empty
 * when the world says nothing of them.
 */
export interface WorldMaterial {
  name: string;
  /** The player's answers to the world's questions when the hero was made: threads to return to. */
  answers?: Array<{ question: string; answer: string }>;
  places?: string[];
  factions?: string[];
  people?: string[];
  threats?: string[];
  /** Tone and style words ("grim", "whimsical"). */
  tone?: string[];
  /** What cannot happen in this world (no sky under 40 km of ice, no magic in a hard-sci-fi world). */
  constraints?: string[];
}

export interface ChapterInput {
  worldDescription: string;
  character: ChapterCharacter;
  /** Current mission objective; null when the player has none. */
  mission: string | null;
  /**
   * How many chapters the current mission has run before this one (from the stored missions, not
   * from what fits the prompt); missions should resolve within about 3–8 chapters. Unknown: omitted.
   */
  missionAge?: number;
  /**
   * How many missions the story has completed before this chapter (from the stored missions). The
   * offline storyteller chains them into arcs toward a larger goal (offline/arc.ts). Unknown: omitted.
   */
  missionsCompleted?: number;
  /** The current setting text (from an earlier `newSetting`), if any. */
  setting?: string | null;
  /** Rolling summary of chapters older than `recentChapters` (see context-budget.ts). */
  summary: string;
  /** The most recent chapters, oldest first, verbatim. */
  recentChapters: PastChapter[];
  /** 1-based number of the chapter being written (total chapters so far + 1). */
  chapterNumber: number;
  /** What the player chose or typed; null/empty for the opening chapter. */
  action: string | null;
  /** 1 (early reader) … 12 (adult literary). Changes sentence length and vocabulary. */
  readingLevel: number;
  seed: number;
  /** The tier's context budget; the provider keeps the prompt within it. */
  maxContextTokens: number;
  /** The player's plot essentials: facts that always hold (story memory). */
  plotEssentials?: string;
  /** The player's author's note: style and direction for this chapter. */
  authorsNote?: string;
  /** Story cards for this chapter, most important first (pinned, then triggered); trimmed from the end to fit. */
  storyCards?: PromptCard[];
  /** Narration person; 'second' when not given. */
  pointOfView?: PointOfView;
  /**
   * Every person the story has a card for (name and role, most recently seen first): a few tokens
   * each, so names and roles stay consistent even for people whose card is not triggered.
   */
  castList?: Array<{ name: string; role: string | null }>;
  /** Memories the bank retrieved for this chapter, pinned first then most relevant (issue 30). */
  memories?: PromptMemory[];
  /** The check the engine rolled for the action, before any prose; null: a routine action (issue 31). */
  check?: CheckOutcome | null;
  /**
   * A party round: the other players' checks, each rolled on that player's own stats (their parts of
   * `action` that were routine have none). Narrate each outcome exactly, for whom it is.
   */
  companionChecks?: CompanionCheck[];
  /** What the hero carries; the storyteller cannot use anything else (issue 31). */
  inventory?: HeroItem[];
  /** The hero's health before this chapter, after the check's cost (issue 31). */
  health?: { current: number; max: number };
  /** Health reached 0: this chapter is the hero's defeat (not death), then the player chooses (issue 31). */
  defeat?: boolean;
  difficulty?: Difficulty;
  /** The world's own material and the player's answers (issue 32). */
  world?: WorldMaterial;
  /** Every objective the story has had (a new mission is never one of them; issue 32). */
  pastMissions?: string[];
  /** A new take of the latest chapter: the opening of the take it replaces, so this one differs from it. */
  differentFrom?: string;
  /**
   * Continue (the player asked the storyteller to go on with the latest chapter): that chapter's last
   * lines. The answer's `text` is only the new part, picking up exactly where these stop; its choices,
   * stat increases, mission and cast are for the chapter as a whole. `action` is still the action the
   * chapter answers.
   */
  continueFrom?: string;
}

/** Most people a chapter reports in its cast (the chapter's named cast, not a crowd). */
export const CAST_MAX = 8;
/** Most memories one chapter leaves in the bank. */
export const MEMORIES_PER_CHAPTER_MAX = 5;
/**
 * Someone who appears in a chapter, besides the player character: the engine keeps a story card per
 * person from these (story-cards.ts), and REST answers them as `updatedCurrentCharacters`.
 */
const castMemberSchema = z.object({
  name: shortLine(60),
  role: shortLine(80).nullable(),
  description: plainText(1, 400).nullable(),
  status: shortLine(80).nullable(),
});
export type CastMember = z.infer<typeof castMemberSchema>;
const statIncreasesSchema = z.partialRecord(z.enum(STAT_NAMES), z.number().int().min(1).max(3));
export const chapterResultSchema = z.object({
  text: plainText(200, CHAPTER_TEXT_MAX),
  choices: z
    .array(shortLine(160))
    .min(3)
    .max(4)
    .refine((c) => new Set(c.map((x) => x.toLowerCase())).size === c.length, 'choices must be distinct'),
  statIncreases: statIncreasesSchema,
  /** Text of the new setting when the story moved somewhere new; null otherwise. */
  newSetting: plainText(20, 800).nullable(),
  missionCompleted: z.boolean(),
  /** The next objective when the mission completed (or when there was none); null otherwise. */
  newMission: shortLine(240).nullable(),
  /** The named people in the chapter other than the player character (may be empty). */
  cast: z.array(castMemberSchema).max(CAST_MAX),
  /**
   * A few short memories the chapter leaves for the memory bank: what happened, facts learned,
   * promises made, where things are (issue 30). Missing in older answers: none.
   */
  memories: z
    .array(z.object({ kind: z.enum(MEMORY_KINDS), text: shortLine(200) }))
    .max(MEMORIES_PER_CHAPTER_MAX)
    .default([]),
  /** Things the hero came to carry in this chapter (issue 31). */
  itemsGained: z
    .array(z.object({ name: shortLine(60), description: plainText(1, 300) }))
    .max(3)
    .default([]),
  /** Things the hero no longer carries: lost, given away or used up in the story (names of carried items; issue 31). */
  itemsLost: z.array(shortLine(60)).max(3).default([]),
  /** Health the hero got back by rest or help in this chapter (issue 31; the engine bounds it). */
  healthRestored: z.number().int().min(0).max(10).default(0),
  /**
   * The storyteller's proposal for its next actions that could fail (issue 31): the choice's number
   * (1-based), the stat it tests and its difficulty. Routine actions are left out. The engine rolls
   * with it, within bounds, when the player picks that action; typed actions are judged by its rules.
   */
  choiceChecks: z
    .array(z.object({ choice: z.number().int().min(1).max(4), stat: z.enum(STAT_NAMES), difficulty: z.number().int().min(8).max(20) }))
    .max(4)
    .default([]),
});
export type ChapterResult = z.infer<typeof chapterResultSchema>;

/** One part of what a chapter's storyteller was given ("what the storyteller remembered"). */
export interface PromptSection {
  /** Stable key: rules, world, world_material, character, essentials, pinned_cards, summary, memories, cards, people, history, turn. */
  key: string;
  title: string;
  tokens: number;
  /** The section exactly as it was sent (the offline storyteller: what it read). */
  text: string;
}
/** Something that was not sent, and why. */
export interface PromptOmission {
  section: string;
  what: string;
  tokens: number;
  reason: string;
}
/** What a chapter was written from, section by section, within the tier's context. */
export interface PromptReport {
  provider: 'openai' | 'offline';
  model: string;
  maxContextTokens: number;
  /** Kept free for the answer (the prose call's max_tokens). */
  reservedTokens: number;
  /** The whole prompt, as counted (the tokenizer in use, else the estimate). */
  promptTokens: number;
  sections: PromptSection[];
  omitted: PromptOmission[];
}

/**
 * A chapter stream yields `delta` events as prose is written (persist them as they come: a dropped
 * client connection must not lose the chapter) and exactly one `final` event last. The final result
 * is schema-validated and authoritative: its `text` may differ from the concatenated deltas when the
 * model's output had to be repaired, so the caller should overwrite the provisional text with it.
 */
export type ChapterEvent =
  | { type: 'delta'; text: string }
  /**
   * The suggested actions written so far, the whole list each time (it grows as each is written,
   * before the chapter's record); the final result's list is the one kept.
   */
  | { type: 'choices'; choices: string[] }
  | { type: 'final'; result: ChapterResult; usage: Usage[]; report?: PromptReport };

// ---------------------------------------------------------------------------------------------
// Missions, styles, summaries

export interface MissionInput {
  worldDescription: string;
  character: { name: string; description?: string; traits?: string[] };
  previousMission?: string | null;
  seed?: number;
  /** The world's own material: missions come from its conflicts (issue 32). */
  world?: WorldMaterial;
  /** Every objective the story has had: a new one is never one of them. */
  pastMissions?: string[];
}
export const missionSchema = z.object({ objective: shortLine(240) });
export type MissionResult = z.infer<typeof missionSchema>;

export const STYLE_FIELDS = [
  'containerBackground',
  'contentBackground',
  'contentTextColor',
  'ContainerTextColor',
  'statsPanelBackground',
  'statsPanelTextColor',
  'statsItemBackground',
  'statsItemTextColor',
  'buttonBackground',
  'buttonTextColor',
  'borderColor',
  'fontFamily',
  'borderRadius',
] as const;
export type StyleField = (typeof STYLE_FIELDS)[number];
/** SPEC §3 setting style set. Values are design tokens that passed style-guard.ts, never raw CSS. */
export type StyleSet = Record<StyleField, string>;
export interface StylesInput {
  settingDescription: string;
}
export interface SummarizeInput {
  previousSummary: string;
  /** Chapters to fold into the summary, oldest first. */
  chapters: PastChapter[];
  /** Soft cap on the summary length in tokens (see context-budget.ts); default 400. */
  maxTokens?: number;
  /** The story the chapters belong to: names, places and the mission keep the summary accurate. */
  story?: {
    worldDescription: string;
    character: ChapterCharacter;
    mission: string | null;
    cards?: PromptCard[];
    maxContextTokens?: number;
    world?: WorldMaterial;
  };
}
export const SUMMARY_MAX_CHARS = 4000;
export const summarySchema = z.object({ summary: plainText(1, SUMMARY_MAX_CHARS) });
export type SummaryResult = z.infer<typeof summarySchema>;

// ---------------------------------------------------------------------------------------------
// Usage and options

/** Token usage of one request to a provider (offline reports estimates with provider 'offline'). */
export interface Usage {
  provider: 'openai' | 'offline';
  operation: StoryAIOperation;
  model: string;
  promptTokens: number;
  completionTokens: number;
  totalTokens: number;
  /** Prompt tokens served from the provider's prompt cache, when it reports them. */
  cachedPromptTokens: number;
  durationMs: number;
  /** 1 for the first try; higher when the request was retried or repaired. */
  attempt: number;
}
export type StoryAIOperation = 'worldDescription' | 'worldQuestions' | 'worldImage' | 'character' | 'chapter' | 'mission' | 'styles' | 'summary';

export interface CallOptions {
  /** Abort when the caller goes away; the provider cancels the upstream request. */
  signal?: AbortSignal;
  /** The player's tier: a provider with a model per tier (TIER_MODELS) writes with that tier's. */
  tier?: string | null;
}

export interface StoryAI {
  /** 'offline' or 'openai' — for logs and health output. */
  readonly kind: 'offline' | 'openai';
  /**
   * True when a chapter proposes the character's first mission itself (its `newMission`) instead of
   * a mission call before it: a remote model's extra call costs the player seconds before the first
   * word. The offline storyteller answers at once, so it keeps SPEC §4's mission-first order.
   */
  readonly missionInChapter?: boolean;
  generateWorldDescription(input: WorldDescriptionInput, opts?: CallOptions): Promise<WorldDescriptionResult>;
  generateWorldQuestions(input: WorldQuestionsInput, opts?: CallOptions): Promise<WorldQuestionsResult>;
  generateWorldImage(input: WorldImageInput, opts?: CallOptions): Promise<WorldImageResult>;
  generateCharacter(input: CharacterInput, opts?: CallOptions): Promise<CharacterResult>;
  /** Streams the chapter; see ChapterEvent. Errors surface as a rejected iteration (AppError). */
  streamChapter(input: ChapterInput, opts?: CallOptions): AsyncIterable<ChapterEvent>;
  generateMission(input: MissionInput, opts?: CallOptions): Promise<MissionResult>;
  /** Always returns a safe style set (sanitized; failing fields fall back to the defaults). */
  generateStyles(input: StylesInput, opts?: CallOptions): Promise<StyleSet>;
  summarize(input: SummarizeInput, opts?: CallOptions): Promise<SummaryResult>;
}

/** Drains a chapter stream, returning the final result (and the deltas, for callers that want them). */
export async function collectChapter(stream: AsyncIterable<ChapterEvent>): Promise<{ result: ChapterResult; deltas: string[]; usage: Usage[] }> {
  const deltas: string[] = [];
  for await (const ev of stream) {
    if (ev.type === 'delta') deltas.push(ev.text);
    else if (ev.type === 'final') return { result: ev.result, deltas, usage: ev.usage };
  }
  throw new Error('chapter stream ended without a final result');
}

/** Clamp helpers shared by both providers so inputs are normalised the same way. */
export function clampReadingLevel(level: number): number {
  if (!Number.isFinite(level)) return 8;
  return Math.min(READING_LEVEL_MAX, Math.max(READING_LEVEL_MIN, Math.round(level)));
}
export function clampMaxLength(maxLength: number | undefined): number {
  if (maxLength === undefined || !Number.isFinite(maxLength)) return WORLD_DESCRIPTION_MAX;
  return Math.min(WORLD_DESCRIPTION_MAX, Math.max(200, Math.floor(maxLength)));
}
