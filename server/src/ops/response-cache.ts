import http from 'node:http';
import zlib from 'node:zlib';
import { acceptedEncodings } from '../common/http';
import type { FrontHeaders } from './front-headers';
import { replayHead, writeReplay, type Replayable } from './replay-head';
import { Kind, parse, type DocumentNode, type OperationDefinitionNode } from 'graphql';

/** Root fields whose answer is the same for every anonymous caller and changes only with worlds. */
const PUBLIC_ROOT_FIELDS = new Set(['featuredWorlds', 'communityWorlds', '__typename']);
/**
 * REST reads whose answer is the same for every caller (they read no session) and changes only with
 * worlds: the featured cards and the community page, with their query strings.
 */
/** How many recently answered bodies hitForBytes compares (each a few hundred bytes). */
const HOT_BODIES = 8;
const PUBLIC_REST_PATHS = new Set(['/api/worlds/fetch-world-cards', '/api/worlds/community']);
/** A longer URL is no public page anybody links to: passed on untouched. */
const MAX_CACHEABLE_URL = 1024;
/** Public queries are small; anything bigger is passed on untouched rather than read here. */
const MAX_CACHEABLE_BODY = 16 * 1024;
const MAX_ENTRIES = 1000;
/** Headers a replay must not repeat: per-response or per-connection ones. */
const NOT_REPLAYED = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding', 'x-request-id', 'content-length', 'vary']);
/** Below this an answer is sent as it is: gzip's framing would eat most of the gain. */
const MIN_GZIP_BODY = 1024;

/**
 * A response head ready for one writeHead: name, value, name, value…, the request id's value last
 * (filled per request). One call instead of a setHeader per header (a replay has ~17).
 */
type Head = Array<string | string[]>;

interface Entry {
  status: number;
  /** One per encoding: its body and the head that goes with it. */
  plain: Replayable;
  /** The same body gzipped once when stored (a page of featured worlds shrinks ~4×), for callers that take it. */
  gzip: Replayable | null;
  operation: string | null;
  expiresAt: number;
  /** The front's request timing for this answer's hits, resolved on the first one (see Metrics.requestMeter). */
  meter?: (seconds: number) => void;
}

/** Whether an Accept-Encoding value takes gzip, remembered per distinct value (clients send a handful). */
const takesGzip = new Map<string, boolean>();
function acceptsGzip(header: string | undefined): boolean {
  if (header === undefined) return false;
  let yes = takesGzip.get(header);
  if (yes === undefined) {
    const accepted = acceptedEncodings(header);
    yes = accepted.has('gzip') || accepted.has('*');
    if (takesGzip.size >= 100) takesGzip.clear();
    takesGzip.set(header, yes);
  }
  return yes;
}

/** What the front tells the cache about a request it may answer or fill. */
export interface Lookup {
  key: string;
  generation: number;
  operation: string | null;
}

/**
 * A response cache for public GraphQL queries (featured worlds), in front of everything else: a hit
 * is answered from the HTTP server's request handler, before express, Apollo or the database are
 * involved. Only anonymous POST /graphql requests whose operation selects nothing but public root
 * fields are cached, keyed by the exact body (and Origin, since CORS headers differ per origin);
 * the stored answer is exactly what the full path produced, headers included.
 *
 * Invalidation: `invalidate()` drops everything and bumps a generation, so an answer computed before
 * a world changed is never stored after it. App wiring calls it on every committed world write, on
 * this instance directly and on the others through Redis pub/sub; entries also expire after
 * `ttlSeconds`, which bounds staleness if an invalidation message is lost (Redis down).
 */
export class ResponseCache {
  private readonly entries = new Map<string, Entry>();
  private readonly documents = new Map<string, { cacheable: boolean; operation: string | null }>();
  /**
   * The bodies answered last from the cache, as the bytes that came in, with their keys: the same few
   * queries are sent over and over (a third party's featured worlds), and comparing bytes is cheaper
   * than decoding the body and hashing a fresh key string of a few hundred characters on every hit.
   */
  private hot: Array<{ origin: string; body: Buffer; key: string }> = [];
  private gen = 0;

  /** `onReplayMismatch` hears once if Node wrote a stored head differently from replay-head.ts (which then stands down). */
  constructor(
    private readonly ttlSeconds: number,
    private readonly onReplayMismatch: (detail: { node: string; ours: string }) => void = () => undefined,
  ) {}

  get enabled(): boolean {
    return this.ttlSeconds > 0;
  }

  get generation(): number {
    return this.gen;
  }

  get size(): number {
    return this.entries.size;
  }

  invalidate(): void {
    this.gen++;
    this.entries.clear();
    this.hot = [];
  }

  /**
   * Whether the front should read this JSON POST's body (of `length` bytes, as the front checked it)
   * to look it up: anonymous and small.
   */
  candidate(h: FrontHeaders, length: number): boolean {
    return this.enabled && h.authorization === undefined && length <= MAX_CACHEABLE_BODY;
  }

  /**
   * The stored answer for this exact body, before it is parsed: only bodies classified public are
   * ever stored, so a key found here needs no parse (the hit path of the featured worlds).
   */
  hitForBody(origin: string, raw: string, bytes?: Buffer): Entry | null {
    if (this.entries.size === 0) return null;
    const key = `POST\n${origin}\n${raw}`;
    const hit = this.get(key);
    if (hit && bytes) {
      // Remembered as a hot body (the oldest of HOT_BODIES makes room).
      this.hot = [{ origin, body: Buffer.from(bytes), key }, ...this.hot.filter((h) => h.key !== key)].slice(0, HOT_BODIES);
    }
    return hit;
  }

  /** A stored answer for a body sent byte for byte as one answered lately (hitForBody remembers them), or null. */
  hitForBytes(origin: string, bytes: Buffer): Entry | null {
    if (this.hot.length === 0) return null;
    for (const h of this.hot) {
      if (h.body.length === bytes.length && h.origin === origin && h.body.equals(bytes)) return this.get(h.key);
    }
    return null;
  }

  /**
   * The lookup for an anonymous GET of a public REST read, or null. Keyed by Origin and the whole URL
   * (path and query string); the method leads every key, and a header value holds no newline.
   */
  restLookup(method: string | undefined, h: FrontHeaders, url: string): Lookup | null {
    if (!this.enabled || method !== 'GET' || h.authorization !== undefined) return null;
    if (url.length > MAX_CACHEABLE_URL) return null;
    const q = url.indexOf('?');
    if (!PUBLIC_REST_PATHS.has(q === -1 ? url : url.slice(0, q))) return null;
    return { key: `GET\n${h.origin ?? ''}\n${url}`, generation: this.gen, operation: null };
  }

  /** The lookup for a parsed body, or null when the operation is not a public cacheable query. */
  lookup(origin: string, raw: string, body: unknown): Lookup | null {
    if (typeof body !== 'object' || body === null || Array.isArray(body)) return null;
    const { query, operationName } = body as { query?: unknown; operationName?: unknown };
    if (typeof query !== 'string' || (operationName !== undefined && operationName !== null && typeof operationName !== 'string')) return null;
    const doc = this.classify(query, (operationName as string | null | undefined) ?? null);
    if (!doc.cacheable) return null;
    return { key: `POST\n${origin}\n${raw}`, generation: this.gen, operation: doc.operation };
  }

  get(key: string): Entry | null {
    const e = this.entries.get(key);
    if (!e) return null;
    if (e.expiresAt <= Date.now()) {
      this.entries.delete(key);
      return null;
    }
    return e;
  }

  /**
   * Replays a stored answer, gzipped when the caller accepts it, with this request's id: its head and
   * body in one end, nothing waited for (the caller is answered in the tick its request arrived).
   */
  serve(res: http.ServerResponse, e: Entry, reqId: string, acceptEncoding: string | undefined): void {
    const v = e.gzip !== null && acceptsGzip(acceptEncoding) ? e.gzip : e.plain;
    writeReplay(res, e.status, v, reqId, this.onReplayMismatch);
  }

  /** Stores an answer computed by the full path, unless worlds changed meanwhile or it carried errors. */
  store(lookup: Lookup, status: number, headers: http.OutgoingHttpHeaders, body: Buffer): boolean {
    if (lookup.generation !== this.gen || status !== 200) return false;
    // A GraphQL answer with errors (bad arguments, a masked failure) is not worth replaying.
    if (body.includes('"errors"')) return false;
    if (this.entries.size >= MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value as string);
    // Already encoded by someone else: replay as it is, never encode twice.
    if (headers['content-encoding'] !== undefined) return false;
    const kept: Head = [];
    for (const [name, value] of Object.entries(headers)) {
      if (value === undefined || NOT_REPLAYED.has(name)) continue;
      kept.push(name, typeof value === 'number' ? String(value) : value);
    }
    // What the full path's Vary said, plus Accept-Encoding (the replay depends on it).
    const vary = [headers.vary, 'Accept-Encoding']
      .flat()
      .filter((v): v is string => typeof v === 'string' && v !== '')
      .join(', ');
    const headFor = (b: Buffer, encoding?: string): Head => [
      ...kept,
      'vary',
      vary,
      ...(encoding ? ['content-encoding', encoding] : []),
      'content-length',
      String(b.length),
      'x-request-id',
      '',
    ];
    const message = http.STATUS_CODES[status] ?? 'unknown';
    const variant = (b: Buffer, encoding?: string): Replayable => {
      const head = headFor(b, encoding);
      return { body: b, head, replay: replayHead(status, message, head), verified: false };
    };
    this.entries.set(lookup.key, {
      status,
      plain: variant(body),
      gzip: body.length >= MIN_GZIP_BODY ? variant(zlib.gzipSync(body), 'gzip') : null,
      operation: lookup.operation,
      expiresAt: Date.now() + this.ttlSeconds * 1000,
    });
    return true;
  }

  /** Parses once per distinct query text; the answer is whether the chosen operation is public. */
  private classify(query: string, operationName: string | null): { cacheable: boolean; operation: string | null } {
    const memoKey = `${operationName ?? ''}\n${query}`;
    const known = this.documents.get(memoKey);
    if (known) return known;
    let result = { cacheable: false, operation: operationName };
    try {
      const op = pickOperation(parse(query, { maxTokens: 2000 }), operationName);
      if (op && op.operation === 'query') {
        const publicOnly = op.selectionSet.selections.every((s) => s.kind === Kind.FIELD && PUBLIC_ROOT_FIELDS.has(s.name.value));
        result = { cacheable: publicOnly && !hasDirectives(op), operation: op.name?.value ?? operationName };
      }
    } catch {
      // Not parseable here: the full path answers with the proper error.
    }
    if (this.documents.size >= MAX_ENTRIES) this.documents.clear();
    this.documents.set(memoKey, result);
    return result;
  }
}

function pickOperation(doc: DocumentNode, name: string | null): OperationDefinitionNode | null {
  const ops = doc.definitions.filter((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION);
  if (name) return ops.find((o) => o.name?.value === name) ?? null;
  return ops.length === 1 ? ops[0] : null;
}

/** @include/@skip with variables would make one body mean different things; keep it simple. */
function hasDirectives(op: OperationDefinitionNode): boolean {
  return (op.directives?.length ?? 0) > 0 || op.selectionSet.selections.some((s) => (s.directives?.length ?? 0) > 0);
}
