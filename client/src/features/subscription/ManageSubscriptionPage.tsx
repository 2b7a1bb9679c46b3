import './subscription.css';
import { useEffect, useState } from 'react';
import { Link } from 'react-router-dom';
import { toast } from 'react-toastify/unstyled';
import {
  useManageSubscriptionPage_portalMutation,
  useManageSubscriptionPage_statusQuery,
  useManageSubscriptionPage_subscribeMutation,
} from '../../gql/graphql';
import { REFRESH_SUBSCRIPTION_EVENT } from '../../lib/constants';
import { MESSAGES } from '../../lib/messages';
import { checkoutRedirect } from './SubscriptionPage';
import { GemIcon } from '../../components/icons';

const date = (iso: string | null | undefined) => (iso ? new Date(iso).toLocaleDateString(undefined, { year: 'numeric', month: 'long', day: 'numeric' }) : '—');
const money = (cents: number | null | undefined) => (cents == null ? '—' : `$${(cents / 100).toFixed(2)}`);

/**
 * /subscription/manage — Manage Subscription for the built-in checkout (Stripe subscriptions go to
 * Stripe's Customer Portal instead): the tier and its period, cancel at period end or resume, and the
 * payments made. Changing tier is the Subscription page's job.
 */
export default function ManageSubscriptionPage() {
  const { data, loading, error, refetch } = useManageSubscriptionPage_statusQuery({ fetchPolicy: 'network-only' });
  const [subscribe, { loading: saving }] = useManageSubscriptionPage_subscribeMutation();
  const [openPortal, { loading: opening }] = useManageSubscriptionPage_portalMutation();
  const [confirming, setConfirming] = useState(false);
  useEffect(() => {
    document.title = 'Manage Subscription · Taleforge';
    return () => {
      document.title = 'Taleforge';
    };
  }, []);

  // Stripe keeps the payment method and invoices: its Customer Portal manages them, and cancels.
  const toPortal = async () => {
    try {
      const r = await openPortal();
      if (!r.data) throw new Error('no url');
      checkoutRedirect.go(r.data.manageSubscription.url);
    } catch {
      toast.error(MESSAGES.manageSubscriptionFailed);
    }
  };

  const change = async (tierId: string, message: string) => {
    try {
      await subscribe({ variables: { tierId } });
      await refetch();
      window.dispatchEvent(new Event(REFRESH_SUBSCRIPTION_EVENT));
      setConfirming(false);
      toast.success(message);
    } catch {
      toast.error(MESSAGES.subscriptionUpdateFailed);
    }
  };

  if (loading && !data) {
    return (
      <main className="page manage-subscription">
        <p role="status">Loading your subscription…</p>
      </main>
    );
  }
  if (error || !data) {
    return (
      <main className="page manage-subscription">
        <p role="alert">{MESSAGES.subscriptionLoadFailed}</p>
      </main>
    );
  }
  const s = data.subscriptionStatus;
  const paid = s.tier.price > 0;
  const stripe = s.provider === 'stripe';
  return (
    <main className="page manage-subscription">
      <h1 className="section-title">Manage Subscription</h1>
      <section className="manage-card" aria-label="Your subscription">
        <dl className="account-details">
          <div>
            <dt>Tier</dt>
            <dd>
              {s.tier.name}
              {paid && ` · $${s.tier.price.toFixed(2)} a month`}
            </dd>
          </div>
          <div>
            <dt>Credits</dt>
            <dd>
              <GemIcon className="gem" /> {s.credits}
            </dd>
          </div>
          <div>
            <dt>{paid ? (s.cancelAtPeriodEnd ? 'Ends on' : 'Renews on') : 'Next free credits'}</dt>
            <dd>{date(s.currentPeriodEnd)}</dd>
          </div>
          {s.status !== 'active' && (
            <div>
              <dt>Status</dt>
              <dd>{s.status.replace('_', ' ')}</dd>
            </div>
          )}
        </dl>
        {stripe && (
          <>
            <p>Your subscription is billed through Stripe: change the payment method, see invoices or cancel there.</p>
            <button type="button" className="btn btn-primary" disabled={opening} aria-busy={opening} onClick={() => void toPortal()}>
              Open Billing Portal
            </button>
          </>
        )}
        {!stripe && paid && s.cancelAtPeriodEnd && (
          <>
            <p>Your subscription is set to end on {date(s.currentPeriodEnd)}. You keep your tier and credits until then, then return to Free.</p>
            <button
              type="button"
              className="btn btn-primary"
              disabled={saving}
              aria-busy={saving}
              onClick={() => void change(s.tier.id, MESSAGES.subscriptionResumed)}
            >
              Resume Subscription
            </button>
          </>
        )}
        {!stripe && paid && !s.cancelAtPeriodEnd && !confirming && (
          <button type="button" className="btn btn-ghost" onClick={() => setConfirming(true)}>
            Cancel Subscription
          </button>
        )}
        {!stripe && paid && !s.cancelAtPeriodEnd && confirming && (
          <div role="group" aria-label="Confirm cancellation">
            <p>
              Cancel at the end of the period? You keep {s.tier.name} and your credits until {date(s.currentPeriodEnd)}; nothing more is charged.
            </p>
            <div className="account-actions">
              <button
                type="button"
                className="btn btn-danger"
                disabled={saving}
                aria-busy={saving}
                onClick={() => void change('free', MESSAGES.subscriptionCancelled)}
              >
                Cancel at Period End
              </button>
              <button type="button" className="btn btn-ghost" onClick={() => setConfirming(false)}>
                Keep Subscription
              </button>
            </div>
          </div>
        )}
        {!paid && <p className="muted">You are on the Free tier: nothing is charged.</p>}
        <p>
          <Link to="/subscription">Change tier</Link> · <Link to="/profile">Back to your account</Link>
        </p>
      </section>
      <section className="manage-card" aria-labelledby="payments-title">
        <h2 id="payments-title">Past payments</h2>
        {data.pastPayments.length === 0 ? (
          <p className="muted">No payments yet.</p>
        ) : (
          <table className="payments">
            <thead>
              <tr>
                <th scope="col">Date</th>
                <th scope="col">Tier</th>
                <th scope="col">Amount</th>
                <th scope="col">Credits</th>
              </tr>
            </thead>
            <tbody>
              {data.pastPayments.map((p) => (
                <tr key={p.reference}>
                  <td>{date(p.paidAt)}</td>
                  <td>{p.tierName ?? '—'}</td>
                  <td>{money(p.amountCents)}</td>
                  <td>+{p.credits}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
    </main>
  );
}
