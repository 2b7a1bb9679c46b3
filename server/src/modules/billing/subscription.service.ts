import type { DataSource, EntityManager } from 'typeorm';
import { AppError } from '../../common/app-error';
import type { CreditsService } from './credits.service';
import { addMonths, currentPeriod } from './period';
import { isEnded, storedStatus, type ProviderName, type ProviderSubscriptionState } from './payments/provider';
import { Subscription } from './subscription.entity';
import { Tier } from './tier.entity';

const FREE_TIER_ID = 'free';

/**
 * The `subscriptions` row of each player: tier, period, provider link and the balance. Every change
 * to the row goes through here, inside a transaction that holds the row's lock, so provider events,
 * renewals and the player's own requests never interleave on one account.
 */
export class SubscriptionService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly credits: CreditsService,
    private readonly signupCredits: number,
  ) {}

  /** Inside the sign-up transaction: Free tier, current period from now, the welcome credits. */
  async startFree(m: EntityManager, userId: string, now = new Date()): Promise<void> {
    await m.getRepository(Subscription).insert({
      userId,
      tierId: FREE_TIER_ID,
      status: 'active',
      credits: 0,
      currentPeriodStart: now,
      currentPeriodEnd: addMonths(now, 1),
      provider: 'none',
    });
    // The welcome credits stand in for the first Free period's grant.
    await this.credits.grantIn(m, userId, this.signupCredits, 'signup_grant', { idempotencyKey: `signup:${userId}` });
  }

  async tiers(): Promise<Tier[]> {
    return this.dataSource.getRepository(Tier).find({ order: { sortOrder: 'ASC', id: 'ASC' } });
  }

  async tier(id: unknown): Promise<Tier> {
    if (typeof id !== 'string' || id.trim() === '') throw AppError.badInput('tierId is required.', 'tierId');
    const tier = id.length <= 32 ? await this.dataSource.getRepository(Tier).findOneBy({ id: id.trim() }) : null;
    if (!tier) throw new AppError('NOT_FOUND', 'Tier not found', { field: 'tierId' });
    return tier;
  }

  async get(userId: string, m: EntityManager = this.dataSource.manager): Promise<Subscription> {
    const row = await m.getRepository(Subscription).findOne({ where: { userId }, relations: { tier: true } });
    if (!row) throw AppError.notFound('Subscription');
    return row;
  }

  /** The row, locked until the caller's transaction ends. */
  async lock(m: EntityManager, userId: string): Promise<Subscription | null> {
    const rows = (await m.query(`SELECT id FROM subscriptions WHERE user_id = $1 FOR UPDATE`, [userId])) as unknown[];
    if (rows.length === 0) return null;
    return m.getRepository(Subscription).findOneByOrFail({ userId });
  }

  /**
   * Brings the row in line with a provider subscription's current state. A subscription other than
   * the one the row follows is taken on only when `attach` (a completed checkout — a new purchase) or
   * when the row follows none; an ended one only ever releases the row, never takes it. Returns the
   * subscription that a new purchase replaced, which the caller cancels at the provider.
   */
  async applyProviderState(
    m: EntityManager,
    row: Subscription,
    state: ProviderSubscriptionState,
    provider: ProviderName,
    options: { attach: boolean; now?: Date },
  ): Promise<{ changed: boolean; replaced: { id: string; provider: string } | null }> {
    const unchanged = { changed: false, replaced: null };
    const follows = row.providerSubscriptionId === state.id;
    if (isEnded(state.status)) {
      if (!follows) return unchanged;
      await this.moveToFree(m, row, options.now);
      return { changed: true, replaced: null };
    }
    if (!follows && !options.attach && row.providerSubscriptionId !== null) return unchanged;
    const tierId = state.tierId ?? (follows ? row.tierId : null);
    if (!tierId || !(await m.getRepository(Tier).existsBy({ id: tierId }))) return unchanged; // not a price of ours
    const replaced = !follows && row.providerSubscriptionId ? { id: row.providerSubscriptionId, provider: row.provider } : null;
    await m.getRepository(Subscription).update(
      { id: row.id },
      {
        tierId,
        status: storedStatus(state.status),
        provider,
        providerSubscriptionId: state.id,
        providerCustomerId: state.customerId ?? row.providerCustomerId,
        currentPeriodStart: state.currentPeriodStart,
        currentPeriodEnd: state.currentPeriodEnd,
        cancelAtPeriodEnd: state.cancelAtPeriodEnd,
      },
    );
    return { changed: true, replaced };
  }

  /**
   * Back to Free when the paid subscription has ended. Credits already granted stay (they were paid
   * for); the next Free grant comes when this new Free period ends.
   */
  async moveToFree(m: EntityManager, row: Subscription, now = new Date()): Promise<void> {
    await m.getRepository(Subscription).update(
      { id: row.id },
      {
        tierId: FREE_TIER_ID,
        status: 'active',
        provider: 'none',
        providerSubscriptionId: null,
        cancelAtPeriodEnd: false,
        currentPeriodStart: now,
        currentPeriodEnd: addMonths(now, 1),
      },
    );
  }

  /**
   * The Free tier's monthly grant, with no payment provider to announce the new period: when a Free
   * period has ended, the row moves to the period containing `now` and gets that period's credits once
   * (the idempotency key names the subscription and the period start). Returns whether it granted.
   */
  async renewFreeIfDue(userId: string, now = new Date()): Promise<boolean> {
    return this.dataSource.transaction(async (m) => {
      const row = await this.lock(m, userId);
      if (!row || row.provider !== 'none' || !row.currentPeriodEnd || row.currentPeriodEnd.getTime() > now.getTime()) return false;
      const tier = await m.getRepository(Tier).findOneByOrFail({ id: row.tierId });
      const period = currentPeriod(row.currentPeriodStart, now);
      await m.getRepository(Subscription).update({ id: row.id }, { currentPeriodStart: period.start, currentPeriodEnd: period.end });
      const grant = await this.credits.grantIn(m, userId, tier.monthlyCredits, 'period_grant', {
        referenceId: row.id,
        idempotencyKey: `period:${row.id}:${period.start.toISOString()}`,
      });
      return grant !== null;
    });
  }

  /** Players whose Free or local-checkout period has ended (for the periodic sweep). */
  async dueForRenewal(limit: number, now = new Date()): Promise<Array<{ userId: string; provider: string; providerSubscriptionId: string | null }>> {
    const rows = (await this.dataSource.query(
      `SELECT user_id, provider, provider_subscription_id FROM subscriptions
        WHERE provider IN ('none', 'local') AND current_period_end <= $1
        ORDER BY current_period_end LIMIT $2`,
      [now, limit],
    )) as Array<{ user_id: string; provider: string; provider_subscription_id: string | null }>;
    return rows.map((r) => ({ userId: r.user_id, provider: r.provider, providerSubscriptionId: r.provider_subscription_id }));
  }
}
