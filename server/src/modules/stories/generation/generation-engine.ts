/**
 * The chapter generation engine: starts a chapter (or joins the one running), runs it detached from
 * any request — streaming its text to readers and to the row (TextWriter), in turns with the other
 * generations (GenerationLane) — commits it (chapter-commit.ts), and stops them all at shutdown.
 *
 * One chapter at a time per character is enforced by the database (a partial unique index on the
 * generating row), so it holds across requests, processes and instances; the engine only decides
 * whether a second request joins the running generation or is refused with CONFLICT.
 */
import type { MemoryBank } from '../memory/memory-bank';
import type { MemoryVectors } from '../memory/memory-vectors';
import crypto from 'node:crypto';
import type { StoryAI, ChapterResult, PromptReport } from '../../../ai/story-ai';
import { AppError, isAppError } from '../../../common/app-error';
import type { Logger } from '../../../common/logger';
import { findOwnedCharacter } from '../../characters/owned-character';
import { commitChapter } from '../state/chapter-commit';
import { takeMemories } from '../memory/memory-bank';
import { givenReport } from '../../../ai/prompt-plan';
import { assertContinuable, continuedResult, CONTINUE_JOIN } from './chapter-continue';
import { outcomeOf, type ChapterOutcome } from '../state/chapter-outcome';
import { ChapterPrompter } from './chapter-prompt';
import { LiveChapter } from './live-chapter';
import { CHAPTER_FAILED, generationError, stoppedError } from './generation-failure';
import { GenerationLane } from './generation-lane';
import type { GenerationRegistry, Running } from './generation-registry';
import type { StoryGate } from './story-gate';
import { parseGenerate, type GenerateMode, type ParsedGenerate } from '../story-input';
import { DUPLICATE_GRACE_MS, type ClaimedRow, type LatestChapter, type RemoteState, type RunningRow, type StoryContext, type StoryStore } from '../story.store';
import { TextWriter } from './text-writer';
import { continuedStakes, earnedGrowth } from '../stakes/hero-state';
import { choiceChecksOf, rollD20 } from '../stakes/checks';
import type { PartyRoundInput } from '../stakes/party-checks';

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
  /** The d20 of a check from the take's seed (stakes/checks.ts rollD20; tests script the dice). */
  dice: (seed: number) => number;
}
/**
 * 250 ms: a chapter's commit waits for its turn in the background lane (GenerationLane), and under
 * load that can take longer than 100 ms; with a shorter window most chapters would be written twice
 * (once for the first chunk, once by the commit) exactly when the server has the least time for it.
 */
export const DEFAULT_OPTIONS: StoryServiceOptions = { flushIntervalMs: 250, heartbeatMs: 5000, staleAfterMs: 30_000, pollIntervalMs: 100, dice: rollD20 };
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
const BUSY = 'A chapter is already being written for this character; wait for it to finish.';
/** Abort reasons: the player stopped the chapter here; its row stopped generating elsewhere. */
const STOPPED = Symbol('stopped');
const GONE = Symbol('gone');
/** The server is shutting down past its grace period (close): routine, not a failure of the storyteller. */
const SHUTDOWN = Symbol('shutdown');

export interface StartOptions {
  /** When the request reached the server (ms epoch); default now. Decides whether it raced a chapter. */
  arrivedAt?: number;
  /** The longest action accepted (default ACTION_MAX): a party round's composed action (parties/) is longer. Set by the server only. */
  actionMax?: number;
  /** A party round (parties/): each member's own part, judged and rolled on their own stats (stakes/party-checks.ts). */
  party?: PartyRoundInput;
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

export class GenerationEngine {
  private readonly aborts = new Set<AbortController>();
  /** Summary folds running after commits (see ChapterPrompter.foldAfter), per character. */
  private readonly folds = new Map<string, Promise<void>>();
  private readonly lane = new GenerationLane(BACKGROUND_BUDGET_MS, BACKGROUND_ON_IO_MAX);
  private readonly prompter: ChapterPrompter;

  constructor(
    private readonly store: StoryStore,
    private readonly registry: GenerationRegistry,
    private readonly gate: StoryGate,
    private readonly ai: StoryAI,
    private readonly log: Logger,
    private readonly options: StoryServiceOptions,
    private readonly hooks: {
      /** Metrics of what each chapter was written from (Metrics.observePrompt). */
      onPromptReport?: (report: PromptReport) => void;
      memories: MemoryBank;
      /** Embeds a stored chapter's memories (in the background) and the next chapters' retrieval text. */
      vectors: MemoryVectors;
    },
  ) {
    this.prompter = new ChapterPrompter(store, ai, log, hooks.memories, hooks.vectors, options.dice);
  }

  /**
   * Starts (or joins) a chapter generation and returns as soon as it is claimed; the text can then be
   * followed with the chapter stream. The generation belongs to the server from here on: nothing the
   * caller's connection does can stop it.
   */
  async start(userId: string, raw: Record<string, unknown>, mode: GenerateMode, opts: StartOptions = {}): Promise<ChapterHandle> {
    const arrivedAt = opts.arrivedAt ?? Date.now();
    const input = parseGenerate(raw, mode, opts.actionMax);
    await this.gate.pass(userId, 'chapter');
    for (let attempt = 0; attempt < 5; attempt++) {
      // The first attempt of a next chapter reads the context and claims the slot in one statement
      // when the claim is sure to be what the checks below would decide (see StoryStore.loadContext).
      const claim = attempt === 0 && mode === 'next' ? { input, arrivedAt } : null;
      const ctx = await this.store.loadContext(userId, input.characterId, claim);
      if (ctx.claimed) return this.launch(ctx, input, mode, ctx.claimed, opts.party ?? null);
      const running = ctx.running;
      if (running) {
        const stale = Date.now() - running.touchedAt.getTime() > this.options.staleAfterMs && !this.registry.chapter(running.id);
        if (stale || this.registry.abandoned.has(running.id)) {
          // Its generation died mid-chapter: the half chapter was never part of the story; take over.
          await this.store.failGenerating(running.id);
          continue;
        }
        return this.join(ctx, running, input, mode);
      }
      if (!input.worldDescription && !ctx.worldDescription) throw AppError.badInput('No world description available', 'worldDescription');
      const latest = ctx.latest;
      if (mode === 'next') {
        if (latest && isDuplicate(latest, input, arrivedAt)) return settled(await this.outcome(latest.id), true);
        if (input.expectedIndex !== null && input.expectedIndex !== (latest ? latest.index + 1 : 0)) {
          throw new AppError('CONFLICT', 'The story has moved on since you chose this action; reload it.', { currentChapter: latest?.index ?? null });
        }
        if (latest && input.action === null) throw AppError.badInput('Please choose or type an action.', 'userChoice');
      } else if (!latest) {
        throw AppError.badInput(mode === 'continue' ? 'There is no chapter to continue yet.' : 'There is no chapter to regenerate yet.', 'characterId');
      } else if (mode === 'continue') {
        assertContinuable(await this.store.chapterText(latest.id));
      }
      const index = mode === 'next' ? (latest?.index ?? -1) + 1 : latest!.index;
      const row = await this.store.claimChapter(ctx.character.id, index, actionOf(ctx, input, mode), latest?.id ?? null);
      if (row) return this.launch(ctx, input, mode, row, opts.party ?? null);
      // Lost a race (another request claimed, or the story moved between our read and our claim).
    }
    throw new AppError('CONFLICT', BUSY);
  }

  private join(ctx: StoryContext, running: RunningRow, input: ParsedGenerate, mode: GenerateMode): ChapterHandle {
    const latestIndex = ctx.latest?.index ?? -1;
    const isRegen = running.index === latestIndex;
    const same = mode !== 'next' ? isRegen : !isRegen && running.playerChoice === input.action;
    if (!same) throw new AppError('CONFLICT', BUSY);
    const local = this.registry.chapter(running.id);
    const done = local ? local.done : this.awaitRemote(running.id);
    done.catch(() => undefined);
    return { chapterId: running.id, characterId: ctx.character.id, index: running.index, take: running.take, joined: true, done };
  }

  /** Starts the generation of a claimed row. */
  private launch(ctx: StoryContext, input: ParsedGenerate, mode: GenerateMode, row: ClaimedRow, round: PartyRoundInput | null): ChapterHandle {
    const latestIndex = ctx.latest?.index ?? -1;
    const index = mode === 'next' ? latestIndex + 1 : latestIndex;
    const live = new LiveChapter(row.id, ctx.character.id, index, row.take, actionOf(ctx, input, mode), row.createdAt);
    let resolve!: (o: ChapterOutcome) => void;
    let reject!: (e: unknown) => void;
    const done = new Promise<ChapterOutcome>((res, rej) => ((resolve = res), (reject = rej)));
    done.catch(() => undefined); // start() callers may never await it
    const abort = new AbortController();
    const entry: Running = { live, done, userId: ctx.character.userId, stop: () => abort.abort(STOPPED) };
    this.registry.add(entry);
    void this.run(ctx, input, mode, live, abort, mode === 'next' ? round : null).then(resolve, reject);
    return { chapterId: row.id, characterId: ctx.character.id, index, take: row.take, joined: false, done };
  }

  /** The generation itself, detached from any request. */
  private async run(
    ctx: StoryContext,
    input: ParsedGenerate,
    mode: GenerateMode,
    live: LiveChapter,
    abort: AbortController,
    round: PartyRoundInput | null,
  ): Promise<ChapterOutcome> {
    this.aborts.add(abort);
    const writer = new TextWriter(this.store, live, this.options, () => abort.abort(GONE));
    const lane = {}; // this generation's place in the lane
    try {
      await yieldToLoop(); // let requests already on the wire arrive (and join) before we run
      const prepared = await this.prompter.prepare(ctx, input, mode, live, abort.signal, round);
      writer.start();
      const continued = prepared.continued;
      if (continued) {
        // Readers see the whole chapter, the new part growing after the old.
        live.append(`${continued.text}${CONTINUE_JOIN}`);
        writer.changed();
      }
      const { result: written, report } = await this.write(live, writer, lane, prepared.chapterInput, abort.signal, ctx.tierId);
      await writer.stop();
      // Growth is the engine's: a stat grows from what the chapter achieved, not from what the
      // storyteller proposes (stakes/hero-state.ts). A continuation keeps its take's growth.
      const mission = prepared.chapterInput.mission;
      const grown = {
        ...written,
        statIncreases: continued
          ? {}
          : earnedGrowth(
              prepared.chapterInput.character.stats,
              prepared.check,
              written.missionCompleted || (Boolean(mission) && Boolean(written.newMission)),
              written.statIncreases,
            ),
      };
      const merged = continued ? continuedResult(continued, grown) : { result: grown, preMission: prepared.preMission };
      const result = continued ? { ...merged.result, ...continuedStakes(continued, grown) } : merged.result;
      // A continued take keeps what the take it continues remembered (under ids of its own), then adds its part.
      const memories = continued
        ? [...continued.memories.map((mem) => ({ ...mem, id: crypto.randomUUID() })), ...takeMemories(written, null)]
        : takeMemories(written, live.action);
      // A storyteller without a context limit reports nothing of its own: what it was given.
      const promptReport = report ?? givenReport(prepared.chapterInput, 'offline', 'the offline storyteller');
      const turn = this.lane.enter(lane, { database: true });
      if (turn) await turn;
      const c = ctx.character;
      const outcome = await commitChapter(
        this.store.dataSource,
        {
          characterId: live.characterId,
          chapterId: live.chapterId,
          index: live.index,
          take: live.take,
          action: live.action,
          createdAt: live.createdAt,
          mode,
          result,
          preMission: merged.preMission,
          summary: prepared.summary,
          heroName: c.name,
          memories,
          promptReport,
          check: prepared.check,
          // A party round's companions: their checks and growth, on their party stats.
          party: prepared.party,
          // The proposals are about the choices this take offers (a continuation's: its own).
          choiceChecks: choiceChecksOf(written),
        },
        // The state the context read (and the claim guards): a next chapter commits in one call.
        mode === 'next'
          ? {
              stats: c.stats,
              setting: c.currentSetting,
              activeMissionId: ctx.missionId,
              cards: prepared.cards,
              health: { current: c.health, max: c.healthMax },
            }
          : null,
      );
      this.registry.remember(outcome, c.userId);
      live.end('complete', outcome.chapter.text);
      this.reportPrompt(promptReport, live);
      this.hooks.vectors.refresh(live.characterId);
      this.foldAfter(ctx, live, outcome, prepared.chapterInput);
      return outcome;
    } catch (e) {
      await writer.stop();
      // Stopped by the player — here, or on another instance (the row says so; a commit refused
      // because of it ends here too): the take is dropped like a failed one, and said to be stopped.
      if (abort.signal.reason === STOPPED || (await this.store.wasStopped(live.chapterId).catch(() => false))) {
        live.end('failed', '', true);
        throw stoppedError();
      }
      const shutdown = abort.signal.reason === SHUTDOWN;
      if (shutdown) {
        this.log.warn('shutdown ended a chapter before it was written: it is a failed take the player can retry', {
          characterId: live.characterId,
          chapterId: live.chapterId,
        });
      } else if (!(isAppError(e) && (e.code === 'CONFLICT' || e.code === 'BAD_USER_INPUT'))) {
        this.log.error('chapter generation failed', { characterId: live.characterId, chapterId: live.chapterId, err: e });
      }
      // The row never became part of the story (it was never selected); mark it so readers stop.
      await this.store.markFailed(live.chapterId).catch((err: unknown) => {
        this.log.error('could not mark a chapter failed; retrying in the background', { chapterId: live.chapterId, err });
        this.registry.abandoned.add(live.chapterId);
        this.retryMarkFailed(live.chapterId, 1);
      });
      live.end('failed', '');
      if (shutdown)
        throw new AppError('SERVICE_UNAVAILABLE', 'The server is restarting: this chapter was not written. Please try again in a moment.', {
          retryAfterSeconds: 5,
        });
      throw generationError(e);
    } finally {
      this.lane.leave(lane);
      this.aborts.delete(abort);
      this.registry.remove(live);
    }
  }

  /** Streams the model's chapter into the live chapter (and, through the writer, the row). */
  private async write(
    live: LiveChapter,
    writer: TextWriter,
    lane: object,
    chapterInput: Parameters<StoryAI['streamChapter']>[0],
    signal: AbortSignal,
    tier: string | null,
  ): Promise<{ result: ChapterResult; report: PromptReport | null }> {
    let first = true;
    // A stop (or shutdown) ends the chapter at once, even while the model is silent or ignores the
    // signal: each chunk is awaited against the abort, and the model's stream is closed behind it.
    const aborted = new Promise<never>((_, reject) => {
      const fail = () => reject(signal.reason instanceof Error ? signal.reason : new Error('chapter generation aborted'));
      if (signal.aborted) fail();
      else signal.addEventListener('abort', fail, { once: true });
    });
    aborted.catch(() => undefined);
    const events = this.ai.streamChapter(chapterInput, { signal, tier })[Symbol.asyncIterator]();
    try {
      for (;;) {
        const next = await Promise.race([events.next(), aborted]);
        if (next.done) break;
        const ev = next.value;
        if (ev.type === 'choices') {
          live.offerChoices(ev.choices);
          writer.changed();
          continue;
        }
        if (ev.type === 'final') return { result: ev.result, report: ev.report ?? null };
        live.append(ev.text);
        writer.changed();
        // With few chapters running, every chunk gets a loop turn of its own: a chapter then spans
        // many turns, so requests already on their way (a double click, a burst of retries) arrive
        // while it is still running and join it.
        if (this.registry.size <= PER_CHUNK_YIELD_MAX_RUNNING) await yieldToLoop();
        // The first chunk is out (a reader sees it at once); the rest and the commit are background
        // work, taken in turns with the other generations (GenerationLane). A model that streams
        // over the network waits for its chunks anyway; one that resolves through microtasks only
        // (the offline storyteller) would otherwise hold the loop for the whole chapter.
        const turn = this.lane.enter(lane, { background: first });
        if (turn) await turn;
        first = false;
      }
    } finally {
      // Not awaited: a model stuck mid-chunk must not hold the stop up.
      void events.return?.(undefined)?.catch(() => undefined);
    }
    throw new Error('chapter stream ended without a result');
  }

  /**
   * What the chapter was written from, for operators: the sections' token counts and what was left
   * out, by section and reason (never the story's own words: those stay with the player's chapter).
   */
  private reportPrompt(report: PromptReport, live: LiveChapter): void {
    this.hooks.onPromptReport?.(report);
    this.log.info('chapter prompt', {
      characterId: live.characterId,
      chapterId: live.chapterId,
      provider: report.provider,
      model: report.model,
      maxContextTokens: report.maxContextTokens,
      reservedTokens: report.reservedTokens,
      promptTokens: report.promptTokens,
      sections: Object.fromEntries(report.sections.map((s) => [s.key, s.tokens])),
      omitted: report.omitted.map((o) => ({ section: o.section, tokens: o.tokens, reason: o.reason })),
    });
  }

  /**
   * Folds the rolling summary after a commit, in the background (the next chapter starts without
   * waiting for it). One fold per character at a time; shutdown aborts it.
   */
  private foldAfter(ctx: StoryContext, live: LiveChapter, outcome: ChapterOutcome, written: Parameters<StoryAI['streamChapter']>[0]): void {
    const characterId = live.characterId;
    if (this.folds.has(characterId)) return; // the running one reads the stored state when it needs to
    const abort = new AbortController();
    this.aborts.add(abort);
    const committed = { id: outcome.chapter.id, index: live.index, text: outcome.chapter.text, playerChoice: live.action };
    const fold = this.prompter
      .foldAfter(
        {
          character: ctx.character,
          unsummarized: [...ctx.unsummarized.filter((ch) => ch.index < live.index), committed],
          fixed: {
            worldDescription: written.worldDescription,
            character: written.character,
            mission: written.mission,
            setting: written.setting,
            action: null,
            plotEssentials: written.plotEssentials,
            authorsNote: written.authorsNote,
            storyCards: written.storyCards,
            maxContextTokens: ctx.maxContextTokens,
          },
          maxContextTokens: ctx.maxContextTokens,
          tier: ctx.tierId,
        },
        abort.signal,
      )
      .catch((err: unknown) => this.log.warn('summary fold failed', { characterId, err }))
      .finally(() => {
        this.aborts.delete(abort);
        this.folds.delete(characterId);
      });
    this.folds.set(characterId, fold);
  }

  /**
   * Stops the character's chapter in progress, wherever it is written: its take is dropped (never part
   * of the story, like a failed one) and its readers are told it was stopped. The row is marked first,
   * so an instance writing it elsewhere stops at its next write, and a commit racing the stop either
   * lands first (then nothing was stopped: false) or is refused. True when a chapter was stopped.
   */
  async stop(userId: string, characterId: unknown): Promise<boolean> {
    const c = await findOwnedCharacter(this.store.dataSource, userId, characterId);
    const id = await this.store.stopGenerating(c.id);
    if (!id) return false;
    this.registry.chapter(id)?.stop();
    this.log.info('chapter stopped by the player', { characterId: c.id, chapterId: id });
    return true;
  }

  /** Settles when no background work (summary folds) is running: tests, and shutdown. */
  async idle(): Promise<void> {
    while (this.folds.size > 0) await Promise.allSettled([...this.folds.values()]);
  }

  /** Retries marking an abandoned chapter failed with backoff (≈ 1 s … 30 s), e.g. while PostgreSQL restarts. */
  private retryMarkFailed(chapterId: string, attempt: number): void {
    if (attempt > 12) return; // the 30-second staleness rule still frees the character
    const timer = setTimeout(
      () => {
        this.store.markFailed(chapterId).then(
          () => this.registry.abandoned.delete(chapterId),
          () => this.retryMarkFailed(chapterId, attempt + 1),
        );
      },
      Math.min(30_000, 500 * 2 ** attempt),
    );
    timer.unref();
  }

  /** Waits for a generation running on another instance by watching its row. */
  private async awaitRemote(chapterId: string): Promise<ChapterOutcome> {
    for (;;) {
      const local = this.registry.chapter(chapterId);
      if (local) return local.done;
      const row = await this.remoteState(chapterId, 'status');
      if (row?.stopped) throw stoppedError();
      if (!row || row.status === 'failed') throw new AppError('GENERATION_FAILED', CHAPTER_FAILED);
      if (row.status === 'complete') return this.outcome(chapterId);
      await new Promise((r) => setTimeout(r, this.options.pollIntervalMs));
    }
  }

  /**
   * A chapter written elsewhere, as a joiner or reader polls it. A writer touches its row at least
   * every heartbeat; one silent for staleAfterMs is gone (its process died), so the chapter is marked
   * failed here and the wait ends: a join never hangs on a dead writer, and the player's next request
   * takes over at once. The database's clock decides, so instances with skewed clocks agree.
   */
  async remoteState(chapterId: string, columns: 'status' | 'status, text, choices'): Promise<RemoteState | null> {
    const row = await this.store.remoteState(chapterId, columns, this.options.staleAfterMs);
    if (!row) return null;
    if (row.dead && !this.registry.chapter(chapterId)) {
      await this.store.failGenerating(chapterId);
      this.log.warn("a chapter's writer stopped answering: marked failed", { chapterId });
      return { ...row, status: 'failed' };
    }
    return row;
  }

  async outcome(chapterId: string): Promise<ChapterOutcome> {
    return outcomeOf(await this.store.chapter(chapterId));
  }

  /**
   * Shutdown: new generations are refused at once; the ones in flight get `graceMs` to commit, then
   * are stopped — their rows are marked failed and the story is untouched, so the same action can be
   * sent again (to another instance).
   */
  async close(graceMs = 0): Promise<void> {
    this.gate.close();
    const all = Promise.allSettled(this.registry.all().map((r) => r.done));
    if (graceMs > 0 && this.registry.size > 0) {
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([all, new Promise((r) => (timer = setTimeout(r, graceMs)))]);
      clearTimeout(timer);
    }
    for (const a of this.aborts) a.abort(SHUTDOWN);
    await all;
    await this.idle();
  }
}

/** The action a chapter answers: the player's for a next chapter, the replaced take's for a new take. */
function actionOf(ctx: StoryContext, input: ParsedGenerate, mode: GenerateMode): string | null {
  return mode === 'next' ? input.action : (ctx.latest?.playerChoice ?? null);
}

function isDuplicate(latest: LatestChapter, input: ParsedGenerate, arrivedAt: number): boolean {
  if (!latest.completedAt || latest.playerChoice !== input.action) return false;
  // With the index the player saw, a retry is told apart exactly — the opening chapter (no action)
  // included; without it, only by the action and a grace period.
  if (input.expectedIndex !== null) return input.expectedIndex === latest.index;
  return input.action !== null && arrivedAt <= latest.completedAt.getTime() + DUPLICATE_GRACE_MS;
}

function settled(outcome: ChapterOutcome, joined: boolean): ChapterHandle {
  const c = outcome.chapter;
  return { chapterId: c.id, characterId: c.characterId, index: c.index, take: c.take, joined, done: Promise.resolve(outcome) };
}

function yieldToLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
