import { useId, useState, type FormEvent } from 'react';
import { toast } from 'react-toastify/unstyled';
import { errorCode, errorMessage, errorReason } from '../../apollo/graphql-errors';
import { toSession, writeSession } from '../../apollo/session-store';
import {
  useTwoStepVerification_confirmMutation,
  useTwoStepVerification_enrollMutation,
  useTwoStepVerification_factorsQuery,
  useTwoStepVerification_removeMutation,
  type TwoStepVerification_enrollMutation,
} from '../../gql/graphql';
import { MESSAGES } from '../../lib/messages';

type Enrollment = TwoStepVerification_enrollMutation['enrollTotp'];

/**
 * Two-step verification on the Account tab: add an authenticator app (scan the QR code or type the
 * secret, then confirm a code) and turn it off. With it on, signing in asks for the app's code.
 */
export function TwoStepVerification() {
  const ids = useId();
  const { data, loading, refetch } = useTwoStepVerification_factorsQuery({ fetchPolicy: 'cache-and-network' });
  const [enroll, { loading: enrolling }] = useTwoStepVerification_enrollMutation();
  const [confirm, { loading: confirming }] = useTwoStepVerification_confirmMutation();
  const [remove, { loading: removing }] = useTwoStepVerification_removeMutation();
  const [pending, setPending] = useState<Enrollment | null>(null);
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  /** The server wants the password again (this session signed in with it a while ago). */
  const [askPassword, setAskPassword] = useState(false);
  const [password, setPassword] = useState('');
  const verified = data?.mfaFactors.find((f) => f.status === 'verified');

  const start = async (currentPassword?: string) => {
    setError(null);
    try {
      const r = await enroll({ variables: { currentPassword: currentPassword ?? null } });
      setPending(r.data?.enrollTotp ?? null);
      setAskPassword(false);
      setPassword('');
      setCode('');
    } catch (err) {
      if (errorReason(err) === 'reauthentication_needed') setAskPassword(true);
      else if (currentPassword !== undefined && errorCode(err) === 'INVALID_CREDENTIALS') setError(errorMessage(err) ?? MESSAGES.twoStepFailed);
      else toast.error(MESSAGES.twoStepFailed);
    }
  };

  const submitPassword = (e: FormEvent) => {
    e.preventDefault();
    if (password) void start(password);
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!pending) return;
    setError(null);
    try {
      const r = await confirm({ variables: { factorId: pending.factorId, code: code.replace(/\s/g, '') } });
      // This session goes on at aal2 with new tokens (its older refresh token no longer works).
      if (r.data) writeSession(toSession(r.data.confirmTotp));
      setPending(null);
      await refetch();
      toast.success(MESSAGES.twoStepOn);
    } catch (err) {
      const c = errorCode(err);
      setError((c === 'INVALID_CREDENTIALS' || c === 'BAD_USER_INPUT' || c === 'RATE_LIMITED' ? errorMessage(err) : undefined) || MESSAGES.twoStepCodeFailed);
    }
  };

  const turnOff = async () => {
    if (!verified || !window.confirm('Turn off two-step verification? Signing in will need only your password.')) return;
    try {
      await remove({ variables: { factorId: verified.id } });
      await refetch();
      toast.success(MESSAGES.twoStepOff);
    } catch {
      toast.error(MESSAGES.twoStepFailed);
    }
  };

  return (
    <section className="account-security" aria-labelledby={`${ids}-title`}>
      <h2 id={`${ids}-title`}>Two-step verification</h2>
      {verified ? (
        <>
          <p>
            <strong>On.</strong> Signing in asks for a code from your authenticator app (added {new Date(verified.createdAt).toLocaleDateString()}).
          </p>
          <button type="button" className="btn btn-ghost" onClick={() => void turnOff()} disabled={removing} aria-busy={removing}>
            Turn Off Two-Step Verification
          </button>
          <p className="muted">Lost the device with your authenticator app? Contact us through Help &amp; Support: we check it is you, then turn it off.</p>
        </>
      ) : pending ? (
        <form className="account-password" onSubmit={submit} noValidate aria-label="Set up an authenticator app">
          <p>Scan this code with an authenticator app (such as Google Authenticator, 1Password or Aegis), then enter the 6-digit code it shows.</p>
          <img
            className="totp-qr"
            src={`data:image/svg+xml;utf8,${encodeURIComponent(pending.qrCodeSvg)}`}
            alt="QR code for your authenticator app"
            width={180}
            height={180}
          />
          <p className="muted">
            Cannot scan? Type this key: <code className="totp-secret">{pending.secret.replace(/(.{4})/g, '$1 ').trim()}</code>
          </p>
          <div className="field">
            <label htmlFor={`${ids}-code`}>Code from the app</label>
            <input
              id={`${ids}-code`}
              type="text"
              inputMode="numeric"
              autoComplete="one-time-code"
              maxLength={7}
              value={code}
              onChange={(e) => setCode(e.target.value)}
            />
          </div>
          {error && (
            <p className="form-error" role="alert">
              {error}
            </p>
          )}
          <div className="account-actions">
            <button type="submit" className="btn btn-primary" disabled={confirming} aria-busy={confirming}>
              Turn On
            </button>
            <button type="button" className="btn btn-ghost" onClick={() => setPending(null)}>
              Cancel
            </button>
          </div>
        </form>
      ) : askPassword ? (
        <form className="account-password" onSubmit={submitPassword} noValidate aria-label="Confirm your password">
          <p>Enter your password to add an authenticator app: it keeps someone holding only your session from adding theirs.</p>
          <div className="field">
            <label htmlFor={`${ids}-password`}>Your password</label>
            <input id={`${ids}-password`} type="password" autoComplete="current-password" value={password} onChange={(e) => setPassword(e.target.value)} />
          </div>
          {error && (
            <p className="form-error" role="alert">
              {error}
            </p>
          )}
          <div className="account-actions">
            <button type="submit" className="btn btn-primary" disabled={enrolling || !password} aria-busy={enrolling}>
              Continue
            </button>
            <button
              type="button"
              className="btn btn-ghost"
              onClick={() => {
                setAskPassword(false);
                setPassword('');
                setError(null);
              }}
            >
              Cancel
            </button>
          </div>
        </form>
      ) : (
        <>
          <p className="muted">Off. Add an authenticator app so that a stolen password alone cannot open your account.</p>
          <button type="button" className="btn btn-ghost" onClick={() => void start()} disabled={enrolling || loading} aria-busy={enrolling}>
            Set Up Authenticator App
          </button>
        </>
      )}
    </section>
  );
}
