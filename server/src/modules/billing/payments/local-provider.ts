import crypto from 'node:crypto';
import type { DataSource } from 'typeorm';
import { AppError } from '../../../common/app-error';
import { addMonths, currentPeriod } from '../period';
import { LocalCheckoutSession, LocalSubscription } from './local-payment.entity';
import type { CheckoutInput, PaymentProvider, ProviderEvent, ProviderSubscriptionState } from './provider';

const CHECKOUT_TTL_MS = 24 * 3600 * 1000;
const LOCAL_PRICE_PREFIX = 'price_local_';

/**
 * The embedded payment provider (no keys, no network): a checkout page served by the app where the
 * player confirms a test payment. It keeps its own records like Stripe does and reports what happened
 * as Stripe-shaped events signed with a generated secret, which go through the same webhook handling
 * as Stripe's — so the local flow obeys every billing rule the real one does.
 */
export class LocalProvider implements PaymentProvider {
  readonly name = 'local' as const;

  constructor(
    private readonly dataSource: DataSource,
    readonly webhookSecret: string,
  ) {}

  /**
   * A new checkout session, payable only from the browser of the signed-in player who asked for it:
   * the URL carries a one-time hand-off token (see openInBrowser). Starting a checkout closes the
   * player's older open ones, so only the newest can ever be paid.
   */
  async createCheckout(input: CheckoutInput): Promise<{ url: string; customerId: string | null }> {
    const id = `cs_local_${crypto.randomBytes(24).toString('base64url')}`;
    const handoff = crypto.randomBytes(24).toString('base64url');
    await this.dataSource.transaction(async (m) => {
      await m.query(`UPDATE local_checkout_sessions SET status = 'expired' WHERE user_id = $1 AND status = 'open'`, [input.userId]);
      await m.getRepository(LocalCheckoutSession).insert({
        id,
        userId: input.userId,
        tierId: input.tier.id,
        status: 'open',
        handoffHash: sha256(handoff),
        browserHash: null,
        expiresAt: new Date(Date.now() + CHECKOUT_TTL_MS),
      });
    });
    return { url: `${input.baseUrl}/checkout/local/${encodeURIComponent(id)}?handoff=${handoff}`, customerId: null };
  }

  /**
   * The buyer's browser opened the checkout URL: trades its one-time hand-off token for a browser
   * secret (kept in an HttpOnly cookie). Returns null when the token is wrong or already used, so a
   * URL copied from history, a referrer or a screenshot pays nothing.
   */
  async openInBrowser(sessionId: string, handoff: string): Promise<string | null> {
    if (!handoff) return null;
    const secret = crypto.randomBytes(24).toString('base64url');
    const [rows] = (await this.dataSource.query(
      `UPDATE local_checkout_sessions SET handoff_hash = NULL, browser_hash = $3
        WHERE id = $1 AND status = 'open' AND handoff_hash = $2 RETURNING id`,
      [sessionId, sha256(handoff), sha256(secret)],
    )) as [Array<{ id: string }>, number];
    return rows.length === 1 ? secret : null;
  }

  /** Whether `secret` (the request's checkout cookie) is the browser this session was handed to. */
  belongsToBrowser(session: LocalCheckoutSession, secret: string | undefined): boolean {
    if (!secret || !session.browserHash) return false;
    const a = Buffer.from(sha256(secret), 'hex');
    const b = Buffer.from(session.browserHash, 'hex');
    return a.length === b.length && crypto.timingSafeEqual(a, b);
  }

  /** The session behind a checkout page, or null when unknown (also for malformed ids). */
  async session(id: string): Promise<LocalCheckoutSession | null> {
    if (!/^cs_local_[A-Za-z0-9_-]{16,64}$/.test(id)) return null;
    const s = await this.dataSource.getRepository(LocalCheckoutSession).findOneBy({ id });
    if (s && s.status === 'open' && s.expiresAt.getTime() <= Date.now()) s.status = 'expired';
    return s;
  }

  /**
   * The player paid: creates the subscription and returns the events Stripe would send. Confirming a
   * session twice (double submit, two tabs) creates nothing more and returns no events.
   */
  async completeCheckout(sessionId: string, now = new Date()): Promise<ProviderEvent[]> {
    return this.dataSource.transaction(async (m) => {
      const [row] = (await m.query(`SELECT user_id FROM local_checkout_sessions WHERE id = $1`, [sessionId])) as Array<{ user_id: string }>;
      if (!row) throw AppError.notFound('Checkout session');
      // One buyer's confirms run one at a time (all their sessions locked, in one order), and paying one
      // closes the others: however many confirms race, at most one purchase happens.
      await m.query(`SELECT id FROM local_checkout_sessions WHERE user_id = $1 ORDER BY id FOR UPDATE`, [row.user_id]);
      const session = await m.getRepository(LocalCheckoutSession).findOneByOrFail({ id: sessionId });
      if (session.status === 'complete') return [];
      if (session.status !== 'open' || session.expiresAt.getTime() <= now.getTime()) {
        throw new AppError('CONFLICT', 'This checkout has expired. Please start again.');
      }
      const sub = await m.getRepository(LocalSubscription).save({
        id: `sub_local_${crypto.randomBytes(16).toString('base64url')}`,
        userId: session.userId,
        tierId: session.tierId,
        status: 'active' as const,
        currentPeriodStart: now,
        currentPeriodEnd: addMonths(now, 1),
        cancelAtPeriodEnd: false,
        canceledAt: null,
      });
      await m.getRepository(LocalCheckoutSession).update({ id: sessionId }, { status: 'complete', subscriptionId: sub.id });
      await m.query(`UPDATE local_checkout_sessions SET status = 'expired' WHERE user_id = $1 AND status = 'open'`, [session.userId]);
      const completed: ProviderEvent = {
        id: `evt_local_${sessionId}_completed`,
        type: 'checkout.session.completed',
        created: epoch(now),
        data: {
          object: {
            id: sessionId,
            object: 'checkout.session',
            mode: 'subscription',
            status: 'complete',
            payment_status: 'paid',
            client_reference_id: session.userId,
            customer: null,
            subscription: sub.id,
            metadata: { userId: session.userId, tierId: session.tierId },
          },
        },
      };
      return [completed, invoicePaid(sub, 'subscription_create', now)];
    });
  }

  /**
   * Renews a subscription whose period has ended (the test card always pays), or ends it when it was
   * set to cancel at period end. Events have deterministic ids, so two instances renewing at once
   * produce the same events and the second is a replay.
   */
  async renewIfDue(subscriptionId: string, now = new Date()): Promise<ProviderEvent[]> {
    return this.dataSource.transaction(async (m) => {
      const [row] = (await m.query(`SELECT id FROM local_subscriptions WHERE id = $1 FOR UPDATE`, [subscriptionId])) as Array<{ id: string }>;
      if (!row) return [];
      const sub = await m.getRepository(LocalSubscription).findOneByOrFail({ id: subscriptionId });
      if (sub.status !== 'active' || sub.currentPeriodEnd.getTime() > now.getTime()) return [];
      if (sub.cancelAtPeriodEnd) {
        await m.getRepository(LocalSubscription).update({ id: sub.id }, { status: 'canceled', canceledAt: now });
        return [subscriptionDeleted({ ...sub, status: 'canceled' }, now)];
      }
      const period = currentPeriod(sub.currentPeriodStart, now);
      await m.getRepository(LocalSubscription).update({ id: sub.id }, { currentPeriodStart: period.start, currentPeriodEnd: period.end });
      return [invoicePaid({ ...sub, currentPeriodStart: period.start, currentPeriodEnd: period.end }, 'subscription_cycle', now)];
    });
  }

  async retrieveSubscription(id: string): Promise<ProviderSubscriptionState | null> {
    const sub = await this.dataSource.getRepository(LocalSubscription).findOneBy({ id });
    if (!sub) return null;
    return {
      id: sub.id,
      customerId: null,
      userId: sub.userId,
      tierId: sub.tierId,
      status: sub.status,
      currentPeriodStart: sub.currentPeriodStart,
      currentPeriodEnd: sub.currentPeriodEnd,
      cancelAtPeriodEnd: sub.cancelAtPeriodEnd,
    };
  }

  async tierForPrice(priceId: string): Promise<string | null> {
    return priceId.startsWith(LOCAL_PRICE_PREFIX) ? priceId.slice(LOCAL_PRICE_PREFIX.length) : null;
  }

  async setCancelAtPeriodEnd(subscriptionId: string, cancel: boolean): Promise<void> {
    await this.dataSource.getRepository(LocalSubscription).update({ id: subscriptionId, status: 'active' }, { cancelAtPeriodEnd: cancel });
  }

  async cancelNow(subscriptionId: string): Promise<void> {
    await this.dataSource.getRepository(LocalSubscription).update({ id: subscriptionId, status: 'active' }, { status: 'canceled', canceledAt: new Date() });
  }

  /** Stripe's signature scheme (`t=…,v1=HMAC-SHA256(secret, "t.payload")`), so the SDK verifies ours too. */
  sign(payload: string, timestamp = epoch(new Date())): string {
    const v1 = crypto.createHmac('sha256', this.webhookSecret).update(`${timestamp}.${payload}`, 'utf8').digest('hex');
    return `t=${timestamp},v1=${v1}`;
  }
}

function epoch(d: Date): number {
  return Math.floor(d.getTime() / 1000);
}

function invoicePaid(sub: LocalSubscription, billingReason: string, now: Date): ProviderEvent {
  // Named by subscription and period start (ms): the same period always gets the same invoice and event ids.
  const invoiceId = `in_local_${sub.id.slice('sub_local_'.length)}_${sub.currentPeriodStart.getTime()}`;
  return {
    id: `evt_local_${invoiceId}_paid`,
    type: 'invoice.paid',
    created: epoch(now),
    data: {
      object: {
        id: invoiceId,
        object: 'invoice',
        status: 'paid',
        billing_reason: billingReason,
        customer: null,
        currency: 'usd',
        parent: {
          type: 'subscription_details',
          subscription_details: { subscription: sub.id, metadata: { userId: sub.userId, tierId: sub.tierId } },
        },
        lines: {
          object: 'list',
          data: [
            {
              id: `il_${invoiceId}`,
              period: { start: epoch(sub.currentPeriodStart), end: epoch(sub.currentPeriodEnd) },
              pricing: { type: 'price_details', price_details: { price: `${LOCAL_PRICE_PREFIX}${sub.tierId}` } },
            },
          ],
        },
      },
    },
  };
}

function subscriptionDeleted(sub: LocalSubscription, now: Date): ProviderEvent {
  return {
    id: `evt_local_${sub.id}_deleted`,
    type: 'customer.subscription.deleted',
    created: epoch(now),
    data: { object: { id: sub.id, object: 'subscription', status: 'canceled', metadata: { userId: sub.userId, tierId: sub.tierId } } },
  };
}

function sha256(s: string): string {
  return crypto.createHash('sha256').update(s, 'utf8').digest('hex');
}
