import { createContext, useContext } from 'react';
import type { AuthSessionPayload, SessionUser } from '../../apollo/session-store';

/** SPEC §4 Auth: loading (session being checked) → authenticated | anonymous; error = check failed. */
export type AuthStatus = 'loading' | 'authenticated' | 'anonymous' | 'error';

export interface AuthContextValue {
  status: AuthStatus;
  user: SessionUser | null;
  /** Stores a session returned by signIn / signUp and marks the user signed in. */
  startSession(payload: AuthSessionPayload): Promise<void>;
  /** Forgets the session locally (after the server revoked it) and clears cached data. */
  endSession(): Promise<void>;
}

export const AuthContext = createContext<AuthContextValue | null>(null);

export function useAuth(): AuthContextValue {
  const value = useContext(AuthContext);
  if (!value) throw new Error('useAuth must be used inside <AuthProvider>');
  return value;
}
