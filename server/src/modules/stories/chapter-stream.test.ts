import { finalFrame, LiveChapter, type StreamFrame } from './chapter-stream';

/** Pulls frames the way a subscriber does, until the stream ends. */
async function collect(frames: AsyncGenerator<StreamFrame>, onFirst?: () => void): Promise<StreamFrame[]> {
  const out: StreamFrame[] = [];
  for await (const f of frames) {
    out.push(f);
    if (out.length === 1) onFirst?.();
  }
  return out;
}

const apply = (frames: StreamFrame[]) => frames.reduce((text, f) => text.slice(0, f.offset) + f.delta, '');

describe('LiveChapter.follow', () => {
  it('starts with the text so far, then sends what was appended in one tick as one frame', async () => {
    const live = new LiveChapter('c', 'k', 0, 0, null);
    live.append('One. ');
    const frames = collect(live.follow(), () => {
      // A model that hands over several sentences at once (the offline storyteller), then the end.
      live.append('Two. ');
      live.append('Three.');
      live.end('complete', 'One. Two. Three.');
    });
    const got = await frames;
    expect(got).toEqual([
      { status: 'generating', offset: 0, delta: 'One. ' },
      { status: 'complete', offset: 5, delta: 'Two. Three.' },
    ]);
  });

  it('sends deltas written in different ticks as frames of their own, each where the previous ended', async () => {
    const live = new LiveChapter('c', 'k', 0, 0, null);
    const frames = collect(live.follow(), async () => {
      for (const d of ['a ', 'b ', 'c']) {
        await new Promise((r) => setImmediate(r));
        live.append(d);
      }
      await new Promise((r) => setImmediate(r));
      live.end('complete', 'a b c');
    });
    const got = await frames;
    expect(got.map((f) => [f.status, f.offset, f.delta])).toEqual([
      ['generating', 0, ''],
      ['generating', 0, 'a '],
      ['generating', 2, 'b '],
      ['generating', 4, 'c'],
      ['complete', 5, ''],
    ]);
    expect(apply(got)).toBe('a b c');
  });

  it('hands a reader that comes after the end the whole chapter in one frame', async () => {
    const live = new LiveChapter('c', 'k', 0, 0, null);
    live.append('All of it.');
    live.end('complete', 'All of it.');
    expect(await collect(live.follow())).toEqual([{ status: 'complete', offset: 0, delta: 'All of it.' }]);
  });

  it('restarts at 0 when the final text differs from what was streamed (a repaired answer)', async () => {
    const live = new LiveChapter('c', 'k', 0, 0, null);
    live.append('Draft');
    const got = await collect(live.follow(), () => live.end('complete', 'Final text'));
    expect(got[got.length - 1]).toEqual({ status: 'complete', offset: 0, delta: 'Final text' });
    expect(apply(got)).toBe('Final text');
    expect(finalFrame('Draft', 'failed', '')).toEqual({ status: 'failed', offset: 0, delta: '' });
  });
});
