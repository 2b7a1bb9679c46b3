import crypto from 'node:crypto';
import type http from 'node:http';
import type express from 'express';
import Redis from 'ioredis';
import type { Logger } from '../common/logger';
import type { Config } from '../config/env';
import type { Services } from '../services';
import { RedisKeyValueCache } from './apq-cache';
import { createFront } from './front';
import { graphqlGuards } from './graphql-limits';
import { corsMiddleware, originPolicy, securityHeaders } from './headers';
import { opsRouter } from './health';
import { RedisRateLimiter } from './redis-rate-limiter';
import { ResponseCache } from './response-cache';
import { createWsGuard, WS_MAX_PAYLOAD_BYTES } from './ws-guard';

export { Metrics } from './metrics';

/** Broadcast on every world write so every instance drops its cached public world lists. */
const INVALIDATE_TOPIC = 'taleforge:cache:invalidate:worlds';

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
  const cache = new ResponseCache(ops.responseCacheSeconds);
  const origins = originPolicy(config.publicUrl, ops.corsOrigins);
  const headers = securityHeaders(config.publicUrl);
  const playerOf = (token: string) => services.auth.verifyAccessToken(token)?.userId ?? null;
  const instanceId = crypto.randomUUID();
  let draining = false;

  const limiter = services.limiter;
  const redisClient = limiter instanceof RedisRateLimiter ? limiter.client : null;

  // Cache invalidation: locally at once; other instances hear it on a Redis channel of its own
  // (a dedicated subscriber connection, re-subscribed by ioredis after any reconnect).
  const unhook = services.worlds.onChange((worldId) => {
    cache.invalidate();
    redisClient?.publish(INVALIDATE_TOPIC, JSON.stringify({ from: instanceId, worldId })).catch((err: unknown) => {
      logger.warn('could not broadcast a cache invalidation (other instances expire theirs by TTL)', { err });
    });
  });
  const subscriber = config.redisUrl ? new Redis(config.redisUrl, { connectionName: 'taleforge-cache-invalidation', retryStrategy: (n) => Math.min(n * 100, 2000) }) : null;
  if (subscriber) {
    subscriber.on('error', () => undefined); // the rate limiter's client reports Redis outages
    subscriber.on('message', (_channel: string, message: string) => {
      try {
        if ((JSON.parse(message) as { from?: string }).from !== instanceId) cache.invalidate();
      } catch {
        cache.invalidate();
      }
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
      });
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
      const body = req.body as { operationName?: unknown; query?: unknown } | undefined;
      let name = typeof body?.operationName === 'string' ? body.operationName : null;
      if (!name && typeof body?.query === 'string') name = /^\s*(?:query|mutation|subscription)\s+([A-Za-z_][A-Za-z0-9_]*)/.exec(body.query)?.[1] ?? null;
      res.locals.operation = name ?? undefined;
      next();
    }) as express.RequestHandler,
    router: opsRouter({
      dataSource: services.dataSource,
      metrics,
      redis: () => ({ mode: services.realtime.mode, up: redisClient ? redisClient.status === 'ready' : services.realtime.mode === 'memory' }),
      draining: () => draining,
      metricsToken: ops.metricsToken,
    }),
    /** Shutdown step 1: /readyz answers 503 so balancers stop routing here. */
    startDraining(): void {
      draining = true;
    },
    get draining(): boolean {
      return draining;
    },
    async close(): Promise<void> {
      unhook();
      await subscriber?.quit().catch(() => subscriber.disconnect());
      await limiter.close();
    },
  };
}

export type Ops = ReturnType<typeof createOps>;
