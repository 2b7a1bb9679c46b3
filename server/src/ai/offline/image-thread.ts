import type { Worker } from 'node:worker_threads';
import { spawnModuleWorker } from '../../common/module-worker';

/**
 * Procedural world pictures painted on a thread of their own.
 *
 * A picture is ~0.1–0.2 s of per-pixel arithmetic on whichever thread paints it. On the app's thread
 * that was an event-loop stall of 60–200 ms for every offline world picture a player asked for (no
 * request, WebSocket frame or chapter chunk moved meanwhile), and the boot that painted the 14
 * featured pictures served its requests ~10% slower for the rest of its life (npm run bench, paired
 * runs). Here one painter thread is started on the first picture, held only while a picture is
 * awaited (an idle painter never keeps the process alive), and paints one picture at a time in the
 * order asked; the same description and seed give the same bytes as on any other thread.
 */
export interface PaintedImage {
  bytes: Buffer;
  width: number;
  height: number;
}

/** What the painter answers (image-worker.ts): the picture, or its error's message. */
export type FromPainter =
  { id: number; ok: true; bytes: Uint8Array; width: number; height: number; threadId: number } | { id: number; ok: false; message: string };
export interface ToPainter {
  id: number;
  description: string;
  seed: number;
}

let painter: Worker | null = null;
let seq = 0;
const pending = new Map<number, { resolve: (v: PaintedImage & { threadId: number }) => void; reject: (e: Error) => void }>();

function started(): Worker {
  if (painter) return painter;
  const worker = spawnModuleWorker(__filename, 'image-worker');
  worker.unref();
  worker.on('message', (m: FromPainter) => {
    const p = pending.get(m.id);
    if (!p) return;
    pending.delete(m.id);
    if (pending.size === 0) worker.unref();
    if (m.ok) p.resolve({ bytes: Buffer.from(m.bytes.buffer, m.bytes.byteOffset, m.bytes.byteLength), width: m.width, height: m.height, threadId: m.threadId });
    else p.reject(new Error(m.message));
  });
  // The thread died (out of memory, a bug): the pictures awaited fail, the next one starts a new painter.
  const gone = (e: Error) => {
    if (painter === worker) painter = null;
    for (const p of pending.values()) p.reject(e);
    pending.clear();
  };
  worker.on('error', gone);
  worker.on('exit', () => gone(new Error('The picture painter stopped.')));
  painter = worker;
  return worker;
}

/** The offline storyteller's picture of a world (renderWorldImage), painted on the painter thread. */
export function paintWorldImage(description: string, seed: number): Promise<PaintedImage & { threadId: number }> {
  const worker = started();
  const id = ++seq;
  return new Promise((resolve, reject) => {
    if (pending.size === 0) worker.ref();
    pending.set(id, { resolve, reject });
    worker.postMessage({ id, description, seed } satisfies ToPainter);
  });
}
