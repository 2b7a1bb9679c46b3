import type { DataSource, EntityManager } from 'typeorm';
import { AppError } from '../../common/app-error';
import { CreditTransaction } from './credit-transaction.entity';

export interface CreditChange {
  transactionId: string;
  balance: number;
}

export interface SpendOptions {
  referenceId?: string;
}

/**
 * The only code that changes a credit balance. Each change is one conditional UPDATE (so the balance
 * can never go below zero, whatever the concurrency) plus its ledger row, in one transaction.
 */
export class CreditsService {
  /** Called after a committed change, e.g. to push live credits to subscribers. */
  private readonly listeners = new Set<(userId: string, balance: number) => void>();

  constructor(private readonly dataSource: DataSource) {}

  onChange(listener: (userId: string, balance: number) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Spends `amount` credits or throws INSUFFICIENT_CREDITS without changing anything. */
  async spend(userId: string, amount: number, reason: string, options: SpendOptions = {}): Promise<CreditChange> {
    const change = await this.dataSource.transaction((m) => this.spendIn(m, userId, amount, reason, options));
    this.emit(userId, change.balance);
    return change;
  }

  /** Same as spend, inside the caller's transaction (the caller emits after its commit). */
  async spendIn(m: EntityManager, userId: string, amount: number, reason: string, options: SpendOptions = {}): Promise<CreditChange> {
    if (!Number.isInteger(amount) || amount <= 0) throw new Error(`spend amount must be a positive integer, got ${amount}`);
    const [rows] = (await m.query(
      `UPDATE subscriptions SET credits = credits - $1, updated_at = now()
        WHERE user_id = $2 AND credits >= $1 RETURNING credits`,
      [amount, userId],
    )) as [Array<{ credits: number }>, number];
    if (rows.length === 0) {
      throw new AppError('INSUFFICIENT_CREDITS', `You need at least ${amount} credits for this.`, { required: amount });
    }
    return this.record(m, userId, -amount, rows[0].credits, reason, options.referenceId ?? null, null);
  }

  /**
   * Spends for a generation whose outcome comes later: the charge stays pending until settle (it
   * succeeded) or refund (it failed). If the process dies in between, reconcilePending refunds it.
   */
  async spendPending(userId: string, amount: number, reason: string): Promise<CreditChange> {
    const change = await this.dataSource.transaction(async (m) => {
      const c = await this.spendIn(m, userId, amount, reason);
      await m.query(`INSERT INTO pending_charges (transaction_id, user_id, amount) VALUES ($1, $2, $3)`, [c.transactionId, userId, amount]);
      return c;
    });
    this.emit(userId, change.balance);
    return change;
  }

  /** The generation a pending charge paid for succeeded: the charge stands. */
  async settle(spent: CreditChange): Promise<void> {
    await this.settleIn(this.dataSource.manager, spent);
  }

  /** Same as settle, inside the caller's transaction: the charge stands only if what it paid for is written. */
  async settleIn(m: EntityManager, spent: CreditChange): Promise<void> {
    await m.query(`DELETE FROM pending_charges WHERE transaction_id = $1`, [spent.transactionId]);
  }

  /**
   * Refunds pending charges older than `olderThanMs` (0: all of them) whose generation never reported
   * back: the process died (kill -9, a crash, a shutdown that cut the request). Each refund and the
   * removal of its pending row commit together; rows are claimed with SKIP LOCKED and refunds are
   * idempotent per charge, so every instance may run this at once and a charge is refunded once.
   * Returns how many were refunded.
   */
  async reconcilePending(olderThanMs: number, batch = 100): Promise<number> {
    let refunded = 0;
    for (;;) {
      const changes = await this.dataSource.transaction(async (m) => {
        const rows = (await m.query(
          `SELECT transaction_id, user_id, amount FROM pending_charges
            WHERE created_at <= now() - make_interval(secs => $1::double precision)
            ORDER BY created_at LIMIT $2 FOR UPDATE SKIP LOCKED`,
          [olderThanMs / 1000, batch],
        )) as Array<{ transaction_id: string; user_id: string; amount: number }>;
        const done: Array<{ userId: string; balance: number }> = [];
        for (const r of rows) {
          const change = await this.grantIn(m, r.user_id, r.amount, 'refund_unfinished', {
            referenceId: r.transaction_id,
            idempotencyKey: `refund:${r.transaction_id}`,
          });
          await m.query(`DELETE FROM pending_charges WHERE transaction_id = $1`, [r.transaction_id]);
          if (change) done.push({ userId: r.user_id, balance: change.balance });
        }
        return { done, claimed: rows.length };
      });
      for (const c of changes.done) this.emit(c.userId, c.balance);
      refunded += changes.done.length;
      if (changes.claimed < batch) return refunded;
    }
  }

  /** Gives back what a failed generation cost, with a ledger row pointing at the original spend. */
  async refund(userId: string, spent: CreditChange, amount: number, reason = 'refund'): Promise<CreditChange> {
    const change = await this.dataSource.transaction(async (m) => {
      await m.query(`DELETE FROM pending_charges WHERE transaction_id = $1`, [spent.transactionId]);
      return this.grantIn(m, userId, amount, reason, { referenceId: spent.transactionId, idempotencyKey: `refund:${spent.transactionId}` });
    });
    if (change) this.emit(userId, change.balance);
    return change ?? { transactionId: spent.transactionId, balance: await this.balance(userId) };
  }

  /**
   * Adds credits inside the caller's transaction. With an idempotency key a second grant for the same
   * key does nothing and returns null (e.g. one grant per subscription period).
   */
  async grantIn(
    m: EntityManager,
    userId: string,
    amount: number,
    reason: string,
    options: { referenceId?: string; idempotencyKey?: string } = {},
  ): Promise<CreditChange | null> {
    if (!Number.isInteger(amount) || amount < 0) throw new Error(`grant amount must be a non-negative integer, got ${amount}`);
    if (options.idempotencyKey) {
      const existing = await m.getRepository(CreditTransaction).findOne({ where: { idempotencyKey: options.idempotencyKey } });
      if (existing) return null;
    }
    const [rows] = (await m.query(`UPDATE subscriptions SET credits = credits + $1, updated_at = now() WHERE user_id = $2 RETURNING credits`, [
      amount,
      userId,
    ])) as [Array<{ credits: number }>, number];
    if (rows.length === 0) throw AppError.notFound('Subscription');
    return this.record(m, userId, amount, rows[0].credits, reason, options.referenceId ?? null, options.idempotencyKey ?? null);
  }

  async balance(userId: string): Promise<number> {
    const rows = (await this.dataSource.query(`SELECT credits FROM subscriptions WHERE user_id = $1`, [userId])) as Array<{ credits: number }>;
    return rows[0]?.credits ?? 0;
  }

  async ledger(userId: string, limit = 50, offset = 0): Promise<CreditTransaction[]> {
    return this.dataSource.getRepository(CreditTransaction).find({
      where: { userId },
      order: { createdAt: 'DESC', id: 'DESC' },
      take: Math.min(Math.max(limit, 1), 200),
      skip: Math.max(offset, 0),
    });
  }

  /**
   * Tells listeners (live credits) about a committed change. Call it after the commit of any
   * transaction that used spendIn/grantIn; a listener's failure never fails the caller's request.
   */
  emit(userId: string, balance: number): void {
    for (const l of this.listeners) {
      try {
        l(userId, balance);
      } catch {
        /* a listener reports its own errors; the change itself is committed */
      }
    }
  }

  /**
   * Same as emit, reading the committed balance: after a transaction that changed the balance inside
   * other code (a grant in a payment event) or changed only what goes with it (the tier).
   */
  async notifyChanged(userId: string): Promise<void> {
    this.emit(userId, await this.balance(userId));
  }

  private async record(
    m: EntityManager,
    userId: string,
    delta: number,
    balanceAfter: number,
    reason: string,
    referenceId: string | null,
    idempotencyKey: string | null,
  ): Promise<CreditChange> {
    const tx = await m.getRepository(CreditTransaction).save({ userId, delta, balanceAfter, reason, referenceId, idempotencyKey });
    return { transactionId: tx.id, balance: balanceAfter };
  }
}
