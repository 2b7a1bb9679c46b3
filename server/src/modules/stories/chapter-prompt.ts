/**
 * What a chapter is written from: the state before it (now, or — for a new take — before the latest
 * chapter), a mission generated first when the character has none (SPEC §4), and the story so far
 * folded to the tier's context (older chapters into the rolling summary, the recent ones verbatim).
 */
import { fixedChapterTokens, planFold } from '../../ai/context-budget';
import type { ChapterInput, PastChapter, StoryAI } from '../../ai/story-ai';
import { AppError } from '../../common/app-error';
import type { Logger } from '../../common/logger';
import type { Character } from '../characters/character.entity';
import type { LiveChapter } from './chapter-stream';
import type { SummaryUpdate } from './chapter-commit';
import type { GenerateMode, ParsedGenerate } from './story-input';
import { missionBeforeTake } from './story-state';
import type { StoryContext, StoryStore } from './story.store';

export interface PreparedChapter {
  chapterInput: ChapterInput;
  /** The objective generated before this chapter (the character had none), if any. */
  preMission: string | null;
  /** The rolling summary to store with the chapter, when older chapters were folded into it. */
  summary: SummaryUpdate | null;
}

export class ChapterPrompter {
  constructor(
    private readonly store: StoryStore,
    private readonly ai: StoryAI,
    private readonly log: Logger,
  ) {}

  async prepare(ctx: StoryContext, input: ParsedGenerate, mode: GenerateMode, live: LiveChapter, signal: AbortSignal): Promise<PreparedChapter> {
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
      const prev = await this.store.selectedChapter(this.store.dataSource, c.id, live.index);
      stats = prev.statsBefore;
      setting = prev.settingBefore;
      mission = await missionBeforeTake(this.store.dataSource.manager, prev);
      // The context reads the last completed mission only when none is active; before this take
      // there may have been none although there is one now.
      if (!mission && ctx.missionId) previousMission = await this.store.lastCompletedObjective(c.id);
    }
    const seed = seedOf(live.chapterId);

    // SPEC §4: no current mission → one is generated first; if that fails the story goes on without.
    let preMission: string | null = null;
    if (!mission) {
      try {
        preMission = (
          await this.ai.generateMission(
            { worldDescription, character: { name: c.name, description: c.description, traits: c.traits }, previousMission, seed },
            { signal },
          )
        ).objective;
        mission = preMission;
      } catch (e) {
        this.log.warn('mission generation failed; continuing without a mission', { characterId: c.id, err: e });
      }
    }

    const character = { name: c.name, description: c.description, stats, traits: c.traits, special: c.special?.name ? c.special : null };
    const fixed = { worldDescription, character, mission, setting, action: live.action };
    const history = historyOf(ctx.unsummarized, live.index);
    const fold = await this.fold(c, history, fixed, ctx.maxContextTokens, signal);
    return {
      chapterInput: {
        ...fixed,
        summary: fold.summary,
        recentChapters: history.slice(fold.recentStart),
        chapterNumber: live.index + 1,
        readingLevel: input.readingLevel,
        seed,
        maxContextTokens: ctx.maxContextTokens,
      },
      preMission,
      summary: fold.update,
    };
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
  ): Promise<{ summary: string; recentStart: number; update: SummaryUpdate | null }> {
    const summarizedCount = Math.min(c.summaryThroughIndex + 1, history.length);
    const plan = planFold({ chapters: history, summarizedCount, maxContextTokens, fixedTokens: fixedChapterTokens(fixed) });
    if (plan.foldTo <= plan.foldFrom) return { summary: c.storySummary, recentStart: summarizedCount, update: null };
    try {
      const { summary } = await this.ai.summarize(
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
}

/** Selected chapters before `index` that the rolling summary does not cover yet (older ones: placeholders). */
function historyOf(unsummarized: StoryContext['unsummarized'], index: number): PastChapter[] {
  const out: PastChapter[] = Array.from({ length: Math.max(0, index) }, () => ({ text: '', playerChoice: null }));
  for (const r of unsummarized) if (r.index >= 0 && r.index < index) out[r.index] = { text: r.text, playerChoice: r.playerChoice };
  return out;
}

/** A stable 31-bit seed per take: the offline storyteller is deterministic per seed. */
function seedOf(id: string): number {
  let h = 2166136261;
  for (let i = 0; i < id.length; i++) h = Math.imul(h ^ id.charCodeAt(i), 16777619);
  return (h >>> 0) & 0x7fffffff;
}
