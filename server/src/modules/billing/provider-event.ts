/**
 * What a payment provider's event (Stripe's, or the local checkout's in Stripe's shape) says, read
 * defensively: every field may be missing, an id or an expanded object. BillingService then reads
 * the subscription's current state from the provider and applies it.
 */
import type { ProviderEvent } from './payments/provider';

const HANDLED_EVENTS = new Set(['checkout.session.completed', 'invoice.paid', 'customer.subscription.updated', 'customer.subscription.deleted']);

/** Invoices that open a period; proration invoices of a mid-period change do not grant a second time. */
const GRANTING_BILLING_REASONS = new Set(['subscription_create', 'subscription_cycle']);

export interface ReadEvent {
  /** The subscription the event is about, if it names one. */
  subscriptionId: string | null;
  /** The player the event's metadata names (checked against the subscription's own). */
  userHint: string | null;
  /** The period an invoice paid for: its credits are granted once. */
  grant: { invoiceId: string; periodStart: Date; priceId: string | null } | null;
}

/** Null for events we do not handle. */
export function readProviderEvent(event: ProviderEvent): ReadEvent | null {
  if (!HANDLED_EVENTS.has(event.type)) return null;
  const obj = event.data?.object ?? {};
  switch (event.type) {
    case 'checkout.session.completed':
      return {
        subscriptionId: obj.mode === 'subscription' ? idOf(obj.subscription) : null,
        userHint: str(obj.client_reference_id) ?? metadataUserId(obj.metadata),
        grant: null,
      };
    case 'invoice.paid': {
      const parent = (obj.parent ?? null) as { subscription_details?: { subscription?: unknown; metadata?: unknown } } | null;
      return {
        subscriptionId: idOf(parent?.subscription_details?.subscription) ?? idOf(obj.subscription),
        userHint: metadataUserId(parent?.subscription_details?.metadata),
        grant: invoiceGrant(obj),
      };
    }
    default: // customer.subscription.updated / deleted
      return { subscriptionId: idOf(obj.id), userHint: metadataUserId(obj.metadata), grant: null };
  }
}

function str(v: unknown): string | null {
  return typeof v === 'string' && v !== '' ? v : null;
}

/** Stripe fields that hold either an id or an expanded object. */
function idOf(v: unknown): string | null {
  if (typeof v === 'string') return v || null;
  if (v && typeof v === 'object' && typeof (v as { id?: unknown }).id === 'string') return (v as { id: string }).id;
  return null;
}

function metadataUserId(metadata: unknown): string | null {
  return metadata && typeof metadata === 'object' ? str((metadata as { userId?: unknown }).userId) : null;
}

/** The period an invoice pays for, when it opens one (first invoice or renewal). */
function invoiceGrant(invoice: Record<string, unknown>): { invoiceId: string; periodStart: Date; priceId: string | null } | null {
  const reason = invoice.billing_reason;
  if (typeof reason === 'string' && !GRANTING_BILLING_REASONS.has(reason)) return null;
  const line = ((invoice.lines as { data?: unknown[] } | undefined)?.data?.[0] ?? null) as {
    period?: { start?: unknown };
    pricing?: { price_details?: { price?: unknown } };
    price?: unknown;
  } | null;
  const start = line?.period?.start;
  if (typeof start !== 'number' || typeof invoice.id !== 'string') return null;
  return {
    invoiceId: invoice.id,
    periodStart: new Date(start * 1000),
    priceId: idOf(line?.pricing?.price_details?.price) ?? idOf(line?.price),
  };
}
