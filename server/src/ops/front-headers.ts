import type http from 'node:http';

/**
 * The few request headers the front reads (the request id, the limits, the response cache), taken
 * from the raw header list in one pass.
 *
 * Why not `req.headers`: Node builds that object on first access, every header of the request stored
 * under its lower-cased name — about a microsecond per request, most of it in stores V8 cannot
 * specialise. A cache hit, the public read third parties load, needs seven values and nothing else,
 * so it never pays for the object; express and Apollo build it on the full path as before.
 *
 * A header sent twice resolves as `req.headers` resolves it (Node's matchKnownFields, with the
 * server's default joinDuplicateHeaders: false): the first value for content-type, content-length
 * and authorization, the values joined with ", " for the others read here. front-headers.test.ts
 * holds this to what Node's own object says for the same requests.
 */
export interface FrontHeaders {
  requestId: string | undefined;
  contentType: string | undefined;
  contentLength: string | undefined;
  authorization: string | undefined;
  origin: string | undefined;
  acceptEncoding: string | undefined;
  forwardedFor: string | undefined;
}

/** `name` (any case) is `lower` (lower case, the same length checked by the caller). */
const is = (name: string, lower: string) => name === lower || name.toLowerCase() === lower;
const joined = (had: string | undefined, value: string) => (had === undefined ? value : `${had}, ${value}`);

export function frontHeaders(req: http.IncomingMessage): FrontHeaders {
  const h: FrontHeaders = {
    requestId: undefined,
    contentType: undefined,
    contentLength: undefined,
    authorization: undefined,
    origin: undefined,
    acceptEncoding: undefined,
    forwardedFor: undefined,
  };
  const raw = req.rawHeaders;
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = raw[i]!;
    const value = raw[i + 1]!;
    // Dispatched on the name's length: most headers of a request are none of these and cost one compare.
    switch (name.length) {
      case 6:
        if (is(name, 'origin')) h.origin = joined(h.origin, value);
        break;
      case 12:
        if (is(name, 'content-type')) h.contentType ??= value;
        else if (is(name, 'x-request-id')) h.requestId = joined(h.requestId, value);
        break;
      case 13:
        if (is(name, 'authorization')) h.authorization ??= value;
        break;
      case 14:
        if (is(name, 'content-length')) h.contentLength ??= value;
        break;
      case 15:
        if (is(name, 'accept-encoding')) h.acceptEncoding = joined(h.acceptEncoding, value);
        else if (is(name, 'x-forwarded-for')) h.forwardedFor = joined(h.forwardedFor, value);
        break;
    }
  }
  return h;
}
