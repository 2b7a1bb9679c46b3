/**
 * A small read-through cache for hot per-request lookups (a session's user, a player's balance),
 * where every write that matters also calls `forget`. The TTL only bounds how long a value can stay
 * stale when an invalidation is missed (another instance's broadcast lost while Redis is down).
 *
 * - Concurrent loads of one key share a single promise (50 requests of one player → one query).
 * - A load that started before a `forget` of its key is never stored: otherwise a slow read of the
 *   old value, finishing after the write's invalidation, would put the old value back for a TTL.
 * - Bounded: beyond `maxEntries` the oldest entries go first (Map keeps insertion order).
 */
export class FreshCache<K, V> {
  private readonly entries = new Map<K, { value: V; expiresAt: number }>();
  /** Loads running now; `stale` is set when the key is forgotten meanwhile, so the result is not stored. */
  private readonly inFlight = new Map<K, { promise: Promise<V>; ticket: { stale: boolean } }>();

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries = 10_000,
    private readonly now: () => number = Date.now,
  ) {}

  get enabled(): boolean {
    return this.ttlMs > 0;
  }

  /** The cached value when still fresh. */
  peek(key: K): V | undefined {
    const hit = this.entries.get(key);
    if (!hit) return undefined;
    if (hit.expiresAt <= this.now()) {
      this.entries.delete(key);
      return undefined;
    }
    return hit.value;
  }

  /** The fresh cached value, or the loader's (shared with concurrent callers, stored unless forgotten meanwhile). */
  async load(key: K, loader: () => Promise<V>): Promise<V> {
    if (!this.enabled) return loader();
    const hit = this.peek(key);
    if (hit !== undefined) return hit;
    const running = this.inFlight.get(key);
    if (running) return running.promise;
    const ticket = { stale: false };
    const settle = () => {
      if (this.inFlight.get(key)?.ticket === ticket) this.inFlight.delete(key);
    };
    const promise = loader().then(
      (value) => {
        settle();
        if (!ticket.stale) this.set(key, value);
        return value;
      },
      (err: unknown) => {
        settle();
        throw err;
      },
    );
    this.inFlight.set(key, { promise, ticket });
    return promise;
  }

  set(key: K, value: V): void {
    if (!this.enabled) return;
    this.entries.delete(key); // re-inserted at the end: the newest
    this.entries.set(key, { value, expiresAt: this.now() + this.ttlMs });
    while (this.entries.size > this.maxEntries) {
      this.entries.delete(this.entries.keys().next().value as K);
    }
  }

  /** Drops the key now; a load already running for it (it may have read the old value) is not stored. */
  forget(key: K): void {
    this.entries.delete(key);
    const running = this.inFlight.get(key);
    if (running) running.ticket.stale = true;
    this.inFlight.delete(key);
  }

  clear(): void {
    this.entries.clear();
    for (const running of this.inFlight.values()) running.ticket.stale = true;
    this.inFlight.clear();
  }
}
