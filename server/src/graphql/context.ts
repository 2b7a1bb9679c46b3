import type { AuthUser, RequestMeta } from '../modules/auth/auth.service';
import { createLoaders, type Loaders } from '../modules/loaders';
import type { Services } from '../services';

export interface GraphQLContext {
  user: AuthUser | null;
  meta: RequestMeta;
  services: Services;
  /** Per-request DataLoaders for relation fields (no N+1). */
  loaders: Loaders;
}

/** Reads "Bearer <token>" from an Authorization header (HTTP) or connection param (WebSocket). */
export function bearerToken(header: unknown): string | undefined {
  if (typeof header !== 'string') return undefined;
  const m = /^Bearer\s+(\S+)$/i.exec(header.trim());
  return m?.[1];
}

export async function buildContext(services: Services, authorization: unknown, meta: RequestMeta): Promise<GraphQLContext> {
  return contextFor(services, await services.auth.authenticate(bearerToken(authorization)), meta);
}

/** The context for a user already authenticated (a WebSocket operation: see realtime/ws-auth.ts). */
export function contextFor(services: Services, user: AuthUser | null, meta: RequestMeta): GraphQLContext {
  return { user, meta, services, loaders: createLoaders(services.dataSource) };
}
