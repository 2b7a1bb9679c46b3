import { MemoryRateLimiter } from './rate-limiter';

describe('MemoryRateLimiter', () => {
  it('allows `limit` hits per window per key, then refuses with a retry-after until the window ends', async () => {
    let now = 1_000_000;
    const l = new MemoryRateLimiter(() => now);
    const results = [];
    for (let i = 0; i < 4; i++) results.push(await l.hit('k', 3, 60));
    expect(results.map((r) => r.allowed)).toEqual([true, true, true, false]);
    expect(results[3].retryAfterSeconds).toBe(60);
    expect((await l.hit('other', 3, 60)).allowed).toBe(true);
    now += 30_000;
    expect((await l.hit('k', 3, 60)).retryAfterSeconds).toBe(30);
    now += 30_001;
    expect((await l.hit('k', 3, 60)).allowed).toBe(true);
  });
});
