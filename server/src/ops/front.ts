import crypto from 'node:crypto';
import type http from 'node:http';
import proxyaddr from 'proxy-addr';
import { requestScope, type Logger, type RequestScope } from '../common/logger';
import type { RateLimiter } from '../common/rate-limiter';
import type { OpsConfig } from '../config/env';
import type { GraphQLLane } from './graphql-lane';
import { frontHeaders, type FrontHeaders } from './front-headers';
import type { Metrics } from './metrics';
import type { Lookup, ResponseCache } from './response-cache';

type Handler = (req: http.IncomingMessage, res: http.ServerResponse) => void;

export interface FrontOptions {
  app: Handler;
  logger: Logger;
  metrics: Metrics;
  limiter: RateLimiter;
  cache: ResponseCache;
  rateLimit: OpsConfig['rateLimit'];
  /** express's compiled "trust proxy" function, so the client IP here is the one express sees. */
  trust: (addr: string, i: number) => boolean;
  /** Cheap signature-only token check → the player's id (per-player limits). */
  playerOf: (token: string) => string | null;
  /** Largest /graphql body express would accept (the front never reads more than the cache needs). */
  graphqlBodyLimit: number;
  /** Apollo without express for small JSON POSTs to /graphql, once the server has started. */
  graphqlLane: () => GraphQLLane | undefined;
  /** Shutting down: a 503 then is the drain doing its job (a warning), not a failure. */
  draining: () => boolean;
}

/** Bodies above this (a world submitted with its image) take express's streaming parser and its 413. */
const LANE_MAX_BODY = 64 * 1024;

const JSON_TYPE = /^application\/json\s*(;\s*charset=utf-8\s*)?$/i;

/** A JSON POST's declared body length, or 0 for anything else (the lane and the response cache need a JSON body). */
function jsonPostLength(req: http.IncomingMessage, h: FrontHeaders): number {
  if (req.method !== 'POST') return 0;
  const type = h.contentType;
  if (type === undefined || !JSON_TYPE.test(type)) return 0;
  const length = Number(h.contentLength);
  return Number.isInteger(length) && length > 0 ? length : 0;
}

/** The operation's name (explicit, or the first named operation of the document), for metrics and logs. */
export function operationNameOf(body: unknown): string | null {
  const b = body as { operationName?: unknown; query?: unknown } | undefined;
  if (typeof b?.operationName === 'string') return b.operationName;
  if (typeof b?.query === 'string') return /^\s*(?:query|mutation|subscription)\s+([A-Za-z_][A-Za-z0-9_]*)/.exec(b.query)?.[1] ?? null;
  return null;
}

/** Incoming ids from our own proxy or a load balancer are kept when they look like ids. */
const INCOMING_ID = /^[A-Za-z0-9._:-]{8,64}$/;
const ID_PREFIX = crypto.randomBytes(4).toString('hex');
let idCounter = 0;
const newRequestId = () => `${ID_PREFIX}-${(++idCounter).toString(36)}`;

/** Requests that are never rate limited: probes, metrics scrapes, the client's static files. */
const limitedPath = (url: string) => url.startsWith('/graphql') || url.startsWith('/api/') || url.startsWith('/media/') || url.startsWith('/checkout/');

/** A request the limits refused: the metric is counted; the 429 is written inside the request's scope. */
interface Refusal {
  retryAfterSeconds: number;
}

/**
 * The HTTP server's request handler, in front of express: request id (kept from X-Request-Id or
 * made here, returned in the response, on every log line via AsyncLocalStorage), per-IP and
 * per-player rate limits, the public response cache, then the request timing for /metrics and one
 * access-log line.
 *
 * A cache hit (an anonymous public read answered before) is the hot path third parties load, so it
 * is answered in the tick it arrives, synchronously: the limits are decided at once (hitNow), the
 * stored head goes out in one writeHead with this request's id, and it is timed and counted in
 * place, with no request scope entered (nothing logs on a hit, so no log line misses its id), no
 * promise and no 'finish' listener. A GraphQL POST's body arrives in events of its own; the hit is
 * looked up when it has. Everything else enters the scope and takes the full path below.
 */
export function createFront(o: FrontOptions): Handler {
  const window = o.rateLimit.windowSeconds;
  return (req, res) => {
    const start = performance.now();
    // Shutting down: this response is the connection's last, so the drain can close it (http-drain.ts).
    if (o.draining()) res.shouldKeepAlive = false;
    const url = req.url ?? '/';
    const h = frontHeaders(req);
    const incoming = h.requestId;
    const reqId = incoming !== undefined && INCOMING_ID.test(incoming) ? incoming : newRequestId();
    const refusal = limitedPath(url) ? overLimits(o, req, h, window) : null;
    if (refusal) return enter(o, req, res, url, reqId, start, () => tooMany(res, url, refusal.retryAfterSeconds));
    const rest = o.cache.restLookup(req.method, h, url);
    if (rest) {
      const hit = o.cache.get(rest.key);
      const q = url.indexOf('?');
      const route = q === -1 ? url : url.slice(0, q);
      if (hit) return answerHit(o, h, res, hit, reqId, start, 'rest', route);
      o.metrics.cache('miss');
      return enter(o, req, res, url, reqId, start, () => {
        (res as Timed).route = route;
        capture(res, o.cache, rest);
        o.app(req, res);
      });
    }
    const json = url === '/graphql' ? jsonPostLength(req, h) : 0;
    const lane = json > 0 && json <= LANE_MAX_BODY ? o.graphqlLane() : undefined;
    const cacheable = json > 0 && o.cache.candidate(h, json);
    if (!cacheable && !lane) return enter(o, req, res, url, reqId, start, () => o.app(req, res));
    readBody(req, o.graphqlBodyLimit, (err, bytes) => {
      if (err) {
        return enter(o, req, res, url, reqId, start, () => {
          throw err;
        });
      }
      // The featured worlds' usual path: the exact body was answered before, nothing to parse (and,
      // sent again byte for byte, nothing to decode).
      const origin = h.origin ?? '';
      const quick = cacheable ? o.cache.hitForBytes(origin, bytes) : null;
      if (quick) return answerHit(o, h, res, quick, reqId, start, 'graphql', quick.operation);
      const raw = bytes.toString('utf8');
      if (cacheable) {
        const hit = o.cache.hitForBody(origin, raw, bytes);
        if (hit) return answerHit(o, h, res, hit, reqId, start, 'graphql', hit.operation);
      }
      enter(o, req, res, url, reqId, start, () => afterBody(o, req, h, res, raw, reqId, cacheable, lane));
    });
  };
}

/** A stored answer, replayed and metered where it is found (see createFront). */
function answerHit(
  o: FrontOptions,
  h: FrontHeaders,
  res: http.ServerResponse,
  hit: NonNullable<ReturnType<ResponseCache['get']>>,
  reqId: string,
  start: number,
  surface: 'graphql' | 'rest',
  operation: string | null,
): void {
  o.cache.serve(res, hit, reqId, h.acceptEncoding);
  o.metrics.cache('hit');
  (hit.meter ??= o.metrics.requestMeter(surface, operation, hit.status))((performance.now() - start) / 1000);
}

/**
 * The full path: the request id on the response, the request scope (so every log line written while
 * serving it carries the id), the access-log line and timing when the response is finished.
 */
function enter(
  o: FrontOptions,
  req: http.IncomingMessage,
  res: http.ServerResponse,
  url: string,
  reqId: string,
  start: number,
  step: () => void | Promise<void>,
): void {
  res.setHeader('x-request-id', reqId);
  const scope: RequestScope = { reqId };
  res.on('finish', () => finish(o, req, res, scope, url, start));
  const failed = (err: unknown) => {
    o.logger.error('request front failed', { err });
    if (!res.headersSent) {
      res.statusCode = 500;
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ error: 'Internal server error', code: 'INTERNAL' }));
    }
  };
  requestScope.run(scope, () => {
    try {
      step()?.catch(failed);
    } catch (err) {
      failed(err);
    }
  });
}

/** A read /graphql body that no stored answer matched: parsed once, looked up, then Apollo's lane or express. */
function afterBody(
  o: FrontOptions,
  req: http.IncomingMessage,
  h: FrontHeaders,
  res: http.ServerResponse,
  raw: string,
  reqId: string,
  cacheable: boolean,
  lane: GraphQLLane | undefined,
): void | Promise<void> {
  let body: unknown;
  try {
    body = JSON.parse(raw);
  } catch {
    // Exactly what express.json + app.ts's /graphql error handler answer for a malformed body.
    return sendGraphQLError(res, 400, 'Malformed JSON body.', 'BAD_USER_INPUT');
  }
  if (typeof body !== 'object' || body === null) return sendGraphQLError(res, 400, 'Malformed JSON body.', 'BAD_USER_INPUT');
  // The body is read: express.json sees a finished request and keeps this parsed body.
  (req as http.IncomingMessage & { body?: unknown }).body = body;
  const lookup = cacheable ? o.cache.lookup(h.origin ?? '', raw, body) : null;
  if (lookup) {
    const hit = o.cache.get(lookup.key);
    (res as Timed).operation = lookup.operation;
    if (hit) {
      // Stored since this body was first looked up (another request's miss filled it).
      o.metrics.cache('hit');
      (res as Timed).cacheHit = true;
      return o.cache.serve(res, hit, reqId, h.acceptEncoding);
    }
    o.metrics.cache('miss');
    capture(res, o.cache, lookup);
  }
  if (lane) {
    (res as Timed).operation ??= operationNameOf(body);
    return lane(req, res, body);
  }
  o.app(req, res);
}

/**
 * The per-IP and per-player limits, decided at once (RateLimiter.hitNow): null when within them. The
 * client address is the socket's when no proxy header came (what proxy-addr would answer anyway).
 */
function overLimits(o: FrontOptions, req: http.IncomingMessage, h: FrontHeaders, window: number): Refusal | null {
  const { perIp, perUser } = o.rateLimit;
  if (perIp > 0) {
    const ip = h.forwardedFor === undefined ? req.socket.remoteAddress : proxyaddr(req as Parameters<typeof proxyaddr>[0], o.trust);
    const r = o.limiter.hitNow(`ip:${ip}`, perIp, window);
    if (!r.allowed) {
      o.metrics.rateLimitedRequest('ip');
      return r;
    }
  }
  const auth = h.authorization;
  if (perUser > 0 && auth) {
    const m = /^Bearer\s+(\S+)$/i.exec(auth);
    const player = m ? o.playerOf(m[1]) : null;
    if (player) {
      const r = o.limiter.hitNow(`user:${player}`, perUser, window);
      if (!r.allowed) {
        o.metrics.rateLimitedRequest('user');
        return r;
      }
    }
  }
  return null;
}

function tooMany(res: http.ServerResponse, url: string, retryAfterSeconds: number): void {
  res.setHeader('retry-after', String(retryAfterSeconds));
  const message = 'Too many requests; please slow down.';
  if (url.startsWith('/graphql')) return sendGraphQLError(res, 429, message, 'RATE_LIMITED', { retryAfterSeconds });
  res.statusCode = 429;
  res.setHeader('content-type', 'application/json; charset=utf-8');
  res.end(JSON.stringify({ error: message, code: 'RATE_LIMITED', retryAfterSeconds }));
}

function sendGraphQLError(res: http.ServerResponse, status: number, message: string, code: string, extra: Record<string, unknown> = {}): void {
  res.statusCode = status;
  res.setHeader('content-type', 'application/json; charset=utf-8');
  res.end(JSON.stringify({ errors: [{ message, extensions: { code, ...extra } }] }));
}

const EMPTY = Buffer.alloc(0);

/** Reads a body with plain callbacks (no promise: a hit is answered from the 'end' event itself). */
function readBody(req: http.IncomingMessage, limit: number, done: (err: Error | null, bytes: Buffer) => void): void {
  const chunks: Buffer[] = [];
  let size = 0;
  let over = false;
  req.on('data', (c: Buffer) => {
    if (over) return;
    size += c.length;
    if (size > limit) {
      over = true;
      req.destroy();
      done(new Error('body over limit despite its content-length'), EMPTY);
      return;
    }
    chunks.push(c);
  });
  req.on('end', () => {
    if (!over) done(null, chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks));
  });
  req.on('error', (err) => {
    if (over) return;
    over = true;
    done(err, EMPTY);
  });
}

interface Timed extends http.ServerResponse {
  operation?: string | null;
  /** A public REST read's path, for metrics when the cache answered it (express never matched a route). */
  route?: string;
  cacheHit?: boolean;
}

/** Keeps a copy of what the full path writes, to store it once the response is complete. */
function capture(res: http.ServerResponse, cache: ResponseCache, lookup: Lookup): void {
  const chunks: Buffer[] = [];
  const write = res.write.bind(res) as (...a: unknown[]) => boolean;
  const end = res.end.bind(res) as (...a: unknown[]) => http.ServerResponse;
  const keep = (chunk: unknown, encoding?: unknown) => {
    if (chunk === undefined || chunk === null || typeof chunk === 'function') return;
    chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8'));
  };
  res.write = ((chunk: unknown, ...rest: unknown[]) => {
    keep(chunk, rest[0]);
    return write(chunk, ...rest);
  }) as typeof res.write;
  res.end = ((chunk?: unknown, ...rest: unknown[]) => {
    keep(chunk, rest[0]);
    const r = end(chunk, ...rest);
    cache.store(lookup, res.statusCode, res.getHeaders(), Buffer.concat(chunks));
    return r;
  }) as typeof res.end;
}

function surfaceOf(url: string): 'graphql' | 'rest' | 'page' | 'ops' {
  if (url.startsWith('/graphql')) return 'graphql';
  if (url.startsWith('/api/')) return 'rest';
  if (url === '/healthz' || url === '/readyz' || url === '/metrics') return 'ops';
  return 'page';
}

function finish(o: FrontOptions, req: http.IncomingMessage, res: Timed, scope: RequestScope, url: string, start: number): void {
  const seconds = (performance.now() - start) / 1000;
  const surface = surfaceOf(url);
  const locals = (res as unknown as { locals?: { operation?: string } }).locals;
  const route = (req as http.IncomingMessage & { route?: { path?: unknown }; baseUrl?: string }).route;
  const restRoute = route && typeof route.path === 'string' ? `${(req as { baseUrl?: string }).baseUrl ?? ''}${route.path}` : null;
  // GraphQL: the operation name (bounded); REST: the matched route pattern, never the raw path.
  const operation =
    surface === 'graphql'
      ? o.metrics.operationLabel(res.operation ?? locals?.operation ?? null)
      : surface === 'rest'
        ? (restRoute ?? res.route ?? 'unmatched')
        : surface === 'ops'
          ? url
          : 'static';
  o.metrics.observeRequest(surface, operation, res.statusCode, seconds);
  if (surface === 'ops' || res.cacheHit) return; // probes and cache hits: metrics only, or logs drown
  const fields = {
    reqId: scope.reqId,
    method: req.method,
    url: url.length > 200 ? `${url.slice(0, 200)}…` : url,
    status: res.statusCode,
    ms: Math.round(seconds * 10_000) / 10,
    ...(surface === 'graphql' ? { operation } : {}),
    ...(scope.cause ? { cause: scope.cause } : {}),
  };
  // One error line per failed request: its access line (an outage's cause rides on it, see noteRequestCause).
  // While draining, a 503 is the shutdown turning work away: a warning.
  if (scope.cause || (res.statusCode >= 500 && !(res.statusCode === 503 && o.draining()))) o.logger.error('request', fields);
  else if (res.statusCode >= 500) o.logger.warn('request', fields);
  else o.logger.info('request', fields);
}
