import crypto from 'node:crypto';
import express from 'express';
import type { DataSource } from 'typeorm';
import type { Metrics } from './metrics';

export interface HealthDeps {
  dataSource: DataSource;
  metrics: Metrics;
  /** 'memory' | 'redis' and, for Redis, whether its connections are up right now. */
  redis: () => { mode: 'memory' | 'redis'; up: boolean };
  /** True once shutdown began: the balancer should stop sending new requests here. */
  draining: () => boolean;
  metricsToken?: string;
  /** Production without METRICS_TOKEN: /metrics answers 404 as if it did not exist. */
  metricsOff?: boolean;
}

const DB_CHECK_TIMEOUT_MS = 2000;

function withTimeout<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let t: NodeJS.Timeout;
  return Promise.race([
    p.finally(() => clearTimeout(t)),
    new Promise<T>((_, reject) => {
      t = setTimeout(() => reject(new Error(`${what} did not answer within ${ms} ms`)), ms);
    }),
  ]);
}

/**
 * /healthz: the process is alive and its event loop turns (restart it when this fails).
 * /readyz: it can serve — the database answers and every migration has run; 503 while draining
 * for shutdown, so a balancer moves traffic away first. Redis is reported but never makes an
 * instance unready: without it the app still serves (subscriptions stay local until it returns).
 * /metrics: Prometheus text format (behind METRICS_TOKEN when set; in production off without it).
 */
export function opsRouter(deps: HealthDeps): express.Router {
  const r = express.Router();
  // Applied migrations never un-apply: once none is pending, later probes only ping the database.
  let migrated = false;
  r.get('/healthz', (_req, res) => {
    res.setHeader('cache-control', 'no-store');
    res.json({ status: 'ok', uptimeSeconds: Math.round(process.uptime()) });
  });
  r.get('/readyz', async (_req, res) => {
    res.setHeader('cache-control', 'no-store');
    const redis = deps.redis();
    const checks: Record<string, string> = { redis: redis.mode === 'memory' ? 'not configured' : redis.up ? 'ok' : 'unavailable (serving without it)' };
    let ready = true;
    if (deps.draining()) {
      ready = false;
      checks.shutdown = 'draining';
    }
    try {
      await withTimeout(deps.dataSource.query('SELECT 1'), DB_CHECK_TIMEOUT_MS, 'the database');
      checks.database = 'ok';
      if (!migrated) migrated = !(await withTimeout(deps.dataSource.showMigrations(), DB_CHECK_TIMEOUT_MS, 'the migrations check'));
      checks.migrations = migrated ? 'ok' : 'pending';
      if (!migrated) ready = false;
    } catch (e) {
      ready = false;
      checks.database = `unavailable: ${(e as Error).message}`;
    }
    res.status(ready ? 200 : 503).json({ status: ready ? 'ready' : 'unavailable', checks });
  });
  // Express matches routes case-insensitively and ignores a trailing slash, so /METRICS and /metrics/
  // meet this same guard (tests/api/ops.test.ts checks the variants).
  r.get('/metrics', async (req, res) => {
    if (deps.metricsOff) {
      res.status(404).json({ error: 'Not found.', code: 'NOT_FOUND' });
      return;
    }
    if (deps.metricsToken && !sameSecret(req.headers.authorization ?? '', `Bearer ${deps.metricsToken}`)) {
      res.status(401).setHeader('www-authenticate', 'Bearer').json({ error: 'A metrics token is required.', code: 'UNAUTHENTICATED' });
      return;
    }
    res.setHeader('content-type', deps.metrics.registry.contentType);
    res.setHeader('cache-control', 'no-store');
    res.send(await deps.metrics.render());
  });
  return r;
}

/** Constant-time comparison, so response timing does not reveal how much of a token matched. */
function sameSecret(given: string, expected: string): boolean {
  const a = crypto.createHash('sha256').update(given).digest();
  const b = crypto.createHash('sha256').update(expected).digest();
  return crypto.timingSafeEqual(a, b);
}
