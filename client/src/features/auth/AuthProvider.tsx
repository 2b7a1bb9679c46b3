import { useCallback, useEffect, useMemo, useState, type ReactNode } from 'react';
import { useApolloLoader } from '../../apollo/apollo-loader';
import { clearSession, readSession, subscribeSession, toSession, writeSession, type AuthSessionPayload, type Session } from '../../apollo/session-store';
import { AuthContext, type AuthContextValue, type AuthStatus } from './auth-context';

/**
 * Keeps the session (localStorage) and the auth status in React. At start a stored session is checked
 * with `me`; signing in, signing out, a failed refresh and other tabs all go through the session store,
 * so every consumer sees the same state. Anonymous visitors need no request at all.
 */
export function AuthProvider({ children }: { children: ReactNode }) {
  const loadClient = useApolloLoader();
  const [session, setSession] = useState<Session | null>(readSession);
  const [verifiedUserId, setVerifiedUserId] = useState<string | null>(null);
  const [checkFailed, setCheckFailed] = useState(false);

  useEffect(() => subscribeSession(setSession), []);

  const needsCheck = !!session && verifiedUserId !== session.user.id;
  const checkUserId = needsCheck ? session.user.id : null;

  useEffect(() => {
    if (!checkUserId) return;
    let cancelled = false;
    (async () => {
      const [client, { fetchMe }] = await Promise.all([loadClient(), import('./session-check')]);
      return fetchMe(client);
    })().then(
      (user) => {
        if (cancelled) return;
        if (!user) {
          clearSession(); // the token no longer identifies anyone
          return;
        }
        const stored = readSession();
        if (stored && (stored.user.username !== user.username || stored.user.email !== user.email)) {
          writeSession({ ...stored, user: { ...user } });
        }
        setVerifiedUserId(user.id);
      },
      () => {
        // When the session is gone the auth link already gave up on it (refresh refused): anonymous.
        // Otherwise the check itself failed (network, server): offer a reload.
        if (!cancelled && readSession()) setCheckFailed(true);
      },
    );
    return () => {
      cancelled = true;
    };
  }, [checkUserId, loadClient]);

  const status: AuthStatus = !session ? 'anonymous' : verifiedUserId === session.user.id ? 'authenticated' : checkFailed ? 'error' : 'loading';

  const startSession = useCallback(
    async (payload: AuthSessionPayload) => {
      const client = await loadClient();
      await client.clearStore();
      const next = toSession(payload);
      setVerifiedUserId(next.user.id);
      setCheckFailed(false);
      writeSession(next);
      document.title = 'Taleforge';
    },
    [loadClient],
  );

  const endSession = useCallback(async () => {
    clearSession();
    setVerifiedUserId(null);
    const client = await loadClient();
    await client.clearStore();
  }, [loadClient]);

  const value = useMemo<AuthContextValue>(
    () => ({
      status,
      user: status === 'authenticated' ? (session?.user ?? null) : null,
      startSession,
      endSession,
    }),
    [status, session, startSession, endSession],
  );

  if (status === 'error') return <AuthCheckFailed />;
  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}

function AuthCheckFailed() {
  return (
    <main className="auth-check-failed" role="alert">
      <h1>Failed to check authentication status</h1>
      <button type="button" className="btn btn-primary" onClick={() => window.location.reload()}>
        Try Again
      </button>
    </main>
  );
}
