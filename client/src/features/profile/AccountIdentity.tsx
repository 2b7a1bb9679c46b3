import { useEffect, useId, useState, type FormEvent } from 'react';
import { toast } from 'react-toastify/unstyled';
import { errorCode, errorMessage } from '../../apollo/graphql-errors';
import { readSession, writeSession } from '../../apollo/session-store';
import { useAccountIdentity_updateMutation } from '../../gql/graphql';
import { MESSAGES } from '../../lib/messages';

const ownWords = (err: unknown) => {
  const c = errorCode(err);
  return c === 'INVALID_CREDENTIALS' || c === 'BAD_USER_INPUT' || c === 'RATE_LIMITED' || c === 'CONFLICT' ? errorMessage(err) : undefined;
};

/**
 * The Account tab's username and email: a new username applies at once; a new email needs the current
 * password and changes when the link mailed to it is followed (the link lands back here). The page
 * keys it by the loaded username, so the field starts from it.
 */
export function AccountIdentity({ username: current }: { username: string }) {
  const ids = useId();
  const [username, setUsername] = useState(current);
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [nameError, setNameError] = useState<string | null>(null);
  const [emailMessage, setEmailMessage] = useState<{ kind: 'error' | 'success'; text: string } | null>(null);
  const [update, { loading }] = useAccountIdentity_updateMutation();

  // A followed email-change link lands here: say how it went, then take it out of the address.
  useEffect(() => {
    const p = new URLSearchParams(window.location.hash.replace(/^#/, ''));
    if (p.get('type') === 'email_change') toast.success(MESSAGES.emailConfirmed);
    else if (p.get('error_code')) toast.error(MESSAGES.emailLinkInvalid);
    else return;
    window.history.replaceState(null, '', window.location.pathname + window.location.search);
  }, []);

  const saveName = async (e: FormEvent) => {
    e.preventDefault();
    setNameError(null);
    try {
      const r = await update({ variables: { input: { username: username.trim() } } });
      const session = readSession();
      if (session && r.data) writeSession({ ...session, user: { ...session.user, username: r.data.updateAccount.username } });
      toast.success(MESSAGES.usernameChanged);
    } catch (err) {
      setNameError(ownWords(err) || MESSAGES.usernameChangeFailed);
    }
  };

  const changeEmail = async (e: FormEvent) => {
    e.preventDefault();
    setEmailMessage(null);
    if (!email.trim() || !password) return setEmailMessage({ kind: 'error', text: MESSAGES.emailFieldsRequired });
    try {
      await update({ variables: { input: { email: email.trim(), currentPassword: password } } });
      setPassword('');
      setEmailMessage({ kind: 'success', text: MESSAGES.emailChangeRequested });
    } catch (err) {
      setEmailMessage({ kind: 'error', text: ownWords(err) || MESSAGES.emailChangeFailed });
    }
  };

  return (
    <section className="account-security" aria-labelledby={`${ids}-title`}>
      <h2 id={`${ids}-title`}>Username and email</h2>
      <form className="account-password" onSubmit={saveName} noValidate aria-label="Username">
        <div className="field">
          <label htmlFor={`${ids}-username`}>Username</label>
          <input id={`${ids}-username`} type="text" autoComplete="nickname" maxLength={40} value={username} onChange={(e) => setUsername(e.target.value)} />
        </div>
        {nameError && (
          <p className="form-error" role="alert">
            {nameError}
          </p>
        )}
        <button type="submit" className="btn btn-ghost" disabled={loading || username.trim() === current || !username.trim()}>
          Save Username
        </button>
      </form>
      <form className="account-password" onSubmit={changeEmail} noValidate aria-label="Email">
        <div className="field">
          <label htmlFor={`${ids}-email`}>New email</label>
          <input id={`${ids}-email`} type="email" autoComplete="email" value={email} onChange={(e) => setEmail(e.target.value)} />
        </div>
        <div className="field">
          <label htmlFor={`${ids}-password`}>Current password for the email change</label>
          <input id={`${ids}-password`} type="password" autoComplete="current-password" value={password} onChange={(e) => setPassword(e.target.value)} />
        </div>
        {emailMessage && (
          <p className={emailMessage.kind === 'error' ? 'form-error' : 'form-success'} role={emailMessage.kind === 'error' ? 'alert' : 'status'}>
            {emailMessage.text}
          </p>
        )}
        <button type="submit" className="btn btn-ghost" disabled={loading}>
          Change Email
        </button>
      </form>
    </section>
  );
}
