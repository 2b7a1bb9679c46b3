import { useRef, type KeyboardEvent } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { toast } from 'react-toastify/unstyled';
import { errorIsUnauthenticated } from '../../apollo/graphql-errors';
import { useProfilePage_meQuery, useProfilePage_signOutMutation } from '../../gql/graphql';
import { AccountData } from './AccountData';
import { AccountIdentity } from './AccountIdentity';
import { AccountSecurity } from './AccountSecurity';
import { TwoStepVerification } from './TwoStepVerification';
import { MESSAGES } from '../../lib/messages';
import { formatContextTokens } from '../subscription/subscription-defaults';
import { billingDate, useSubscriptionStatus } from '../subscription/subscription-status';
import { CharacterProfileTab } from './CharacterProfileTab';
import { useAuth } from '../auth/auth-context';
import './profile.css';
import { GemIcon } from '../../components/icons';

export const LOGOUT_FAILED = MESSAGES.logoutFailed;

type Tab = 'account' | 'character';

function formatDate(iso: string | undefined): string {
  if (!iso) return '—';
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? '—' : date.toLocaleDateString(undefined, { year: 'numeric', month: 'long', day: 'numeric' });
}

export default function ProfilePage() {
  const [params, setParams] = useSearchParams();
  const tab: Tab = params.get('tab') === 'character' ? 'character' : 'account';
  const tabs = useRef<Record<Tab, HTMLButtonElement | null>>({ account: null, character: null });
  const setTab = (next: Tab, focus = false) => {
    setParams(next === 'account' ? {} : { tab: next }, { replace: true });
    if (focus) tabs.current[next]?.focus();
  };
  // WAI-ARIA tabs: arrow keys move between tabs.
  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key === 'ArrowRight' || e.key === 'ArrowLeft' || e.key === 'Home' || e.key === 'End') {
      e.preventDefault();
      setTab(tab === 'account' ? 'character' : 'account', true);
    }
  };
  return (
    <main className="page profile-page">
      <h1 className="page-title">Profile</h1>
      <div className="tabs" role="tablist" aria-label="Profile sections" onKeyDown={onKeyDown}>
        <button
          ref={(el) => {
            tabs.current.account = el;
          }}
          type="button"
          role="tab"
          id="tab-account"
          aria-selected={tab === 'account'}
          aria-controls="panel-account"
          tabIndex={tab === 'account' ? 0 : -1}
          className="tab"
          onClick={() => setTab('account')}
        >
          Account
        </button>
        <button
          ref={(el) => {
            tabs.current.character = el;
          }}
          type="button"
          role="tab"
          id="tab-character"
          aria-selected={tab === 'character'}
          aria-controls="panel-character"
          tabIndex={tab === 'character' ? 0 : -1}
          className="tab"
          onClick={() => setTab('character')}
        >
          Character Profile
        </button>
      </div>
      {tab === 'account' ? (
        <section id="panel-account" role="tabpanel" aria-labelledby="tab-account" className="panel" tabIndex={0}>
          <AccountTab />
        </section>
      ) : (
        <section id="panel-character" role="tabpanel" aria-labelledby="tab-character" className="panel" tabIndex={0}>
          <CharacterProfileTab />
        </section>
      )}
    </main>
  );
}

function AccountTab() {
  const { user, endSession } = useAuth();
  const navigate = useNavigate();
  const { data } = useProfilePage_meQuery({ fetchPolicy: 'cache-and-network' });
  const [signOut, { loading }] = useProfilePage_signOutMutation();
  const me = data?.me ?? user;
  const subscription = useSubscriptionStatus();
  const sub = subscription.view;
  const billing = billingDate(sub);

  const logOut = async () => {
    try {
      await signOut();
    } catch (error) {
      // A session the server no longer accepts is as good as signed out; anything else is a failure.
      if (!errorIsUnauthenticated(error)) {
        toast.error(LOGOUT_FAILED);
        return;
      }
    }
    await endSession();
    await navigate('/auth', { replace: true });
  };

  return (
    <>
      <dl className="account-details">
        <div>
          <dt>Username</dt>
          <dd>{me?.username ?? '—'}</dd>
        </div>
        <div>
          <dt>Email</dt>
          <dd>{me?.email ?? '—'}</dd>
        </div>
        <div>
          <dt>Account created</dt>
          <dd>{formatDate(me?.createdAt)}</dd>
        </div>
        <div>
          <dt>Subscription</dt>
          <dd data-testid="account-subscription">
            {subscription.error && !subscription.data ? (
              <span role="alert">{MESSAGES.subscriptionStatusFailed}</span>
            ) : (
              <>
                {sub.tierName} · <GemIcon className="gem" />
                {sub.credits} credits · {formatContextTokens(sub.maxContextTokens)} context
                {billing && <span className="billing-date">Next billing date: {billing}</span>}
              </>
            )}
          </dd>
        </div>
      </dl>
      <div className="account-actions">
        <Link className="btn btn-ghost" to="/subscription/manage">
          Manage Subscription
        </Link>
        <button type="button" className="btn btn-danger" onClick={logOut} disabled={loading}>
          Log Out
        </button>
      </div>
      <AccountIdentity key={me?.username ?? ''} username={me?.username ?? ''} />
      <AccountSecurity />
      <TwoStepVerification />
      <AccountData />
    </>
  );
}
