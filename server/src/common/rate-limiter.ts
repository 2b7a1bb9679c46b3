/**
 * Fixed-window counters keyed by (bucket, subject). In memory by default; with REDIS_URL a Redis
 * implementation of the same interface, so limits hold across instances.
 */
export interface RateLimitResult {
  allowed: boolean;
  remaining: number;
  retryAfterSeconds: number;
}

export interface RateLimiter {
  hit(key: string, limit: number, windowSeconds: number): Promise<RateLimitResult>;
  /**
   * The same hit, decided now, without waiting for anything: the HTTP front checks every request with
   * it, so a cached public read is answered in the tick it arrived (an await per request costs a
   * cached read about as much as answering it). Exact in memory; see RedisRateLimiter for Redis.
   */
  hitNow(key: string, limit: number, windowSeconds: number): RateLimitResult;
  /** The window's count so far, without adding to it (0 when no window is open). */
  count(key: string): Promise<number>;
}

export class MemoryRateLimiter implements RateLimiter {
  private readonly windows = new Map<string, { count: number; resetAt: number }>();
  private lastSweep = 0;

  constructor(private readonly now: () => number = Date.now) {}

  async hit(key: string, limit: number, windowSeconds: number): Promise<RateLimitResult> {
    return this.hitNow(key, limit, windowSeconds);
  }

  hitNow(key: string, limit: number, windowSeconds: number): RateLimitResult {
    const now = this.now();
    this.sweep(now);
    let w = this.windows.get(key);
    if (!w || w.resetAt <= now) {
      w = { count: 0, resetAt: now + windowSeconds * 1000 };
      this.windows.set(key, w);
    }
    w.count++;
    const retryAfterSeconds = Math.max(1, Math.ceil((w.resetAt - now) / 1000));
    return { allowed: w.count <= limit, remaining: Math.max(0, limit - w.count), retryAfterSeconds };
  }

  async count(key: string): Promise<number> {
    const w = this.windows.get(key);
    return w && w.resetAt > this.now() ? w.count : 0;
  }

  /** Drops expired windows now and then, so memory stays bounded by the active keys. */
  private sweep(now: number): void {
    if (now - this.lastSweep < 60_000) return;
    this.lastSweep = now;
    for (const [k, w] of this.windows) if (w.resetAt <= now) this.windows.delete(k);
  }
}
