import { GraphQLError } from 'graphql';
import { databaseUnavailable, isDatabaseUnavailable } from '../common/db-errors';
import type { AuthUser, RequestMeta } from '../modules/auth/auth.service';
import { createLoaders, type Loaders } from '../modules/loaders';
import type { ResponseBytes } from './response-budget';
import type { Services } from '../services';

export interface GraphQLContext {
  user: AuthUser | null;
  /** A session past its password but not yet its MFA code: only `verifyMfaCode` serves it. */
  mfaPendingUser?: AuthUser | null;
  meta: RequestMeta;
  services: Services;
  /** Per-request DataLoaders for relation fields (no N+1). */
  loaders: Loaders;
  /** Bytes of large text in the answer so far, against GRAPHQL_MAX_RESPONSE_BYTES (graphql/response-budget.ts). */
  responseBytes?: ResponseBytes;
}

/** Reads "Bearer <token>" from an Authorization header (HTTP) or connection param (WebSocket). */
export function bearerToken(header: unknown): string | undefined {
  if (typeof header !== 'string') return undefined;
  const m = /^Bearer\s+(\S+)$/i.exec(header.trim());
  return m?.[1];
}

export async function buildContext(services: Services, authorization: unknown, meta: RequestMeta): Promise<GraphQLContext> {
  try {
    const identity = await services.auth.authenticateIdentity(bearerToken(authorization));
    const pending = identity && identity.mfaEnabled && identity.aal !== 'aal2';
    return { ...contextFor(services, pending ? null : identity, meta), mfaPendingUser: pending ? identity : null };
  } catch (e) {
    // Checking the session reads the database. When it cannot be reached, Apollo would answer a failed
    // context with 500: say 503 and when to retry instead (Apollo takes status and headers from here).
    if (!isDatabaseUnavailable(e)) throw e;
    const u = databaseUnavailable();
    const wait = String(u.details?.retryAfterSeconds);
    throw new GraphQLError(u.message, {
      originalError: e as Error,
      extensions: { code: u.code, ...u.details, http: { status: 503, headers: new Map([['retry-after', wait]]) } },
    });
  }
}

/** The context for a user already authenticated (a WebSocket operation: see realtime/ws-auth.ts). */
export function contextFor(services: Services, user: AuthUser | null, meta: RequestMeta): GraphQLContext {
  return { user, meta, services, loaders: createLoaders(services.dataSource, user?.id ?? null) };
}
