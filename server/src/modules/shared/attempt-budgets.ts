import crypto from 'node:crypto';
import type { DataSource, EntityManager } from 'typeorm';

export interface Attempt {
  /** Within the budget: the attempt may be judged (a code compared, a mail sent). */
  allowed: boolean;
  /** Attempts in the window so far, this one included. */
  count: number;
  retryAfterSeconds: number;
}

/** Expired windows are deleted about once every this many attempts. */
const SWEEP_EVERY = 500;

/**
 * Budgets of attempts that must hold exactly under concurrency and on every instance: guesses at a
 * secret (authenticator codes, mailed codes, link tokens, passwords) and mails to one address.
 *
 * An attempt is counted *before* it is judged, by one statement that answers the new count, so a
 * burst of N concurrent guesses judges at most the budget (checking a count and adding to it later
 * lets every guess of a burst through the check). A guess that turns out right is given back
 * (`refund`): budgets count failures, and a right guess never helps the next wrong one.
 *
 * Kept in the database rather than the rate limiter: exact with or without Redis (and while Redis
 * is unreachable), across instances, on PGlite and PostgreSQL alike. Request rates stay with the
 * rate limiter; this is for the few attempts a secret can afford.
 */
export class AttemptBudgets {
  private attempts = 0;

  constructor(private readonly dataSource: DataSource) {}

  async take(key: string, limit: number, windowSeconds: number, db: DataSource | EntityManager = this.dataSource): Promise<Attempt> {
    if (++this.attempts % SWEEP_EVERY === 0) await this.sweep();
    const [row] = (await db.query(
      `INSERT INTO attempt_counters AS c (key_hash, count, window_ends_at) VALUES ($1, 1, now() + make_interval(secs => $2))
       ON CONFLICT (key_hash) DO UPDATE SET
         count = CASE WHEN c.window_ends_at <= now() THEN 1 ELSE c.count + 1 END,
         window_ends_at = CASE WHEN c.window_ends_at <= now() THEN EXCLUDED.window_ends_at ELSE c.window_ends_at END
       RETURNING count, ceil(extract(epoch FROM c.window_ends_at - now()))::int AS left_seconds`,
      [keyHash(key), windowSeconds],
    )) as Array<{ count: number; left_seconds: number }>;
    const count = Number(row!.count);
    return { allowed: count <= limit, count, retryAfterSeconds: Math.max(1, Number(row!.left_seconds)) };
  }

  /** Gives an attempt back (it was right, or was never judged). */
  async refund(key: string): Promise<void> {
    await this.dataSource.query(`UPDATE attempt_counters SET count = greatest(count - 1, 0) WHERE key_hash = $1 AND window_ends_at > now()`, [keyHash(key)]);
  }

  /** Whether the window's budget is spent, without counting an attempt. */
  async spent(key: string, limit: number): Promise<boolean> {
    const rows = (await this.dataSource.query(`SELECT count FROM attempt_counters WHERE key_hash = $1 AND window_ends_at > now()`, [keyHash(key)])) as Array<{
      count: number;
    }>;
    return rows.length > 0 && Number(rows[0]!.count) >= limit;
  }

  private async sweep(): Promise<void> {
    await this.dataSource.query(`DELETE FROM attempt_counters WHERE window_ends_at < now()`);
  }
}

function keyHash(key: string): string {
  return crypto.createHash('sha256').update(key).digest('hex');
}
