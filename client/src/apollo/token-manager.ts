import { clearSession, readSession, writeSession, type Session } from './session-store';

/** Refresh when the access token expires within this many seconds (SPEC §7, §9). */
export const REFRESH_MARGIN_SECONDS = 300;

/** The identity service refused the refresh token (expired, revoked, already spent): sign out. */
export class RefreshRejectedError extends Error {
  constructor(message = 'Session refresh rejected') {
    super(message);
    this.name = 'RefreshRejectedError';
  }
}

export interface TokenManagerOptions {
  /** Exchanges a refresh token for a new session. Throws RefreshRejectedError when refused. */
  refresh: (refreshToken: string) => Promise<Session>;
  /** Called once the session is gone after a failed refresh (the app navigates to /auth). */
  onAuthFailure?: () => void;
  /** Milliseconds since the epoch; injectable for tests. */
  now?: () => number;
  /** Cross-tab mutual exclusion; defaults to the Web Locks API when the browser has it. */
  lock?: <T>(task: () => Promise<T>) => Promise<T>;
}

export interface TokenManager {
  /** A usable access token (refreshed first when it expires within 5 minutes), or null when anonymous. */
  getAccessToken(): Promise<string | null>;
  /**
   * After an UNAUTHENTICATED answer to a request made with `usedAccessToken`: refresh once (or adopt a
   * session another caller already refreshed). Resolves null when the session is gone.
   */
  recoverFromUnauthenticated(usedAccessToken: string): Promise<Session | null>;
  /** Gives up on the session: clears it and reports the auth failure. */
  fail(): void;
}

function webLock<T>(task: () => Promise<T>): Promise<T> {
  const locks = typeof navigator !== 'undefined' ? navigator.locks : undefined;
  if (!locks?.request) return task();
  return locks.request('taleforge-token-refresh', task) as Promise<T>;
}

/**
 * Refresh tokens are single-use and rotated by the server, so two requests must never both spend the
 * same one. Within a tab every caller shares one in-flight refresh promise; across tabs the refresh runs
 * under a Web Lock and re-reads localStorage first, adopting a token another tab has just rotated.
 */
export function createTokenManager(options: TokenManagerOptions): TokenManager {
  const now = options.now ?? (() => Date.now());
  const lock = options.lock ?? webLock;
  let inFlight: Promise<Session | null> | null = null;

  const expiresSoon = (session: Session) => session.expiresAt - now() / 1000 <= REFRESH_MARGIN_SECONDS;
  const expired = (session: Session) => session.expiresAt - now() / 1000 <= 0;

  function fail(): void {
    const hadSession = readSession() !== null;
    clearSession();
    if (hadSession) options.onAuthFailure?.();
  }

  /** Refreshes unless the stored session is already newer than `staleAccessToken` and still fresh. */
  function refresh(staleAccessToken: string): Promise<Session | null> {
    if (inFlight) return inFlight;
    const run = lock(async () => {
      const current = readSession();
      if (!current) return null;
      if (current.accessToken !== staleAccessToken && !expiresSoon(current)) return current;
      try {
        const next = await options.refresh(current.refreshToken);
        writeSession(next);
        return next;
      } catch (error) {
        if (!(error instanceof RefreshRejectedError)) throw error;
        // Another tab may have spent this refresh token a moment ago and stored the result.
        const latest = readSession();
        if (latest && latest.refreshToken !== current.refreshToken && !expired(latest)) return latest;
        fail();
        return null;
      }
    });
    inFlight = run.finally(() => {
      inFlight = null;
    });
    return inFlight;
  }

  return {
    async getAccessToken() {
      const session = readSession();
      if (!session) return null;
      if (!expiresSoon(session)) return session.accessToken;
      try {
        const next = await refresh(session.accessToken);
        return next?.accessToken ?? null;
      } catch (error) {
        // Transient failure (offline, 5xx): a token that has not expired yet is still worth sending.
        if (!expired(session)) return session.accessToken;
        throw error;
      }
    },
    recoverFromUnauthenticated(usedAccessToken) {
      return refresh(usedAccessToken);
    },
    fail,
  };
}
