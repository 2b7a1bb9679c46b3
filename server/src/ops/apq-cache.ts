import type Redis from 'ioredis';

/** How long an automatic persisted query stays registered without use. */
const APQ_TTL_SECONDS = 24 * 3600;

/**
 * Apollo Server's KeyValueCache over Redis, for automatic persisted queries: a query registered
 * through one instance is known to all. Every failure reads as a miss (the client then sends the full
 * query, which Apollo answers) and every failed write is dropped: APQ is an optimisation and Redis
 * being down must never fail a request.
 */
export class RedisKeyValueCache {
  constructor(
    private readonly client: Redis,
    private readonly prefix = 'taleforge:apq:',
  ) {}

  async get(key: string): Promise<string | undefined> {
    if (this.client.status !== 'ready') return undefined;
    try {
      return (await this.client.get(this.prefix + key)) ?? undefined;
    } catch {
      return undefined;
    }
  }

  async set(key: string, value: string, options?: { ttl?: number | null }): Promise<void> {
    if (this.client.status !== 'ready') return;
    const ttl = options?.ttl ?? APQ_TTL_SECONDS;
    try {
      if (ttl > 0) await this.client.set(this.prefix + key, value, 'EX', Math.ceil(ttl));
      else await this.client.set(this.prefix + key, value);
    } catch {
      /* a miss next time; the client re-sends the query */
    }
  }

  async delete(key: string): Promise<boolean> {
    try {
      return (await this.client.del(this.prefix + key)) > 0;
    } catch {
      return false;
    }
  }
}
