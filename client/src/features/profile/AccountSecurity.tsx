import { useId, useState, type FormEvent } from 'react';
import { toast } from 'react-toastify/unstyled';
import { errorCode, errorMessage } from '../../apollo/graphql-errors';
import { useAccountSecurity_changePasswordMutation, useAccountSecurity_signOutOthersMutation } from '../../gql/graphql';
import { MESSAGES } from '../../lib/messages';

/**
 * The Account tab's security part (issue 21, in part): change the password (the current one is
 * required; every other device is signed out) and sign out everywhere else.
 */
export function AccountSecurity() {
  const ids = useId();
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [repeat, setRepeat] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [change, { loading: changing }] = useAccountSecurity_changePasswordMutation();
  const [signOutOthers, { loading: signingOut }] = useAccountSecurity_signOutOthersMutation();

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    if (!current || !next) return setError(MESSAGES.passwordFieldsRequired);
    if (next !== repeat) return setError(MESSAGES.passwordsDiffer);
    try {
      await change({ variables: { input: { currentPassword: current, newPassword: next } } });
      setCurrent('');
      setNext('');
      setRepeat('');
      toast.success(MESSAGES.passwordChanged);
    } catch (err) {
      // The server's own words for a wrong current password or a weak new one; a generic line otherwise.
      const code = errorCode(err);
      setError(
        (code === 'INVALID_CREDENTIALS' || code === 'BAD_USER_INPUT' || code === 'RATE_LIMITED' ? errorMessage(err) : undefined) ||
          MESSAGES.passwordChangeFailed,
      );
    }
  };

  const onSignOutOthers = async () => {
    try {
      await signOutOthers();
      toast.success(MESSAGES.signedOutElsewhere);
    } catch {
      toast.error(MESSAGES.signOutElsewhereFailed);
    }
  };

  return (
    <section className="account-security" aria-labelledby={`${ids}-title`}>
      <h2 id={`${ids}-title`}>Password and sessions</h2>
      <form className="account-password" onSubmit={submit} noValidate>
        <div className="field">
          <label htmlFor={`${ids}-current`}>Current password</label>
          <input id={`${ids}-current`} type="password" autoComplete="current-password" value={current} onChange={(e) => setCurrent(e.target.value)} />
        </div>
        <div className="field">
          <label htmlFor={`${ids}-next`}>New password</label>
          <input
            id={`${ids}-next`}
            type="password"
            autoComplete="new-password"
            minLength={8}
            maxLength={128}
            value={next}
            onChange={(e) => setNext(e.target.value)}
          />
        </div>
        <div className="field">
          <label htmlFor={`${ids}-repeat`}>Repeat the new password</label>
          <input id={`${ids}-repeat`} type="password" autoComplete="new-password" value={repeat} onChange={(e) => setRepeat(e.target.value)} />
        </div>
        {error && (
          <p className="form-error" role="alert">
            {error}
          </p>
        )}
        <button type="submit" className="btn btn-primary" disabled={changing} aria-busy={changing}>
          Change Password
        </button>
      </form>
      <p className="muted">Signed in on a device you no longer use? End every session but this one.</p>
      <button type="button" className="btn btn-ghost" onClick={() => void onSignOutOthers()} disabled={signingOut} aria-busy={signingOut}>
        Sign Out Everywhere Else
      </button>
    </section>
  );
}
