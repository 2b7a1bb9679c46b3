import { useApolloClient } from '@apollo/client/react';
import { useEffect } from 'react';
import {
  SubscriptionStatus_subscriptionStatusDocument,
  useSubscriptionStatus_subscriptionChangedSubscription,
  useSubscriptionStatus_subscriptionStatusQuery,
  type SubscriptionStatus_subscriptionStatusQuery,
} from '../../gql/graphql';
import { useAuth } from '../auth/auth-context';
import { REFRESH_SUBSCRIPTION_EVENT } from '../../lib/constants';
import { DEFAULT_SUBSCRIPTION } from './subscription-defaults';

type SubscriptionStatusData = SubscriptionStatus_subscriptionStatusQuery['subscriptionStatus'];

export interface SubscriptionView {
  tierId: string | null;
  tierName: string;
  credits: number;
  maxContextTokens: number;
  active: boolean;
  endDate: string | null;
}

/** What to show: the loaded status, or the SPEC §9 default (Free, 0 credits, 2k) while unknown. */
function toView(status: SubscriptionStatusData | null | undefined): SubscriptionView {
  if (!status) return { tierId: null, ...DEFAULT_SUBSCRIPTION, active: false, endDate: null };
  return {
    tierId: status.tier.id,
    tierName: status.tier.name,
    credits: status.credits,
    maxContextTokens: status.maxContextTokens,
    active: status.active,
    endDate: status.endDate,
  };
}

/**
 * The signed-in player's subscription status. Every caller shares the one cached result, which the
 * live subscription (<LiveSubscriptionStatus/>) keeps current and the window event
 * `refreshSubscription` reloads.
 */
export function useSubscriptionStatus({ skip = false }: { skip?: boolean } = {}) {
  const { status: auth } = useAuth();
  const query = useSubscriptionStatus_subscriptionStatusQuery({ skip: skip || auth !== 'authenticated', fetchPolicy: 'cache-first' });
  return { ...query, view: toView(query.data?.subscriptionStatus) };
}

/** Tells every status display to reload (SPEC §4 Subscription). */
export function requestSubscriptionRefresh(): void {
  window.dispatchEvent(new Event(REFRESH_SUBSCRIPTION_EVENT));
}

/**
 * Mounted once while signed in: follows `subscriptionChanged` over graphql-ws and writes each status
 * into the cache (so the nav's gem count is live), and reloads on the `refreshSubscription` event.
 */
export function LiveSubscriptionStatus() {
  const client = useApolloClient();
  useSubscriptionStatus_subscriptionChangedSubscription({
    onData: ({ data }) => {
      const next = data.data?.subscriptionChanged;
      if (next) client.writeQuery({ query: SubscriptionStatus_subscriptionStatusDocument, data: { subscriptionStatus: next } });
    },
  });
  useEffect(() => {
    const reload = () => {
      void client.query({ query: SubscriptionStatus_subscriptionStatusDocument, fetchPolicy: 'network-only' }).catch(() => undefined);
    };
    window.addEventListener(REFRESH_SUBSCRIPTION_EVENT, reload);
    return () => window.removeEventListener(REFRESH_SUBSCRIPTION_EVENT, reload);
  }, [client]);
  return null;
}

/** SPEC §9: the billing date is shown only when the subscription is active and has an end date. */
export function billingDate(view: Pick<SubscriptionView, 'active' | 'endDate'>): string | null {
  if (!view.active || !view.endDate) return null;
  const d = new Date(view.endDate);
  return Number.isNaN(d.getTime()) ? null : d.toLocaleDateString(undefined, { year: 'numeric', month: 'long', day: 'numeric' });
}
