/**
 * The picture painter's thread (see image-thread.ts): paints each asked picture with renderWorldImage,
 * one at a time, and hands the JPEG's bytes back without copying them.
 */
import { parentPort, threadId } from 'node:worker_threads';
import { renderWorldImage } from './image';
import type { FromPainter, ToPainter } from './image-thread';

if (!parentPort) throw new Error('image-worker runs as a worker thread (see image-thread.ts)');
const port = parentPort;

let queue: Promise<void> = Promise.resolve();
port.on('message', (m: ToPainter) => {
  queue = queue.then(async () => {
    try {
      const img = await renderWorldImage(m.description, m.seed);
      // A copy of its own, so its whole buffer can be handed over (sharp's may be a slice of a pool).
      const bytes = new Uint8Array(img.bytes);
      port.postMessage({ id: m.id, ok: true, bytes, width: img.width, height: img.height, threadId } satisfies FromPainter, [bytes.buffer]);
    } catch (e) {
      port.postMessage({ id: m.id, ok: false, message: e instanceof Error ? e.message : String(e) } satisfies FromPainter);
    }
  });
});
