/**
 * The signed-in session, persisted in localStorage so it survives reloads and is shared by tabs.
 * The store is the single source of truth: the auth link reads tokens from it, the React auth context
 * subscribes to it, and a `storage` event from another tab (sign-out, rotated refresh token) is relayed
 * to the same listeners.
 */
import type { AuthSessionFieldsFragment } from '../gql/graphql';

export interface SessionUser {
  id: string;
  email: string;
  username: string;
  createdAt: string;
}

export interface Session {
  accessToken: string;
  refreshToken: string;
  /** Unix time in seconds when the access token expires. */
  expiresAt: number;
  user: SessionUser;
}

const SESSION_STORAGE_KEY = 'taleforge.session';

type Listener = (session: Session | null) => void;
const listeners = new Set<Listener>();

function storage(): Storage | null {
  try {
    return typeof window !== 'undefined' ? window.localStorage : null;
  } catch {
    return null; // storage disabled (privacy mode): the session then lives only in memory
  }
}

let memory: Session | null = null;

function isSession(value: unknown): value is Session {
  const s = value as Session | null;
  return (
    !!s &&
    typeof s.accessToken === 'string' &&
    typeof s.refreshToken === 'string' &&
    typeof s.expiresAt === 'number' &&
    !!s.user &&
    typeof s.user.id === 'string'
  );
}

function parse(raw: string | null): Session | null {
  if (!raw) return null;
  try {
    const value: unknown = JSON.parse(raw);
    return isSession(value) ? value : null;
  } catch {
    return null;
  }
}

/** Always re-reads storage, so a token rotated by another tab is seen immediately. */
export function readSession(): Session | null {
  const store = storage();
  if (!store) return memory;
  return parse(store.getItem(SESSION_STORAGE_KEY));
}

function emit(session: Session | null): void {
  for (const listener of [...listeners]) listener(session);
}

export function writeSession(session: Session): void {
  memory = session;
  storage()?.setItem(SESSION_STORAGE_KEY, JSON.stringify(session));
  emit(session);
}

export function clearSession(): void {
  memory = null;
  storage()?.removeItem(SESSION_STORAGE_KEY);
  emit(null);
}

export function subscribeSession(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

if (typeof window !== 'undefined') {
  window.addEventListener('storage', (event) => {
    if (event.key === SESSION_STORAGE_KEY || event.key === null) emit(readSession());
  });
}

/**
 * What a session is stored from: the fields of the AuthSessionFields fragment (auth-session.graphql)
 * that every sign-in path and the token refresh select; a mailed link's landing gives the same ones.
 */
export type AuthSessionPayload = Pick<AuthSessionFieldsFragment, 'accessToken' | 'refreshToken' | 'expiresAt' | 'user'>;

export function toSession(payload: AuthSessionPayload): Session {
  const { accessToken, refreshToken, expiresAt, user } = payload;
  return {
    accessToken,
    refreshToken,
    expiresAt,
    user: { id: user.id, email: user.email, username: user.username, createdAt: user.createdAt },
  };
}
