import net from 'node:net';
import type { Config } from '../../config/env';

function loopback(hostname: string): boolean {
  const h = hostname.replace(/^\[|\]$/g, '');
  return h === 'localhost' || h === '::1' || (net.isIPv4(h) && h.startsWith('127.'));
}

/**
 * Whether a browser origin is one of ours: PUBLIC_URL's, one in CORS_ORIGINS, or — when PUBLIC_URL
 * is a loopback address (the default `http://localhost:$PORT`) — another loopback name for the same
 * port and scheme, so `http://127.0.0.1:4000` works like `http://localhost:4000`. Only this machine
 * can reach a loopback address, so no one else can use that rule.
 */
export function ourOrigin(config: Pick<Config, 'publicUrl' | 'ops'>, origin: string | undefined): boolean {
  if (!origin) return false;
  let o: URL;
  try {
    o = new URL(origin);
  } catch {
    return false;
  }
  const pub = new URL(config.publicUrl);
  if (o.origin === pub.origin || config.ops.corsOrigins.includes(o.origin)) return true;
  return loopback(pub.hostname) && loopback(o.hostname) && o.port === pub.port && o.protocol === pub.protocol;
}

/**
 * The base URL of links that send the browser back to this app (checkout return, the checkout page
 * itself): the page's own origin when it is one of ours — a cookie or a session set at
 * 127.0.0.1 is not seen at localhost — otherwise PUBLIC_URL.
 */
export function publicBase(config: Pick<Config, 'publicUrl' | 'ops'>, origin: string | undefined): string {
  return origin && ourOrigin(config, origin) ? new URL(origin).origin : config.publicUrl;
}
