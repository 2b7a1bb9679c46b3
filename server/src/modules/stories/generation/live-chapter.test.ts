import { finalFrame, LiveChapter, type StreamFrame } from './live-chapter';

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
    const live = new LiveChapter('c', 'k', 0, 0, null, new Date());
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

  it('sends no empty first frame; after a frame, deltas wait for the interval and go out together; the end goes at once', async () => {
    const live = new LiveChapter('c', 'k', 0, 0, null, new Date());
    const tick = () => new Promise((r) => setImmediate(r));
    const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
    const sentAt: number[] = [];
    const started = performance.now();
    const got: StreamFrame[] = [];
    const reading = (async () => {
      for await (const f of live.follow(undefined, 200)) {
        got.push(f);
        sentAt.push(performance.now() - started);
      }
    })();
    await tick();
    expect(got).toEqual([]); // nothing written yet: nothing sent
    live.append('a '); // the first chunk: at once
    await tick();
    live.append('b '); // in another tick, within the interval: held back...
    await tick();
    live.append('c ');
    while (got.length < 2) await sleep(5); // ...and sent together once the interval has passed
    await sleep(220);
    live.append('d'); // the interval has passed again: at once
    await tick();
    live.append('!');
    live.end('complete', 'a b c d!'); // the end does not wait for the interval
    await reading;
    expect(got.map((f) => [f.status, f.offset, f.delta])).toEqual([
      ['generating', 0, 'a '],
      ['generating', 2, 'b c '],
      ['generating', 6, 'd'],
      ['complete', 7, '!'],
    ]);
    expect(sentAt[1]! - sentAt[0]!).toBeGreaterThanOrEqual(195);
    expect(sentAt[3]! - sentAt[2]!).toBeLessThan(150); // it would have waited ~200 ms
    expect(apply(got)).toBe('a b c d!');
  });

  it('sends the next actions at once, not after the interval, and a late reader gets them with the text', async () => {
    const live = new LiveChapter('c', 'k', 0, 0, null, new Date());
    const got: StreamFrame[] = [];
    const sentAt: number[] = [];
    const started = performance.now();
    const reading = (async () => {
      for await (const f of live.follow(undefined, 10_000)) {
        got.push(f);
        sentAt.push(performance.now() - started);
      }
    })();
    live.append('The prose.');
    await new Promise((r) => setImmediate(r));
    live.append(' More.');
    await new Promise((r) => setImmediate(r));
    live.offerChoices(['Run']); // the first action: its frame does not wait out the 10 s interval
    while (got.length < 2) await new Promise((r) => setTimeout(r, 5));
    expect(got[1]).toEqual({ status: 'generating', offset: 10, delta: ' More.', choices: ['Run'] });
    expect(sentAt[1]!).toBeLessThan(1000);
    live.offerChoices(['Run', 'Hide']);
    while (got.length < 3) await new Promise((r) => setTimeout(r, 5));
    expect(got[2]).toEqual({ status: 'generating', offset: 16, delta: '', choices: ['Run', 'Hide'] });
    // A reader who arrives now gets the text and the actions so far in its first frame.
    const late = live.follow();
    expect((await late.next()).value).toEqual({ status: 'generating', offset: 0, delta: 'The prose. More.', choices: ['Run', 'Hide'] });
    await late.return(undefined);
    live.end('complete', 'The prose. More.');
    await reading;
  });

  it('stops following when the reader goes away, even while a frame is held back', async () => {
    const live = new LiveChapter('c', 'k', 0, 0, null, new Date());
    const abort = new AbortController();
    const got: StreamFrame[] = [];
    const reading = (async () => {
      for await (const f of live.follow(abort.signal, 10_000)) got.push(f);
    })();
    live.append('a ');
    await new Promise((r) => setImmediate(r));
    live.append('b ');
    await new Promise((r) => setImmediate(r));
    abort.abort();
    await reading; // returns without waiting out the 10 s interval
    expect(got).toEqual([{ status: 'generating', offset: 0, delta: 'a ' }]);
  });

  it('hands a reader that comes after the end the whole chapter in one frame', async () => {
    const live = new LiveChapter('c', 'k', 0, 0, null, new Date());
    live.append('All of it.');
    live.end('complete', 'All of it.');
    expect(await collect(live.follow())).toEqual([{ status: 'complete', offset: 0, delta: 'All of it.' }]);
  });

  it('restarts at 0 when the final text differs from what was streamed (a repaired answer)', async () => {
    const live = new LiveChapter('c', 'k', 0, 0, null, new Date());
    live.append('Draft');
    const got = await collect(live.follow(), () => live.end('complete', 'Final text'));
    expect(got[got.length - 1]).toEqual({ status: 'complete', offset: 0, delta: 'Final text' });
    expect(apply(got)).toBe('Final text');
    expect(finalFrame('Draft', 'failed', '')).toEqual({ status: 'failed', offset: 0, delta: '' });
  });
});
