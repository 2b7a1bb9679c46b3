import crypto from 'node:crypto';
import type http from 'node:http';
import type express from 'express';
import { ioredis } from '../common/lazy-modules';
import type { Logger } from '../common/logger';
import type { Config } from '../config/env';
import type { Services } from '../services';
import { RedisKeyValueCache } from './apq-cache';
import { createFront, operationNameOf } from './front';
import type { GraphQLLane } from './graphql-lane';
import { graphqlGuards } from './graphql-limits';
import { corsMiddleware, originPolicy, securityHeaders } from './headers';
import { opsRouter } from './health';
import { RedisRateLimiter } from './redis-rate-limiter';
import { ResponseCache } from './response-cache';
import { INVALIDATE_TOPIC, type Invalidation } from './invalidation';
import { createWsGuard, WS_MAX_PAYLOAD_BYTES } from './ws-guard';

export { Metrics } from './metrics';

/** express's "trust proxy" value from TRUST_PROXY: a hop count, true/false, or addresses/subnet names. */
export function trustProxySetting(raw: string): number | boolean | string {
  if (/^\d+$/.test(raw)) return Number(raw);
  if (raw === 'true' || raw === 'false') return raw === 'true';
  return raw;
}

/**
 * Production hardening, assembled once per app: the request front (ids, limits, response cache,
 * timing, access log), security headers and CORS, GraphQL limits for both transports, the WebSocket
 * guard, persisted-query storage, /healthz /readyz /metrics, and the drain flag for shutdown.
 * app.ts wires each piece where it belongs; nothing here knows about domain modules beyond the
 * worlds change hook.
 */
export function createOps(config: Config, services: Services, logger: Logger) {
  const ops = config.ops;
  const metrics = services.metrics;
  // Never expected: this Node writes a stored head differently from replay-head.ts's copy of its rules,
  // so cached answers go back to writeHead (a little slower, still right) and the operator hears why.
  const cache = new ResponseCache(ops.responseCacheSeconds, (d) =>
    logger.warn('cached answers are written through writeHead: this Node writes their head differently', { node: d.node, ours: d.ours }),
  );
  const origins = originPolicy(config.publicUrl, ops.corsOrigins);
  const headers = securityHeaders(config.publicUrl);
  const playerOf = (token: string) => services.auth.verifyAccessToken(token)?.userId ?? null;
  const instanceId = crypto.randomUUID();
  let draining = false;
  let graphqlLane: GraphQLLane | undefined;

  const limiter = services.limiter;
  const redisClient = limiter instanceof RedisRateLimiter ? limiter.client : null;

  // Cache invalidation: locally at once (by the services themselves, or here for the response cache);
  // other instances hear it on a Redis channel of its own (a dedicated subscriber connection,
  // re-subscribed by ioredis after any reconnect). Without Redis there is one instance: nothing to tell.
  const broadcast = (message: Invalidation) => {
    redisClient?.publish(INVALIDATE_TOPIC, JSON.stringify({ from: instanceId, ...message })).catch((err: unknown) => {
      logger.warn('could not broadcast a cache invalidation (other instances expire theirs by TTL)', { err, kind: message.kind });
    });
  };
  const forget = (message: Partial<Invalidation>) => {
    if (message.kind === 'session' && typeof message.id === 'string') services.auth.forgetSession(message.id);
    else if (message.kind === 'credits' && typeof message.id === 'string') services.billing.forgetCredits(message.id);
    else {
      // worlds, or a message this version does not know: the safe choice
      cache.invalidate();
      services.worlds.forgetPublicLists();
    }
  };
  const unhooks = [
    services.worlds.onChange((worldId) => {
      cache.invalidate();
      broadcast({ kind: 'worlds', id: worldId });
    }),
    services.auth.onSessionRevoked((sessionId) => broadcast({ kind: 'session', id: sessionId })),
    services.credits.onChange((userId) => broadcast({ kind: 'credits', id: userId })),
  ];
  const subscriber = config.redisUrl
    ? new (ioredis())(config.redisUrl, { connectionName: 'taleforge-cache-invalidation', retryStrategy: (n) => Math.min(n * 100, 2000) })
    : null;
  if (subscriber) {
    subscriber.on('error', () => undefined); // the rate limiter's client reports Redis outages
    subscriber.on('message', (_channel: string, raw: string) => {
      let message: Partial<Invalidation> & { from?: string } = {};
      try {
        message = JSON.parse(raw) as typeof message;
      } catch {
        /* unreadable: forget() falls back to dropping the response cache */
      }
      if (message.from !== instanceId) forget(message);
    });
    void subscriber.subscribe(INVALIDATE_TOPIC).catch((err: unknown) => logger.warn('cache invalidation channel: subscribe failed', { err }));
  }

  return {
    metrics,
    cache,
    headers,
    cors: corsMiddleware(origins.allowed),
    graphql: graphqlGuards(ops.graphqlLimits, metrics),
    /** Apollo's APQ store: Redis when configured (shared by instances), else Apollo's in-memory LRU. */
    persistedQueries: redisClient ? { cache: new RedisKeyValueCache(redisClient) } : {},
    wsServerOptions: { maxPayload: WS_MAX_PAYLOAD_BYTES },
    /** Builds the HTTP server's handler around the express app (call after trust proxy is set). */
    front(app: express.Express): (req: http.IncomingMessage, res: http.ServerResponse) => void {
      return createFront({
        app,
        logger,
        metrics,
        limiter,
        cache,
        rateLimit: ops.rateLimit,
        trust: app.get('trust proxy fn') as (addr: string, i: number) => boolean,
        playerOf,
        graphqlBodyLimit: config.graphqlBodyLimitBytes,
        graphqlLane: () => graphqlLane,
        draining: () => draining,
      });
    },
    /** Once Apollo has started: the front answers small JSON POSTs to /graphql through this lane. */
    useGraphQLLane(lane: GraphQLLane): void {
      graphqlLane = lane;
    },
    wsGuard(app: express.Express) {
      return createWsGuard({
        limiter,
        rateLimit: ops.rateLimit,
        metrics,
        logger,
        trust: app.get('trust proxy fn') as (addr: string, i: number) => boolean,
        upgradeAllowed: origins.upgradeAllowed,
        playerOf,
      });
    },
    /** After express.json on /graphql: names the operation for metrics and the access log. */
    labelOperation: ((req, res, next) => {
      res.locals.operation = operationNameOf(req.body) ?? undefined;
      next();
    }) as express.RequestHandler,
    router: opsRouter({
      dataSource: services.dataSource,
      metrics,
      redis: () => ({ mode: services.realtime.mode, up: redisClient ? redisClient.status === 'ready' : services.realtime.mode === 'memory' }),
      draining: () => draining,
      metricsToken: ops.metricsToken,
      // Metrics name every operation and route, cache hit rates and credit flows: in production they
      // are served only behind METRICS_TOKEN; without one they are off (a scraper on the instance's
      // own port with a token is the way in).
      metricsOff: config.nodeEnv === 'production' && !ops.metricsToken,
    }),
    /** Shutdown step 1: /readyz answers 503 so balancers stop routing here. */
    startDraining(): void {
      draining = true;
    },
    get draining(): boolean {
      return draining;
    },
    async close(): Promise<void> {
      for (const unhook of unhooks) unhook();
      await subscriber?.quit().catch(() => subscriber.disconnect());
      await limiter.close();
    },
  };
}
