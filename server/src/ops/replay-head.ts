import type http from 'node:http';

/**
 * A stored answer's response head, written as Node itself would write it, without Node re-checking
 * it on every hit.
 *
 * `res.writeHead(status, headers)` runs each header through two regular expressions (name and value),
 * lower-cases it and concatenates the head anew: for a cached answer's ~17 headers that is ~3 µs of a
 * ~25 µs hit (paired runs, 2026-11-27; it is what a raw Node server pays too). A stored head never
 * changes, and Node already validated it when the full path first wrote it, so a hit writes the head
 * text built once when the answer was stored — status line and headers — followed by what changes
 * per response, as Node's `_storeHeader` appends it: the request id, the Date, and the connection's
 * keep-alive or close.
 *
 * It sets the fields of Node's `OutgoingMessage` that `_storeHeader` sets (`_header`, `_headerSent`,
 * `_contentLength`, `_last`), which are not public API. So it is trusted only as far as it is checked
 * on the Node it runs on: each stored answer's first replay goes through `writeHead`, and the head Node
 * wrote then is compared with this one for the same response; one difference turns the shortcut off
 * for the life of the process (`writeHead` again for every hit, a warning logged once).
 */

/** The fields of Node's ServerResponse that `_storeHeader` reads and writes (node:_http_outgoing). */
interface NodeOutgoing {
  _header: string | null;
  _headerSent: boolean;
  _contentLength: number | null;
  _last: boolean;
  _keepAliveTimeout?: number;
  _defaultKeepAlive?: boolean;
  _maxRequestsPerSocket?: number;
  maxRequestsOnConnectionReached?: boolean;
  shouldKeepAlive: boolean;
  sendDate: boolean;
  statusMessage: string | undefined;
  statusCode: number;
}

/**
 * Header names whose presence changes what Node writes around them (or, for set-cookie, how it writes
 * their values): such a head is never shortcut.
 */
const NODE_MANAGED = new Set(['connection', 'keep-alive', 'transfer-encoding', 'date', 'expect', 'trailer', 'content-disposition', 'set-cookie']);

/**
 * The head text for `status` and `head` (name, value, … with the request id's name last and its value
 * left to fill): the status line and every header line up to the request id's value, as Node would
 * write them, or null when Node would treat one of its headers specially.
 */
export function replayHead(status: number, statusMessage: string, head: ReadonlyArray<string | string[]>): string | null {
  let text = `HTTP/1.1 ${status} ${statusMessage}\r\n`;
  for (let i = 0; i < head.length; i += 2) {
    const name = head[i] as string;
    if (NODE_MANAGED.has(name.toLowerCase())) return null;
    const value = head[i + 1]!;
    if (i === head.length - 2) {
      text += `${name}: `;
      break;
    }
    // An array value is one line per value (Node's processHeader).
    for (const v of Array.isArray(value) ? value : [value]) text += `${name}: ${v}\r\n`;
  }
  return text;
}

/**
 * Node's Date header value: the same cache as node:internal/http's utcDate (one toUTCString a
 * second), so a hit does not format a date.
 */
let utcCache: string | undefined;
function utcDate(): string {
  if (utcCache === undefined) {
    const d = new Date();
    utcCache = d.toUTCString();
    setTimeout(() => (utcCache = undefined), 1000 - d.getMilliseconds()).unref();
  }
  return utcCache;
}

/** What `_storeHeader` writes after the headers for this response: Date and the connection's fate. */
function tail(res: NodeOutgoing): { text: string; last: boolean } {
  let text = res.sendDate ? `\r\nDate: ${utcDate()}\r\n` : '\r\n';
  // The head carries content-length, so keep-alive is Node's shouldKeepAlive alone.
  if (res.shouldKeepAlive && res.maxRequestsOnConnectionReached) return { text: `${text}Connection: close\r\n\r\n`, last: false };
  if (!res.shouldKeepAlive) return { text: `${text}Connection: close\r\n\r\n`, last: true };
  text += 'Connection: keep-alive\r\n';
  if (res._keepAliveTimeout && res._defaultKeepAlive) {
    const max = ~~(res._maxRequestsPerSocket ?? 0) > 0 ? `, max=${res._maxRequestsPerSocket}` : '';
    text += `Keep-Alive: timeout=${Math.floor(res._keepAliveTimeout / 1000)}${max}\r\n`;
  }
  return { text: `${text}\r\n`, last: false };
}

/** Whether the shortcut still holds in this process (a mismatch with Node's own head turns it off). */
let trusted = true;

/** A stored answer's head and body in the forms writeReplay takes (ResponseCache keeps one per encoding). */
export interface Replayable {
  body: Buffer;
  /** For writeHead: name, value, … with the request id's value last (filled per request). */
  head: Array<string | string[]>;
  /** The same head as text (replayHead), written without Node re-checking it once `verified`. */
  replay: string | null;
  /** True once the text matched what Node wrote for this head: later hits may take the shortcut. */
  verified: boolean;
}

/**
 * Writes a stored answer with this request's id. The first time for a head (and always once the
 * shortcut is off, or when something already set a header on `res`) through Node's writeHead,
 * comparing its head with ours; afterwards straight from the stored text. `onMismatch` hears of a
 * difference once.
 */
export function writeReplay(
  res: http.ServerResponse,
  status: number,
  v: Replayable,
  reqId: string,
  onMismatch: (detail: { node: string; ours: string }) => void,
): void {
  const out = res as unknown as NodeOutgoing;
  const stored = v.replay;
  const fresh = out._header === null && out.statusMessage === undefined && res.getHeaderNames().length === 0;
  if (stored !== null && trusted && v.verified && fresh) {
    const t = tail(out);
    out.statusCode = status;
    out._contentLength = v.body.length;
    out._header = stored + reqId + t.text;
    out._headerSent = false;
    if (t.last) out._last = true;
    res.end(v.body);
    return;
  }
  // Filled in place: writeHead turns the array into the head's text before it returns, and keeps no
  // reference to it, so the next hit may write its own id into the same slot.
  v.head[v.head.length - 1] = reqId;
  res.writeHead(status, v.head as string[]);
  if (stored !== null && trusted && !v.verified && fresh) {
    const ours = stored + reqId + tail(out).text;
    // Compared with the Date taken out: Node's cache and ours may straddle a second.
    const node = out._header ?? '';
    if (withoutDate(node) === withoutDate(ours)) v.verified = true;
    else {
      trusted = false;
      onMismatch({ node, ours });
    }
  }
  res.end(v.body);
}

const withoutDate = (head: string) => head.replace(/\r\nDate: [^\r]*\r\n/, '\r\nDate: -\r\n');

/** For tests: whether the shortcut is on in this process, and turning it back on. */
export const replayTrust = {
  get on(): boolean {
    return trusted;
  },
  reset(): void {
    trusted = true;
  },
};
