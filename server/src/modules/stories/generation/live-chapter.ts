/**
 * Delivering a chapter's text to readers while it is written, without ever losing or repeating text.
 *
 * The generation itself runs in GenerationEngine, detached from any request. Readers follow it here:
 *  - on the instance that runs it, from the in-memory LiveChapter: a snapshot of the text so far and
 *    a listener are taken in the same synchronous step, so nothing falls between them;
 *  - on any other instance (or after a restart), by polling the chapter row, whose text the generator
 *    persists every ~250 ms. This needs no pub/sub, so it works with several instances on PostgreSQL
 *    whether or not Redis is configured; the cost is up to one flush and one poll interval of extra latency.
 *
 * Every event says where its text goes (`offset`): the reader's text becomes
 * `text.slice(0, offset) + delta`. Plain appends have offset = length so far; when the final,
 * validated text differs from the streamed prose (a repaired model answer), the last event restarts
 * at 0 with the whole text. Either way the reader ends with exactly the stored chapter.
 */
import type { ChapterStatus } from '../chapter.entity';

export interface StreamFrame {
  status: ChapterStatus;
  offset: number;
  delta: string;
  /** On a failed frame: the player stopped the chapter (it did not break). */
  stopped?: boolean;
  /**
   * The next actions written so far, on the frame after they changed (the storyteller writes them
   * after the prose, before the chapter's record): a reader can show them before the chapter is
   * stored. Absent when unchanged; the complete frame's outcome has the list that was kept.
   */
  choices?: string[];
}

/**
 * The shortest time between two frames of a reader's stream (see LiveChapter.follow): 10 updates a
 * second — a model streaming 50–80 tokens a second shows its text a few words at a time, still
 * smooth to read — and two or three frames per chapter instead of one per chunk. In the story bench
 * (50 players on 2 cores) 50 ms meant 3 frames per chapter, 100 ms means 2: the rest of a fast
 * chapter then goes out with its end.
 */
const FRAME_INTERVAL_MS = 100;

interface Ending {
  status: 'complete' | 'failed';
  finalText: string;
  stopped: boolean;
}
type LiveEvent = { kind: 'delta'; text: string } | { kind: 'choices' } | ({ kind: 'end' } & Ending);

/** The in-memory side of a running generation on this instance. */
export class LiveChapter {
  text = '';
  /** The next actions written so far (null before the storyteller starts them). */
  choices: string[] | null = null;
  ended: Ending | null = null;
  private readonly listeners = new Set<(e: LiveEvent) => void>();

  constructor(
    readonly chapterId: string,
    readonly characterId: string,
    readonly index: number,
    readonly take: number,
    readonly action: string | null,
    /** When the row was claimed (its created_at). */
    readonly createdAt: Date,
  ) {}

  append(delta: string): void {
    if (this.ended || delta === '') return;
    this.text += delta;
    for (const l of this.listeners) l({ kind: 'delta', text: delta });
  }

  offerChoices(choices: string[]): void {
    if (this.ended || choices.length === 0) return;
    this.choices = [...choices];
    for (const l of this.listeners) l({ kind: 'choices' });
  }

  end(status: 'complete' | 'failed', finalText: string, stopped = false): void {
    if (this.ended) return;
    this.ended = { status, finalText, stopped };
    for (const l of this.listeners) l({ kind: 'end', status, finalText, stopped });
    this.listeners.clear();
  }

  /**
   * Frames from now on: first the text so far (when there is any), then what was appended since the
   * previous frame, then the end.
   *
   * Each frame is a GraphQL execution, a WebSocket message and a system call, and wakes the reader's
   * device, while a reader only ever needs the text so far: so after a frame, the next one waits
   * until `intervalMs` have passed (FRAME_INTERVAL_MS: 10 updates a second still reads as smooth
   * streaming, and a model hands over tokens far more often than that), and everything appended
   * meanwhile goes out in it. The first text and the end are never held back: the first chunk and
   * the finished chapter reach the reader at once (a last delta travels with the end). A reader who
   * arrives before the first chunk gets no empty frame; its first frame is that chunk.
   */
  async *follow(signal?: AbortSignal, intervalMs = FRAME_INTERVAL_MS): AsyncGenerator<StreamFrame> {
    if (this.ended) {
      // Already over: the whole chapter (or the failure) in one frame.
      yield finalFrame('', this.ended.status, this.ended.finalText, this.ended.stopped);
      return;
    }
    const queue: LiveEvent[] = [];
    let wake: (() => void) | null = null;
    // Snapshot and listener in one synchronous step: no delta can fall between them.
    let sent = this.text;
    let sentChoices = this.choices;
    const listener = (e: LiveEvent) => {
      queue.push(e);
      wake?.();
    };
    this.listeners.add(listener);
    const onAbort = () => wake?.();
    signal?.addEventListener('abort', onAbort);
    let lastFrameAt = -Infinity;
    try {
      if (sent !== '') {
        lastFrameAt = performance.now();
        yield { status: 'generating', offset: 0, delta: sent, ...(sentChoices ? { choices: sentChoices } : {}) };
      }
      for (;;) {
        if (signal?.aborted) return;
        const end = queue.find((e): e is Extract<LiveEvent, { kind: 'end' }> => e.kind === 'end');
        // The final text covers any deltas queued before the end.
        if (end) {
          yield finalFrame(sent, end.status, end.finalText, end.stopped);
          return;
        }
        if (queue.length > 0) {
          const due = lastFrameAt + intervalMs - performance.now();
          // The actions are never held back: the prose has ended, the player is waiting for them.
          if (due <= 0 || (queue.some((e) => e.kind === 'choices') && this.choices !== sentChoices)) {
            let delta = '';
            for (const e of queue) if (e.kind === 'delta') delta += e.text;
            queue.length = 0;
            const offset = sent.length;
            sent += delta;
            const choices = this.choices !== sentChoices ? this.choices : null;
            sentChoices = this.choices;
            lastFrameAt = performance.now();
            yield { status: 'generating', offset, delta, ...(choices ? { choices } : {}) };
            continue;
          }
          // Too soon after the previous frame: wait for the interval, or for the end.
          let timer: NodeJS.Timeout | undefined;
          await new Promise<void>((r) => {
            wake = r;
            timer = setTimeout(r, due);
          });
          clearTimeout(timer);
          wake = null;
          continue;
        }
        await new Promise<void>((r) => (wake = r));
        wake = null;
        // Woken by the first new event: let the rest of this tick's work (a generation appending the
        // rest of its chapter in microtasks, or several generations ending in one turn) queue up
        // behind it, so it goes out as one frame. process.nextTick runs once the microtask queue is empty.
        await new Promise<void>((r) => process.nextTick(r));
      }
    } finally {
      this.listeners.delete(listener);
      signal?.removeEventListener('abort', onAbort);
    }
  }
}

/** The last frame for a reader who has `sent` so far. */
export function finalFrame(sent: string, status: 'complete' | 'failed', finalText: string, stopped = false): StreamFrame {
  if (status === 'failed') return { status, offset: 0, delta: '', ...(stopped ? { stopped } : {}) };
  return finalText.startsWith(sent) ? { status, offset: sent.length, delta: finalText.slice(sent.length) } : { status, offset: 0, delta: finalText };
}

/**
 * Follows a chapter through its persisted row (another instance is writing it). `read` returns the
 * row's status and text, or null once the row is gone (a failed take cleaned up, or undone).
 */
export async function* pollChapter(
  read: () => Promise<{ status: ChapterStatus; text: string; choices?: string[]; stopped?: boolean } | null>,
  intervalMs: number,
  signal?: AbortSignal,
): AsyncGenerator<StreamFrame> {
  let sent: string | null = null;
  let sentChoices = '';
  for (;;) {
    const row = await read();
    if (!row || row.status === 'failed') {
      yield { status: 'failed', offset: 0, delta: '', ...(row?.stopped ? { stopped: true } : {}) };
      return;
    }
    if (row.status === 'complete') {
      yield finalFrame(sent ?? '', 'complete', row.text);
      return;
    }
    // A generating row's choices are the actions written so far ([] before them).
    const choices = row.choices?.length && row.choices.join('\n') !== sentChoices ? row.choices : null;
    if (choices) sentChoices = choices.join('\n');
    const withChoices = choices ? { choices } : {};
    if (sent === null) {
      sent = row.text;
      yield { status: 'generating', offset: 0, delta: sent, ...withChoices };
    } else if (row.text !== sent) {
      const frame = row.text.startsWith(sent) ? { offset: sent.length, delta: row.text.slice(sent.length) } : { offset: 0, delta: row.text };
      sent = row.text;
      yield { status: 'generating', ...frame, ...withChoices };
    } else if (choices) {
      yield { status: 'generating', offset: sent.length, delta: '', ...withChoices };
    }
    if (signal?.aborted) return;
    await sleep(intervalMs, signal);
    if (signal?.aborted) return;
  }
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const t = setTimeout(done, ms);
    function done() {
      clearTimeout(t);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });
}
