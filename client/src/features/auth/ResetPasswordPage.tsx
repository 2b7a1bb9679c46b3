import { useEffect, useId, useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { toast } from 'react-toastify/unstyled';
import { errorCode, errorMessage } from '../../apollo/graphql-errors';
import { useResetPasswordPage_setPasswordMutation, useResetPasswordPage_verifyMfaCodeMutation } from '../../gql/graphql';
import { AuthCard } from './AuthCard';
import { useAuth } from './auth-context';
import { readLanding, type Landing } from './mail-landing';

export const RESET_MESSAGES = {
  linkInvalid: 'This reset link is invalid or has expired. Ask for a new one.',
  passwordsDiffer: 'The new passwords do not match.',
  done: 'Your new password is set. You are signed in, and signed out everywhere else.',
  failed: 'Failed to set the new password. Please try again.',
  codeFailed: 'That code did not work. Please try again.',
} as const;

/**
 * /reset-password — where a mailed reset link lands. The link already signed the account out
 * everywhere and opened a session that may set a new password without the old one; the tokens are
 * taken out of the address at once, so they never sit in the history or a shared screenshot.
 */
export default function ResetPasswordPage() {
  const ids = useId();
  const navigate = useNavigate();
  const { startSession, status } = useAuth();
  const [landing] = useState<Landing>(() => readLanding(window.location.hash, 'recovery'));
  const [ready, setReady] = useState(false);
  const [password, setPassword] = useState('');
  const [repeat, setRepeat] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [setNewPassword, { loading }] = useResetPasswordPage_setPasswordMutation();
  const [verifyMfaCode, { loading: verifying }] = useResetPasswordPage_verifyMfaCodeMutation();
  /** With an authenticator, the link's session needs its code before it can set the password. */
  const [needsCode, setNeedsCode] = useState(landing.kind === 'session' && landing.mfaRequired);
  const [code, setCode] = useState('');

  useEffect(() => {
    if (window.location.hash) window.history.replaceState(null, '', window.location.pathname);
    if (landing.kind !== 'session' || landing.mfaRequired) return;
    void startSession({ ...landing, user: { ...landing.user, createdAt: '' } }).then(() => setReady(true));
  }, [landing, startSession]);

  const submitCode = async (e: FormEvent) => {
    e.preventDefault();
    if (landing.kind !== 'session') return;
    setError(null);
    try {
      const { data } = await verifyMfaCode({ variables: { code: code.replace(/\s/g, '') }, context: { bearer: landing.accessToken } });
      if (!data) throw new Error('No session');
      await startSession(data.verifyMfaCode);
      setNeedsCode(false);
      setReady(true);
    } catch (err) {
      const c = errorCode(err);
      setError((c === 'INVALID_CREDENTIALS' || c === 'RATE_LIMITED' || c === 'BAD_USER_INPUT' ? errorMessage(err) : undefined) || RESET_MESSAGES.codeFailed);
    }
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    if (password !== repeat) return setError(RESET_MESSAGES.passwordsDiffer);
    try {
      await setNewPassword({ variables: { input: { newPassword: password } } });
      toast.success(RESET_MESSAGES.done);
      void navigate('/worlds', { replace: true });
    } catch (err) {
      const code = errorCode(err);
      setError((code === 'BAD_USER_INPUT' ? errorMessage(err) : undefined) || RESET_MESSAGES.failed);
    }
  };

  const usable = landing.kind === 'session' || (landing.kind === 'none' && status === 'authenticated');
  return (
    <AuthCard title="Choose a new password">
      {!usable ? (
        <>
          <p className="auth-message auth-message-error" role="alert">
            {RESET_MESSAGES.linkInvalid}
          </p>
          <p className="auth-toggle">
            <Link to="/auth">Back to log in</Link>
          </p>
        </>
      ) : needsCode ? (
        <form className="auth-form" onSubmit={submitCode} aria-label="Verification code">
          <p className="muted">Your account has two-step verification: enter the 6-digit code your authenticator app shows first.</p>
          <div className="field">
            <label htmlFor={`${ids}-code`}>Code</label>
            <input
              id={`${ids}-code`}
              type="text"
              inputMode="numeric"
              autoComplete="one-time-code"
              maxLength={7}
              required
              value={code}
              onChange={(e) => setCode(e.target.value)}
            />
          </div>
          {error && (
            <p className="auth-message auth-message-error" role="alert">
              {error}
            </p>
          )}
          <button type="submit" className="btn btn-primary btn-block" disabled={verifying} aria-busy={verifying}>
            Verify
          </button>
        </form>
      ) : (
        <form className="auth-form" onSubmit={submit} aria-label="Choose a new password">
          <div className="field">
            <label htmlFor={`${ids}-password`}>New password</label>
            <input
              id={`${ids}-password`}
              type="password"
              autoComplete="new-password"
              required
              minLength={8}
              maxLength={128}
              value={password}
              onChange={(e) => setPassword(e.target.value)}
            />
          </div>
          <div className="field">
            <label htmlFor={`${ids}-repeat`}>Repeat the new password</label>
            <input id={`${ids}-repeat`} type="password" autoComplete="new-password" required value={repeat} onChange={(e) => setRepeat(e.target.value)} />
          </div>
          {error && (
            <p className="auth-message auth-message-error" role="alert">
              {error}
            </p>
          )}
          <button type="submit" className="btn btn-primary btn-block" disabled={loading || (landing.kind === 'session' && !ready)} aria-busy={loading}>
            Set New Password
          </button>
        </form>
      )}
    </AuthCard>
  );
}
