import type Redis from 'ioredis';
import { ioredis } from '../common/lazy-modules';
import type { Logger } from '../common/logger';
import { MemoryRateLimiter, type RateLimiter, type RateLimitResult } from '../common/rate-limiter';

/** INCR the window's counter, start its expiry on the first hit, and return the count and time left. */
const HIT_SCRIPT = `
local c = redis.call('INCR', KEYS[1])
if c == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[1]); ttl = tonumber(ARGV[1]) end
return {c, ttl}
`;

/** This instance's view of one shared window: what Redis last counted, and our hits still on their way. */
interface Estimate {
  known: number;
  pending: number;
  resetAt: number;
}

export interface ClosableRateLimiter extends RateLimiter {
  readonly mode: 'memory' | 'redis';
  close(): Promise<void>;
}

/**
 * Fixed-window counters shared by every instance through Redis, so a limit means the same thing
 * behind a load balancer. When Redis is unreachable the limiter does not wait for it (no offline
 * queue): each instance falls back to its own in-memory windows until Redis answers again, so a
 * Redis outage weakens the limits for a while but never stops the app from serving.
 */
export class RedisRateLimiter implements ClosableRateLimiter {
  readonly mode = 'redis' as const;
  /** Shared with the persisted-query cache (one extra connection per instance, not two). */
  readonly client: Redis;
  private readonly fallback = new MemoryRateLimiter();
  private readonly estimates = new Map<string, Estimate>();
  private lastSweep = 0;
  private warned = false;

  constructor(
    url: string,
    private readonly logger?: Logger,
    private readonly prefix = 'taleforge:rl:',
  ) {
    this.client = new (ioredis())(url, {
      connectionName: 'taleforge-ratelimit',
      enableOfflineQueue: false,
      maxRetriesPerRequest: 1,
      // Every request checks one or two limits: hits issued in the same tick go out as one write to
      // Redis and come back as one read, instead of a round of system calls each.
      enableAutoPipelining: true,
      // Reconnect forever, at most every 2 s: the fallback covers the gap.
      retryStrategy: (times) => Math.min(times * 100, 2000),
    });
    this.client.on('error', (err) => {
      if (!this.warned) this.logger?.warn('rate limiter: Redis unavailable, limiting per instance meanwhile', { err });
      this.warned = true;
    });
    this.client.on('ready', () => {
      if (this.warned) this.logger?.info('rate limiter: Redis is back');
      this.warned = false;
    });
    this.client.defineCommand('tfRateHit', { numberOfKeys: 1, lua: HIT_SCRIPT });
  }

  async hit(key: string, limit: number, windowSeconds: number): Promise<RateLimitResult> {
    if (this.client.status !== 'ready') return this.fallback.hit(key, limit, windowSeconds);
    try {
      const cmd = (this.client as unknown as { tfRateHit(k: string, ms: number): Promise<[number, number]> }).tfRateHit;
      const [count, ttlMs] = await cmd.call(this.client, this.prefix + key, windowSeconds * 1000);
      return {
        allowed: count <= limit,
        remaining: Math.max(0, limit - count),
        retryAfterSeconds: Math.max(1, Math.ceil(Number(ttlMs) / 1000)),
      };
    } catch {
      return this.fallback.hit(key, limit, windowSeconds);
    }
  }

  /**
   * Decided at once from this instance's view of the shared window: the count Redis returned last for
   * the key plus this instance's hits still on their way to it. The hit itself is sent as `hit` sends
   * it (pipelined) and its reply becomes the new view (replies on one connection come back in order,
   * so the latest one includes every earlier hit, any instance's). On one instance this is exactly
   * Redis's count; with several, another instance's hits are seen one Redis round trip late, so at
   * most what the other instances let through during that round trip (a millisecond) can go over a
   * limit. The front uses this so no request waits on Redis before it is answered; the few limits
   * that guard secrets and credits (sign-in, mail, reports) keep the awaited, exact `hit`.
   */
  hitNow(key: string, limit: number, windowSeconds: number): RateLimitResult {
    if (this.client.status !== 'ready') return this.fallback.hitNow(key, limit, windowSeconds);
    const now = Date.now();
    this.sweep(now);
    let e = this.estimates.get(key);
    if (!e || e.resetAt <= now) {
      e = { known: 0, pending: 0, resetAt: now + windowSeconds * 1000 };
      this.estimates.set(key, e);
    }
    const view = e;
    view.pending++;
    const count = view.known + view.pending;
    const cmd = (this.client as unknown as { tfRateHit(k: string, ms: number): Promise<[number, number]> }).tfRateHit;
    cmd.call(this.client, this.prefix + key, windowSeconds * 1000).then(
      ([c, ttlMs]) => {
        view.pending--;
        view.known = Number(c);
        view.resetAt = Date.now() + Number(ttlMs);
      },
      () => {
        // Redis did not take it: the hit still counts here, for the rest of this window.
        view.pending--;
        view.known++;
      },
    );
    return { allowed: count <= limit, remaining: Math.max(0, limit - count), retryAfterSeconds: Math.max(1, Math.ceil((view.resetAt - now) / 1000)) };
  }

  /** Drops ended windows' views now and then, so memory stays bounded by the active keys. */
  private sweep(now: number): void {
    if (now - this.lastSweep < 60_000) return;
    this.lastSweep = now;
    for (const [k, e] of this.estimates) if (e.resetAt <= now && e.pending === 0) this.estimates.delete(k);
  }

  async count(key: string): Promise<number> {
    if (this.client.status !== 'ready') return this.fallback.count(key);
    try {
      return Number((await this.client.get(this.prefix + key)) ?? 0);
    } catch {
      return this.fallback.count(key);
    }
  }

  async close(): Promise<void> {
    await this.client.quit().catch(() => this.client.disconnect());
  }
}

class ClosableMemoryRateLimiter extends MemoryRateLimiter implements ClosableRateLimiter {
  readonly mode = 'memory' as const;
  async close(): Promise<void> {}
}

/** Redis-backed with REDIS_URL (limits hold across instances), else in this process. */
export function createRateLimiter(config: { redisUrl?: string; ops?: { rateLimitKeyPrefix: string } }, logger?: Logger): ClosableRateLimiter {
  return config.redisUrl ? new RedisRateLimiter(config.redisUrl, logger, config.ops?.rateLimitKeyPrefix) : new ClosableMemoryRateLimiter();
}
