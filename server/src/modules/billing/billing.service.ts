/**
 * Subscriptions and credits from the player's side: tiers, status, checkout (Stripe or the local
 * demo checkout), the webhook, renewals and the live status feed. About 400 lines because these share
 * one provider choice, one status cache and one event path; event parsing lives in provider-event.ts.
 */
import { publicBase } from '../shared/public-base';
import crypto from 'node:crypto';
import { stripeSdk } from '../../common/lazy-modules';
import type { DataSource } from 'typeorm';
import { AppError } from '../../common/app-error';
import { FreshCache } from '../../common/fresh-cache';
import type { Logger } from '../../common/logger';
import type { Config } from '../../config/env';
import type { Realtime } from '../../realtime/pubsub';
import type { AuthUser } from '../auth/auth.service';
import { SubscriptionStatusView, toMessage, type StatusMessage } from './billing.types';
import type { CreditsService } from './credits.service';
import { LocalProvider } from './payments/local-provider';
import type { LocalCheckoutSession } from './payments/local-payment.entity';
import type { PaymentProvider, ProviderEvent } from './payments/provider';
import { StripeProvider } from './payments/stripe-provider';
import { Subscription } from './subscription.entity';
import type { SubscriptionService } from './subscription.service';
import { Tier } from './tier.entity';
import { readProviderEvent } from './provider-event';
import { isUuid } from '../shared/input';

/** The channel of a player's live subscription status (published per user id). */
export const STATUS_TOPIC = 'taleforge:billing:status';

export interface BillingDeps {
  dataSource: DataSource;
  config: Config;
  credits: CreditsService;
  subscriptions: SubscriptionService;
  realtime: Realtime;
  logger: Logger;
}

export type EventOutcome = 'applied' | 'duplicate' | 'ignored';

export const CHECKOUT_OTHER_BROWSER = 'This checkout belongs to the browser that started it. Please start the checkout again from Subscription.';

/**
 * Tiers, checkout, payment events, renewals and the live status. One set of rules for both payment
 * providers: Stripe's webhooks and the embedded checkout's events go through handleWebhook alike.
 */
export class BillingService {
  readonly local: LocalProvider;
  readonly stripe: StripeProvider | null;
  private sweepTimer: NodeJS.Timeout | undefined;
  /** Publishes of one user run in order, so a subscriber never ends on an older snapshot. */
  private readonly publishing = new Map<string, Promise<void>>();
  /**
   * Each player's balance and period end, as the `credits` query (shown on every page) reads them.
   * Every credit change (spend, refund, grant, renewal, tier change) goes through CreditsService's
   * change notification, which forgets the player here at once (and, through the ops invalidation
   * channel, on the other instances); CREDITS_CACHE_SECONDS bounds staleness when that cannot arrive.
   * Spending never reads this: it is one conditional UPDATE in the database.
   */
  private readonly balances: FreshCache<string, { credits: number; periodEndMs: number | null }>;

  private constructor(
    private readonly deps: BillingDeps,
    localSecret: string,
  ) {
    const { config } = deps;
    this.local = new LocalProvider(deps.dataSource, localSecret);
    this.stripe =
      config.stripe.secretKey && config.stripe.webhookSecret
        ? new StripeProvider({ ...config.stripe, secretKey: config.stripe.secretKey, webhookSecret: config.stripe.webhookSecret })
        : null;
    this.balances = new FreshCache(config.creditsCacheSeconds * 1000, 50_000);
    deps.credits.onChange((userId) => {
      this.balances.forget(userId);
      this.publish(userId);
    });
  }

  static async create(deps: BillingDeps): Promise<BillingService> {
    return new BillingService(deps, await generatedSecret(deps.dataSource, 'local_payments_webhook'));
  }

  /** Stripe when configured, otherwise the embedded checkout. */
  get checkoutProvider(): PaymentProvider {
    return this.stripe ?? this.local;
  }

  /** Starts the periodic renewal sweep (BILLING_SWEEP_SECONDS; 0 = renew only when a player's status is read). */
  start(): void {
    const seconds = this.deps.config.billingSweepSeconds;
    if (seconds <= 0 || this.sweepTimer) return;
    this.sweepTimer = setInterval(() => void this.sweep().catch((err) => this.deps.logger.error('billing sweep failed', { err })), seconds * 1000);
    this.sweepTimer.unref();
  }

  /** Stops the sweep and waits for publishes in flight (before the database closes). */
  async stop(): Promise<void> {
    if (this.sweepTimer) clearInterval(this.sweepTimer);
    this.sweepTimer = undefined;
    await Promise.allSettled([...this.publishing.values()]);
  }

  tiers(): Promise<Tier[]> {
    return this.deps.subscriptions.tiers();
  }

  /** The player's status; a period that has ended is renewed first, so the credits shown are current. */
  async status(userId: string): Promise<SubscriptionStatusView> {
    await this.renewIfDue(userId);
    return this.snapshot(userId);
  }

  async credits(userId: string): Promise<number> {
    const account = await this.balances.load(userId, async () => {
      const rows = (await this.deps.dataSource.query(`SELECT credits, current_period_end FROM subscriptions WHERE user_id = $1`, [userId])) as Array<{
        credits: number;
        current_period_end: Date | null;
      }>;
      const row = rows[0];
      return { credits: row?.credits ?? 0, periodEndMs: row?.current_period_end ? new Date(row.current_period_end).getTime() : null };
    });
    if (account.periodEndMs === null || account.periodEndMs > Date.now()) return account.credits;
    // The period has ended: renew first, so the credits shown are current.
    this.balances.forget(userId);
    await this.renewIfDue(userId);
    return this.deps.credits.balance(userId);
  }

  /** Another instance changed this player's credits: drop the balance this one remembers. */
  forgetCredits(userId: string): void {
    this.balances.forget(userId);
  }

  /**
   * SPEC: choosing the Free tier or the current tier posts here directly. Free while on a paid tier
   * cancels the paid subscription at the end of the period already paid for (credits and tier stay
   * until then); the current tier while it is set to cancel resumes it. Paid tiers need a checkout.
   */
  async subscribe(user: AuthUser, tierIdInput: unknown): Promise<SubscriptionStatusView> {
    const tier = await this.deps.subscriptions.tier(tierIdInput);
    await this.renewIfDue(user.id);
    const row = await this.deps.subscriptions.get(user.id);
    if (tier.id === row.tierId) {
      if (row.cancelAtPeriodEnd && row.providerSubscriptionId) await this.setCancelAtPeriodEnd(row, false);
      return this.snapshot(user.id);
    }
    if (tier.priceCents > 0) {
      throw new AppError('BAD_USER_INPUT', 'A paid tier starts with a checkout.', { field: 'tierId' });
    }
    if (row.providerSubscriptionId) {
      if (!row.cancelAtPeriodEnd) await this.setCancelAtPeriodEnd(row, true);
    } else {
      // A paid tier without a provider subscription has nothing left to wait for.
      await this.deps.dataSource.transaction(async (m) => {
        const locked = await this.deps.subscriptions.lock(m, user.id);
        if (locked) await this.deps.subscriptions.moveToFree(m, locked);
      });
      await this.deps.credits.notifyChanged(user.id);
    }
    return this.snapshot(user.id);
  }

  /**
   * The Account tab's Manage Subscription: Stripe's Customer Portal for a Stripe subscription (payment
   * method, invoices, cancel), otherwise this app's own page (cancel at period end, resume, payments).
   */
  async manageUrl(user: AuthUser, origin?: string): Promise<{ url: string }> {
    const row = await this.deps.subscriptions.get(user.id);
    const base = publicBase(this.deps.config, origin);
    if (row.provider === 'stripe' && row.providerCustomerId && this.stripe) {
      return { url: await this.stripe.portalUrl(row.providerCustomerId, `${base}/profile`) };
    }
    return { url: `${base}/subscription/manage` };
  }

  /** Payments that bought credits, newest first: each paid period's grant, with its tier and price when the built-in checkout sold it. */
  async pastPayments(
    userId: string,
  ): Promise<Array<{ paidAt: Date; tierName: string | null; amountCents: number | null; credits: number; reference: string }>> {
    const rows = (await this.deps.dataSource.query(
      `SELECT c.created_at, c.delta, c.reference_id, t.name AS tier_name, t.price_cents
         FROM credit_transactions c
         LEFT JOIN local_subscriptions ls ON ls.id = split_part(c.idempotency_key, ':', 2)
         LEFT JOIN tiers t ON t.id = ls.tier_id
        WHERE c.user_id = $1 AND c.reason = 'period_grant' AND c.reference_id LIKE 'in\\_%'
        ORDER BY c.created_at DESC LIMIT 100`,
      [userId],
    )) as Array<{ created_at: Date; delta: number; reference_id: string; tier_name: string | null; price_cents: number | null }>;
    return rows.map((r) => ({
      paidAt: new Date(r.created_at),
      tierName: r.tier_name,
      amountCents: r.price_cents,
      credits: r.delta,
      reference: r.reference_id,
    }));
  }

  /**
   * A hosted checkout for a paid tier (Stripe Checkout, or the local checkout page). Its links lead
   * back to `origin` (the page that asked) when that is one of ours, else to PUBLIC_URL.
   */
  async createCheckout(user: AuthUser, tierIdInput: unknown, origin?: string): Promise<{ url: string }> {
    const tier = await this.deps.subscriptions.tier(tierIdInput);
    if (tier.priceCents === 0) throw new AppError('BAD_USER_INPUT', 'The Free tier needs no payment: choose it directly.', { field: 'tierId' });
    const row = await this.deps.subscriptions.get(user.id);
    if (row.tierId === tier.id && row.providerSubscriptionId && row.status === 'active') {
      throw new AppError('CONFLICT', 'You are already subscribed to this tier.', { field: 'tierId' });
    }
    const provider = this.checkoutProvider;
    const base = publicBase(this.deps.config, origin);
    const { url, customerId } = await provider.createCheckout({
      userId: user.id,
      email: user.email,
      tier,
      customerId: provider.name === 'stripe' ? row.providerCustomerId : null,
      successUrl: `${base}/subscription?checkout=success`,
      cancelUrl: `${base}/subscription?checkout=cancelled`,
      baseUrl: base,
    });
    if (customerId && customerId !== row.providerCustomerId) {
      await this.deps.dataSource.query(`UPDATE subscriptions SET provider_customer_id = $1 WHERE user_id = $2 AND provider_customer_id IS NULL`, [
        customerId,
        user.id,
      ]);
    }
    return { url };
  }

  /**
   * The webhook endpoint's whole job: verify the signature over the raw body (Stripe's secret, or the
   * local one for the embedded checkout's events), then apply the event once.
   */
  async handleWebhook(rawBody: Buffer | string, signature: unknown): Promise<EventOutcome> {
    if (typeof signature !== 'string' || signature === '') {
      throw new AppError('BAD_USER_INPUT', 'Missing Stripe-Signature header.', { reason: 'signature' });
    }
    const payload = typeof rawBody === 'string' ? rawBody : rawBody.toString('utf8');
    for (const provider of [this.stripe, this.local]) {
      if (!provider) continue;
      let event: ProviderEvent;
      try {
        event = stripeSdk().webhooks.constructEvent(payload, signature, provider.webhookSecret) as unknown as ProviderEvent;
      } catch (e) {
        if (e instanceof stripeSdk().errors.StripeSignatureVerificationError) continue;
        throw new AppError('BAD_USER_INPUT', 'Malformed webhook payload.', { reason: 'payload' });
      }
      if (typeof event?.id !== 'string' || typeof event.type !== 'string') {
        throw new AppError('BAD_USER_INPUT', 'Malformed webhook payload.', { reason: 'payload' });
      }
      return this.handleEvent(event, provider);
    }
    throw new AppError('BAD_USER_INPUT', 'Invalid or expired webhook signature.', { reason: 'signature' });
  }

  /**
   * Applies one verified event. Whatever the event says about a subscription, its CURRENT state is read
   * from the provider and applied, so late or reordered events cannot roll the account back. The event
   * id is stored in the same transaction as the effect: a replay finds it and does nothing.
   */
  private async handleEvent(event: ProviderEvent, provider: PaymentProvider): Promise<EventOutcome> {
    const read = readProviderEvent(event);
    if (!read) return 'ignored';
    const { subscriptionId, userHint, grant } = read;
    const { dataSource, subscriptions, credits } = this.deps;
    if ((await dataSource.query(`SELECT 1 FROM payment_events WHERE id = $1`, [event.id])).length > 0) return 'duplicate';

    const state = subscriptionId ? await provider.retrieveSubscription(subscriptionId) : null;
    const userId = [state?.userId, userHint].find((u): u is string => isUuid(u)) ?? null;
    const grantTierId = grant ? ((grant.priceId ? await provider.tierForPrice(grant.priceId) : null) ?? state?.tierId ?? null) : null;

    const result = await dataSource.transaction(async (m) => {
      const inserted = (await m.query(`INSERT INTO payment_events (id, provider, type) VALUES ($1, $2, $3) ON CONFLICT (id) DO NOTHING RETURNING id`, [
        event.id.slice(0, 255),
        provider.name,
        event.type.slice(0, 64),
      ])) as unknown[];
      if (inserted.length === 0) return null; // a concurrent delivery of the same event got here first
      const row = userId ? await subscriptions.lock(m, userId) : null;
      if (!row || !userId) return { userId: null, changed: false, replaced: null };
      let changed = false;
      let replaced: { id: string; provider: string } | null = null;
      if (state) {
        ({ changed, replaced } = await subscriptions.applyProviderState(m, row, state, provider.name, {
          attach: event.type === 'checkout.session.completed',
        }));
      }
      // Money received buys that period's credits, once per subscription and period, even if the
      // subscription has ended since (its tier is not brought back).
      const tier = grantTierId ? await m.getRepository(Tier).findOneBy({ id: grantTierId }) : null;
      if (grant && tier && tier.monthlyCredits > 0) {
        const granted = await credits.grantIn(m, userId, tier.monthlyCredits, 'period_grant', {
          referenceId: grant.invoiceId.slice(0, 128),
          idempotencyKey: `period:${subscriptionId}:${grant.periodStart.toISOString()}`,
        });
        changed ||= granted !== null;
      }
      return { userId, changed, replaced };
    });
    if (!result) return 'duplicate';
    if (result.userId && result.changed) await credits.notifyChanged(result.userId);
    if (result.replaced) await this.cancelReplaced(result.replaced);
    return 'applied';
  }

  /** The local checkout page's data: the open (or finished) session and its tier, or null. */
  async localCheckout(sessionId: string): Promise<{ session: LocalCheckoutSession; tier: Tier } | null> {
    const session = await this.local.session(sessionId);
    if (!session) return null;
    const tier = await this.deps.dataSource.getRepository(Tier).findOneByOrFail({ id: session.tierId });
    return { session, tier };
  }

  /**
   * The player confirmed the test payment on the local checkout page, from the browser the session was
   * handed to (`browserSecret`: its cookie). Anyone else holding the URL gets FORBIDDEN.
   */
  async confirmLocalCheckout(sessionId: string, browserSecret: string | undefined): Promise<void> {
    const session = await this.local.session(sessionId);
    if (!session) throw AppError.notFound('Checkout session');
    if (!this.local.belongsToBrowser(session, browserSecret)) throw new AppError('FORBIDDEN', CHECKOUT_OTHER_BROWSER);
    for (const event of await this.local.completeCheckout(sessionId)) await this.deliverLocal(event);
  }

  /**
   * Renewals that no provider announces: the Free tier's monthly grant, and the embedded checkout's
   * subscriptions (its "card" always pays). Stripe renews on its own and tells us with invoice.paid.
   */
  async renewIfDue(userId: string, now = new Date()): Promise<void> {
    const row = await this.deps.dataSource.getRepository(Subscription).findOneBy({ userId });
    if (!row?.currentPeriodEnd || row.currentPeriodEnd.getTime() > now.getTime()) return;
    if (row.provider === 'none') {
      if (await this.deps.subscriptions.renewFreeIfDue(userId, now)) await this.deps.credits.notifyChanged(userId);
    } else if (row.provider === 'local' && row.providerSubscriptionId) {
      for (const event of await this.local.renewIfDue(row.providerSubscriptionId, now)) await this.deliverLocal(event);
    }
  }

  /** One pass of the periodic sweep. Safe on every instance at once: renewals lock and are idempotent. */
  async sweep(now = new Date()): Promise<number> {
    const refunded = await this.deps.credits.reconcilePending(this.deps.config.chargeReconcileSeconds * 1000);
    if (refunded > 0) this.deps.logger.warn('refunded charges whose generation never finished', { refunded });
    const due = await this.deps.subscriptions.dueForRenewal(200, now);
    for (const d of due) {
      await this.renewIfDue(d.userId, now).catch((err) => this.deps.logger.error('renewal failed', { err, userId: d.userId }));
    }
    return due.length;
  }

  /**
   * The player's status updates: the current status first (so nothing changed between a page's query
   * and its subscription is missed), then every published change on the player's own channel.
   */
  watch(userId: string): AsyncIterableIterator<StatusMessage> {
    const inner = this.deps.realtime.pubSub.subscribe(STATUS_TOPIC, userId);
    // Start listening now rather than after the first snapshot has been read and delivered.
    let pending: Promise<IteratorResult<unknown>> | null = inner.next();
    let first: Promise<StatusMessage> | null = this.snapshot(userId).then((s) => toMessage(userId, s));
    const next = async (): Promise<IteratorResult<StatusMessage>> => {
      if (first) {
        const f = first;
        first = null;
        return { value: await f, done: false };
      }
      for (;;) {
        const r = pending ?? inner.next();
        pending = null;
        const res = await r;
        if (res.done) return { value: undefined, done: true };
        // The channel is the user's own; checking the payload too keeps it so if topics ever change.
        if ((res.value as StatusMessage | null)?.userId === userId) return { value: res.value as StatusMessage, done: false };
      }
    };
    const iterator: AsyncIterableIterator<StatusMessage> = {
      next,
      return: async () => {
        first = null;
        pending = null;
        await inner.return();
        return { value: undefined, done: true };
      },
      throw: async (e: unknown) => {
        await inner.return();
        throw e;
      },
      [Symbol.asyncIterator]: () => iterator,
    };
    return iterator;
  }

  private async snapshot(userId: string): Promise<SubscriptionStatusView> {
    const row = await this.deps.subscriptions.get(userId);
    const tier = row.tier ?? (await this.deps.dataSource.getRepository(Tier).findOneByOrFail({ id: row.tierId }));
    const paid = row.provider !== 'none';
    return Object.assign(new SubscriptionStatusView(), {
      tier,
      credits: row.credits,
      maxContextTokens: tier.maxContextTokens,
      active: row.status === 'active',
      endDate: paid ? row.currentPeriodEnd : null,
      status: row.status,
      cancelAtPeriodEnd: row.cancelAtPeriodEnd,
      currentPeriodEnd: row.currentPeriodEnd,
      provider: row.provider,
    });
  }

  private publish(userId: string): void {
    const previous = this.publishing.get(userId) ?? Promise.resolve();
    const current = previous
      .then(async () => {
        const status = await this.snapshot(userId);
        this.deps.realtime.pubSub.publish(STATUS_TOPIC, userId, toMessage(userId, status));
      })
      .catch((err) => this.deps.logger.warn('live status publish failed', { err, userId }))
      .finally(() => {
        if (this.publishing.get(userId) === current) this.publishing.delete(userId);
      });
    this.publishing.set(userId, current);
  }

  private async setCancelAtPeriodEnd(row: Subscription, cancel: boolean): Promise<void> {
    const provider = this.providerNamed(row.provider);
    if (!provider || !row.providerSubscriptionId) {
      throw new AppError('SERVICE_UNAVAILABLE', 'Payments for this subscription are not configured on this server.');
    }
    await provider.setCancelAtPeriodEnd(row.providerSubscriptionId, cancel);
    // Show the change now instead of when the provider's customer.subscription.updated arrives.
    const state = await provider.retrieveSubscription(row.providerSubscriptionId);
    if (!state) return;
    const changed = await this.deps.dataSource.transaction(async (m) => {
      const locked = await this.deps.subscriptions.lock(m, row.userId);
      return locked ? (await this.deps.subscriptions.applyProviderState(m, locked, state, provider.name, { attach: false })).changed : false;
    });
    if (changed) await this.deps.credits.notifyChanged(row.userId);
  }

  /**
   * The account is about to be deleted: its paid subscription stops now at the provider (no further
   * charge). Throws when the provider cannot be reached, so the deletion does not go ahead without it.
   */
  async cancelForDeletion(userId: string): Promise<{ provider: string; subscriptionId: string } | null> {
    const row = await this.deps.subscriptions.get(userId);
    if (!row.providerSubscriptionId || row.provider === 'none' || row.status === 'canceled') return null;
    const provider = this.providerNamed(row.provider);
    if (!provider) throw new AppError('SERVICE_UNAVAILABLE', 'Payments for this subscription are not configured on this server.');
    await provider.cancelNow(row.providerSubscriptionId);
    return { provider: row.provider, subscriptionId: row.providerSubscriptionId };
  }

  /** A new purchase replaced a running subscription: stop billing the old one. */
  private async cancelReplaced(replaced: { id: string; provider: string }): Promise<void> {
    try {
      await this.providerNamed(replaced.provider)?.cancelNow(replaced.id);
    } catch (err) {
      // The new tier is already applied; the operator must cancel the old one by hand, so say so loudly.
      this.deps.logger.error('could not cancel a replaced subscription', { err, subscriptionId: replaced.id });
    }
  }

  private providerNamed(name: string): PaymentProvider | null {
    if (name === 'local') return this.local;
    if (name === 'stripe') return this.stripe;
    return null;
  }

  private async deliverLocal(event: ProviderEvent): Promise<void> {
    const payload = JSON.stringify(event);
    await this.handleWebhook(payload, this.local.sign(payload));
  }
}

/** A secret generated once and shared by every instance through the database (like the JWT secret). */
async function generatedSecret(dataSource: DataSource, name: string): Promise<string> {
  await dataSource.query(`INSERT INTO app_secrets (name, value) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING`, [
    name,
    `whsec_local_${crypto.randomBytes(32).toString('base64url')}`,
  ]);
  const rows = (await dataSource.query(`SELECT value FROM app_secrets WHERE name = $1`, [name])) as Array<{ value: string }>;
  return rows[0].value;
}
