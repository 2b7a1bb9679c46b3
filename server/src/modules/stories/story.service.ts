import type { DataSource, EntityManager } from 'typeorm';
import { fixedChapterTokens, planFold } from '../../ai/context-budget';
import { type ChapterInput, type ChapterResult, type PastChapter, type StoryAI, type StyleSet } from '../../ai/story-ai';
import { DEFAULT_STYLES } from '../../ai/style-guard';
import { AppError, isAppError } from '../../common/app-error';
import { createLogger, type Logger } from '../../common/logger';
import type { RateLimiter } from '../../common/rate-limiter';
import type { Config } from '../../config/env';
import { WORLD_DESCRIPTION_MAX } from '../worlds/world.entity';
import { isUuid, object, text } from '../shared/input';
import { Character } from '../characters/character.entity';
import { Chapter, type MissionSnapshot } from './chapter.entity';
import { finalFrame, LiveChapter, pollChapter, type StreamFrame } from './chapter-stream';
import { GenerationLane } from './generation-lane';
import { Mission } from './mission.entity';
import { renderStoryHtml, renderStoryMarkdown, type ExportFormat, type StoryExport } from './story-export';
import { activeMission, applyMissionEffects, applyTake, decideMissionEffects, missionBeforeTake, raiseStats, unapplyTake } from './story-state';
import { StyleCache } from './style-cache';
import { hydrate } from './hydrate';

export { ACTION_MAX, DEFAULT_READING_LEVEL, OBJECTIVE_MAX } from '../shared/limits';
import { ACTION_MAX, DEFAULT_READING_LEVEL, OBJECTIVE_MAX } from '../shared/limits';
export const SETTING_DESCRIPTION_MAX = 2000;
/** Free-tier context when a player somehow has no subscription row (SPEC §9: "2k tokens"). */
export const DEFAULT_CONTEXT_TOKENS = 2000;
export const STORYLINE_PAGE_MAX = 200;
export const MISSION_HISTORY_MAX = 200;
/**
 * A request with the same action as the latest chapter that reached the service before that chapter
 * was committed raced it (double click, a client retrying a request that is still running): it gets
 * that chapter instead of a second one. No grace period after the commit: a player may well pick the
 * same suggested action again at once, and that must write a new chapter. Clients that retry later
 * send `expectedIndex`, which makes the retry exact.
 */
export const DUPLICATE_GRACE_MS = 0;

export interface StoryServiceOptions {
  /**
   * Text is persisted at most this often while streaming, and every chunk at most this long after it
   * was written: the bound on what a crash can lose of a chapter in progress, and on how far behind
   * the live text a reader on another instance (which follows the row) can be.
   */
  flushIntervalMs: number;
  /** A generating row is touched at least this often, so other instances can tell it is alive. */
  heartbeatMs: number;
  /** A generating row untouched this long belongs to a crashed process and may be taken over. */
  staleAfterMs: number;
  /** How often a reader polls a chapter that another instance is writing. */
  pollIntervalMs: number;
}
/**
 * 250 ms: a chapter's commit waits for its turn in the background lane (GenerationLane), and under
 * load that can take longer than 100 ms; with a shorter window most chapters would be written twice
 * (once for the first chunk, once by the commit) exactly when the server has the least time for it.
 */
const DEFAULT_OPTIONS: StoryServiceOptions = { flushIntervalMs: 250, heartbeatMs: 5000, staleAfterMs: 30_000, pollIntervalMs: 100 };
/**
 * Background work of chapter generations per loop turn (see GenerationLane): the turn a player's
 * request or subscribe waits behind is at most this plus the requests that arrived with it.
 */
const BACKGROUND_BUDGET_MS = 3;
/**
 * Background generations waiting on the database at once: beyond it no other one goes on, so they
 * never take every pooled connection (PostgreSQL: 10; PGlite: its one session) from the requests
 * players are waiting on.
 */
const BACKGROUND_ON_IO_MAX = 4;
/** Up to this many chapters running on this instance, each chunk of each one gets its own loop turn. */
const PER_CHUNK_YIELD_MAX_RUNNING = 2;
/** How long (and how many) committed chapters stay in memory for readers arriving just after. */
const RECENT_MS = 10_000;
const RECENT_MAX = 2000;

export type GenerateMode = 'next' | 'regenerate';

export interface StartOptions {
  /** When the request reached the server (ms epoch); default now. Decides whether it raced a chapter. */
  arrivedAt?: number;
}

/** What a committed chapter did: the fields of SPEC §7 generate-chapter, from the stored take. */
export interface ChapterOutcome {
  chapter: Chapter;
  updatedStats: Record<string, number>;
  newIncreases: Record<string, number>;
  newSettingGenerated: boolean;
  settingText: string | null;
  /** The mission this chapter started (its pre-mission or the next one), null when none. */
  newMission: Mission | null;
  missionCompleted: boolean;
}

export interface ChapterHandle {
  chapterId: string;
  characterId: string;
  index: number;
  take: number;
  /** True when this request joined a generation that was already running (or just finished). */
  joined: boolean;
  /** Settles when the chapter is committed (or fails with GENERATION_FAILED / CONFLICT). */
  done: Promise<ChapterOutcome>;
}

export interface StreamEvent extends StreamFrame {
  chapterId: string;
  characterId: string;
  index: number;
  take: number;
  outcome: ChapterOutcome | null;
  errorCode: string | null;
  error: string | null;
}

interface ParsedGenerate {
  characterId: string;
  action: string | null;
  readingLevel: number;
  worldDescription: string | null;
  expectedIndex: number | null;
}

interface StoryContext {
  character: Character;
  worldDescription: string | null;
  maxContextTokens: number;
  latest: { id: string; index: number; playerChoice: string | null; completedAt: Date | null } | null;
  /** The character's generating row, if any (on this instance or another). */
  running: { id: string; index: number; take: number; playerChoice: string | null; touchedAt: Date } | null;
  /** Id and objective of the active mission, and objective of the last completed one (for a new pre-mission). */
  missionId: string | null;
  mission: string | null;
  /** The last completed mission's objective, read only when no mission is active (null otherwise). */
  previousMission: string | null;
  /** Selected chapters the rolling summary does not cover yet, oldest first. */
  unsummarized: Array<{ index: number; text: string; playerChoice: string | null }>;
  /** The generating row this read claimed for the next chapter (see loadContext), if it did. */
  claimed: { id: string; take: number; createdAt: Date } | null;
}

interface Running {
  live: LiveChapter;
  done: Promise<ChapterOutcome>;
  /** Owner of the character: lets a reader on this instance follow it without a database read. */
  userId: string;
}

/**
 * Storylines: chapters written by the story AI on the server, streamed while they are written and
 * committed atomically with their stat and mission changes; missions; takes; undo; styles; export.
 *
 * One chapter at a time per character is enforced by the database (a partial unique index on the
 * generating row), so it holds across requests, processes and instances; this class only decides
 * whether a second request joins the running generation or is refused with CONFLICT.
 */
export class StoryService {
  private readonly running = new Map<string, Running>();
  /** The same generations by character id. */
  private readonly runningByCharacter = new Map<string, Running>();
  /**
   * Chapters this instance gave up on but could not mark failed (the database was unreachable at
   * that moment). This instance knows they are dead, so a new request takes over at once instead of
   * waiting for them to look stale; a background retry marks them for the other instances too.
   */
  private readonly abandoned = new Set<string>();
  /**
   * Chapters this instance committed in the last RECENT_MS, by chapter id: a reader who subscribes
   * right after the commit (a fast model finishes before the client's subscribe arrives) gets the
   * outcome from memory. Dropped when this instance changes the character's story (undo, takes).
   */
  private readonly recent = new Map<string, { outcome: ChapterOutcome; userId: string; at: number }>();
  private readonly styleCache: StyleCache;
  private readonly options: StoryServiceOptions;
  private readonly log: Logger;
  private closed = false;
  private readonly aborts = new Set<AbortController>();
  private readonly lane = new GenerationLane(BACKGROUND_BUDGET_MS, BACKGROUND_ON_IO_MAX);

  constructor(
    private readonly dataSource: DataSource,
    private readonly deps: { config: Config; ai: StoryAI; limiter: RateLimiter; logger?: Logger },
    options: Partial<StoryServiceOptions> = {},
  ) {
    this.options = { ...DEFAULT_OPTIONS, ...options };
    this.styleCache = new StyleCache(deps.ai);
    this.log = deps.logger ?? createLogger(deps.config);
  }

  // ---------------------------------------------------------------------------------------------
  // Generating chapters

  /** Generates the next chapter and waits for it (SPEC POST /stories/generate-chapter). */
  async generateChapter(userId: string, raw: Record<string, unknown>, opts: StartOptions = {}): Promise<ChapterOutcome> {
    return (await this.startChapter(userId, raw, 'next', opts)).done;
  }

  /**
   * Starts (or joins) a chapter generation and returns as soon as it is claimed; the text can then be
   * followed with `follow`. The generation belongs to the server from here on: nothing the caller's
   * connection does can stop it.
   */
  async startChapter(userId: string, raw: Record<string, unknown>, mode: GenerateMode, opts: StartOptions = {}): Promise<ChapterHandle> {
    const arrivedAt = opts.arrivedAt ?? Date.now();
    const input = parseGenerate(raw, mode);
    await this.rateLimit(userId, 'chapter');
    for (let attempt = 0; attempt < 5; attempt++) {
      // The first attempt of a next chapter reads the context and claims the slot in one statement
      // when the claim is sure to be what the checks below would decide (see loadContext).
      const claim = attempt === 0 && mode === 'next' ? { input, arrivedAt } : null;
      const ctx = await this.loadContext(userId, input.characterId, claim);
      if (ctx.claimed) return this.launch(ctx, input, mode, ctx.claimed);
      const running = ctx.running;
      if (running) {
        const stale = Date.now() - running.touchedAt.getTime() > this.options.staleAfterMs && !this.running.has(running.id);
        if (stale || this.abandoned.has(running.id)) {
          // Its generation died mid-chapter: the half chapter was never part of the story; take over.
          await this.dataSource.query(`UPDATE chapters SET status = 'failed' WHERE id = $1 AND status = 'generating'`, [running.id]);
          continue;
        }
        return this.join(ctx, running, input, mode);
      }
      if (!input.worldDescription && !ctx.worldDescription) throw AppError.badInput('No world description available', 'worldDescription');
      const latest = ctx.latest;
      if (mode === 'next') {
        const dup = this.isDuplicate(latest, input, arrivedAt);
        if (dup) return this.settled(await this.outcomeOf(latest!.id), true);
        if (input.expectedIndex !== null && input.expectedIndex !== (latest ? latest.index + 1 : 0)) {
          throw new AppError('CONFLICT', 'The story has moved on since you chose this action; reload it.', { currentChapter: latest?.index ?? null });
        }
        if (latest && input.action === null) throw AppError.badInput('Please choose or type an action.', 'userChoice');
      } else if (!latest) {
        throw AppError.badInput('There is no chapter to regenerate yet.', 'characterId');
      }
      const handle = await this.claimAndRun(ctx, input, mode);
      if (handle) return handle;
      // Lost a race (another request claimed, or the story moved between our read and our claim).
    }
    throw new AppError('CONFLICT', 'A chapter is already being written for this character; wait for it to finish.');
  }

  /** Regenerates the latest chapter as a new take (kept next to the old ones) and waits for it. */
  async regenerateChapter(userId: string, raw: Record<string, unknown>): Promise<ChapterOutcome> {
    return (await this.startChapter(userId, raw, 'regenerate')).done;
  }

  private isDuplicate(latest: StoryContext['latest'], input: ParsedGenerate, arrivedAt: number): boolean {
    if (!latest || !latest.completedAt || latest.playerChoice !== input.action) return false;
    // With the index the player saw, a retry is told apart exactly — the opening chapter (no action)
    // included; without it, only by the action and a grace period.
    if (input.expectedIndex !== null) return input.expectedIndex === latest.index;
    return input.action !== null && arrivedAt <= latest.completedAt.getTime() + DUPLICATE_GRACE_MS;
  }

  private async join(ctx: StoryContext, running: { id: string; index: number; take: number; playerChoice: string | null }, input: ParsedGenerate, mode: GenerateMode): Promise<ChapterHandle> {
    const latestIndex = ctx.latest?.index ?? -1;
    const isRegen = running.index === latestIndex;
    const same = mode === 'regenerate' ? isRegen : !isRegen && running.playerChoice === input.action;
    if (!same) throw new AppError('CONFLICT', 'A chapter is already being written for this character; wait for it to finish.');
    const local = this.running.get(running.id);
    const done = local ? local.done : this.awaitRemote(running.id);
    done.catch(() => undefined);
    return { chapterId: running.id, characterId: ctx.character.id, index: running.index, take: running.take, joined: true, done };
  }

  private settled(outcome: ChapterOutcome, joined: boolean): ChapterHandle {
    const c = outcome.chapter;
    return { chapterId: c.id, characterId: c.characterId, index: c.index, take: c.take, joined, done: Promise.resolve(outcome) };
  }

  /** Claims the generating slot (null when someone else got it first) and starts the generation. */
  private async claimAndRun(ctx: StoryContext, input: ParsedGenerate, mode: GenerateMode): Promise<ChapterHandle | null> {
    const latestIndex = ctx.latest?.index ?? -1;
    const index = mode === 'next' ? latestIndex + 1 : latestIndex;
    const action = mode === 'next' ? input.action : (ctx.latest?.playerChoice ?? null);
    const now = new Date();
    let rows: Array<{ id: string; take: number }>;
    try {
      // The guard makes the claim conditional on the story still ending with the very chapter (take)
      // we read, so a chapter can never be written on top of a state that changed under us — and the
      // history read with the context is exactly the one this chapter continues.
      rows = (await this.dataSource.query(
        `INSERT INTO chapters (character_id, "index", take, is_selected, status, player_choice, text, created_at, updated_at)
         SELECT $1, $2, (SELECT COALESCE(MAX(take) + 1, 0) FROM chapters WHERE character_id = $1 AND "index" = $2), false, 'generating', $3, '', $4, $4
          WHERE (SELECT id FROM chapters WHERE character_id = $1 AND is_selected ORDER BY "index" DESC LIMIT 1) IS NOT DISTINCT FROM $5::uuid
         RETURNING id, take`,
        [ctx.character.id, index, action, now, ctx.latest?.id ?? null],
      )) as Array<{ id: string; take: number }>;
    } catch (e) {
      if (isUniqueViolation(e)) return null;
      throw e;
    }
    const row = rows[0];
    return row ? this.launch(ctx, input, mode, { ...row, createdAt: now }) : null;
  }

  /** Starts the generation of a claimed row. */
  private launch(ctx: StoryContext, input: ParsedGenerate, mode: GenerateMode, row: { id: string; take: number; createdAt: Date }): ChapterHandle {
    const latestIndex = ctx.latest?.index ?? -1;
    const index = mode === 'next' ? latestIndex + 1 : latestIndex;
    const action = mode === 'next' ? input.action : (ctx.latest?.playerChoice ?? null);
    const live = new LiveChapter(row.id, ctx.character.id, index, row.take, action, row.createdAt);
    let resolve!: (o: ChapterOutcome) => void;
    let reject!: (e: unknown) => void;
    const done = new Promise<ChapterOutcome>((res, rej) => ((resolve = res), (reject = rej)));
    done.catch(() => undefined); // startChapter callers may never await it
    const entry: Running = { live, done, userId: ctx.character.userId };
    this.running.set(row.id, entry);
    this.runningByCharacter.set(ctx.character.id, entry);
    void this.run(ctx, input, mode, live, latestIndex).then(resolve, reject);
    return { chapterId: row.id, characterId: ctx.character.id, index, take: row.take, joined: false, done };
  }

  /** The generation itself, detached from any request. */
  private async run(ctx: StoryContext, input: ParsedGenerate, mode: GenerateMode, live: LiveChapter, latestIndex: number): Promise<ChapterOutcome> {
    const abort = new AbortController();
    this.aborts.add(abort);
    const writer = new TextWriter(this.dataSource, live, this.options);
    const lane = {}; // this generation's place in the lane
    try {
      await yieldToLoop(); // let requests already on the wire arrive (and join) before we run
      const c = ctx.character;
      const worldDescription = input.worldDescription ?? ctx.worldDescription;
      if (!worldDescription) throw AppError.badInput('No world description available', 'worldDescription');

      // The state the chapter is written from: now (read with the context, which the claim guards),
      // or (regenerating) just before the latest chapter.
      let stats = c.stats;
      let setting = c.currentSetting;
      let mission: string | null = ctx.mission;
      let previousMission = ctx.previousMission;
      if (mode === 'regenerate') {
        const prev = await this.dataSource.getRepository(Chapter).findOneByOrFail({ characterId: c.id, index: live.index, isSelected: true });
        stats = prev.statsBefore;
        setting = prev.settingBefore;
        mission = await missionBeforeTake(this.dataSource.manager, prev);
        // The context reads the last completed mission only when none is active; before this take
        // there may have been none although there is one now.
        if (!mission && ctx.missionId) {
          const [last] = await this.dataSource.getRepository(Mission).find({ where: { characterId: c.id, status: 'completed' }, order: { completedAt: 'DESC' }, take: 1 });
          previousMission = last?.objective ?? null;
        }
      }
      const seed = seedOf(live.chapterId);

      // SPEC §4: no current mission → one is generated first; if that fails the story goes on without.
      let preMission: string | null = null;
      if (!mission) {
        try {
          preMission = (await this.deps.ai.generateMission({ worldDescription, character: { name: c.name, description: c.description, traits: c.traits }, previousMission, seed }, { signal: abort.signal })).objective;
          mission = preMission;
        } catch (e) {
          this.log.warn('mission generation failed; continuing without a mission', { characterId: c.id, err: e });
        }
      }

      const character = { name: c.name, description: c.description, stats, traits: c.traits, special: c.special?.name ? c.special : null };
      const fixed = { worldDescription, character, mission, setting, action: live.action };
      const history = historyOf(ctx.unsummarized, live.index);
      const fold = await this.fold(c, history, fixed, ctx.maxContextTokens, abort.signal);

      const chapterInput: ChapterInput = {
        ...fixed,
        summary: fold.summary,
        recentChapters: history.slice(fold.recentStart),
        chapterNumber: live.index + 1,
        readingLevel: input.readingLevel,
        seed,
        maxContextTokens: ctx.maxContextTokens,
      };
      writer.start();
      let result: ChapterResult | null = null;
      let first = true;
      for await (const ev of this.deps.ai.streamChapter(chapterInput, { signal: abort.signal })) {
        if (ev.type === 'delta') {
          live.append(ev.text);
          writer.changed();
          // With few chapters running, every chunk gets a loop turn of its own: a chapter then spans
          // many turns, so requests already on their way (a double click, a burst of retries) arrive
          // while it is still running and join it.
          if (this.running.size <= PER_CHUNK_YIELD_MAX_RUNNING) await yieldToLoop();
          // The first chunk is out (a reader sees it at once); the rest and the commit are background
          // work, taken in turns with the other generations (GenerationLane). A model that streams
          // over the network waits for its chunks anyway; one that resolves through microtasks only
          // (the offline storyteller) would otherwise hold the loop for the whole chapter.
          const turn = this.lane.enter(lane, { background: first });
          if (turn) await turn;
          first = false;
        } else {
          result = ev.result;
          break;
        }
      }
      if (!result) throw new Error('chapter stream ended without a result');
      await writer.stop();
      const turn = this.lane.enter(lane, { database: true });
      if (turn) await turn;
      const outcome =
        (mode === 'next' ? await this.commitNext(ctx, live, latestIndex, result, preMission, fold.update) : null) ??
        (await this.commit(live, mode, latestIndex, result, preMission, fold.update));
      this.remember(outcome, ctx.character.userId);
      live.end('complete', outcome.chapter.text);
      return outcome;
    } catch (e) {
      await writer.stop();
      if (!(isAppError(e) && (e.code === 'CONFLICT' || e.code === 'BAD_USER_INPUT'))) {
        this.log.error('chapter generation failed', { characterId: live.characterId, chapterId: live.chapterId, err: e });
      }
      // The row never became part of the story (it was never selected); mark it so readers stop.
      await this.markFailed(live.chapterId).catch((err: unknown) => {
        this.log.error('could not mark a chapter failed; retrying in the background', { chapterId: live.chapterId, err });
        this.abandoned.add(live.chapterId);
        this.retryMarkFailed(live.chapterId, 1);
      });
      live.end('failed', '');
      throw generationError(e);
    } finally {
      this.lane.leave(lane);
      this.aborts.delete(abort);
      this.running.delete(live.chapterId);
      if (this.runningByCharacter.get(live.characterId)?.live === live) this.runningByCharacter.delete(live.characterId);
    }
  }

  private async markFailed(chapterId: string): Promise<void> {
    await this.dataSource.query(`UPDATE chapters SET status = 'failed', text = '' WHERE id = $1 AND status = 'generating'`, [chapterId]);
  }

  /** Retries marking an abandoned chapter failed with backoff (≈ 1 s … 30 s), e.g. while PostgreSQL restarts. */
  private retryMarkFailed(chapterId: string, attempt: number): void {
    if (attempt > 12) return; // the 30-second staleness rule still frees the character
    const timer = setTimeout(() => {
      this.markFailed(chapterId).then(
        () => this.abandoned.delete(chapterId),
        () => this.retryMarkFailed(chapterId, attempt + 1),
      );
    }, Math.min(30_000, 500 * 2 ** attempt));
    timer.unref();
  }

  /**
   * Keeps the prompt within the tier's context: chapters pushed out of the verbatim window are folded
   * into the stored rolling summary, incrementally (only the newly pushed-out ones are summarised).
   */
  private async fold(
    c: Character,
    history: PastChapter[],
    fixed: Parameters<typeof fixedChapterTokens>[0],
    maxContextTokens: number,
    signal: AbortSignal,
  ): Promise<{ summary: string; recentStart: number; update: { summary: string; through: number; expectedThrough: number } | null }> {
    const summarizedCount = Math.min(c.summaryThroughIndex + 1, history.length);
    const plan = planFold({ chapters: history, summarizedCount, maxContextTokens, fixedTokens: fixedChapterTokens(fixed) });
    if (plan.foldTo <= plan.foldFrom) return { summary: c.storySummary, recentStart: summarizedCount, update: null };
    try {
      const { summary } = await this.deps.ai.summarize(
        { previousSummary: c.storySummary, chapters: history.slice(plan.foldFrom, plan.foldTo), maxTokens: plan.summaryMaxTokens },
        { signal },
      );
      return { summary, recentStart: plan.recentStart, update: { summary, through: plan.recentStart - 1, expectedThrough: c.summaryThroughIndex } };
    } catch (e) {
      // Without a new summary the chapters stay verbatim; the provider trims the prompt to fit.
      this.log.warn('summary failed; sending chapters verbatim', { characterId: c.id, err: e });
      return { summary: c.storySummary, recentStart: summarizedCount, update: null };
    }
  }

  /**
   * The usual commit of a next chapter, in one call: commit_next_chapter (a database function, see
   * its migration) takes the character's lock, checks that the story's state is still the one the
   * chapter was started from (stats, setting, active mission, latest chapter; the chapter still this
   * generation's) and writes character, chapter, cleanup and the chapter's mission effects (a mission
   * generated before it, the one it completes, the one it brings). The same as the transaction below,
   * but one round trip instead of four: on PostgreSQL each is a socket write and a wake-up of both
   * ends; on PGlite, whose one session a transaction holds for every player while its statements
   * travel to and from the database thread, a round of first chapters used to queue behind those.
   * Null when the check fails, or when another instance took the chapter over during the call (the
   * function then fails and writes nothing): commit() then decides, with the lock, what to write or
   * which CONFLICT to report.
   */
  private async commitNext(
    ctx: StoryContext,
    live: LiveChapter,
    latestIndex: number,
    result: ChapterResult,
    preMission: string | null,
    summary: { summary: string; through: number; expectedThrough: number } | null,
  ): Promise<ChapterOutcome | null> {
    const now = new Date();
    const effects = decideMissionEffects(ctx.missionId ? { id: ctx.missionId } : null, preMission, result, now);
    const pre = effects.preMission ?? null;
    // A mission generated before this chapter and completed by it is written completed at once.
    const preCompleted = pre !== null && effects.completedMissionId === pre.id;
    // Otherwise the mission completed is the active one the function checks (p_active_mission).
    const completesActive = effects.completedMissionId !== undefined && !preCompleted;
    const statsBefore = ctx.character.stats;
    const settingBefore = ctx.character.currentSetting;
    const { after, applied } = raiseStats(statsBefore, result.statIncreases);
    const setting = result.newSetting ?? settingBefore;
    const params = [
      live.characterId,
      live.chapterId,
      live.index,
      latestIndex,
      now,
      JSON.stringify(statsBefore),
      settingBefore,
      JSON.stringify(after),
      setting,
      result.text,
      JSON.stringify(result.choices),
      JSON.stringify(applied),
      JSON.stringify(effects),
      summary !== null,
      summary?.summary ?? '',
      summary?.through ?? -1,
      summary?.expectedThrough ?? -1,
      ctx.missionId,
      completesActive,
      pre?.id ?? null,
      pre?.objective ?? null,
      pre ? new Date(pre.startedAt) : null,
      preCompleted,
      effects.newMission?.id ?? null,
      effects.newMission?.objective ?? null,
      effects.newMission ? new Date(effects.newMission.startedAt) : null,
    ];
    let written: string | null;
    try {
      [{ id: written }] = (await this.dataSource.query(
        `SELECT commit_next_chapter($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13,
                                    $14, $15, $16, $17, $18, $19, $20, $21, $22, $23, $24, $25, $26) AS id`,
        params,
      )) as Array<{ id: string | null }>;
    } catch (e) {
      // Taken over between the function's check and its write: it wrote nothing; commit() reports it.
      if (sqlState(e) === 'TF409') return null;
      throw e;
    }
    if (written === null) return null;
    // The row is exactly what the function wrote: built here rather than read back (RETURNING *
    // cost the database thread the text and five JSON columns encoded, and this thread their decoding).
    const chapter = Object.assign(new Chapter(), {
      id: live.chapterId,
      characterId: live.characterId,
      index: live.index,
      take: live.take,
      isSelected: true,
      status: 'complete' as const,
      text: result.text,
      playerChoice: live.action,
      choices: result.choices,
      setting,
      statIncreases: applied,
      statsAfter: after,
      statsBefore,
      settingBefore,
      missionEffects: effects,
      completedAt: now,
      createdAt: live.createdAt,
      updatedAt: now,
    });
    return outcomeOf(chapter);
  }

  /**
   * The one transaction that makes a take part of the story: chapter, stats, missions, summary.
   * Four statements in the common case: BEGIN; the character locked, read with the checks; one
   * statement writing the character, the chapter and the cleanup; COMMIT. Missions are written only
   * when the take changes them (and a regenerated take first restores the state before it). A next
   * chapter usually commits in one call first (commitNext); this is for takes and for the cases that
   * call refuses.
   */
  private async commit(
    live: LiveChapter,
    mode: GenerateMode,
    latestIndex: number,
    result: ChapterResult,
    preMission: string | null,
    summary: { summary: string; through: number; expectedThrough: number } | null,
  ): Promise<ChapterOutcome> {
    const now = new Date();
    const chapter = await this.dataSource.transaction(async (m) => {
      // The character row lock serialises every change to this story (all writers take it first),
      // so what is read with it — the slot, the latest chapter, the active mission — holds until COMMIT.
      const [ch] = (await m.query(
        `SELECT c.stats, c.current_setting, c.summary_through_index,
                (SELECT status FROM chapters WHERE id = $2) AS chapter_status,
                (SELECT COALESCE(MAX("index"), -1) FROM chapters WHERE character_id = c.id AND is_selected) AS latest_index,
                (SELECT id FROM missions WHERE character_id = c.id AND status = 'active' LIMIT 1) AS active_mission
           FROM characters c WHERE c.id = $1 FOR UPDATE OF c`,
        [live.characterId, live.chapterId],
      )) as Array<{ stats: Record<string, number>; current_setting: string | null; summary_through_index: number; chapter_status: string | null; latest_index: number | string; active_mission: string | null }>;
      if (!ch) throw AppError.notFound('Character');
      if (ch.chapter_status !== 'generating') throw new AppError('CONFLICT', 'This chapter was abandoned while it was being written.');
      if (Number(ch.latest_index) !== latestIndex) throw new AppError('CONFLICT', 'The story changed while this chapter was being written.');

      let statsBefore = ch.stats;
      let settingBefore = ch.current_setting;
      let activeMissionId = ch.active_mission;
      if (mode === 'regenerate') {
        const prev = await m.getRepository(Chapter).findOneByOrFail({ characterId: live.characterId, index: live.index, isSelected: true });
        await unapplyTake(m, prev);
        await m.getRepository(Chapter).update({ id: prev.id }, { isSelected: false });
        statsBefore = prev.statsBefore;
        settingBefore = prev.settingBefore;
        activeMissionId = (await activeMission(m, live.characterId))?.id ?? null;
      }
      const effects = decideMissionEffects(activeMissionId ? { id: activeMissionId } : null, preMission, result, now);
      await applyMissionEffects(m, live.characterId, live.index, effects);
      const { after, applied } = raiseStats(statsBefore, result.statIncreases);
      const setting = result.newSetting ?? settingBefore;
      const foldNow = Boolean(summary && ch.summary_through_index === summary.expectedThrough);
      // Character, chapter and the cleanup of failed takes (of no further use once a take succeeds)
      // in one statement; the chapter is written only while it is still this generation's.
      const written = (await m.queryRunner!.query(
        `WITH ch AS (
           UPDATE characters SET stats = $3::jsonb, current_setting = $4,
                  story_summary = CASE WHEN $5::boolean THEN $6 ELSE story_summary END,
                  summary_through_index = CASE WHEN $5::boolean THEN $7::integer ELSE summary_through_index END
            WHERE id = $1
         ), gone AS (
           DELETE FROM chapters WHERE character_id = $1 AND status = 'failed'
         )
         UPDATE chapters SET status = 'complete', is_selected = true, text = $8, choices = $9::jsonb, setting = $4,
                stat_increases = $10::jsonb, stats_after = $3::jsonb, stats_before = $11::jsonb, setting_before = $12,
                mission_effects = $13::jsonb, completed_at = $14, updated_at = now()
          WHERE id = $2 AND status = 'generating'
         RETURNING *`,
        [
          live.characterId,
          live.chapterId,
          JSON.stringify(after),
          setting,
          foldNow,
          summary?.summary ?? '',
          summary?.through ?? -1,
          result.text,
          JSON.stringify(result.choices),
          JSON.stringify(applied),
          JSON.stringify(statsBefore),
          settingBefore,
          JSON.stringify(effects),
          now,
        ],
        true,
      )) as { records: Array<Record<string, unknown>> };
      // The slot can be given up without the character lock (another instance taking over a row it
      // believes abandoned): then this throws and the transaction commits nothing.
      const row = written.records[0];
      if (!row) throw new AppError('CONFLICT', 'This chapter was abandoned while it was being written.');
      return hydrate(this.dataSource, Chapter, row);
    });
    return outcomeOf(chapter);
  }

  /** Waits for a generation running on another instance by watching its row. */
  private async awaitRemote(chapterId: string): Promise<ChapterOutcome> {
    for (;;) {
      const local = this.running.get(chapterId);
      if (local) return local.done;
      const row = await this.remoteState(chapterId, 'status');
      if (!row || row.status === 'failed') throw new AppError('GENERATION_FAILED', 'Failed to generate story chapter. Please try again.');
      if (row.status === 'complete') return this.outcomeOf(chapterId);
      await new Promise((r) => setTimeout(r, this.options.pollIntervalMs));
    }
  }

  /**
   * A chapter written elsewhere, as a joiner or reader polls it. A writer touches its row at least
   * every heartbeat; one silent for staleAfterMs is gone (its process died), so the chapter is marked
   * failed here and the wait ends: a join never hangs on a dead writer, and the player's next request
   * takes over at once. The database's clock decides, so instances with skewed clocks agree.
   */
  private async remoteState(chapterId: string, columns: 'status' | 'status, text'): Promise<{ status: Chapter['status']; text?: string } | null> {
    const [row] = (await this.dataSource.query(
      `SELECT ${columns}, (status = 'generating' AND updated_at < now() - make_interval(secs => $2::double precision)) AS dead
         FROM chapters WHERE id = $1`,
      [chapterId, this.options.staleAfterMs / 1000],
    )) as Array<{ status: Chapter['status']; text?: string; dead: boolean }>;
    if (!row) return null;
    if (row.dead && !this.running.has(chapterId)) {
      await this.dataSource.query(`UPDATE chapters SET status = 'failed' WHERE id = $1 AND status = 'generating'`, [chapterId]);
      this.log.warn('a chapter\'s writer stopped answering: marked failed', { chapterId });
      return { ...row, status: 'failed' };
    }
    return row;
  }

  /**
   * At boot on the embedded database nothing else can be writing (one process owns the data folder),
   * so chapters left generating by a process that died are failed at once: the player's next request
   * plays instead of meeting a CONFLICT or joining a chapter nobody writes. Returns how many.
   */
  async failOrphanedChapters(): Promise<number> {
    const [rows] = (await this.dataSource.query(`UPDATE chapters SET status = 'failed' WHERE status = 'generating' RETURNING id`)) as [Array<{ id: string }>, number];
    return rows.length;
  }

  private async outcomeOf(chapterId: string): Promise<ChapterOutcome> {
    return outcomeOf(await this.dataSource.getRepository(Chapter).findOneByOrFail({ id: chapterId }));
  }

  // ---------------------------------------------------------------------------------------------
  // Following a chapter as it is written

  /**
   * Starts (or joins) the next chapter and follows it (GraphQL playChapter): refusals (CONFLICT,
   * RATE_LIMITED, BAD_USER_INPUT, NOT_FOUND) throw before any event; a retry with the same
   * expectedIndex joins the running chapter or replays the finished one.
   */
  async playChapter(userId: string, raw: Record<string, unknown>, signal?: AbortSignal): Promise<AsyncGenerator<StreamEvent>> {
    const started = await this.startChapter(userId, raw, 'next');
    return this.openStream(userId, started.characterId, started.chapterId, signal);
  }

  /**
   * The chapter stream for a character: the generation running now (text so far, then the rest),
   * or — when none is running — the given or latest chapter at once, complete. `chapterId` pins one
   * generation; without it the character's current one is followed.
   */
  async openStream(userId: string, characterId: unknown, chapterId?: unknown, signal?: AbortSignal): Promise<AsyncGenerator<StreamEvent>> {
    // Checks run before the stream is returned, so a stranger's id fails the subscribe call itself.
    // A generation running on this instance is followed from memory: its owner and ids are known, so
    // no read is needed (the database is only for generations elsewhere and finished chapters).
    if (!isUuid(characterId)) throw AppError.notFound('Character');
    const local = chapterId !== undefined && chapterId !== null ? this.running.get(String(chapterId)) : this.runningByCharacter.get(characterId);
    if (local && local.userId === userId && local.live.characterId === characterId) {
      const l = local.live;
      return this.stream(characterId, { id: l.chapterId, index: l.index, take: l.take }, signal, local);
    }
    const done = chapterId !== undefined && chapterId !== null ? this.recent.get(String(chapterId)) : undefined;
    if (done && done.userId === userId && done.outcome.chapter.characterId === characterId && Date.now() - done.at < RECENT_MS) {
      const c = done.outcome.chapter;
      return this.finished(characterId, { id: c.id, index: c.index, take: c.take }, c, done.outcome);
    }
    // Elsewhere (or finished): ownership, target and — for a finished chapter — the chapter itself in
    // one read: the chapter given, or the one generating now, or else the latest.
    const pinned = chapterId !== undefined && chapterId !== null;
    if (pinned && !isUuid(chapterId)) {
      await this.owned(userId, characterId);
      throw AppError.notFound('Chapter');
    }
    const [row] = (await this.dataSource.query(
      `SELECT c.id AS x_character, ch.*
         FROM characters c
         LEFT JOIN LATERAL (SELECT * FROM chapters
                             WHERE character_id = c.id AND ${pinned ? 'id = $3' : `(status = 'generating' OR is_selected)`}
                             ORDER BY (status = 'generating') DESC, "index" DESC LIMIT 1) ch ON true
        WHERE c.id = $1 AND c.user_id = $2`,
      pinned ? [characterId, userId, chapterId] : [characterId, userId],
    )) as Array<Record<string, unknown> & { x_character: string; id: string | null; status: Chapter['status'] | null }>;
    if (!row) throw AppError.notFound('Character');
    if (!row.id) throw AppError.notFound('Chapter');
    const target = { id: row.id, index: row.index as number, take: row.take as number };
    if (row.status === 'complete') {
      const chapter = hydrate(this.dataSource, Chapter, row);
      return this.finished(characterId, target, chapter, outcomeOf(chapter));
    }
    return this.stream(characterId, target, signal, this.running.get(target.id));
  }

  /** The stream of a chapter already committed: the whole text and the outcome, at once. */
  private async *finished(characterId: string, target: { id: string; index: number; take: number }, chapter: Chapter, outcome: ChapterOutcome): AsyncGenerator<StreamEvent> {
    const frame = finalFrame('', 'complete', chapter.text);
    yield { ...frame, chapterId: target.id, characterId, index: target.index, take: target.take, outcome, errorCode: null, error: null };
  }

  private remember(outcome: ChapterOutcome, userId: string): void {
    const now = Date.now();
    this.recent.set(outcome.chapter.id, { outcome, userId, at: now });
    // Oldest first (insertion order): drop the expired ones, and never keep more than RECENT_MAX.
    for (const [id, r] of this.recent) {
      if (now - r.at < RECENT_MS && this.recent.size <= RECENT_MAX) break;
      this.recent.delete(id);
    }
  }

  private forgetRecent(characterId: string): void {
    for (const [id, r] of this.recent) if (r.outcome.chapter.characterId === characterId) this.recent.delete(id);
  }

  private async *stream(characterId: string, target: { id: string; index: number; take: number }, signal?: AbortSignal, local?: Running): AsyncGenerator<StreamEvent> {
    const frames = local
      ? local.live.follow(signal)
      : pollChapter(
          async () => {
            const r = await this.remoteState(target.id, 'status, text');
            return r ? { status: r.status, text: r.text ?? '' } : null;
          },
          this.options.pollIntervalMs,
          signal,
        );
    for await (const frame of frames) {
      const base = { ...frame, chapterId: target.id, characterId, index: target.index, take: target.take, outcome: null, errorCode: null, error: null };
      if (frame.status === 'complete') {
        // A local generation hands over the outcome it committed; otherwise it is read back.
        yield { ...base, outcome: local ? await local.done : await this.outcomeOf(target.id) };
      } else if (frame.status === 'failed') {
        yield { ...base, errorCode: 'GENERATION_FAILED', error: 'Failed to generate story chapter. Please try again.' };
      } else {
        yield base;
      }
    }
  }

  // ---------------------------------------------------------------------------------------------
  // Takes and undo

  /** Makes another take of the latest chapter the chosen one; stats and missions follow it exactly. */
  async selectTake(userId: string, characterId: unknown, take: unknown): Promise<ChapterOutcome> {
    const character = await this.owned(userId, characterId);
    this.forgetRecent(character.id);
    if (typeof take !== 'number' || !Number.isInteger(take) || take < 0) throw AppError.badInput('take must be a whole number ≥ 0.', 'take');
    const chapter = await this.dataSource.transaction(async (m) => {
      await lockCharacter(m, character.id);
      await refuseWhileGenerating(m, character.id);
      const index = await latestSelectedIndex(m, character.id);
      const repo = m.getRepository(Chapter);
      const chosen = await repo.findOne({ where: { characterId: character.id, index, take, status: 'complete' } });
      if (index < 0 || !chosen) throw AppError.notFound('Chapter take');
      if (chosen.isSelected) return chosen;
      const current = await repo.findOneByOrFail({ characterId: character.id, index, isSelected: true });
      await unapplyTake(m, current);
      await repo.update({ id: current.id }, { isSelected: false });
      await applyTake(m, chosen);
      await repo.update({ id: chosen.id }, { isSelected: true });
      return repo.findOneByOrFail({ id: chosen.id });
    });
    return outcomeOf(chapter);
  }

  /**
   * Removes the latest chapter (all its takes), restoring stats, setting and missions exactly as they
   * were before it. Returns the character as it is now.
   */
  async undoLastChapter(userId: string, characterId: unknown): Promise<Character> {
    const character = await this.owned(userId, characterId);
    this.forgetRecent(character.id);
    await this.dataSource.transaction(async (m) => {
      const ch = await lockCharacter(m, character.id);
      await refuseWhileGenerating(m, character.id);
      const index = await latestSelectedIndex(m, character.id);
      if (index < 0) throw AppError.badInput('There is no chapter to undo.', 'characterId');
      const latest = await m.getRepository(Chapter).findOneByOrFail({ characterId: character.id, index, isSelected: true });
      await unapplyTake(m, latest);
      await m.query(`DELETE FROM chapters WHERE character_id = $1 AND ("index" >= $2 OR status = 'failed')`, [character.id, index]);
      // A summary that covered the removed chapter no longer describes the story: rebuild it lazily.
      if (ch.summaryThroughIndex >= index) {
        await m.query(`UPDATE characters SET story_summary = '', summary_through_index = -1 WHERE id = $1`, [character.id]);
      }
    });
    return this.owned(userId, character.id);
  }

  // ---------------------------------------------------------------------------------------------
  // Missions

  /** SPEC get-new-mission: an objective suggestion (not stored). */
  async suggestMission(userId: string, raw: Record<string, unknown>): Promise<{ objective: string }> {
    const worldDescription = text(raw.worldDescription, 'worldDescription', { required: 'No world description available', max: WORLD_DESCRIPTION_MAX });
    const personality = text(raw.userPersonality, 'userPersonality', { max: 4000 });
    const previousMission = missionText(raw.previousMission);
    await this.rateLimit(userId, 'mission');
    try {
      return await this.deps.ai.generateMission({ worldDescription, character: { name: 'the hero', description: personality || undefined }, previousMission });
    } catch (e) {
      this.log.warn('mission suggestion failed', { err: e });
      throw new AppError('GENERATION_FAILED', 'Failed to generate a mission.');
    }
  }

  /** SPEC update-mission: edits the current mission's objective (starting one when there is none). */
  async updateMission(userId: string, characterId: unknown, updated: unknown): Promise<{ mission: Mission; history: Mission[] }> {
    const character = await this.owned(userId, characterId);
    const raw = updated !== null && typeof updated === 'object' && !Array.isArray(updated) ? (updated as Record<string, unknown>).objective : updated;
    const objective = text(raw, 'updatedMission', { required: 'The mission objective cannot be empty.', max: OBJECTIVE_MAX });
    const mission = await this.dataSource.transaction(async (m) => {
      await lockCharacter(m, character.id);
      const repo = m.getRepository(Mission);
      const active = await repo.findOne({ where: { characterId: character.id, status: 'active' } });
      if (active) {
        await repo.update({ id: active.id }, { objective });
        return repo.findOneByOrFail({ id: active.id });
      }
      return repo.save(repo.create({ characterId: character.id, objective, startedAt: new Date(), status: 'active' }));
    });
    return { mission, history: await this.missionHistory(character.id) };
  }

  /**
   * SPEC update-mission-history: the player's list replaces the stored one. Entries matching a stored
   * mission (same objective and start time) keep its identity and chapter links, so undo still works.
   */
  async replaceMissionHistory(userId: string, characterId: unknown, list: unknown): Promise<Mission[]> {
    const character = await this.owned(userId, characterId);
    if (!Array.isArray(list)) throw AppError.badInput('missionHistory must be a list.', 'missionHistory');
    if (list.length > MISSION_HISTORY_MAX) throw AppError.badInput(`missionHistory may have at most ${MISSION_HISTORY_MAX} entries.`, 'missionHistory');
    const items = list.map((v, i) => {
      const o = object(v, `missionHistory[${i}]`);
      const objective = text(o.objective, 'missionHistory.objective', { required: 'Every mission needs an objective.', max: OBJECTIVE_MAX });
      const status = o.status ?? 'active';
      if (status !== 'active' && status !== 'completed') throw AppError.badInput('status must be active or completed.', 'missionHistory.status');
      const startedAt = o.startedAt === undefined || o.startedAt === null ? new Date() : new Date(String(o.startedAt));
      if (Number.isNaN(startedAt.getTime())) throw AppError.badInput('startedAt must be an ISO time.', 'missionHistory.startedAt');
      return { objective, status: status as Mission['status'], startedAt };
    });
    if (items.filter((x) => x.status === 'active').length > 1) throw AppError.badInput('Only one mission can be active.', 'missionHistory');
    await this.dataSource.transaction(async (m) => {
      await lockCharacter(m, character.id);
      const repo = m.getRepository(Mission);
      const existing = await repo.find({ where: { characterId: character.id } });
      const keep = new Set<string>();
      const updates: Array<{ id: string; status: Mission['status'] }> = [];
      const inserts: typeof items = [];
      for (const item of items) {
        const match = existing.find((e) => !keep.has(e.id) && e.objective === item.objective && e.startedAt.getTime() === item.startedAt.getTime());
        if (match) {
          keep.add(match.id);
          if (match.status !== item.status) updates.push({ id: match.id, status: item.status });
        } else inserts.push(item);
      }
      const drop = existing.filter((e) => !keep.has(e.id)).map((e) => e.id);
      if (drop.length > 0) await m.query(`DELETE FROM missions WHERE id = ANY($1::uuid[])`, [drop]);
      // Completions first, so the one-active index never sees two active missions.
      for (const u of updates.sort((a) => (a.status === 'completed' ? -1 : 1))) {
        await repo.update({ id: u.id }, u.status === 'completed' ? { status: 'completed', completedAt: new Date() } : { status: 'active', completedAt: null, completedAtChapter: null });
      }
      for (const item of inserts) {
        await repo.insert({ characterId: character.id, ...item, completedAt: item.status === 'completed' ? new Date() : null });
      }
    });
    return this.missionHistory(character.id);
  }

  missionHistory(characterId: string): Promise<Mission[]> {
    return this.dataSource.getRepository(Mission).find({ where: { characterId }, order: { startedAt: 'ASC', createdAt: 'ASC' } });
  }

  // ---------------------------------------------------------------------------------------------
  // Reads, styles, export

  /** A page of the selected chapters, oldest first: the last `limit` before `beforeIndex`. */
  async chapters(characterId: string, limit: number, beforeIndex: number | null): Promise<Chapter[]> {
    const rows = await this.dataSource
      .getRepository(Chapter)
      .createQueryBuilder('c')
      .where('c.characterId = :characterId AND c.isSelected', { characterId })
      .andWhere(beforeIndex === null ? '1=1' : 'c.index < :beforeIndex', { beforeIndex })
      .orderBy('c.index', 'DESC')
      .limit(limit)
      .getMany();
    return rows.reverse();
  }

  /** SPEC §3 "character in the storyline", for REST: one page of chapters plus the mission history. */
  async storyline(userId: string, characterId: unknown, page: { limit?: unknown; beforeIndex?: unknown }) {
    const c = await this.owned(userId, characterId);
    const limit = pageLimit(page.limit);
    const beforeIndex = page.beforeIndex === undefined || page.beforeIndex === null || page.beforeIndex === '' ? null : Number(page.beforeIndex);
    if (beforeIndex !== null && !Number.isInteger(beforeIndex)) throw AppError.badInput('beforeIndex must be a whole number.', 'beforeIndex');
    // Three independent reads: in parallel (PostgreSQL answers them on separate connections).
    const [chapters, missions, total] = await Promise.all([
      this.chapters(c.id, limit, beforeIndex),
      this.missionHistory(c.id),
      this.dataSource.getRepository(Chapter).countBy({ characterId: c.id, isSelected: true }),
    ]);
    return { character: c, chapters, missions, total };
  }

  /** SPEC fetch-styles: the validated style set for a setting; the default set on any failure. */
  async styles(userId: string, settingDescription: unknown): Promise<StyleSet> {
    let setting: string;
    try {
      setting = text(settingDescription, 'settingDescription', { max: SETTING_DESCRIPTION_MAX });
    } catch {
      return { ...DEFAULT_STYLES };
    }
    if (!setting) return { ...DEFAULT_STYLES };
    return this.styleCache.get(setting, () => this.rateLimit(userId, 'styles'));
  }

  /** The story as one Markdown file or one self-contained, script-free HTML page. */
  async exportStory(userId: string, characterId: unknown, format: unknown): Promise<StoryExport> {
    if (format !== 'md' && format !== 'html') throw AppError.badInput('format must be md or html.', 'format');
    const c = await this.owned(userId, characterId);
    const [chapters, missions] = await Promise.all([this.chapters(c.id, Number.MAX_SAFE_INTEGER, null), this.missionHistory(c.id)]);
    const [world] = c.worldId ? ((await this.dataSource.query(`SELECT name FROM worlds WHERE id = $1`, [c.worldId])) as Array<{ name: string }>) : [];
    const story = { character: c, worldName: world?.name ?? null, chapters, missions };
    const fmt: ExportFormat = format;
    if (fmt === 'md') return renderStoryMarkdown(story);
    const styles = c.currentSetting ? await this.styles(userId, c.currentSetting) : { ...DEFAULT_STYLES };
    return renderStoryHtml(story, styles);
  }

  /** The player's own character, or NOT_FOUND (also for anyone else's: no probing). */
  async owned(userId: string, characterId: unknown): Promise<Character> {
    if (!isUuid(characterId)) throw AppError.notFound('Character');
    const c = await this.dataSource.getRepository(Character).findOne({ where: { id: characterId, userId } });
    if (!c) throw AppError.notFound('Character');
    return c;
  }

  /**
   * Shutdown: new generations are refused at once; the ones in flight get `graceMs` to commit, then
   * are stopped — their rows are marked failed and the story is untouched, so the same action can be
   * sent again (to another instance).
   */
  async close(graceMs = 0): Promise<void> {
    this.closed = true;
    const all = Promise.allSettled([...this.running.values()].map((r) => r.done));
    if (graceMs > 0 && this.running.size > 0) {
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([all, new Promise((r) => (timer = setTimeout(r, graceMs)))]);
      clearTimeout(timer);
    }
    for (const a of this.aborts) a.abort();
    await all;
  }

  // ---------------------------------------------------------------------------------------------

  private async rateLimit(userId: string, what: 'chapter' | 'mission' | 'styles'): Promise<void> {
    if (this.closed) throw new AppError('SERVICE_UNAVAILABLE', 'The server is shutting down; try again in a moment.');
    const { perUserPerWindow, windowSeconds } = this.deps.config.generationRateLimit;
    const r = await this.deps.limiter.hit(`story:${what}:${userId}`, perUserPerWindow, windowSeconds);
    if (!r.allowed) {
      throw new AppError('RATE_LIMITED', 'Too many requests; please wait a moment.', { retryAfterSeconds: r.retryAfterSeconds });
    }
  }

  /**
   * Everything a chapter is started from, in one query: the character (owned), its world's
   * description, the tier's context, the latest selected chapter, the generating row, the mission
   * objectives and the chapters the rolling summary does not cover yet.
   *
   * With `claim` (a next chapter), the same statement also claims the generating row for it when
   * nothing is running and every check startChapter makes on this context would let it claim: a
   * world description, the expected index, an action after the first chapter, not a duplicate of the
   * latest chapter. The claim is written only under those conditions, so it is exactly the claim
   * claimAndRun would have made after reading the same snapshot; otherwise (or when a concurrent
   * claim wins: ON CONFLICT DO NOTHING) nothing is written and startChapter decides as usual.
   */
  private async loadContext(userId: string, characterId: string, claim: { input: ParsedGenerate; arrivedAt: number } | null = null): Promise<StoryContext> {
    if (!isUuid(characterId)) throw AppError.notFound('Character');
    const context = `SELECT c.*, w.description AS x_world_description, t.max_context_tokens AS x_max_context_tokens,
              l.id AS x_latest_id, l."index" AS x_latest_index, l.player_choice AS x_latest_choice, l.completed_at AS x_latest_completed_at,
              g.id AS x_run_id, g."index" AS x_run_index, g.take AS x_run_take, g.player_choice AS x_run_choice, g.updated_at AS x_run_touched,
              m.id AS x_mission_id, m.objective AS x_mission,
              -- Only read when there is no active mission (a new one must differ from it): CASE runs
              -- the subquery only in that branch, and most chapters have a mission.
              CASE WHEN m.id IS NULL THEN
                (SELECT objective FROM missions WHERE character_id = c.id AND status = 'completed' ORDER BY completed_at DESC LIMIT 1)
              END AS x_previous_mission,
              (SELECT COALESCE(json_agg(json_build_object('i', h."index", 't', h.text, 'c', h.player_choice) ORDER BY h."index"), '[]'::json)
                 FROM chapters h WHERE h.character_id = c.id AND h.is_selected AND h."index" > c.summary_through_index) AS x_history
         FROM characters c
         LEFT JOIN worlds w ON w.id = c.world_id
         LEFT JOIN subscriptions s ON s.user_id = c.user_id
         LEFT JOIN tiers t ON t.id = s.tier_id
         LEFT JOIN LATERAL (SELECT id, "index", player_choice, completed_at FROM chapters
                             WHERE character_id = c.id AND is_selected ORDER BY "index" DESC LIMIT 1) l ON true
         LEFT JOIN LATERAL (SELECT id, "index", take, player_choice, updated_at FROM chapters
                             WHERE character_id = c.id AND status = 'generating' LIMIT 1) g ON true
         LEFT JOIN LATERAL (SELECT id, objective FROM missions WHERE character_id = c.id AND status = 'active' LIMIT 1) m ON true
        WHERE c.id = $1 AND c.user_id = $2`;
    // The claimed row's creation time: the chapter's createdAt once it is complete.
    const claimedAt = new Date();
    const [row] = (await (claim
      ? this.dataSource.query(
          `WITH ctx AS (${context}),
           claimed AS (
             INSERT INTO chapters (character_id, "index", take, is_selected, status, player_choice, text, created_at, updated_at)
             SELECT ctx.id, COALESCE(ctx.x_latest_index + 1, 0),
                    (SELECT COALESCE(MAX(take) + 1, 0) FROM chapters WHERE character_id = ctx.id AND "index" = COALESCE(ctx.x_latest_index + 1, 0)),
                    false, 'generating', $3::text, '', $4::timestamptz, $4::timestamptz
               FROM ctx
              WHERE ctx.x_run_id IS NULL
                AND ($5::boolean OR COALESCE(ctx.x_world_description, '') <> '')
                AND ($6::integer IS NULL OR $6::integer = COALESCE(ctx.x_latest_index + 1, 0))
                AND ($3::text IS NOT NULL OR ctx.x_latest_id IS NULL)
                AND NOT ($6::integer IS NULL AND $3::text IS NOT NULL AND ctx.x_latest_completed_at IS NOT NULL
                         AND ctx.x_latest_choice IS NOT DISTINCT FROM $3::text AND $7::timestamptz <= ctx.x_latest_completed_at + make_interval(secs => $8::double precision))
             ON CONFLICT DO NOTHING
             RETURNING id, take
           )
           SELECT ctx.*, claimed.id AS x_claimed_id, claimed.take AS x_claimed_take FROM ctx LEFT JOIN claimed ON true`,
          [
            characterId,
            userId,
            claim.input.action,
            claimedAt,
            Boolean(claim.input.worldDescription),
            claim.input.expectedIndex,
            new Date(claim.arrivedAt),
            DUPLICATE_GRACE_MS / 1000,
          ],
        )
      : this.dataSource.query(context, [characterId, userId]))) as Array<Record<string, unknown>>;
    if (!row) throw AppError.notFound('Character');
    const history = (typeof row.x_history === 'string' ? JSON.parse(row.x_history) : (row.x_history ?? [])) as Array<{ i: number; t: string; c: string | null }>;
    return {
      character: hydrate(this.dataSource, Character, row),
      worldDescription: (row.x_world_description as string | null) ?? null,
      maxContextTokens: (row.x_max_context_tokens as number | null) ?? DEFAULT_CONTEXT_TOKENS,
      latest:
        row.x_latest_id && row.x_latest_index !== null
          ? {
              id: row.x_latest_id as string,
              index: row.x_latest_index as number,
              playerChoice: row.x_latest_choice as string | null,
              completedAt: row.x_latest_completed_at ? new Date(row.x_latest_completed_at as string | Date) : null,
            }
          : null,
      running: row.x_run_id
        ? {
            id: row.x_run_id as string,
            index: row.x_run_index as number,
            take: row.x_run_take as number,
            playerChoice: row.x_run_choice as string | null,
            touchedAt: new Date(row.x_run_touched as string | Date),
          }
        : null,
      missionId: (row.x_mission_id as string | null) ?? null,
      mission: (row.x_mission as string | null) ?? null,
      previousMission: (row.x_previous_mission as string | null) ?? null,
      unsummarized: history.map((h) => ({ index: h.i, text: h.t, playerChoice: h.c })),
      claimed: row.x_claimed_id ? { id: row.x_claimed_id as string, take: row.x_claimed_take as number, createdAt: claimedAt } : null,
    };
  }
}

/**
 * Persists a running chapter's text by time window: every chunk is in the row at most
 * flushIntervalMs after it arrived (counting from the start of the generation), with at most one
 * write per window — a chapter written faster than that is stored once, by its commit. So a crash
 * loses at most the last flushIntervalMs (250 ms) of text of a chapter in progress; such a chapter
 * is abandoned anyway (marked failed, retried by the player), the window matters to readers on
 * other instances, which follow the row. A heartbeat
 * (touching updated_at) runs when nothing was written for a while, so the row never looks abandoned
 * during a slow model. Writes are never awaited by the generation (only by stop(), before the
 * commit), and are conditional on the row still generating, so a late write can never overwrite a
 * committed or failed chapter.
 */
class TextWriter {
  private timer: NodeJS.Timeout | null = null;
  private heartbeat: NodeJS.Timeout | null = null;
  private writing: Promise<void> = Promise.resolve();
  private lastWrite = 0;
  private stopped = false;

  constructor(
    private readonly dataSource: DataSource,
    private readonly live: LiveChapter,
    private readonly options: StoryServiceOptions,
  ) {}

  start(): void {
    this.heartbeat = setInterval(() => {
      if (Date.now() - this.lastWrite >= this.options.heartbeatMs) this.enqueue();
    }, this.options.heartbeatMs);
    this.heartbeat.unref();
    this.lastWrite = Date.now();
  }

  changed(): void {
    if (this.stopped || this.timer) return;
    const wait = Math.max(0, this.options.flushIntervalMs - (Date.now() - this.lastWrite));
    this.timer = setTimeout(() => {
      this.timer = null;
      this.enqueue();
    }, wait);
  }

  private enqueue(): void {
    this.writing = this.writing.then(async () => {
      if (this.stopped) return;
      const text = this.live.text;
      this.lastWrite = Date.now();
      try {
        await this.dataSource.query(`UPDATE chapters SET text = $2, updated_at = now() WHERE id = $1 AND status = 'generating'`, [this.live.chapterId, text]);
      } catch {
        // A missed write only delays what another instance sees; the commit stores the final text.
      }
    });
  }

  /** Stops writing and waits for a write in flight (never awaited inside a transaction). */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    if (this.heartbeat) clearInterval(this.heartbeat);
    this.timer = null;
    await this.writing;
  }
}

/** Outcome fields from the stored take, so every reader (local, remote, late) sees the same answer. */
export function outcomeOf(c: Chapter): ChapterOutcome {
  const e = c.missionEffects ?? {};
  const started: MissionSnapshot | undefined = e.newMission ?? (e.preMission && e.completedMissionId !== e.preMission.id ? e.preMission : undefined);
  let newMission: Mission | null = null;
  if (started) {
    newMission = Object.assign(new Mission(), {
      id: started.id,
      characterId: c.characterId,
      objective: started.objective,
      startedAt: new Date(started.startedAt),
      status: 'active' as const,
      completedAt: null,
      startedAtChapter: c.index,
      completedAtChapter: null,
    });
  }
  return {
    chapter: c,
    updatedStats: c.statsAfter,
    newIncreases: c.statIncreases,
    newSettingGenerated: c.setting !== null && c.setting !== c.settingBefore,
    settingText: c.setting,
    newMission,
    missionCompleted: Boolean(e.completedMissionId),
  };
}

function parseGenerate(raw: Record<string, unknown>, mode: GenerateMode): ParsedGenerate {
  const characterId = raw.characterId;
  if (!isUuid(characterId)) throw AppError.notFound('Character');
  const action = mode === 'next' ? text(raw.userChoice, 'userChoice', { max: ACTION_MAX, tooLong: `Your action can be at most ${ACTION_MAX} characters.` }) : '';
  if (mode === 'next' && typeof raw.userChoice === 'string' && raw.userChoice.length > 0 && action === '') {
    throw AppError.badInput('Please choose or type an action.', 'userChoice');
  }
  return {
    characterId,
    action: action || null,
    readingLevel: readingLevelOf(raw.readingLevel),
    worldDescription: text(raw.worldDescription, 'worldDescription', { max: WORLD_DESCRIPTION_MAX }) || null,
    expectedIndex: raw.expectedIndex === undefined || raw.expectedIndex === null ? null : wholeNumber(raw.expectedIndex, 'expectedIndex'),
  };
}

function readingLevelOf(v: unknown): number {
  if (v === undefined || v === null || v === '') return DEFAULT_READING_LEVEL;
  const n = typeof v === 'string' ? Number(v) : v;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < 1 || n > 12) throw AppError.badInput('readingLevel must be a whole number from 1 to 12.', 'readingLevel');
  return n;
}

function wholeNumber(v: unknown, field: string): number {
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 0) throw AppError.badInput(`${field} must be a whole number ≥ 0.`, field);
  return v;
}

function pageLimit(v: unknown): number {
  if (v === undefined || v === null || v === '') return 50;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1 || n > STORYLINE_PAGE_MAX) throw AppError.badInput(`limit must be 1–${STORYLINE_PAGE_MAX}.`, 'limit');
  return n;
}

function missionText(v: unknown): string | null {
  if (v !== null && typeof v === 'object' && !Array.isArray(v)) v = (v as Record<string, unknown>).objective;
  return text(v, 'previousMission', { max: OBJECTIVE_MAX }) || null;
}

async function lockCharacter(m: EntityManager, id: string): Promise<Character> {
  const c = await m.getRepository(Character).findOne({ where: { id }, lock: { mode: 'pessimistic_write' } });
  if (!c) throw AppError.notFound('Character');
  return c;
}

async function latestSelectedIndex(m: EntityManager, characterId: string): Promise<number> {
  const [r] = (await m.query(`SELECT COALESCE(MAX("index"), -1) AS i FROM chapters WHERE character_id = $1 AND is_selected`, [characterId])) as Array<{ i: number }>;
  return Number(r?.i ?? -1);
}

async function refuseWhileGenerating(m: EntityManager, characterId: string): Promise<void> {
  const rows = (await m.query(`SELECT 1 FROM chapters WHERE character_id = $1 AND status = 'generating'`, [characterId])) as unknown[];
  if (rows.length > 0) throw new AppError('CONFLICT', 'A chapter is being written for this character; wait for it to finish.');
}

/** Selected chapters before `index` that the rolling summary does not cover yet (older ones: placeholders). */
function historyOf(unsummarized: StoryContext['unsummarized'], index: number): PastChapter[] {
  const out: PastChapter[] = Array.from({ length: Math.max(0, index) }, () => ({ text: '', playerChoice: null }));
  for (const r of unsummarized) if (r.index >= 0 && r.index < index) out[r.index] = { text: r.text, playerChoice: r.playerChoice };
  return out;
}

function yieldToLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

function sqlState(e: unknown): string | undefined {
  const err = e as { code?: string; driverError?: { code?: string } } | null;
  return err?.driverError?.code ?? err?.code;
}

function isUniqueViolation(e: unknown): boolean {
  return sqlState(e) === '23505';
}

/** A stable 31-bit seed per take: the offline storyteller is deterministic per seed. */
function seedOf(id: string): number {
  let h = 2166136261;
  for (let i = 0; i < id.length; i++) h = Math.imul(h ^ id.charCodeAt(i), 16777619);
  return (h >>> 0) & 0x7fffffff;
}

function generationError(e: unknown): AppError {
  if (isAppError(e) && (e.code === 'CONFLICT' || e.code === 'NOT_FOUND' || e.code === 'BAD_USER_INPUT')) return e;
  return new AppError('GENERATION_FAILED', 'Failed to generate story chapter. Please try again.');
}
