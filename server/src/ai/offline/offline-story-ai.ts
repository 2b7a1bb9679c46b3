/**
 * The offline storyteller: every generation with no network, deterministic for its inputs and seed.
 * Results pass the same zod schemas as the model's, so a bug here surfaces as GENERATION_FAILED
 * rather than as a corrupted storyline.
 */
import type { z } from 'zod';
import { AppError } from '../../common/app-error';
import { estimateTokens, estimateTokensJoined } from '../context-budget';
import {
  chapterResultSchema,
  characterSchema,
  clampReadingLevel,
  missionSchema,
  summarySchema,
  worldDescriptionSchema,
  worldQuestionsSchema,
  type CallOptions,
  type ChapterEvent,
  type ChapterInput,
  type CharacterInput,
  type CharacterResult,
  type MissionInput,
  type MissionResult,
  type StoryAI,
  type StoryAIOperation,
  type StyleSet,
  type StylesInput,
  type SummarizeInput,
  type SummaryResult,
  type Usage,
  type WorldDescriptionInput,
  type WorldDescriptionResult,
  type WorldImageInput,
  type WorldImageResult,
  type WorldQuestionsInput,
  type WorldQuestionsResult,
} from '../story-ai';
import { writeChapter, nextMission } from './chapter';
import { offlineCharacter } from './character';
import { paintWorldImage } from './image-thread';
import { Rng, mixSeed } from './prng';
import { offlineStyles } from './styles';
import { offlineSummary } from './summary';
import { worldDescription, worldQuestions } from './world';
import { groundedWorld } from './grounded';

export interface OfflineOptions {
  onUsage?: (usage: Usage) => void;
}

function checkAborted(opts?: CallOptions): void {
  if (opts?.signal?.aborted) throw new AppError('GENERATION_FAILED', 'Generation was cancelled.', { reason: 'aborted' });
}

export class OfflineStoryAI implements StoryAI {
  readonly kind = 'offline' as const;
  constructor(private readonly options: OfflineOptions = {}) {}

  private validate<S extends z.ZodType>(schema: S, value: unknown, what: string): z.infer<S> {
    const parsed = schema.safeParse(value);
    if (!parsed.success) {
      throw new AppError('GENERATION_FAILED', `The offline storyteller produced an invalid ${what}.`, { issues: parsed.error.issues.slice(0, 5) });
    }
    return parsed.data;
  }

  private usage(operation: StoryAIOperation, prompt: string | readonly string[], completion: string, started: number): Usage {
    // A prompt given in parts is their newline-joined text.
    const promptTokens = typeof prompt === 'string' ? estimateTokens(prompt) : estimateTokensJoined(prompt, '\n');
    const completionTokens = estimateTokens(completion);
    const u: Usage = {
      provider: 'offline',
      operation,
      model: 'offline-storyteller',
      promptTokens,
      completionTokens,
      totalTokens: promptTokens + completionTokens,
      cachedPromptTokens: 0,
      durationMs: performance.now() - started,
      attempt: 1,
    };
    this.options.onUsage?.(u);
    return u;
  }

  async generateWorldDescription(input: WorldDescriptionInput, opts?: CallOptions): Promise<WorldDescriptionResult> {
    checkAborted(opts);
    const t = performance.now();
    const out = this.validate(worldDescriptionSchema, { description: worldDescription(input.idea, input.maxLength) }, 'world description');
    this.usage('worldDescription', input.idea, out.description, t);
    return out;
  }

  async generateWorldQuestions(input: WorldQuestionsInput, opts?: CallOptions): Promise<WorldQuestionsResult> {
    checkAborted(opts);
    const t = performance.now();
    const out = this.validate(worldQuestionsSchema, { questions: worldQuestions(input.worldDescription) }, 'question list');
    this.usage('worldQuestions', input.worldDescription, out.questions.join('\n'), t);
    return out;
  }

  async generateWorldImage(input: WorldImageInput, opts?: CallOptions): Promise<WorldImageResult> {
    checkAborted(opts);
    const t = performance.now();
    const img = await paintWorldImage(input.worldDescription, input.seed ?? 0);
    this.usage('worldImage', input.worldDescription, '', t);
    return { mime: 'image/jpeg', bytes: img.bytes, width: img.width, height: img.height, source: 'procedural' };
  }

  async generateCharacter(input: CharacterInput, opts?: CallOptions): Promise<CharacterResult> {
    checkAborted(opts);
    const t = performance.now();
    const out = this.validate(characterSchema, offlineCharacter(input), 'character');
    this.usage('character', input.worldDescription, out.description, t);
    return out;
  }

  /**
   * Yields the chapter sentence by sentence (with the spaces/paragraph breaks that join them, so the
   * deltas concatenate to exactly the final text), then the validated result. The whole chapter is
   * composed first — it takes well under a millisecond — so the structured result and the prose can
   * never disagree.
   */
  async *streamChapter(input: ChapterInput, opts?: CallOptions): AsyncIterable<ChapterEvent> {
    checkAborted(opts);
    const t = performance.now();
    const level = clampReadingLevel(input.readingLevel);
    let written: ReturnType<typeof writeChapter>;
    try {
      written = input.continueFrom
        ? withoutRepeats(writeChapter(continuationInput(input), level), input.continueFrom)
        : input.differentFrom
          ? anotherTake(input, level)
          : writeChapter(input, level);
    } catch (e) {
      throw new AppError('GENERATION_FAILED', 'The offline storyteller could not write this chapter.', { cause: e instanceof Error ? e.message : String(e) });
    }
    const { result, paragraphs } = written;
    const valid = this.validate(chapterResultSchema, result, 'chapter');
    for (let p = 0; p < paragraphs.length; p++) {
      const sentences = paragraphs[p] as string[];
      for (let s = 0; s < sentences.length; s++) {
        checkAborted(opts);
        const sep = s < sentences.length - 1 ? ' ' : p < paragraphs.length - 1 ? '\n\n' : '';
        yield { type: 'delta', text: `${sentences[s]}${sep}` };
      }
    }
    // The prompt: world, summary and the recent chapters, one per line (an empty last line without any).
    const recent = input.recentChapters.length > 0 ? input.recentChapters.map((c) => c.text) : [''];
    const usage = this.usage('chapter', [input.worldDescription, input.summary, ...recent], valid.text, t);
    yield { type: 'final', result: valid, usage: [usage] };
  }

  async generateMission(input: MissionInput, opts?: CallOptions): Promise<MissionResult> {
    checkAborted(opts);
    const t = performance.now();
    const world = groundedWorld(input.worldDescription, input.world, input.character.name);
    const rng = new Rng(mixSeed('mission', input.seed ?? 0, world.key, input.character.name, input.previousMission ?? ''));
    const past = [...(input.pastMissions ?? []), ...(input.previousMission ? [input.previousMission] : [])];
    const out = this.validate(missionSchema, { objective: nextMission(world, rng, past) }, 'mission');
    this.usage('mission', input.worldDescription, out.objective, t);
    return out;
  }

  async generateStyles(input: StylesInput, opts?: CallOptions): Promise<StyleSet> {
    checkAborted(opts);
    const t = performance.now();
    const styles = offlineStyles(input.settingDescription);
    this.usage('styles', input.settingDescription, JSON.stringify(styles), t);
    return styles;
  }

  async summarize(input: SummarizeInput, opts?: CallOptions): Promise<SummaryResult> {
    checkAborted(opts);
    const t = performance.now();
    const out = this.validate(summarySchema, { summary: offlineSummary(input) }, 'summary');
    this.usage('summary', input.chapters.map((c) => c.text).join('\n'), out.summary, t);
    return out;
  }
}

/**
 * Continue, offline: the next beat of the same chapter, written like a chapter that follows the text
 * so far with no new action (it picks up that text's thread, moves the mission, ends on a hook).
 * Its sentence picks are scheduled by chapter number; a continuation takes them from a number no
 * real chapter has (far past the story's own), so it never repeats the chapters around it, and its
 * own seed, so continuing twice reads differently.
 */
function continuationInput(input: ChapterInput): ChapterInput {
  return {
    ...input,
    recentChapters: [...input.recentChapters, { text: input.continueFrom ?? '', playerChoice: input.action }],
    action: null,
    chapterNumber: input.chapterNumber + CONTINUATION_CHAPTER_OFFSET,
    seed: mixSeed(input.seed, 'continue'),
    // Kept: the writer reads it as "the same scene goes on" (nobody arrives who is already there).
    continueFrom: input.continueFrom,
  };
}
/**
 * A continuation's sentences that the part it continues already says (a person's habit, a stock
 * line) are left out: the reader has just read them. A paragraph keeps at least its first sentence.
 */
function withoutRepeats(written: ReturnType<typeof writeChapter>, old: string): ReturnType<typeof writeChapter> {
  const seen = old.replace(/\s+/g, ' ');
  const paragraphs = written.paragraphs.map((p) => {
    const kept = p.filter((sentence) => sentence.trim().length <= 30 || !seen.includes(sentence.trim()));
    return kept.length > 0 ? kept : p.slice(0, 1);
  });
  if (paragraphs.every((p, i) => p.length === written.paragraphs[i]?.length)) return written;
  return { ...written, paragraphs, result: { ...written.result, text: paragraphs.map((p) => p.join(' ')).join('\n\n') } };
}

/**
 * Another take of a chapter (Regenerate): its sentence picks are scheduled by chapter number, so the
 * take is written from a number no real chapter has and its own seed — a different encounter, other
 * wordings — while the story, mission and action it answers stay the same.
 */
function anotherTake(input: ChapterInput, level: number): ReturnType<typeof writeChapter> {
  // How many takes came before is unknown offline; the opening of the one it replaces tells takes
  // apart. A step that would write that very take again (its opening) is passed over.
  const replaced = (input.differentFrom ?? '').slice(0, 120);
  const salt = [...(input.differentFrom ?? '')].reduce((h, c) => (h * 31 + c.charCodeAt(0)) >>> 0, 7);
  let written: ReturnType<typeof writeChapter> | null = null;
  for (let k = 0; k < TAKE_STEPS.length; k++) {
    const step = TAKE_STEPS[(salt + k) % TAKE_STEPS.length] as number;
    written = writeChapter({ ...input, chapterNumber: input.chapterNumber + TAKE_CHAPTER_OFFSET * step, seed: mixSeed(input.seed, 'take', step) }, level);
    if (!replaced || words8(written.result.text) !== words8(replaced)) return written;
  }
  return written as ReturnType<typeof writeChapter>;
}
/**
 * A take's first eight words, punctuation and names aside: two takes of one schedule may join their
 * sentences differently and recall a different person ("the look on Thorne's face" / "…Corvin's…").
 */
function words8(text: string): string {
  // The first sentence only (what follows may be joined to it by ";" in one take and not the other).
  const words = (text.split(/[.;!?]/)[0] ?? '').match(/[\p{L}'’]+/gu) ?? [];
  return words
    .filter((w, i) => i === 0 || !/^\p{Lu}/u.test(w))
    .slice(0, 8)
    .join(' ')
    .toLowerCase();
}

/**
 * A take moves every sentence family's schedule by 1009 × a step from 1 to 10. Each family picks its
 * variant by a permutation of the chapter number modulo its size (10 to 60 variants) coprime to it,
 * so two takes pick alike only if the size divides 1009 × (the steps' difference) — never, as 1009
 * is prime and the difference is under 10.
 */
const TAKE_CHAPTER_OFFSET = 1009;
const TAKE_STEPS = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10];

/** See continuationInput: beyond any story's length, and a multiple of 3 apart (plot-essential recalls keep their turn). */
const CONTINUATION_CHAPTER_OFFSET = 999;
