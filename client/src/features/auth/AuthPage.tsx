import { CombinedGraphQLErrors } from '@apollo/client/errors';
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { Link, useLocation, useNavigate } from 'react-router-dom';
import { toast } from 'react-toastify/unstyled';
import { errorCode } from '../../apollo/graphql-errors';
import { useAuthPage_signInMutation, useAuthPage_signUpMutation } from '../../gql/graphql';
import { useAuth } from './auth-context';
import { returnPath } from './redirect';
import './auth.css';

/** SPEC §8 Auth, verbatim. */
export const AUTH_MESSAGES = {
  loginFailed: 'Incorrect email or password.',
  signUpFailed: 'Registration failed. Please try again.',
  signUpException: 'Sign up failed. Please try again with valid email.',
  signUpToast: 'Sign up successful! Welcome to Taleforge',
  signUpSuccess: 'Success! You are now signed up.',
} as const;

/** How long the sign-up success message stays before leaving the page. */
export const SIGN_UP_REDIRECT_DELAY_MS = 1200;

type Mode = 'login' | 'signup';
type Message = { kind: 'error' | 'success'; text: string } | null;

function AuthPage() {
  const [mode, setMode] = useState<Mode>('login');
  const [email, setEmail] = useState('');
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [message, setMessage] = useState<Message>(null);
  const [submitting, setSubmitting] = useState(false);
  const { startSession } = useAuth();
  const navigate = useNavigate();
  const location = useLocation();
  const redirectTimer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const ids = useId();

  const [signIn] = useAuthPage_signInMutation({ context: { skipAuth: true } });
  const [signUp] = useAuthPage_signUpMutation({ context: { skipAuth: true } });

  useEffect(() => {
    document.title = mode === 'login' ? 'Log In · Taleforge' : 'Sign Up · Taleforge';
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
  };

  const goBack = () => void navigate(returnPath(location.state), { replace: true });

  async function handleLogin() {
    try {
      const { data } = await signIn({ variables: { input: { email: email.trim(), password } } });
      if (!data) throw new Error('No session');
      await startSession(data.signIn);
      goBack();
    } catch (error) {
      const rateLimited = errorCode(error) === 'RATE_LIMITED' && CombinedGraphQLErrors.is(error);
      setMessage({ kind: 'error', text: rateLimited ? error.errors[0].message : AUTH_MESSAGES.loginFailed });
    }
  }

  async function handleSignUp() {
    try {
      const { data } = await signUp({
        variables: { input: { email: email.trim(), username: username.trim(), password } },
      });
      if (!data) throw new Error('No session');
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
      await (mode === 'login' ? handleLogin() : handleSignUp());
    } finally {
      setSubmitting(false);
    }
  };

  const isLogin = mode === 'login';
  return (
    <main className="auth-page">
      <div className="auth-backdrop" aria-hidden="true" />
      <section className="auth-card" aria-labelledby={`${ids}-title`}>
        <Link className="auth-brand" to="/">
          Taleforge
        </Link>
        <h1 id={`${ids}-title`}>{isLogin ? 'Welcome back, traveler' : 'Begin your legend'}</h1>
        <p className="auth-subtitle">{isLogin ? 'Log in to continue your stories.' : 'Create an account to forge worlds and characters.'}</p>

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
          </div>

          {message && (
            <p className={`auth-message auth-message-${message.kind}`} role={message.kind === 'error' ? 'alert' : 'status'}>
              {message.text}
            </p>
          )}

          <button type="submit" className="btn btn-primary btn-block" disabled={submitting} aria-busy={submitting}>
            {isLogin ? 'Log In' : 'Sign Up'}
          </button>
        </form>

        <p className="auth-toggle">
          {isLogin ? 'New to Taleforge?' : 'Already have an account?'}{' '}
          <button type="button" className="link-button" onClick={toggleMode}>
            {isLogin ? 'Create an account' : 'Use an existing account'}
          </button>
        </p>
      </section>
    </main>
  );
}

export default AuthPage;
