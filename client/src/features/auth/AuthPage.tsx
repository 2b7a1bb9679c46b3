import { CombinedGraphQLErrors } from '@apollo/client/errors';
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { toast } from 'react-toastify/unstyled';
import { errorCode } from '../../apollo/graphql-errors';
import {
  useAuthPage_requestPasswordResetMutation,
  useAuthPage_resendConfirmationMutation,
  useAuthPage_signInMutation,
  useAuthPage_signUpMutation,
  useAuthPage_verifyMfaCodeMutation,
} from '../../gql/graphql';
import { AuthCard } from './AuthCard';
import { useAuth } from './auth-context';
import { readLanding } from './mail-landing';
import { returnPath } from './redirect';
import './auth.css';

/** SPEC §8 Auth, verbatim. */
export const AUTH_MESSAGES = {
  loginFailed: 'Incorrect email or password.',
  signUpFailed: 'Registration failed. Please try again.',
  signUpException: 'Sign up failed. Please try again with valid email.',
  signUpToast: 'Sign up successful! Welcome to Taleforge',
  signUpSuccess: 'Success! You are now signed up.',
  // Not in the SPEC (password reset is ours): the same tone.
  resetSent: 'If an account exists for that email, a link to choose a new password is on its way. It works once, for an hour.',
  resetFailed: 'Failed to send the reset link. Please try again.',
  mfaFailed: 'That code did not work. Please try again.',
  confirmSent: 'Almost there: we sent a link to your email. Open it to confirm your account and sign in.',
  confirmResent: 'If that account still needs confirming, a new link is on its way.',
  confirmed: 'Your email is confirmed. Welcome to Taleforge!',
  confirmLinkInvalid: 'This confirmation link is invalid or has expired. Log in to ask for a new one.',
} as const;

/** How long the sign-up success message stays before leaving the page. */
export const SIGN_UP_REDIRECT_DELAY_MS = 1200;

type Mode = 'login' | 'signup' | 'forgot' | 'mfa';
type Message = { kind: 'error' | 'success'; text: string } | null;

function AuthPage() {
  const [mode, setMode] = useState<Mode>('login');
  const [email, setEmail] = useState('');
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  // A followed sign-up confirmation link lands here with the session (or an error) in the fragment.
  const [signupLanding] = useState(() =>
    /(^|[#&])(type=signup|error_code=)/.test(window.location.hash) ? readLanding(window.location.hash, 'signup') : ({ kind: 'none' } as const),
  );
  const [message, setMessage] = useState<Message>(() => (signupLanding.kind === 'invalid' ? { kind: 'error', text: AUTH_MESSAGES.confirmLinkInvalid } : null));
  const [submitting, setSubmitting] = useState(false);
  const [code, setCode] = useState('');
  /** The password step's token while the authenticator code is asked for: it reaches nothing else. */
  const [pendingToken, setPendingToken] = useState<string | null>(null);
  /** The server said the email is not confirmed yet: offer a new link. */
  const [unconfirmed, setUnconfirmed] = useState(false);
  const { startSession } = useAuth();
  const navigate = useNavigate();
  const location = useLocation();
  const redirectTimer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const ids = useId();

  const [signIn] = useAuthPage_signInMutation({ context: { skipAuth: true } });
  const [signUp] = useAuthPage_signUpMutation({ context: { skipAuth: true } });
  const [requestReset] = useAuthPage_requestPasswordResetMutation({ context: { skipAuth: true } });
  const [verifyMfaCode] = useAuthPage_verifyMfaCodeMutation();
  const [resendConfirmation] = useAuthPage_resendConfirmationMutation({ context: { skipAuth: true } });

  // The confirmation link's tokens leave the address at once; its session starts and the player goes on.
  useEffect(() => {
    if (signupLanding.kind === 'none') return;
    window.history.replaceState(null, '', window.location.pathname + window.location.search);
    if (signupLanding.kind !== 'session') return;
    void startSession({ ...signupLanding, user: { ...signupLanding.user, createdAt: '' } }).then(() => {
      toast.success(AUTH_MESSAGES.confirmed);
      void navigate('/worlds', { replace: true });
    });
  }, [signupLanding, startSession, navigate]);

  useEffect(() => {
    document.title = mode === 'login' || mode === 'mfa' ? 'Log In · Taleforge' : mode === 'signup' ? 'Sign Up · Taleforge' : 'Reset Password · Taleforge';
  }, [mode]);
  useEffect(
    () => () => {
      if (redirectTimer.current) clearTimeout(redirectTimer.current);
      document.title = 'Taleforge';
    },
    [],
  );

  const toggleMode = () => {
    setMode((m) => (m === 'login' ? 'signup' : 'login'));
    setMessage(null);
    setUnconfirmed(false);
  };
  const switchTo = (next: Mode) => {
    setMode(next);
    setMessage(null);
  };

  async function handleForgot() {
    try {
      await requestReset({ variables: { email: email.trim() } });
      // The same words whether or not the email has an account: nothing here tells them apart.
      setMessage({ kind: 'success', text: AUTH_MESSAGES.resetSent });
    } catch (error) {
      const code = errorCode(error);
      const own = (code === 'RATE_LIMITED' || code === 'BAD_USER_INPUT') && CombinedGraphQLErrors.is(error) ? error.errors[0]?.message : undefined;
      setMessage({ kind: 'error', text: own || AUTH_MESSAGES.resetFailed });
    }
  }

  const goBack = () => void navigate(returnPath(location.state), { replace: true });

  async function handleLogin() {
    try {
      const { data } = await signIn({ variables: { input: { email: email.trim(), password } } });
      if (!data) throw new Error('No session');
      if (data.signIn.mfaRequired) {
        setPendingToken(data.signIn.accessToken);
        setCode('');
        setMode('mfa');
        return;
      }
      await startSession(data.signIn);
      goBack();
    } catch (error) {
      // Rate limits and refusals after the right password (unconfirmed email, disabled account) say why.
      const code = errorCode(error);
      const own = (code === 'RATE_LIMITED' || code === 'FORBIDDEN') && CombinedGraphQLErrors.is(error) ? error.errors[0]?.message : undefined;
      setUnconfirmed(code === 'FORBIDDEN' && CombinedGraphQLErrors.is(error) && error.errors[0]?.extensions?.reason === 'email_not_confirmed');
      setMessage({ kind: 'error', text: own || AUTH_MESSAGES.loginFailed });
    }
  }

  async function onResend() {
    try {
      await resendConfirmation({ variables: { email: email.trim() } });
      setUnconfirmed(false);
      setMessage({ kind: 'success', text: AUTH_MESSAGES.confirmResent });
    } catch (error) {
      const own = CombinedGraphQLErrors.is(error) ? error.errors[0]?.message : undefined;
      setMessage({ kind: 'error', text: own || AUTH_MESSAGES.resetFailed });
    }
  }

  async function handleMfa() {
    try {
      const { data } = await verifyMfaCode({ variables: { code: code.replace(/\s/g, '') }, context: { bearer: pendingToken ?? '' } });
      if (!data) throw new Error('No session');
      await startSession(data.verifyMfaCode);
      goBack();
    } catch (error) {
      const c = errorCode(error);
      if (c === 'UNAUTHENTICATED') {
        // The password step's session is gone (expired or ended): start again from the password.
        setPendingToken(null);
        setMode('login');
        setMessage({ kind: 'error', text: 'Your sign-in expired. Please log in again.' });
        return;
      }
      const own =
        (c === 'INVALID_CREDENTIALS' || c === 'RATE_LIMITED' || c === 'BAD_USER_INPUT') && CombinedGraphQLErrors.is(error)
          ? error.errors[0]?.message
          : undefined;
      setMessage({ kind: 'error', text: own || AUTH_MESSAGES.mfaFailed });
    }
  }

  async function handleSignUp() {
    try {
      const { data } = await signUp({
        variables: { input: { email: email.trim(), username: username.trim(), password } },
      });
      if (!data) throw new Error('No session');
      if (!data.signUp) {
        // The server asks for a confirmed email first: the link is in the mail.
        setMessage({ kind: 'success', text: AUTH_MESSAGES.confirmSent });
        return;
      }
      await startSession(data.signUp);
      toast.success(AUTH_MESSAGES.signUpToast);
      setMessage({ kind: 'success', text: AUTH_MESSAGES.signUpSuccess });
      redirectTimer.current = setTimeout(goBack, SIGN_UP_REDIRECT_DELAY_MS);
    } catch (error) {
      if (CombinedGraphQLErrors.is(error)) {
        // The identity service said no (email taken, weak password…): show its own words.
        setMessage({ kind: 'error', text: error.errors[0]?.message || AUTH_MESSAGES.signUpFailed });
      } else {
        setMessage({ kind: 'error', text: AUTH_MESSAGES.signUpException });
      }
    }
  }

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (submitting) return;
    setMessage(null);
    setSubmitting(true);
    try {
      await (mode === 'login' ? handleLogin() : mode === 'signup' ? handleSignUp() : mode === 'mfa' ? handleMfa() : handleForgot());
    } finally {
      setSubmitting(false);
    }
  };

  const isLogin = mode === 'login';
  if (mode === 'mfa') {
    return (
      <AuthCard title="Two-step verification" subtitle="Enter the 6-digit code your authenticator app shows for Taleforge.">
        <form className="auth-form" onSubmit={onSubmit} aria-label="Verification code">
          <div className="field">
            <label htmlFor={`${ids}-code`}>Code</label>
            <input
              id={`${ids}-code`}
              name="code"
              type="text"
              inputMode="numeric"
              autoComplete="one-time-code"
              pattern="[0-9 ]{6,7}"
              maxLength={7}
              required
              autoFocus
              value={code}
              onChange={(e) => setCode(e.target.value)}
            />
          </div>
          <FormEnd message={message} submitting={submitting} label="Verify" />
        </form>
        <p className="auth-toggle">
          <button
            type="button"
            className="link-button"
            onClick={() => {
              setPendingToken(null);
              switchTo('login');
            }}
          >
            Back to log in
          </button>
        </p>
      </AuthCard>
    );
  }
  if (mode === 'forgot') {
    return (
      <AuthCard title="Forgot your password?" subtitle="Enter your account's email. We will send a link to choose a new password.">
        <form className="auth-form" onSubmit={onSubmit} aria-label="Reset password">
          <div className="field">
            <label htmlFor={`${ids}-email`}>Email</label>
            <input id={`${ids}-email`} name="email" type="email" autoComplete="email" required value={email} onChange={(e) => setEmail(e.target.value)} />
          </div>
          <FormEnd message={message} submitting={submitting} label="Send Reset Link" />
        </form>
        <p className="auth-toggle">
          <button type="button" className="link-button" onClick={() => switchTo('login')}>
            Back to log in
          </button>
        </p>
      </AuthCard>
    );
  }
  return (
    <AuthCard
      title={isLogin ? 'Welcome back, traveler' : 'Begin your legend'}
      subtitle={isLogin ? 'Log in to continue your stories.' : 'Create an account to forge worlds and characters.'}
    >
      <form className="auth-form" onSubmit={onSubmit} aria-label={isLogin ? 'Log in' : 'Sign up'}>
        <div className="field">
          <label htmlFor={`${ids}-email`}>Email</label>
          <input
            id={`${ids}-email`}
            name="email"
            type={isLogin ? 'text' : 'email'}
            autoComplete={isLogin ? 'username' : 'email'}
            required
            value={email}
            onChange={(e) => setEmail(e.target.value)}
          />
        </div>
        {!isLogin && (
          <div className="field">
            <label htmlFor={`${ids}-username`}>Username</label>
            <input
              id={`${ids}-username`}
              name="username"
              type="text"
              autoComplete="nickname"
              required
              value={username}
              onChange={(e) => setUsername(e.target.value)}
            />
          </div>
        )}
        <div className="field">
          <label htmlFor={`${ids}-password`}>Password</label>
          <input
            id={`${ids}-password`}
            name="password"
            type="password"
            autoComplete={isLogin ? 'current-password' : 'new-password'}
            required
            value={password}
            onChange={(e) => setPassword(e.target.value)}
          />
          {isLogin && (
            <button type="button" className="link-button auth-forgot" onClick={() => switchTo('forgot')}>
              Forgot password?
            </button>
          )}
        </div>

        <FormEnd message={message} submitting={submitting} label={isLogin ? 'Log In' : 'Sign Up'} />
        {isLogin && unconfirmed && (
          <button type="button" className="link-button auth-forgot" onClick={() => void onResend()}>
            Send a new confirmation link
          </button>
        )}
      </form>

      <p className="auth-toggle">
        {isLogin ? 'New to Taleforge?' : 'Already have an account?'}{' '}
        <button type="button" className="link-button" onClick={toggleMode}>
          {isLogin ? 'Create an account' : 'Use an existing account'}
        </button>
      </p>
    </AuthCard>
  );
}

/** The end of every form here: what the server said (an alert or a status), then the submit button. */
function FormEnd({ message, submitting, label }: { message: Message; submitting: boolean; label: string }) {
  return (
    <>
      {message && (
        <p className={`auth-message auth-message-${message.kind}`} role={message.kind === 'error' ? 'alert' : 'status'}>
          {message.text}
        </p>
      )}
      <button type="submit" className="btn btn-primary btn-block" disabled={submitting} aria-busy={submitting}>
        {label}
      </button>
    </>
  );
}

export default AuthPage;
