import { FreshCache } from './fresh-cache';

describe('FreshCache', () => {
  const deferred = <T>() => {
    let resolve!: (v: T) => void;
    const promise = new Promise<T>((r) => (resolve = r));
    return { promise, resolve };
  };

  it('concurrent loads of one key run the loader once and all get its value', async () => {
    const cache = new FreshCache<string, number>(10_000);
    let calls = 0;
    const d = deferred<number>();
    const results = Promise.all(Array.from({ length: 50 }, () => cache.load('k', () => (calls++, d.promise))));
    d.resolve(7);
    expect(await results).toEqual(Array(50).fill(7));
    expect(calls).toBe(1);
    expect(await cache.load('k', async () => 8)).toBe(7); // stored
  });

  it('a load that read before a forget does not put the old value back', async () => {
    const cache = new FreshCache<string, number>(10_000);
    const old = deferred<number>();
    const slow = cache.load('balance', () => old.promise);
    cache.forget('balance'); // the write committed while the read was on its way
    old.resolve(10);
    expect(await slow).toBe(10); // the caller that asked first still gets an answer
    expect(await cache.load('balance', async () => 7)).toBe(7); // but the next one reads again
    expect(cache.peek('balance')).toBe(7);
  });

  it('after a forget, a new load does not join the stale one in flight', async () => {
    const cache = new FreshCache<string, number>(10_000);
    const old = deferred<number>();
    void cache.load('k', () => old.promise);
    cache.forget('k');
    expect(await cache.load('k', async () => 2)).toBe(2);
    old.resolve(1);
    await old.promise;
    expect(cache.peek('k')).toBe(2);
  });

  it('expires after its TTL, and a TTL of 0 never stores', async () => {
    let now = 1_000;
    const cache = new FreshCache<string, number>(5_000, 100, () => now);
    await cache.load('k', async () => 1);
    now += 4_999;
    expect(cache.peek('k')).toBe(1);
    now += 1;
    expect(cache.peek('k')).toBeUndefined();
    const off = new FreshCache<string, number>(0);
    let calls = 0;
    await off.load('k', async () => ++calls);
    await off.load('k', async () => ++calls);
    expect(calls).toBe(2);
  });

  it('keeps at most maxEntries, dropping the oldest; failed loads are not stored', async () => {
    const cache = new FreshCache<number, number>(10_000, 3);
    for (let i = 0; i < 5; i++) await cache.load(i, async () => i);
    expect([0, 1, 2, 3, 4].map((i) => cache.peek(i))).toEqual([undefined, undefined, 2, 3, 4]);
    await expect(cache.load(9, async () => Promise.reject(new Error('db down')))).rejects.toThrow('db down');
    expect(cache.peek(9)).toBeUndefined();
    expect(await cache.load(9, async () => 9)).toBe(9);
  });

  it('clear drops everything, including what loads in flight had read', async () => {
    const cache = new FreshCache<string, number>(10_000);
    await cache.load('a', async () => 1);
    const d = deferred<number>();
    const inFlight = cache.load('b', () => d.promise);
    cache.clear();
    d.resolve(2);
    await inFlight;
    expect(cache.peek('a')).toBeUndefined();
    expect(cache.peek('b')).toBeUndefined();
  });
});
