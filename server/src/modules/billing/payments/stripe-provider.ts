import type Stripe from 'stripe';
import { stripeSdk } from '../../../common/lazy-modules';
import type { Config } from '../../../config/env';
import type { Tier } from '../tier.entity';
import { lookupKeyFor, tierFromLookupKey, type CheckoutInput, type PaymentProvider, type ProviderSubscriptionState } from './provider';

/** Stripe Checkout (subscription mode) and Stripe's subscriptions, through the official SDK. */
export class StripeProvider implements PaymentProvider {
  readonly name = 'stripe' as const;
  readonly webhookSecret: string;
  private readonly stripe: Stripe;
  /** lookup key → price id, and price id → tier id; prices never change under an id. */
  private readonly priceIds = new Map<string, string>();
  private readonly tierByPrice = new Map<string, string>();

  constructor(config: Config['stripe'] & { secretKey: string; webhookSecret: string }) {
    this.webhookSecret = config.webhookSecret;
    this.stripe = new (stripeSdk())(config.secretKey, {
      host: config.apiHost,
      port: config.apiPort,
      protocol: config.apiProtocol,
      // Retries reuse the idempotency key we pass, so a retried create never makes a second object.
      maxNetworkRetries: 2,
      timeout: 20_000,
      telemetry: false,
    });
  }

  async createCheckout(input: CheckoutInput): Promise<{ url: string; customerId: string | null }> {
    const price = await this.priceFor(input.tier);
    const customerId =
      input.customerId ??
      (
        await this.stripe.customers.create(
          { email: input.email, metadata: { userId: input.userId } },
          // One customer per user even when two checkouts start at once.
          { idempotencyKey: `taleforge-customer-${input.userId}` },
        )
      ).id;
    const metadata = { userId: input.userId, tierId: input.tier.id };
    const session = await this.stripe.checkout.sessions.create(
      {
        mode: 'subscription',
        customer: customerId,
        client_reference_id: input.userId,
        line_items: [{ price, quantity: 1 }],
        success_url: input.successUrl,
        cancel_url: input.cancelUrl,
        metadata,
        // On the subscription too: invoice and subscription events find the user through it.
        subscription_data: { metadata },
      },
      // A double click within the same minute gets the same session instead of a second one.
      { idempotencyKey: `taleforge-checkout-${input.userId}-${input.tier.id}-${Math.floor(Date.now() / 60_000)}` },
    );
    if (!session.url) throw new Error(`Stripe returned checkout session ${session.id} without a url`);
    return { url: session.url, customerId };
  }

  async retrieveSubscription(id: string): Promise<ProviderSubscriptionState | null> {
    let sub: Stripe.Subscription;
    try {
      sub = await this.stripe.subscriptions.retrieve(id);
    } catch (e) {
      if (e instanceof stripeSdk().errors.StripeInvalidRequestError && e.statusCode === 404) return null;
      throw e;
    }
    const item = sub.items.data[0];
    const legacy = sub as unknown as { current_period_start?: number; current_period_end?: number };
    const start = item?.current_period_start ?? legacy.current_period_start ?? sub.start_date;
    const end = item?.current_period_end ?? legacy.current_period_end ?? start;
    const price = item?.price;
    const tierId = tierFromLookupKey(price?.lookup_key) ?? price?.metadata?.tierId ?? sub.metadata?.tierId ?? null;
    if (price && tierId) this.tierByPrice.set(price.id, tierId);
    return {
      id: sub.id,
      customerId: typeof sub.customer === 'string' ? sub.customer : sub.customer.id,
      userId: sub.metadata?.userId ?? null,
      tierId,
      status: sub.status,
      currentPeriodStart: new Date(start * 1000),
      currentPeriodEnd: new Date(end * 1000),
      cancelAtPeriodEnd: sub.cancel_at_period_end,
    };
  }

  async tierForPrice(priceId: string): Promise<string | null> {
    const known = this.tierByPrice.get(priceId);
    if (known) return known;
    const price = await this.stripe.prices.retrieve(priceId);
    const tierId = tierFromLookupKey(price.lookup_key) ?? price.metadata?.tierId ?? null;
    if (tierId) this.tierByPrice.set(priceId, tierId);
    return tierId;
  }

  async setCancelAtPeriodEnd(subscriptionId: string, cancel: boolean): Promise<void> {
    await this.stripe.subscriptions.update(
      subscriptionId,
      { cancel_at_period_end: cancel },
      { idempotencyKey: `taleforge-cancel-at-period-end-${subscriptionId}-${cancel}-${Math.floor(Date.now() / 60_000)}` },
    );
  }

  async cancelNow(subscriptionId: string): Promise<void> {
    try {
      await this.stripe.subscriptions.cancel(subscriptionId, {}, { idempotencyKey: `taleforge-cancel-${subscriptionId}` });
    } catch (e) {
      // Already gone is the outcome we wanted.
      if (e instanceof stripeSdk().errors.StripeInvalidRequestError && (e.statusCode === 404 || /canceled/i.test(e.message))) return;
      throw e;
    }
  }

  /** The recurring price for a tier: found by lookup key, or created once (idempotently) from the tier. */
  /** A Stripe Customer Portal session (payment method, invoices, cancel) for this customer. */
  async portalUrl(customerId: string, returnUrl: string): Promise<string> {
    const s = await this.stripe.billingPortal.sessions.create({ customer: customerId, return_url: returnUrl });
    return s.url;
  }

  private async priceFor(tier: Tier): Promise<string> {
    const key = lookupKeyFor(tier);
    const cached = this.priceIds.get(key);
    if (cached) return cached;
    const found = await this.stripe.prices.list({ lookup_keys: [key], active: true, limit: 1 });
    const price =
      found.data[0] ??
      (await this.stripe.prices.create(
        {
          currency: 'usd',
          unit_amount: tier.priceCents,
          recurring: { interval: 'month' },
          lookup_key: key,
          product_data: { name: `Taleforge ${tier.name}`, metadata: { tierId: tier.id } },
          metadata: { tierId: tier.id },
        },
        { idempotencyKey: `taleforge-price-${key}` },
      ));
    this.priceIds.set(key, price.id);
    this.tierByPrice.set(price.id, tier.id);
    return price.id;
  }
}
