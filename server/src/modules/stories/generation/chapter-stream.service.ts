/**
 * A character's chapter stream for readers (GraphQL chapterStream / playChapter): the generation
 * running on this instance is followed from memory; one elsewhere is followed by polling its row; a
 * finished chapter arrives at once, complete, with its outcome.
 */
import { AppError, isAppError } from '../../../common/app-error';
import { findOwnedCharacter } from '../../characters/owned-character';
import { isUuid } from '../../shared/input';
import type { Chapter } from '../chapter.entity';
import { outcomeOf, type ChapterOutcome } from '../state/chapter-outcome';
import { finalFrame, pollChapter, type StreamFrame } from './live-chapter';
import type { GenerationEngine } from './generation-engine';
import { CHAPTER_FAILED, CHAPTER_STOPPED } from './generation-failure';
import type { GenerationRegistry, Running } from './generation-registry';
import type { StoryStore } from '../story.store';

export interface StreamEvent extends StreamFrame {
  chapterId: string;
  characterId: string;
  index: number;
  take: number;
  outcome: ChapterOutcome | null;
  errorCode: string | null;
  error: string | null;
  /** Why it failed, for the player (see generation-failure.ts); null otherwise. */
  errorReason: string | null;
  errorHint: string | null;
  retryAfterSeconds: number | null;
}

const NO_ERROR = { errorCode: null, error: null, errorReason: null, errorHint: null, retryAfterSeconds: null };

interface Target {
  id: string;
  index: number;
  take: number;
}

export class ChapterStreamService {
  constructor(
    private readonly store: StoryStore,
    private readonly registry: GenerationRegistry,
    private readonly engine: GenerationEngine,
    private readonly pollIntervalMs: number,
  ) {}

  /**
   * The chapter stream for a character: the generation running now (text so far, then the rest),
   * or — when none is running — the given or latest chapter at once, complete. `chapterId` pins one
   * generation; without it the character's current one is followed.
   */
  async open(userId: string, characterId: unknown, chapterId?: unknown, signal?: AbortSignal): Promise<AsyncGenerator<StreamEvent>> {
    // Checks run before the stream is returned, so a stranger's id fails the subscribe call itself.
    // A generation running on this instance is followed from memory: its owner and ids are known, so
    // no read is needed (the database is only for generations elsewhere and finished chapters).
    if (!isUuid(characterId)) throw AppError.notFound('Character');
    const pinned = chapterId !== undefined && chapterId !== null;
    const local = pinned ? this.registry.chapter(String(chapterId)) : this.registry.character(characterId);
    if (local && local.userId === userId && local.live.characterId === characterId) {
      const l = local.live;
      return this.follow(characterId, { id: l.chapterId, index: l.index, take: l.take }, signal, local);
    }
    const recent = pinned ? this.registry.recentOutcome(String(chapterId), userId) : null;
    if (recent && recent.chapter.characterId === characterId) return this.finished(characterId, recent.chapter, recent);
    // Elsewhere (or finished): ownership, target and — for a finished chapter — the chapter itself in
    // one read: the chapter given, or the one generating now, or else the latest.
    if (pinned && !isUuid(chapterId)) {
      await findOwnedCharacter(this.store.dataSource, userId, characterId);
      throw AppError.notFound('Chapter');
    }
    const found = await this.store.streamTarget(userId, characterId, pinned ? chapterId : null);
    if (!found) throw AppError.notFound('Character');
    const chapter = found.chapter;
    if (!chapter) throw AppError.notFound('Chapter');
    if (found.status === 'complete') return this.finished(characterId, chapter, outcomeOf(chapter));
    return this.follow(characterId, { id: chapter.id, index: chapter.index, take: chapter.take }, signal, this.registry.chapter(chapter.id));
  }

  /** The stream of a chapter already committed: the whole text and the outcome, at once. */
  private async *finished(characterId: string, chapter: Chapter, outcome: ChapterOutcome): AsyncGenerator<StreamEvent> {
    const frame = finalFrame('', 'complete', chapter.text);
    yield { ...frame, chapterId: chapter.id, characterId, index: chapter.index, take: chapter.take, outcome, ...NO_ERROR };
  }

  private async *follow(characterId: string, target: Target, signal?: AbortSignal, local?: Running): AsyncGenerator<StreamEvent> {
    const frames = local
      ? local.live.follow(signal)
      : pollChapter(
          async () => {
            const r = await this.engine.remoteState(target.id, 'status, text, choices');
            return r ? { status: r.status, text: r.text ?? '', choices: r.choices ?? [], stopped: r.stopped } : null;
          },
          this.pollIntervalMs,
          signal,
        );
    for await (const frame of frames) {
      const base = { ...frame, chapterId: target.id, characterId, index: target.index, take: target.take, outcome: null, ...NO_ERROR };
      if (frame.status === 'complete') {
        // A local generation hands over the outcome it committed; otherwise it is read back.
        yield { ...base, outcome: local ? await local.done : await this.engine.outcome(target.id) };
      } else if (frame.status === 'failed') {
        // A generation on this instance says why it failed; one elsewhere is only seen as failed.
        const why = local
          ? await local.done.then(
              () => null,
              (e: unknown) => e,
            )
          : null;
        const d = isAppError(why) ? why.details : undefined;
        if (frame.stopped || d?.reason === 'stopped') {
          yield { ...base, errorCode: 'STOPPED', error: CHAPTER_STOPPED, errorReason: 'stopped' };
          continue;
        }
        yield {
          ...base,
          errorCode: 'GENERATION_FAILED',
          error: CHAPTER_FAILED,
          errorReason: typeof d?.reason === 'string' ? d.reason : null,
          errorHint: typeof d?.hint === 'string' ? d.hint : null,
          retryAfterSeconds: typeof d?.retryAfterSeconds === 'number' ? d.retryAfterSeconds : null,
        };
      } else {
        yield base;
      }
    }
  }
}
