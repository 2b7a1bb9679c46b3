import { useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { toast } from 'react-toastify/unstyled';
import { errorIsUnauthenticated } from '../../apollo/graphql-errors';
import { useProfilePage_meQuery, useProfilePage_signOutMutation } from '../../gql/graphql';
import { DEFAULT_SUBSCRIPTION } from '../subscription/subscription-defaults';
import { useAuth } from '../auth/auth-context';
import './profile.css';

export const LOGOUT_FAILED = 'Failed to log out. Please try again.';

type Tab = 'account' | 'character';

function formatDate(iso: string | undefined): string {
  if (!iso) return '—';
  const date = new Date(iso);
  return Number.isNaN(date.getTime())
    ? '—'
    : date.toLocaleDateString(undefined, { year: 'numeric', month: 'long', day: 'numeric' });
}

export default function ProfilePage() {
  const [tab, setTab] = useState<Tab>('account');
  return (
    <main className="page profile-page">
      <h1 className="page-title">Profile</h1>
      <div className="tabs" role="tablist" aria-label="Profile sections">
        <button
          type="button"
          role="tab"
          id="tab-account"
          aria-selected={tab === 'account'}
          aria-controls="panel-account"
          className="tab"
          onClick={() => setTab('account')}
        >
          Account
        </button>
        <button
          type="button"
          role="tab"
          id="tab-character"
          aria-selected={tab === 'character'}
          aria-controls="panel-character"
          className="tab"
          onClick={() => setTab('character')}
        >
          Character Profile
        </button>
      </div>
      {tab === 'account' ? (
        <section id="panel-account" role="tabpanel" aria-labelledby="tab-account" className="panel">
          <AccountTab />
        </section>
      ) : (
        <section id="panel-character" role="tabpanel" aria-labelledby="tab-character" className="panel">
          <p className="muted">Your skills, personality traits and free time will live here.</p>
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
    navigate('/auth', { replace: true });
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
          <dd>{DEFAULT_SUBSCRIPTION.tierName}</dd>
        </div>
      </dl>
      <div className="account-actions">
        <Link className="btn btn-ghost" to="/subscription">
          Manage Subscription
        </Link>
        <button type="button" className="btn btn-danger" onClick={logOut} disabled={loading}>
          Log Out
        </button>
      </div>
    </>
  );
}
