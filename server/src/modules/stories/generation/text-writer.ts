import type { LiveChapter } from './live-chapter';
import type { StoryStore } from '../story.store';

export interface TextWriterTiming {
  /** Text is persisted at most this often, and every chunk at most this long after it was written. */
  flushIntervalMs: number;
  /** A generating row is touched at least this often, so other instances can tell it is alive. */
  heartbeatMs: number;
}

/**
 * Persists a running chapter's text by time window: every chunk is in the row at most
 * flushIntervalMs after it arrived (counting from the start of the generation), with at most one
 * write per window — a chapter written faster than that is stored once, by its commit. So a crash
 * loses at most the last flushIntervalMs (250 ms) of text of a chapter in progress; such a chapter
 * is abandoned anyway (marked failed, retried by the player), the window matters to readers on
 * other instances, which follow the row. A heartbeat (touching updated_at) runs when nothing was
 * written for a while, so the row never looks abandoned during a slow model. Writes are never
 * awaited by the generation (only by stop(), before the commit), and are conditional on the row
 * still generating, so a late write can never overwrite a committed or failed chapter.
 */
export class TextWriter {
  private timer: NodeJS.Timeout | null = null;
  private heartbeat: NodeJS.Timeout | null = null;
  private writing: Promise<void> = Promise.resolve();
  private lastWrite = 0;
  private stopped = false;

  constructor(
    private readonly store: StoryStore,
    private readonly live: LiveChapter,
    private readonly timing: TextWriterTiming,
    /**
     * The row is no longer generating (the player stopped it from another instance, or it was
     * taken over): the generation should end. Noticed at the next write or heartbeat.
     */
    private readonly onGone: () => void = () => undefined,
  ) {}

  start(): void {
    this.heartbeat = setInterval(() => {
      if (Date.now() - this.lastWrite >= this.timing.heartbeatMs) this.enqueue();
    }, this.timing.heartbeatMs);
    this.heartbeat.unref();
    this.lastWrite = Date.now();
  }

  changed(): void {
    if (this.stopped || this.timer) return;
    const wait = Math.max(0, this.timing.flushIntervalMs - (Date.now() - this.lastWrite));
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
        if (!(await this.store.writeLiveText(this.live.chapterId, text, this.live.choices)) && !this.stopped) this.onGone();
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
