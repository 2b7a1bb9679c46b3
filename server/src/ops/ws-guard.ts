import type http from 'node:http';
import { variablesEdgeError } from './graphql-limits';
import { GraphQLError } from 'graphql';
import type { SubscribePayload } from 'graphql-ws';
import proxyaddr from 'proxy-addr';
import type { Logger } from '../common/logger';
import type { RateLimiter } from '../common/rate-limiter';
import type { OpsConfig } from '../config/env';
import type { Metrics } from './metrics';

/** More live operations than this on one socket is a client bug or abuse; the client shows two or three. */
const MAX_SUBSCRIPTIONS_PER_SOCKET = 25;
/** graphql-ws messages are small; ws's default (100 MiB) would let one frame eat the heap. */
export const WS_MAX_PAYLOAD_BYTES = 64 * 1024;

interface Hooks<C> {
  onConnect: (ctx: C) => Promise<boolean | void> | boolean | void;
  onSubscribe: (ctx: C, id: string, payload: SubscribePayload) => Promise<readonly GraphQLError[] | void> | readonly GraphQLError[] | void;
  onClose: (ctx: C, code?: number, reason?: string) => void;
}

type Ctx = { extra: { request: http.IncomingMessage }; subscriptions: Record<string, unknown>; connectionParams?: Readonly<Record<string, unknown>> };

/**
 * The WebSocket side of the HTTP guards: the upgrade is refused for a foreign Origin (cross-site
 * WebSocket hijacking) and counted against the per-IP limit; every subscribe message is counted
 * against the per-IP and per-player limits and the per-socket cap. Depth/alias/cost limits apply
 * through graphql-ws's parse/validate options (graphql-limits.ts), auth through ws-auth.ts.
 */
export function createWsGuard(o: {
  limiter: RateLimiter;
  rateLimit: OpsConfig['rateLimit'];
  metrics: Metrics;
  logger: Logger;
  trust: (addr: string, i: number) => boolean;
  upgradeAllowed: (origin: string | undefined, host: string | undefined) => boolean;
  playerOf: (token: string) => string | null;
}) {
  const { perIp, perUser, windowSeconds } = o.rateLimit;
  const ipOf = (req: http.IncomingMessage) => proxyaddr(req as Parameters<typeof proxyaddr>[0], o.trust);

  return {
    /** ws's verifyClient: Origin allow-list and the per-IP limit, before the upgrade completes. */
    verifyClient: (info: { origin: string; req: http.IncomingMessage }, done: (ok: boolean, code?: number, message?: string) => void): void => {
      if (!o.upgradeAllowed(info.origin || undefined, info.req.headers.host)) {
        o.logger.warn('websocket refused: origin not allowed', { origin: info.origin });
        return done(false, 403, 'Origin not allowed');
      }
      if (perIp <= 0) return done(true);
      o.limiter.hit(`ip:${ipOf(info.req)}`, perIp, windowSeconds).then(
        (r) => {
          if (r.allowed) return done(true);
          o.metrics.rateLimitedRequest('ip');
          done(false, 429, 'Too many requests');
        },
        () => done(true),
      );
    },

    /** Wraps ws-auth's hooks with the limits and the connection gauge. */
    wrap<C extends Ctx>(auth: Hooks<C>): Hooks<C> {
      return {
        onConnect: async (ctx) => {
          const ok = await auth.onConnect(ctx);
          if (ok !== false) o.metrics.wsConnections.inc();
          (ctx as C & { counted?: boolean }).counted = ok !== false;
          return ok;
        },
        onSubscribe: async (ctx, id, payload) => {
          if (Object.keys(ctx.subscriptions).length >= MAX_SUBSCRIPTIONS_PER_SOCKET) {
            return [
              new GraphQLError(`At most ${MAX_SUBSCRIPTIONS_PER_SOCKET} operations may run on one connection.`, { extensions: { code: 'RATE_LIMITED' } }),
            ];
          }
          const limited = await overLimit(ctx, payload);
          if (limited) return [limited];
          const badVariables = variablesEdgeError(payload.variables);
          if (badVariables) return [badVariables];
          return auth.onSubscribe(ctx, id, payload);
        },
        onClose: (ctx, code, reason) => {
          if ((ctx as C & { counted?: boolean }).counted) o.metrics.wsConnections.dec();
          auth.onClose(ctx, code, reason);
        },
      };
    },
  };

  async function overLimit(ctx: Ctx, payload: SubscribePayload): Promise<GraphQLError | null> {
    const refuse = (scope: 'ip' | 'user', retryAfterSeconds: number) => {
      o.metrics.rateLimitedRequest(scope);
      return new GraphQLError('Too many requests; please slow down.', { extensions: { code: 'RATE_LIMITED', retryAfterSeconds } });
    };
    if (perIp > 0) {
      const r = await o.limiter.hit(`ip:${ipOf(ctx.extra.request)}`, perIp, windowSeconds);
      if (!r.allowed) return refuse('ip', r.retryAfterSeconds);
    }
    if (perUser > 0) {
      const raw = payload.extensions?.authorization ?? ctx.connectionParams?.authorization;
      const m = typeof raw === 'string' ? /^Bearer\s+(\S+)$/i.exec(raw.trim()) : null;
      const player = m ? o.playerOf(m[1]) : null;
      if (player) {
        const r = await o.limiter.hit(`user:${player}`, perUser, windowSeconds);
        if (!r.allowed) return refuse('user', r.retryAfterSeconds);
      }
    }
    return null;
  }
}
