import net from 'node:net';
import cors from 'cors';
import type express from 'express';
import helmet from 'helmet';

/**
 * The browser origins allowed to call the API and open WebSockets: the app's own (PUBLIC_URL) plus
 * CORS_ORIGINS. Requests without an Origin (servers, curl, native apps) are not cross-site requests
 * and stay allowed: CORS and the WebSocket check only stop other web pages acting with a visitor's
 * browser.
 */
/** An IP literal or localhost: a host no DNS answer of an attacker's can stand for. */
function isAddress(hostname: string): boolean {
  const h = hostname.replace(/^\[|\]$/g, '');
  return h === 'localhost' || net.isIP(h) !== 0;
}

export function originPolicy(publicUrl: string, extra: string[]) {
  const allowed = new Set([new URL(publicUrl).origin, ...extra]);
  return {
    allowed,
    /** For a WebSocket upgrade: no Origin, an allowed one, or the same host the request was sent to. */
    upgradeAllowed(origin: string | undefined, host: string | undefined): boolean {
      if (!origin) return true;
      if (allowed.has(origin)) return true;
      try {
        // Same-origin behind a proxy that keeps Host (the browser only sends Origin = the page's), but
        // only for addresses (a LAN IP, localhost): a foreign *name* resolving to us (DNS rebinding)
        // also sends Origin = Host, so names must be PUBLIC_URL's or listed in CORS_ORIGINS.
        const u = new URL(origin);
        return host !== undefined && u.host === host && isAddress(u.hostname);
      } catch {
        return false;
      }
    },
  };
}

/** CORS for /graphql and /api: allow-listed origins only, bearer tokens (no cookies), cached preflights. */
export function corsMiddleware(allowed: Set<string>): express.RequestHandler {
  return cors({
    origin: (origin, cb) => cb(null, origin === undefined || allowed.has(origin)),
    methods: ['GET', 'POST', 'PUT', 'DELETE', 'OPTIONS'],
    allowedHeaders: [
      'content-type',
      'authorization',
      'apollo-require-preflight',
      'x-apollo-operation-name',
      'apikey',
      'x-client-info',
      'x-request-id',
      'x-supabase-api-version',
    ],
    exposedHeaders: ['x-request-id', 'retry-after'],
    credentials: false,
    maxAge: 600,
  });
}

/**
 * helmet with a Content-Security-Policy the built client satisfies: every script is a same-origin
 * module file (no inline script anywhere), styles are files, images are same-origin or data:/blob:
 * (the create-world wizard previews a generated picture as a data URL), audio is same-origin or blob:
 * (read-aloud plays a chapter's audio fetched with the session), and the only connections are
 * same-origin HTTP and WebSocket (ws/wss of PUBLIC_URL listed for browsers that predate CSP 3's
 * 'self' matching ws:). Two pages need more and get it on their path only: GraphiQL sets style
 * attributes and runs its editor workers from blob: URLs; the local checkout page has one <style>.
 */
export function securityHeaders(publicUrl: string): { all: express.RequestHandler; graphiql: express.RequestHandler; checkout: express.RequestHandler } {
  const u = new URL(publicUrl);
  const wsOrigin = `${u.protocol === 'https:' ? 'wss:' : 'ws:'}//${u.host}`;
  const base = {
    'default-src': ["'self'"],
    'script-src': ["'self'"],
    'style-src': ["'self'"],
    'img-src': ["'self'", 'data:', 'blob:'],
    // Read-aloud's server voice: the chapter's MP3 is fetched with the bearer token and played from a blob: URL.
    'media-src': ["'self'", 'blob:'],
    'font-src': ["'self'", 'data:'],
    'connect-src': ["'self'", wsOrigin],
    'worker-src': ["'self'"],
    'object-src': ["'none'"],
    'base-uri': ["'self'"],
    'form-action': ["'self'"],
    'frame-ancestors': ["'none'"],
  };
  // Over plain http (a laptop, the tests) upgrade-insecure-requests would break every asset.
  const upgrade = u.protocol === 'https:' ? { 'upgrade-insecure-requests': [] } : { 'upgrade-insecure-requests': null };
  const policy = (extra: Record<string, string[]>) =>
    helmet({
      contentSecurityPolicy: { useDefaults: false, directives: { ...base, ...upgrade, ...extra } },
      // The API is read by third parties and images are embedded by the client only.
      crossOriginResourcePolicy: { policy: 'same-site' },
      strictTransportSecurity: u.protocol === 'https:' ? { maxAge: 31_536_000, includeSubDomains: true } : false,
    });
  return {
    all: frozen(policy({})),
    graphiql: frozen(
      policy({
        'style-src': ["'self'", "'unsafe-inline'"],
        'style-src-attr': ["'unsafe-inline'"],
        'worker-src': ["'self'", 'blob:'],
        'font-src': ["'self'", 'data:'],
      }),
    ),
    checkout: frozen(policy({ 'style-src': ["'self'", "'unsafe-inline'"] })),
  };
}

/**
 * helmet, configured without per-request parts (no nonces, no functions), writes the same headers on
 * every response, through a chain of a dozen middlewares. Run it once against a recorder and replay
 * the result: the headers stay helmet's own, at a fraction of the cost on every request.
 */
function frozen(middleware: (req: never, res: never, next: (err?: unknown) => void) => void): express.RequestHandler {
  const set: Array<[string, string]> = [];
  const removed: string[] = [];
  const recorder = {
    setHeader: (name: string, value: unknown) => set.push([name, String(value)]),
    removeHeader: (name: string) => removed.push(name),
  };
  let finished = false;
  middleware({} as never, recorder as never, (err) => {
    if (err) throw err instanceof Error ? err : new Error(String(err));
    finished = true;
  });
  if (!finished) throw new Error('helmet did not finish synchronously: its headers cannot be precomputed');
  return (_req, res, next) => {
    for (const [name, value] of set) res.setHeader(name, value);
    for (const name of removed) res.removeHeader(name);
    next();
  };
}
