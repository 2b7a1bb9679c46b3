/**
 * Storylines: the stories module's one entry point for resolvers, REST adapters and the app. Each
 * job lives in a part of its own (a folder), and this class only wires them:
 *
 * - generation/ — a chapter from start to end: generation-engine.ts (start / join / run / stop /
 *   close), chapter-prompt.ts (what a chapter is written from, the rolling summary included),
 *   chapter-continue.ts (continuing the latest chapter), live-chapter.ts (its text in memory while it
 *   is written), text-writer.ts (its text in the row), chapter-stream.service.ts (a reader following
 *   it), generation-registry.ts (what runs on this instance), generation-lane.ts (turns on the
 *   event loop), story-gate.ts (shutdown and rate limits), generation-failure.ts (what a player is told)
 * - state/ — the one rule for story state: chapter-commit.ts (planCommit + the commit_chapter
 *   database function), take-effects.ts (a take's effects applied and taken back exactly),
 *   chapter-outcome.ts (what a committed take did)
 * - editing/ — story-editing.service.ts (takes, undo, edits), story-branch.service.ts (rewind and
 *   branches)
 * - memory/ — story-memory.service.ts (plot essentials, author's note, the editable summary, point of
 *   view), story-cards.ts (which cards reach a prompt, what a chapter's cast does to them),
 *   story-card.service.ts (the player's cards)
 * - missions/ — mission.service.ts
 * - reads/ — story-read.service.ts (storyline, styles, export, published snapshot)
 * - here: story.store.ts (the module's SQL and row mapping, the story lock), story-input.ts (input
 *   parsing), story.loaders.ts (per-request batching), chapter.entity.ts (chapters and their takes)
 */
import type { Embedder } from '../../ai/embeddings';
import { MemoryVectors } from './memory/memory-vectors';
import { rememberedFor, type Remembered } from './memory/remembered';
import type { DataSource } from 'typeorm';
import type { Difficulty, PromptReport, StoryAI, StyleSet } from '../../ai/story-ai';
import { createLogger, type Logger } from '../../common/logger';
import type { RateLimiter } from '../../common/rate-limiter';
import type { Config } from '../../config/env';
import type { Character } from '../characters/character.entity';
import { findOwnedCharacter } from '../characters/owned-character';
import type { Chapter } from './chapter.entity';
import { StoryBranchService } from './editing/story-branch.service';
import type { StoryBranch } from './editing/story-branch.entity';
import { StoryEditingService } from './editing/story-editing.service';
import { ChapterStreamService, type StreamEvent } from './generation/chapter-stream.service';
import { DEFAULT_OPTIONS, GenerationEngine, type ChapterHandle, type StartOptions, type StoryServiceOptions } from './generation/generation-engine';
import { GenerationRegistry } from './generation/generation-registry';
import { StoryGate } from './generation/story-gate';
import type { StoryCard } from './memory/story-card.entity';
import { StoryCardService } from './memory/story-card.service';
import { MemoryBank } from './memory/memory-bank';
import type { MemoryEntry } from './memory/memory.entity';
import { StoryMemoryService, storyMemoryOf, type StoryMemoryView } from './memory/story-memory.service';
import type { Mission } from './missions/mission.entity';
import { MissionService } from './missions/mission.service';
import type { StoryExport } from './reads/story-export';
import { StoryReadService, type StorySnapshot, type StorylineView } from './reads/story-read.service';
import type { ChapterOutcome } from './state/chapter-outcome';
import { parseStorylinePage, type GenerateMode } from './story-input';
import { StoryStore } from './story.store';

export type { ChapterOutcome } from './state/chapter-outcome';
export type { StreamEvent } from './generation/chapter-stream.service';
export type { ChapterHandle, StartOptions, StoryServiceOptions } from './generation/generation-engine';
export type { StorylineView } from './reads/story-read.service';

export class StoryService {
  private readonly store: StoryStore;
  private readonly engine: GenerationEngine;
  private readonly streams: ChapterStreamService;
  private readonly editing: StoryEditingService;
  private readonly branches: StoryBranchService;
  private readonly missions: MissionService;
  private readonly reads: StoryReadService;
  private readonly memory: StoryMemoryService;
  private readonly cards: StoryCardService;
  private readonly memoryBank: MemoryBank;
  private readonly vectors: MemoryVectors;

  constructor(
    private readonly dataSource: DataSource,
    deps: {
      config: Config;
      ai: StoryAI;
      limiter: RateLimiter;
      logger?: Logger;
      /** Metrics of what each chapter was written from. */
      onPromptReport?: (report: PromptReport) => void;
      /** The memory bank's embeddings model (EMBEDDINGS_MODEL); none: full-text search only. */
      embedder?: Embedder | null;
    },
    options: Partial<StoryServiceOptions> = {},
  ) {
    const opts = { ...DEFAULT_OPTIONS, ...options };
    const log = deps.logger ?? createLogger(deps.config);
    const gate = new StoryGate(deps);
    const registry = new GenerationRegistry();
    this.store = new StoryStore(dataSource);
    this.vectors = new MemoryVectors(dataSource, deps.embedder ?? null, log);
    this.memoryBank = new MemoryBank(dataSource);
    this.engine = new GenerationEngine(this.store, registry, gate, deps.ai, log, opts, {
      onPromptReport: deps.onPromptReport,
      memories: this.memoryBank,
      vectors: this.vectors,
    });
    this.streams = new ChapterStreamService(this.store, registry, this.engine, opts.pollIntervalMs);
    this.editing = new StoryEditingService(dataSource, registry);
    this.branches = new StoryBranchService(dataSource, registry);
    this.missions = new MissionService(this.store, gate, deps.ai, log);
    this.reads = new StoryReadService(this.store, gate, deps.ai);
    this.memory = new StoryMemoryService(dataSource);
    this.cards = new StoryCardService(dataSource);
  }

  // Generating and following chapters

  /** Generates the next chapter and waits for it (SPEC POST /stories/generate-chapter). */
  async generateChapter(userId: string, raw: Record<string, unknown>, opts: StartOptions = {}): Promise<ChapterOutcome> {
    return (await this.engine.start(userId, raw, 'next', opts)).done;
  }

  /** Starts (or joins) a chapter and returns once it is claimed; see GenerationEngine.start. */
  startChapter(userId: string, raw: Record<string, unknown>, mode: GenerateMode, opts: StartOptions = {}): Promise<ChapterHandle> {
    return this.engine.start(userId, raw, mode, opts);
  }

  /** Stops the character's chapter in progress (see GenerationEngine.stop); true when one was stopped. */
  stopChapter(userId: string, characterId: unknown): Promise<boolean> {
    return this.engine.stop(userId, characterId);
  }

  /** Regenerates the latest chapter as a new take (kept next to the old ones) and waits for it. */
  async regenerateChapter(userId: string, raw: Record<string, unknown>): Promise<ChapterOutcome> {
    return (await this.engine.start(userId, raw, 'regenerate')).done;
  }

  /**
   * Starts (or joins) the next chapter and follows it (GraphQL playChapter): refusals (CONFLICT,
   * RATE_LIMITED, BAD_USER_INPUT, NOT_FOUND) throw before any event; a retry with the same
   * expectedIndex joins the running chapter or replays the finished one.
   */
  async playChapter(userId: string, raw: Record<string, unknown>, signal?: AbortSignal): Promise<AsyncGenerator<StreamEvent>> {
    const started = await this.engine.start(userId, raw, 'next');
    return this.streams.open(userId, started.characterId, started.chapterId, signal);
  }

  /** The chapter stream for a character (GraphQL chapterStream); see ChapterStreamService.open. */
  openStream(userId: string, characterId: unknown, chapterId?: unknown, signal?: AbortSignal): Promise<AsyncGenerator<StreamEvent>> {
    return this.streams.open(userId, characterId, chapterId, signal);
  }

  /**
   * At boot on the embedded database nothing else can be writing (one process owns the data folder),
   * so chapters left generating by a process that died are failed at once: the player's next request
   * plays instead of meeting a CONFLICT or joining a chapter nobody writes. Returns how many.
   */
  failOrphanedChapters(): Promise<number> {
    return this.store.failAllGenerating();
  }

  /** Settles when the background work after chapters (summary folds) is done. */
  async idle(): Promise<void> {
    await this.engine.idle();
    await this.vectors.idle();
  }

  /** Shutdown: see GenerationEngine.close. */
  async close(graceMs = 0): Promise<void> {
    await this.engine.close(graceMs);
    await this.vectors.close();
  }

  // Takes and undo

  selectTake(userId: string, characterId: unknown, take: unknown): Promise<ChapterOutcome> {
    return this.editing.selectTake(userId, characterId, take);
  }

  /** Rewrites the latest chapter's text and/or an earlier action of the player (see StoryEditingService). */
  editChapter(userId: string, characterId: unknown, chapterId: unknown, input: unknown): Promise<Chapter> {
    return this.editing.editChapter(userId, characterId, chapterId, input);
  }

  undoLastChapter(userId: string, characterId: unknown): Promise<Character> {
    return this.editing.undoLastChapter(userId, characterId);
  }

  // Rewind and branches

  /** Makes an earlier chapter the latest; the chapters after it become a branch (see StoryBranchService). */
  rewind(userId: string, characterId: unknown, chapterIndex: unknown): Promise<Character> {
    return this.branches.rewind(userId, characterId, chapterIndex);
  }

  restoreBranch(userId: string, characterId: unknown, branchId: unknown): Promise<Character> {
    return this.branches.restore(userId, characterId, branchId);
  }

  deleteBranch(userId: string, characterId: unknown, branchId: unknown): Promise<boolean> {
    return this.branches.remove(userId, characterId, branchId);
  }

  /** The player's story's branches, newest first (REST; GraphQL reads Character.storyBranches). */
  async listBranches(userId: string, characterId: unknown): Promise<StoryBranch[]> {
    return this.reads.branchesOf(await findOwnedCharacter(this.dataSource, userId, characterId), {});
  }

  /** The branches of a character already owner-checked (GraphQL field), batched per request. */
  branchesOf(c: Character, requestScope: object): Promise<StoryBranch[]> {
    return this.reads.branchesOf(c, requestScope);
  }

  // Missions

  suggestMission(userId: string, raw: Record<string, unknown>): Promise<{ objective: string }> {
    return this.missions.suggest(userId, raw);
  }

  updateMission(userId: string, characterId: unknown, updated: unknown): Promise<{ mission: Mission; history: Mission[] }> {
    return this.missions.update(userId, characterId, updated);
  }

  replaceMissionHistory(userId: string, characterId: unknown, list: unknown): Promise<Mission[]> {
    return this.missions.replaceHistory(userId, characterId, list);
  }

  // Story memory

  /** The story memory of a character already owner-checked (GraphQL field). */
  storyMemoryOf(c: Character): StoryMemoryView {
    return storyMemoryOf(c);
  }

  updateStoryMemory(userId: string, characterId: unknown, input: unknown): Promise<StoryMemoryView> {
    return this.memory.update(userId, characterId, input);
  }

  /** The hero's health, the story's difficulty and what the hero carries (REST /stories/stakes). */
  async heroStakes(
    userId: string,
    characterId: unknown,
  ): Promise<{ health: number; healthMax: number; difficulty: Difficulty; inventory: Array<{ id: string; name: string; description: string }> }> {
    const c = await findOwnedCharacter(this.dataSource, userId, characterId);
    const cards = await this.cards.list(userId, c.id);
    return {
      health: c.health,
      healthMax: c.healthMax,
      difficulty: c.difficulty,
      inventory: cards
        .filter((k) => k.kind === 'item' && k.held)
        .sort((a, b) => a.name.localeCompare(b.name))
        .map((k) => ({ id: k.id, name: k.name, description: k.description })),
    };
  }

  /** The story cards of a character already owner-checked (GraphQL field), batched per request. */
  storyCardsOf(c: Character, requestScope: object): Promise<StoryCard[]> {
    return this.reads.storyCardsOf(c, requestScope);
  }

  listStoryCards(userId: string, characterId: unknown): Promise<StoryCard[]> {
    return this.cards.list(userId, characterId);
  }

  createStoryCard(userId: string, characterId: unknown, input: unknown): Promise<StoryCard> {
    return this.cards.create(userId, characterId, input);
  }

  updateStoryCard(userId: string, cardId: unknown, input: unknown): Promise<StoryCard> {
    return this.cards.update(userId, cardId, input);
  }

  deleteStoryCard(userId: string, cardId: unknown): Promise<boolean> {
    return this.cards.remove(userId, cardId);
  }

  // The memory bank

  /** The story's memories as the player sees them (Story Memory). */
  /** What the storyteller was sent for the latest chapter (or the one given); see memory/remembered.ts. */
  remembered(userId: string, characterId: unknown, chapterId?: unknown): Promise<Remembered | null> {
    return rememberedFor(this.dataSource, userId, characterId, chapterId);
  }

  listMemories(userId: string, characterId: unknown, page: { limit?: unknown; offset?: unknown; search?: unknown } = {}): Promise<MemoryEntry[]> {
    return this.memoryBank.list(userId, characterId, page);
  }

  async addMemory(userId: string, characterId: unknown, input: unknown): Promise<MemoryEntry> {
    const added = await this.memoryBank.add(userId, characterId, input);
    this.vectors.refresh(String(characterId));
    return added;
  }

  async updateMemory(userId: string, characterId: unknown, memoryId: unknown, input: unknown): Promise<MemoryEntry> {
    const updated = await this.memoryBank.update(userId, characterId, memoryId, input);
    this.vectors.refresh(String(characterId));
    return updated;
  }

  deleteMemory(userId: string, characterId: unknown, memoryId: unknown): Promise<boolean> {
    return this.memoryBank.remove(userId, characterId, memoryId);
  }

  // Reads

  /** The storyline of a character already owner-checked (GraphQL field), batched per request. */
  /** The selected chapters of a page, for their checks and stakes (Character.chapterStakes). */
  chapterStakesOf(c: Character, page: { limit?: unknown }, requestScope: object): Promise<Chapter[]> {
    return this.reads.chapterPageOf(c, parseStorylinePage(page), requestScope);
  }

  storylineOf(c: Character, page: { limit?: unknown; beforeIndex?: unknown }, requestScope: object): Promise<StorylineView> {
    return this.reads.storylineOf(c, parseStorylinePage(page), requestScope);
  }

  missionHistoryOf(c: Character, requestScope: object): Promise<Mission[]> {
    return this.reads.missionHistoryOf(c, requestScope);
  }

  /** SPEC §3 "character in the storyline" for REST: the same read as GraphQL's, plus the missions. */
  async storyline(
    userId: string,
    characterId: unknown,
    page: { limit?: unknown; beforeIndex?: unknown },
  ): Promise<{ character: Character; storyline: StorylineView; missions: Mission[] }> {
    const c = await findOwnedCharacter(this.dataSource, userId, characterId);
    const parsed = parseStorylinePage(page);
    const scope = {};
    const [storyline, missions] = await Promise.all([this.reads.storylineOf(c, parsed, scope), this.reads.missionHistoryOf(c, scope)]);
    return { character: c, storyline, missions };
  }

  styles(userId: string, settingDescription: unknown): Promise<StyleSet> {
    return this.reads.styles(userId, settingDescription);
  }

  exportStory(userId: string, characterId: unknown, format: unknown): Promise<StoryExport> {
    return this.reads.exportStory(userId, characterId, format);
  }

  /** The story as a published link shows it, taken now (owner only). */
  snapshot(userId: string, characterId: unknown): Promise<StorySnapshot> {
    return this.reads.snapshot(userId, characterId);
  }

  /** The player's own character, or NOT_FOUND (also for anyone else's: no probing). */
  owned(userId: string, characterId: unknown): Promise<Character> {
    return findOwnedCharacter(this.dataSource, userId, characterId);
  }
}
