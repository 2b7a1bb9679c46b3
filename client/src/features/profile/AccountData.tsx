import { useId, useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router-dom';
import { toast } from 'react-toastify/unstyled';
import { errorCode, errorMessage } from '../../apollo/graphql-errors';
import { readSession } from '../../apollo/session-store';
import { useApolloClient } from '@apollo/client/react';
import { AccountData_sessionDocument, useAccountData_deleteMutation } from '../../gql/graphql';
import { MESSAGES } from '../../lib/messages';
import { saveFile } from '../../lib/save-file';
import { useAuth } from '../auth/auth-context';

/**
 * The Account tab's "Your data": download everything as one ZIP (GET /api/account/export), and delete
 * the account after the password (it cannot be undone, so it asks twice: the form, then the password).
 */
export function AccountData() {
  const ids = useId();
  const navigate = useNavigate();
  const { endSession } = useAuth();
  const [exporting, setExporting] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [remove, { loading }] = useAccountData_deleteMutation();
  const client = useApolloClient();

  /**
   * The archive is a plain fetch, outside the auth link: on a page left open past the access token's
   * hour, one GraphQL request first lets the link refresh the session.
   */
  const freshToken = async () => {
    const session = readSession();
    if (session && session.expiresAt - Date.now() / 1000 < 300) await client.query({ query: AccountData_sessionDocument, fetchPolicy: 'network-only' });
    return readSession()?.accessToken;
  };

  const download = async () => {
    setExporting(true);
    try {
      const token = await freshToken();
      const res = await fetch('/api/account/export', { headers: token ? { authorization: `Bearer ${token}` } : {} });
      if (!res.ok) {
        const body = (await res.json().catch(() => null)) as { code?: string; error?: string } | null;
        throw new Error(body?.code === 'RATE_LIMITED' ? body.error : MESSAGES.exportDataFailed);
      }
      const name = /filename="([^"]+)"/.exec(res.headers.get('content-disposition') ?? '')?.[1] ?? 'taleforge-export.zip';
      saveFile(name, await res.blob());
    } catch (err) {
      toast.error(err instanceof Error && err.message ? err.message : MESSAGES.exportDataFailed);
    } finally {
      setExporting(false);
    }
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    if (!password) return setError(MESSAGES.deletePasswordRequired);
    try {
      await remove({ variables: { password } });
      // Home first, synchronously (not as a transition that keeps this protected page up while the
      // landing page loads): ending the session here would send the browser to /auth.
      await navigate('/', { replace: true, flushSync: true });
      await endSession();
      toast.success(MESSAGES.accountDeleted);
    } catch (err) {
      const c = errorCode(err);
      setError(
        (c === 'INVALID_CREDENTIALS' || c === 'BAD_USER_INPUT' || c === 'RATE_LIMITED' || c === 'SERVICE_UNAVAILABLE' ? errorMessage(err) : undefined) ||
          MESSAGES.accountDeleteFailed,
      );
    }
  };

  return (
    <section className="account-security" aria-labelledby={`${ids}-title`}>
      <h2 id={`${ids}-title`}>Your data</h2>
      <p className="muted">
        Download a copy of everything you made here as one ZIP file: your account, worlds with their images, characters with whole stories, and your credit
        history.
      </p>
      <button type="button" className="btn btn-ghost" onClick={() => void download()} disabled={exporting} aria-busy={exporting}>
        Download My Data
      </button>
      {!deleting ? (
        <p>
          <button type="button" className="btn btn-ghost account-delete-open" onClick={() => setDeleting(true)}>
            Delete Account…
          </button>
        </p>
      ) : (
        <form className="account-password account-delete" onSubmit={submit} noValidate aria-label="Delete account">
          <p role="note">
            <strong>This cannot be undone.</strong> Your account, your worlds (shared ones too), your characters and their stories, and your published stories
            are deleted for good. A paid subscription is cancelled now, with no refund of the current period. Other players keep the stories they played in your
            worlds.
          </p>
          <div className="field">
            <label htmlFor={`${ids}-password`}>Password</label>
            <input id={`${ids}-password`} type="password" autoComplete="current-password" value={password} onChange={(e) => setPassword(e.target.value)} />
          </div>
          {error && (
            <p className="form-error" role="alert">
              {error}
            </p>
          )}
          <div className="account-actions">
            <button type="submit" className="btn btn-danger" disabled={loading} aria-busy={loading}>
              Delete My Account Forever
            </button>
            <button
              type="button"
              className="btn btn-ghost"
              onClick={() => {
                setDeleting(false);
                setPassword('');
                setError(null);
              }}
            >
              Cancel
            </button>
          </div>
        </form>
      )}
    </section>
  );
}
