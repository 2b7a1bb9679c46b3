import { print } from 'graphql';
import { TokenRefresh_refreshSessionDocument } from '../gql/graphql';
import { toSession, type Session } from './session-store';
import { RefreshRejectedError } from './token-manager';

/** Codes that mean "try again later" rather than "this refresh token is no good". */
const TRANSIENT_CODES = new Set(['RATE_LIMITED', 'INTERNAL_SERVER_ERROR']);

const query = print(TokenRefresh_refreshSessionDocument);

/**
 * Calls `refreshSession` with a plain fetch. It deliberately bypasses the Apollo link chain: the auth
 * link must never try to refresh the request that refreshes.
 */
export function createRefreshRequest(uri: string, fetchImpl: typeof fetch = (...args) => fetch(...args)) {
  return async (refreshToken: string): Promise<Session> => {
    const response = await fetchImpl(uri, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({
        operationName: 'TokenRefresh_refreshSession',
        query,
        variables: { refreshToken },
      }),
    });
    if (response.status >= 500 || response.status === 429) {
      throw new Error(`Session refresh failed with status ${response.status}`);
    }
    let body: {
      data?: { refreshSession?: Parameters<typeof toSession>[0] | null } | null;
      errors?: Array<{ message?: string; extensions?: { code?: string } }>;
    };
    try {
      body = await response.json();
    } catch {
      throw new Error(`Session refresh returned an unreadable answer (status ${response.status})`);
    }
    const code = body.errors?.[0]?.extensions?.code;
    if (code && TRANSIENT_CODES.has(code)) throw new Error(body.errors?.[0]?.message ?? code);
    const payload = body.data?.refreshSession;
    if (!payload || body.errors?.length) {
      throw new RefreshRejectedError(body.errors?.[0]?.message);
    }
    return toSession(payload);
  };
}
