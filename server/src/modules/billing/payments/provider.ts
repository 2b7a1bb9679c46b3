import type { Tier } from '../tier.entity';

export type ProviderName = 'stripe' | 'local';

/**
 * A provider subscription as the provider holds it right now. Webhook handlers act on this, not on the
 * copy inside the event: events arrive late, twice or out of order, the current state does not.
 */
export interface ProviderSubscriptionState {
  id: string;
  customerId: string | null;
  /** Our user, from the metadata we attached at checkout. */
  userId: string | null;
  /** Our tier, from the price's lookup key; null when the price is not one of ours. */
  tierId: string | null;
  /** The provider's status (Stripe's vocabulary: active, trialing, past_due, canceled, …). */
  status: string;
  currentPeriodStart: Date;
  currentPeriodEnd: Date;
  cancelAtPeriodEnd: boolean;
}

/** The slice of a provider event the billing rules read (Stripe's event shape, which the local provider copies). */
export interface ProviderEvent {
  id: string;
  type: string;
  created: number;
  data: { object: Record<string, unknown> };
}

export interface CheckoutInput {
  userId: string;
  email: string;
  tier: Tier;
  /** The provider customer already kept for this user, if any. */
  customerId: string | null;
  /** Where the provider sends the browser afterwards. */
  successUrl: string;
  cancelUrl: string;
  /** This app's base URL as the buyer's browser knows it (the local checkout page is served there). */
  baseUrl: string;
}

export interface PaymentProvider {
  readonly name: ProviderName;
  /** Signs the events this provider sends us (Stripe's `whsec_…`, or the generated local secret). */
  readonly webhookSecret: string;
  /** Starts a hosted checkout for a paid tier; returns the URL to send the browser to. */
  createCheckout(input: CheckoutInput): Promise<{ url: string; customerId: string | null }>;
  retrieveSubscription(id: string): Promise<ProviderSubscriptionState | null>;
  /** Our tier id for a provider price id (invoice lines name prices, not tiers). */
  tierForPrice(priceId: string): Promise<string | null>;
  setCancelAtPeriodEnd(subscriptionId: string, cancel: boolean): Promise<void>;
  /** Ends a subscription now (used when a new checkout replaced it, so the player is not billed twice). */
  cancelNow(subscriptionId: string): Promise<void>;
}

/** Provider statuses that no longer carry a paid tier. */
export function isEnded(status: string): boolean {
  return status === 'canceled' || status === 'incomplete_expired';
}

/** Our stored status for a provider status. */
export function storedStatus(status: string): 'active' | 'past_due' | 'canceled' | 'incomplete' {
  switch (status) {
    case 'active':
    case 'trialing':
      return 'active';
    case 'incomplete':
      return 'incomplete';
    case 'canceled':
    case 'incomplete_expired':
      return 'canceled';
    default: // past_due, unpaid, paused: the tier is kept but not active until the provider says it is paid
      return 'past_due';
  }
}

/** Lookup keys carry the price, so changing a tier's price makes (and uses) a new provider price. */
export function lookupKeyFor(tier: Pick<Tier, 'id' | 'priceCents'>): string {
  return `taleforge_${tier.id}_${tier.priceCents}_usd_month`;
}

export function tierFromLookupKey(key: string | null | undefined): string | null {
  const m = key ? /^taleforge_([a-z0-9-]+)_\d+_usd_month$/.exec(key) : null;
  return m?.[1] ?? null;
}
