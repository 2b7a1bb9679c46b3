/**
 * What a chapter is written from: the state before it (now, or — for a new take — before the latest
 * chapter), a mission generated first when the character has none (SPEC §4), and the story so far
 * folded to the tier's context (older chapters into the rolling summary, the recent ones verbatim).
 *
 * Nothing here calls the model before the chapter starts unless it must: with a remote model, a
 * mission call or a summary call before the chapter cost the player seconds before the first word.
 * So a model that proposes missions in its chapter answer (StoryAI.missionInChapter) gets none
 * first, and the rolling summary is folded after a chapter is committed (foldAfter), in the
 * background, for the chapters that follow.
 */
import { fixedChapterTokens, planFold } from '../../../ai/prompt-plan';
import type { ChapterInput, CheckOutcome, PastChapter, StoryAI } from '../../../ai/story-ai';
import { buildWorldMaterial } from '../../../ai/world-material';
import { itemUsed, judgeAction, proposalFor, rollCheck } from '../stakes/checks';
import { healthAfterCheck, healthGoingOn, inventoryOf, type Health } from '../stakes/hero-state';
import { companionChecksOf, rollCompanions, type PartyRoundInput, type TakeParty } from '../stakes/party-checks';
import { AppError } from '../../../common/app-error';
import type { Logger } from '../../../common/logger';
import type { Character } from '../../characters/character.entity';
import type { CardSnapshot, Chapter } from '../chapter.entity';
import { continueFrom } from './chapter-continue';
import type { LiveChapter } from './live-chapter';
import type { SummaryUpdate } from '../state/chapter-commit';
import type { GenerateMode, ParsedGenerate } from '../story-input';
import { cardsBeforeTake, promptCards } from '../memory/story-cards';
import { memoryQuery, type MemoryBank } from '../memory/memory-bank';
import type { MemoryVectors } from '../memory/memory-vectors';
import { missionBeforeTake } from '../state/take-effects';
import type { StoryContext, StoryStore, UnsummarizedChapter } from '../story.store';

export interface PreparedChapter {
  chapterInput: ChapterInput;
  /** The objective generated before this chapter (the character had none), if any. */
  preMission: string | null;
  /** Left null: the summary is folded after the commit (foldAfter), never before the chapter. */
  summary: SummaryUpdate | null;
  /** The story's cards as the chapter is written over them (before the take, for a new take). */
  cards: CardSnapshot[];
  /** Continue: the take being continued (its text comes first, its effects are kept). */
  continued: Chapter | null;
  /**
   * The check rolled for the action before a word is written (null: routine). A new take or a
   * continuation keeps the take's recorded roll: writing a chapter again never rerolls it.
   */
  check: CheckOutcome | null;
  /** The hero's health before the chapter (before a new take: before the take it replaces). */
  health: Health;
  /**
   * A party round: its party and round, and the companions' own checks and growth (stakes/party-checks.ts).
   * A new take or a continuation keeps the take's: the rolls are never rolled again.
   */
  party: TakeParty | null;
}

/** What foldAfter needs of the chapter just committed and the prompt it was written from. */
export interface FoldAfterInput {
  character: Character;
  /** The chapters the summary did not cover when the chapter started, then the chapter itself. */
  unsummarized: UnsummarizedChapter[];
  fixed: Parameters<typeof fixedChapterTokens>[0];
  maxContextTokens: number;
  /** The player's tier (its model folds the summary, as it writes the chapters). */
  tier: string | null;
}

export class ChapterPrompter {
  constructor(
    private readonly store: StoryStore,
    private readonly ai: StoryAI,
    private readonly log: Logger,
    private readonly memories: MemoryBank,
    private readonly vectors: MemoryVectors,
    private readonly dice: (seed: number) => number,
  ) {}

  async prepare(
    ctx: StoryContext,
    input: ParsedGenerate,
    mode: GenerateMode,
    live: LiveChapter,
    signal: AbortSignal,
    round: PartyRoundInput | null = null,
  ): Promise<PreparedChapter> {
    const c = ctx.character;
    const worldDescription = input.worldDescription ?? ctx.worldDescription;
    if (!worldDescription) throw AppError.badInput('No world description available', 'worldDescription');

    // The state the chapter is written from: now (read with the context, which the claim guards),
    // or (regenerating) just before the latest chapter. A continuation goes on from where the chapter
    // ends, so it is written from now too — the state the take it continues left (its own effects
    // are merged into the continued take: chapter-continue.ts).
    let stats = c.stats;
    let setting = c.currentSetting;
    let mission: string | null = ctx.mission;
    let previousMission = ctx.previousMission;
    let cards = ctx.cards;
    let missionStartedAt = ctx.missionStartedAt;
    let missionsCompleted = ctx.missionsCompleted;
    let health: Health = { current: c.health, max: c.healthMax };
    let check: CheckOutcome | null = null;
    let rolled = false;
    let party: TakeParty | null = null;
    const continued = mode === 'continue' ? await this.store.selectedChapter(this.store.dataSource, c.id, live.index) : null;
    /** A new take is asked to differ from the one it replaces (its opening lines). */
    let differentFrom: string | null = null;
    if (mode === 'regenerate') {
      const prev = await this.store.selectedChapter(this.store.dataSource, c.id, live.index);
      differentFrom = openingOf(prev.text);
      if (prev.stakes) health = { current: prev.stakes.healthBefore, max: prev.stakes.healthMaxBefore };
      check = prev.checkOutcome ?? null;
      rolled = true;
      party = partyOf(prev);
      // Written over the state before the take: a mission the take completed was not done yet.
      if (prev.missionEffects?.completedMissionId) missionsCompleted = Math.max(0, missionsCompleted - 1);
      stats = prev.statsBefore;
      setting = prev.settingBefore;
      mission = await missionBeforeTake(this.store.dataSource.manager, prev);
      // The mission before the take: the one it completed (started earlier), or the active one.
      if (mission !== ctx.mission) missionStartedAt = null;
      cards = cardsBeforeTake(cards, prev.cardEffects ?? []);
      // The context reads the last completed mission only when none is active; before this take
      // there may have been none although there is one now.
      if (!mission && ctx.missionId) previousMission = await this.store.lastCompletedObjective(c.id);
    }
    const seed = seedOf(live.chapterId);
    if (continued) {
      check = continued.checkOutcome ?? null;
      rolled = true;
      party = partyOf(continued);
    }
    // Decide, then narrate: the action's check is rolled before the storyteller is called.
    const inventory = inventoryOf(cards);
    if (!rolled) {
      // A suggested choice the storyteller proposed a check for is rolled on its proposal (within
      // bounds); anything else — typed actions, offline stories — is judged by the rules.
      // A party round: the hero's check is on the story owner's own part only (none when they did not
      // act), and every companion's part is judged and rolled on its own, on their own stats.
      const own = round ? round.heroAction : live.action;
      const offered = mode === 'next' ? (ctx.latest?.choiceChecks ?? []) : [];
      const plan = judgeAction(own, c.difficulty, proposalFor(own, offered));
      check = plan ? rollCheck(plan, stats, itemUsed(own, inventory), c.difficulty, this.dice(seed)) : null;
      if (round) party = { partyId: round.partyId, round: round.round, checks: rollCompanions(round.companions, c.difficulty, seed, this.dice, offered) };
    }
    // What the storyteller is told: the health after the check's cost (a continuation: as the take left it).
    const hit = continued ? { current: c.health, max: c.healthMax, defeat: Boolean(continued.stakes?.defeat) } : healthAfterCheck(healthGoingOn(health), check);
    // The world's own material and the player's answers, from the story's copy of its world.
    const snap = c.worldSnapshot ?? {};
    const world = buildWorldMaterial({ name: snap.name ?? null, description: worldDescription, questions: snap.questions ?? [], answers: snap.answers ?? [] });
    const pastMissions = ctx.pastMissions;

    // SPEC §4: no current mission → one is generated first; if that fails the story goes on without.
    // A model that proposes it inside the chapter (missionInChapter) is told there is none instead.
    let preMission: string | null = null;
    // (A continuation never gets one: the chapter it continues already had its say on missions.)
    if (!mission && !continued && !this.ai.missionInChapter) {
      try {
        preMission = (
          await this.ai.generateMission(
            { worldDescription, character: { name: c.name, description: c.description, traits: c.traits }, previousMission, seed, world, pastMissions },
            { signal, tier: ctx.tierId },
          )
        ).objective;
        mission = preMission;
      } catch (e) {
        this.log.warn('mission generation failed; continuing without a mission', { characterId: c.id, err: e });
      }
    }

    const character = {
      name: c.name,
      description: c.description,
      stats,
      traits: c.traits,
      strengths: c.strengths,
      weaknesses: c.weaknesses,
      special: c.special?.name ? c.special : null,
    };
    const history = historyOf(ctx.unsummarized, live.index);
    // The memory bank: what earlier chapters left that this action and the latest lines call for.
    const latestLines = history.length ? history[history.length - 1]!.text.slice(-800) : '';
    // With an embeddings model, by meaning too: the player's action (what they ask for), or — for an
    // opening, a continuation or another take — the latest lines. A vector of both would be mostly
    // the prose, and drift from what the player asked.
    const model = this.vectors.model;
    const vector = model ? await this.vectors.queryVector(live.action?.trim() || latestLines.slice(-400), signal) : null;
    const memories = await this.memories.retrieve(c.id, live.index, memoryQuery([live.action, latestLines, mission]), {
      vector: model && vector ? { model, vector } : null,
    });
    const storyCards = promptCards(cards, {
      action: live.action,
      mission,
      recentTexts: history.slice(-3).map((h) => h.text),
      index: live.index,
    });
    const castList = cards
      .filter((k) => k.kind === 'character')
      .sort((a, b) => (b.lastSeenIndex ?? -1) - (a.lastSeenIndex ?? -1) || a.name.localeCompare(b.name))
      .slice(0, CAST_LIST_MAX)
      .map((k) => ({ name: k.name, role: k.role }));
    const fixed = {
      worldDescription,
      character,
      mission,
      setting,
      action: live.action,
      plotEssentials: c.plotEssentials,
      authorsNote: c.authorsNote,
      storyCards,
      castList,
      world,
    };
    // The stored summary and every chapter after it: the provider trims the oldest lines to fit
    // when a fold is still due (it runs after the previous commit, usually long finished).
    // The chapter before this one always goes verbatim, even when the summary covers it (a new take
    // of the latest chapter, after a fold): a chapter continues from its exact last lines.
    const recentStart = Math.min(c.summaryThroughIndex + 1, Math.max(0, history.length - 1));
    return {
      chapterInput: {
        ...fixed,
        summary: c.storySummary,
        recentChapters: history.slice(recentStart),
        chapterNumber: live.index + 1,
        readingLevel: input.readingLevel,
        seed,
        maxContextTokens: ctx.maxContextTokens,
        pointOfView: c.pointOfView,
        ...(mission && missionStartedAt !== null && !preMission ? { missionAge: Math.max(0, live.index - missionStartedAt) } : {}),
        ...(preMission ? { missionAge: 0 } : {}),
        ...(continued ? { continueFrom: continueFrom(continued.text) } : {}),
        ...(differentFrom ? { differentFrom } : {}),
        missionsCompleted,
        pastMissions,
        memories: memories.map(({ kind, text, chapterNumber, pinned }) => ({ kind, text, chapterNumber, pinned })),
        check,
        ...(party ? { companionChecks: companionChecksOf(party.checks) } : {}),
        inventory,
        health: { current: hit.current, max: hit.max },
        defeat: hit.defeat,
        difficulty: c.difficulty,
      },
      preMission,
      summary: null,
      cards,
      continued,
      check,
      health,
      party,
    };
  }

  /**
   * After a commit: folds the chapters pushed out of the verbatim window into the stored rolling
   * summary, incrementally (only the newly pushed-out ones are summarised), for the next chapter.
   * Runs in the background; a failure only leaves the chapters verbatim a while longer.
   */
  async foldAfter(f: FoldAfterInput, signal: AbortSignal): Promise<void> {
    const c = f.character;
    const plan = (through: number, chapters: UnsummarizedChapter[]) => {
      const history = placed(chapters, chapters.length ? chapters[chapters.length - 1]!.index + 1 : 0);
      const summarizedCount = Math.min(through + 1, history.length);
      return { history, p: planFold({ chapters: history, summarizedCount, maxContextTokens: f.maxContextTokens, fixedTokens: fixedChapterTokens(f.fixed) }) };
    };
    // Decided from what the chapter was written from first: most chapters need no fold (no read).
    const first = plan(c.summaryThroughIndex, f.unsummarized).p;
    if (first.foldTo <= first.foldFrom) return;
    // The stored state now (a fold after the previous chapter may have landed since it started).
    const state = await this.store.summaryState(c.id);
    if (!state) return;
    const { history, p } = plan(state.throughIndex, state.unsummarized);
    if (p.foldTo <= p.foldFrom) return;
    try {
      const { summary } = await this.ai.summarize(
        {
          previousSummary: state.summary,
          chapters: history.slice(p.foldFrom, p.foldTo),
          maxTokens: p.summaryMaxTokens,
          story: {
            worldDescription: f.fixed.worldDescription,
            character: f.fixed.character,
            mission: f.fixed.mission,
            cards: f.fixed.storyCards,
            maxContextTokens: f.maxContextTokens,
            world: f.fixed.world,
          },
        },
        { signal, tier: f.tier },
      );
      const lastCovered = state.unsummarized.find((ch) => ch.index === p.recentStart - 1);
      if (lastCovered) await this.store.storeSummary(c.id, summary, p.recentStart - 1, state.throughIndex, lastCovered.id);
    } catch (e) {
      if (!signal.aborted) this.log.warn('summary failed; chapters stay verbatim for now', { characterId: c.id, err: e });
    }
  }
}

/** The party round a take answered, as it recorded it (null: not a party round). */
function partyOf(take: Chapter): TakeParty | null {
  return take.partyId && take.partyRound !== null ? { partyId: take.partyId, round: take.partyRound, checks: take.partyChecks ?? [] } : null;
}

/** Most people named in a chapter prompt's cast list (see ChapterInput.castList). */
const CAST_LIST_MAX = 40;

/** Chapters placed at their indices before `length` (indices the summary covers: placeholders). */
function placed(chapters: UnsummarizedChapter[], length: number): PastChapter[] {
  const out: PastChapter[] = Array.from({ length: Math.max(0, length) }, () => ({ text: '', playerChoice: null }));
  for (const r of chapters) if (r.index >= 0 && r.index < length) out[r.index] = { text: r.text, playerChoice: r.playerChoice };
  return out;
}

/** Selected chapters before `index` that the rolling summary does not cover yet (older ones: placeholders). */
function historyOf(unsummarized: StoryContext['unsummarized'], index: number): PastChapter[] {
  return placed(unsummarized, index);
}

/** A take's first sentences (up to ~300 characters): what a new take is told to differ from. */
function openingOf(text: string): string {
  const head = text.slice(0, 320);
  const end = Math.max(head.lastIndexOf('. '), head.lastIndexOf('! '), head.lastIndexOf('? '), head.lastIndexOf('.\n'));
  return (end > 80 ? head.slice(0, end + 1) : head).trim();
}

/** A stable 31-bit seed per take: the offline storyteller is deterministic per seed. */
function seedOf(id: string): number {
  let h = 2166136261;
  for (let i = 0; i < id.length; i++) h = Math.imul(h ^ id.charCodeAt(i), 16777619);
  return (h >>> 0) & 0x7fffffff;
}
