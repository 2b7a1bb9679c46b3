import type { LiveChapter } from './live-chapter';
import type { ChapterOutcome } from '../state/chapter-outcome';

/** How long (and how many) committed chapters stay in memory for readers arriving just after. */
const RECENT_MS = 10_000;
const RECENT_MAX = 2000;

export interface Running {
  live: LiveChapter;
  done: Promise<ChapterOutcome>;
  /** Owner of the character: lets a reader on this instance follow it without a database read. */
  userId: string;
  /** Ends the generation at once because the player stopped it (its row is already marked). */
  stop: () => void;
}

/**
 * This instance's memory of chapter generations: the ones running here (by chapter and by
 * character), the ones it gave up on, and the ones it committed a moment ago. The database remains
 * the truth (one generating row per character, across instances); this only spares reads and lets a
 * reader on this instance follow a chapter from memory.
 */
export class GenerationRegistry {
  private readonly byChapter = new Map<string, Running>();
  private readonly byCharacter = new Map<string, Running>();
  /**
   * Chapters this instance gave up on but could not mark failed (the database was unreachable at
   * that moment). This instance knows they are dead, so a new request takes over at once instead of
   * waiting for them to look stale; a background retry marks them for the other instances too.
   */
  readonly abandoned = new Set<string>();
  /**
   * Chapters committed here in the last RECENT_MS, by chapter id: a reader who subscribes right after
   * the commit (a fast model finishes before the client's subscribe arrives) gets the outcome from
   * memory. Dropped when this instance changes the character's story (undo, takes).
   */
  private readonly recent = new Map<string, { outcome: ChapterOutcome; userId: string; at: number }>();

  get size(): number {
    return this.byChapter.size;
  }

  all(): Running[] {
    return [...this.byChapter.values()];
  }

  chapter(chapterId: string): Running | undefined {
    return this.byChapter.get(chapterId);
  }

  character(characterId: string): Running | undefined {
    return this.byCharacter.get(characterId);
  }

  add(entry: Running): void {
    this.byChapter.set(entry.live.chapterId, entry);
    this.byCharacter.set(entry.live.characterId, entry);
  }

  remove(live: LiveChapter): void {
    this.byChapter.delete(live.chapterId);
    if (this.byCharacter.get(live.characterId)?.live === live) this.byCharacter.delete(live.characterId);
  }

  remember(outcome: ChapterOutcome, userId: string): void {
    const now = Date.now();
    this.recent.set(outcome.chapter.id, { outcome, userId, at: now });
    // Oldest first (insertion order): drop the expired ones, and never keep more than RECENT_MAX.
    for (const [id, r] of this.recent) {
      if (now - r.at < RECENT_MS && this.recent.size <= RECENT_MAX) break;
      this.recent.delete(id);
    }
  }

  /** A chapter committed here a moment ago, if it is this player's. */
  recentOutcome(chapterId: string, userId: string): ChapterOutcome | null {
    const r = this.recent.get(chapterId);
    return r && r.userId === userId && Date.now() - r.at < RECENT_MS ? r.outcome : null;
  }

  forgetRecent(characterId: string): void {
    for (const [id, r] of this.recent) if (r.outcome.chapter.characterId === characterId) this.recent.delete(id);
  }
}
