import { useEffect, useRef, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { toast } from 'react-toastify/unstyled';
import { PageLoader } from '../../components/layout/PageLoader';
import { GemIcon } from '../../components/icons';
import {
  useSubscriptionPage_createCheckoutMutation,
  useSubscriptionPage_subscribeMutation,
  useSubscriptionPage_tiersQuery,
  SubscriptionStatus_subscriptionStatusDocument,
  type SubscriptionPage_tiersQuery,
} from '../../gql/graphql';
import { MESSAGES } from '../../lib/messages';
import { formatContextTokens, formatPrice } from './subscription-defaults';
import { billingDate, requestSubscriptionRefresh, useSubscriptionStatus } from './subscription-status';
import './subscription.css';

type Tier = SubscriptionPage_tiersQuery['tiers'][number];

/** Where the browser goes to pay (a seam for tests). */
export const checkoutRedirect = { go: (url: string) => window.location.assign(url) };

/** SPEC §4: a free tier, or the current tier, is subscribed directly; a paid tier goes through checkout. */
export function subscriptionRoute(tier: Pick<Tier, 'id' | 'price'>, currentTierId: string | null): 'subscribe' | 'checkout' {
  return tier.price <= 0 || tier.id === currentTierId ? 'subscribe' : 'checkout';
}

export default function SubscriptionPage() {
  const navigate = useNavigate();
  const [params, setParams] = useSearchParams();
  const tiers = useSubscriptionPage_tiersQuery();
  const status = useSubscriptionStatus();
  const [checkoutTier, setCheckoutTier] = useState<Tier | null>(null);
  const [subscribe, subscribeState] = useSubscriptionPage_subscribeMutation({
    update(cache, { data }) {
      if (data) cache.writeQuery({ query: SubscriptionStatus_subscriptionStatusDocument, data: { subscriptionStatus: data.subscribe } });
    },
  });
  const [createCheckout, checkoutState] = useSubscriptionPage_createCheckoutMutation();
  const announced = useRef(false);
  const current = status.view;
  const billing = billingDate(current);

  // Back from the payment provider.
  useEffect(() => {
    const outcome = params.get('checkout');
    if (!outcome || announced.current) return;
    announced.current = true;
    if (outcome === 'success') toast.success(MESSAGES.subscriptionUpdated);
    requestSubscriptionRefresh();
    setParams({}, { replace: true });
  }, [params, setParams]);

  const choose = async (tier: Tier) => {
    if (subscriptionRoute(tier, current.tierId) === 'checkout') {
      setCheckoutTier(tier);
      return;
    }
    try {
      await subscribe({ variables: { tierId: tier.id } });
      toast.success(MESSAGES.subscriptionUpdated);
      requestSubscriptionRefresh();
    } catch {
      toast.error(MESSAGES.subscriptionUpdateFailed);
    }
  };

  const startCheckout = async (tier: Tier) => {
    try {
      const { data } = await createCheckout({ variables: { tierId: tier.id } });
      if (!data?.createCheckout.url) throw new Error('No checkout url');
      checkoutRedirect.go(data.createCheckout.url);
    } catch {
      toast.error(MESSAGES.checkoutFailed);
    }
  };

  if ((tiers.loading && !tiers.data) || (status.loading && !status.data)) return <PageLoader label="Loading subscription…" />;

  if (tiers.error && !tiers.data) {
    return (
      <main className="page subscription-page">
        <h1 className="page-title">Subscription</h1>
        <div className="notice" role="alert">
          <p>{MESSAGES.subscriptionLoadFailed}</p>
          <button type="button" className="btn btn-ghost" onClick={() => void tiers.refetch()}>
            Try Again
          </button>
        </div>
      </main>
    );
  }

  if (checkoutTier) {
    return (
      <main className="page subscription-page">
        <h1 className="page-title">Checkout</h1>
        <section className="checkout" aria-label={`Checkout for ${checkoutTier.name}`}>
          <h2>{checkoutTier.name}</h2>
          <p className="tier-price">
            {formatPrice(checkoutTier.price)}
            <span> / month</span>
          </p>
          <ul className="tier-facts">
            <li>
              <GemIcon /> {checkoutTier.monthlyCredits} credits every month
            </li>
            <li>{formatContextTokens(checkoutTier.maxContextTokens)} context tokens of story memory</li>
          </ul>
          <p className="muted">You will be taken to our payment provider to complete the purchase. Credits arrive as soon as it goes through.</p>
          <div className="checkout-actions">
            <button type="button" className="btn btn-ghost" onClick={() => setCheckoutTier(null)} disabled={checkoutState.loading}>
              Back
            </button>
            <button
              type="button"
              className="btn btn-primary btn-lg"
              onClick={() => void startCheckout(checkoutTier)}
              disabled={checkoutState.loading}
              aria-busy={checkoutState.loading}
            >
              Proceed to Payment
            </button>
          </div>
        </section>
      </main>
    );
  }

  return (
    <main className="page subscription-page">
      <div className="section-head">
        <h1 className="page-title">Subscription</h1>
        <button type="button" className="btn btn-ghost" onClick={() => navigate(-1)}>
          Back
        </button>
      </div>
      <p className="page-lead">
        Credits, shown with the gem <GemIcon className="gem" />, pay for new worlds and characters (a price of 3 gems is 3 credits); chapters are free. Higher
        tiers give your stories a longer memory.
      </p>
      <div className="current-status" role="status">
        {status.error && !status.data ? (
          MESSAGES.subscriptionStatusFailed
        ) : (
          <>
            Current plan: <strong>{current.tierName}</strong> · <GemIcon /> <strong data-testid="subscription-credits">{current.credits}</strong> credits ·{' '}
            {formatContextTokens(current.maxContextTokens)} context
            {billing && <> · Next billing date: {billing}</>}
          </>
        )}
      </div>
      <ul className="tier-grid">
        {(tiers.data?.tiers ?? []).map((tier) => {
          const isCurrent = tier.id === current.tierId;
          return (
            <li key={tier.id} className={`tier-card ${isCurrent ? 'is-current' : ''}`} aria-current={isCurrent ? 'true' : undefined}>
              {isCurrent && <span className="tier-marker">Current plan</span>}
              <h2>{tier.name}</h2>
              <p className="tier-price">
                {formatPrice(tier.price)}
                <span> / month</span>
              </p>
              <p className="muted">{tier.description}</p>
              <ul className="tier-facts">
                <li>
                  <GemIcon /> {tier.monthlyCredits} credits / month
                </li>
                <li>{formatContextTokens(tier.maxContextTokens)} context tokens</li>
                {tier.features.map((f) => (
                  <li key={f}>{f}</li>
                ))}
              </ul>
              <button
                type="button"
                className={`btn ${isCurrent ? 'btn-ghost' : 'btn-primary'} btn-block`}
                onClick={() => void choose(tier)}
                disabled={subscribeState.loading}
                aria-label={isCurrent ? `${tier.name}: current plan` : `Choose ${tier.name}`}
              >
                {isCurrent ? 'Current Plan' : `Choose ${tier.name}`}
              </button>
            </li>
          );
        })}
      </ul>
    </main>
  );
}
