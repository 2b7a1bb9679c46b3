import { threadId } from 'node:worker_threads';
import { renderWorldImage } from './image';
import { paintWorldImage } from './image-thread';

/**
 * A world's picture is painted on the painter thread, so the app's thread keeps answering meanwhile
 * (it stalled 60–200 ms per picture when it painted them itself), and it is the very picture the
 * app's thread would have painted: the featured worlds' art stays the same on every installation.
 */
describe('the picture painter thread', () => {
  const description = 'A river town of mills and markets where every bridge has a toll and a story.';

  it('paints off the app thread, byte for byte what renderWorldImage paints here', async () => {
    const [there, here] = await Promise.all([paintWorldImage(description, 7), renderWorldImage(description, 7)]);
    expect(there.threadId).not.toBe(threadId);
    expect(there.width).toBe(here.width);
    expect(there.height).toBe(here.height);
    expect(there.bytes.subarray(0, 3)).toEqual(Buffer.from([0xff, 0xd8, 0xff])); // a JPEG
    expect(Buffer.compare(there.bytes, here.bytes)).toBe(0);
  });

  it('answers pictures asked at once, each its own', async () => {
    const seeds = [1, 2, 3];
    const pictures = await Promise.all(seeds.map((s) => paintWorldImage(description, s)));
    expect(new Set(pictures.map((p) => p.bytes.toString('base64'))).size).toBe(3);
    const again = await paintWorldImage(description, 2);
    expect(Buffer.compare(again.bytes, pictures[1]!.bytes)).toBe(0);
  });
});
