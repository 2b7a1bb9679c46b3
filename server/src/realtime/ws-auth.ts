import { GraphQLError } from 'graphql';
import { CloseCode, type Context, type SubscribePayload } from 'graphql-ws';
import type { Extra } from 'graphql-ws/use/ws';
import { bearerToken } from '../graphql/context';
import type { AuthUser } from '../modules/auth/auth.service';
import type { Services } from '../services';

/** The connection context as app.ts's useServer<Record<string, unknown>> hands it over. */
type Ctx = Context<Record<string, unknown>, Extra & Partial<Record<PropertyKey, never>>>;

interface ConnectionAuth {
  token?: string;
  userId?: string;
  /** The user as last verified (connect, every subscribe, every recheck); cleared when a check fails. */
  user?: AuthUser;
  timer?: NodeJS.Timeout;
}

/**
 * Authentication for graphql-ws connections. The access token comes in `connectionParams.authorization`
 * ("Bearer …"); a client that refreshed it may send the new one in a subscribe message's
 * `extensions.authorization`. The token is re-checked on every subscribe and every
 * WS_AUTH_RECHECK_SECONDS while the socket is open: once it has expired or its session was revoked
 * (sign-out, refresh-token reuse) the socket is closed with 4401, so a live subscription never outlives
 * the session that opened it. A socket never changes user.
 */
export function createWsAuth(services: Services, recheckSeconds: number) {
  const connections = new WeakMap<Ctx, ConnectionAuth>();
  const unauthorized = (ctx: Ctx) => ctx.extra.socket.close(CloseCode.Unauthorized, 'Unauthorized');

  /** Accepts `token` for the connection if it is valid and of the same user; otherwise closes it. */
  const verify = async (ctx: Ctx, auth: ConnectionAuth, token: string): Promise<boolean> => {
    const user = await services.auth.authenticate(token);
    if (!user || (auth.userId !== undefined && auth.userId !== user.id)) {
      auth.user = undefined;
      unauthorized(ctx);
      return false;
    }
    auth.token = token;
    auth.userId = user.id;
    auth.user = user;
    if (!auth.timer) {
      auth.timer = setInterval(() => {
        if (auth.token) void verify(ctx, auth, auth.token).catch(() => undefined);
      }, recheckSeconds * 1000);
      auth.timer.unref();
    }
    return true;
  };

  return {
    onConnect: async (ctx: Ctx): Promise<boolean> => {
      const auth: ConnectionAuth = {};
      connections.set(ctx, auth);
      const token = bearerToken(ctx.connectionParams?.authorization);
      // No token: an anonymous socket (public operations only; @Authorized ones answer UNAUTHENTICATED).
      return token ? verify(ctx, auth, token) : true;
    },
    onSubscribe: async (ctx: Ctx, _id: string, payload: SubscribePayload): Promise<readonly GraphQLError[] | void> => {
      const auth = connections.get(ctx);
      if (!auth) return;
      const token = bearerToken(payload.extensions?.authorization) ?? auth.token;
      if (token && !(await verify(ctx, auth, token))) {
        return [new GraphQLError('Your session has expired. Please sign in again.', { extensions: { code: 'UNAUTHENTICATED' } })];
      }
    },
    onClose: (ctx: Ctx): void => {
      const auth = connections.get(ctx);
      if (auth?.timer) clearInterval(auth.timer);
      connections.delete(ctx);
    },
    /**
     * The user for an operation's GraphQL context. graphql-ws builds that context right after
     * onSubscribe, which has just verified the token (session included), so the verified user is
     * reused instead of checking the same token a second time; while the socket stays open the
     * periodic recheck keeps closing it on expiry or revocation. Null on an anonymous socket.
     */
    user: (ctx: Ctx): AuthUser | null => connections.get(ctx)?.user ?? null,
  };
}
