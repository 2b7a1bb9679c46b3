import net from 'node:net';

export interface BurstRequest {
  method: string;
  path: string;
  headers?: Record<string, string>;
  /** JSON-encoded when an object. */
  body?: unknown;
}

export interface BurstResponse {
  status: number;
  headers: Record<string, string>;
  body: any;
}

/**
 * Sends every request at once, the way a race attack does ("last byte sync"): each request goes out
 * on its own connection whole but for its final byte, and once every connection holds its request,
 * the final bytes are written in the same tick. The server then has all of them to answer together,
 * so a check made before an attempt is counted shows up as attempts past the budget.
 */
export async function burst(baseUrl: string, requests: BurstRequest[]): Promise<BurstResponse[]> {
  const { hostname, port } = new URL(baseUrl);
  const sockets = await Promise.all(
    requests.map(
      (req) =>
        new Promise<{ socket: net.Socket; last: Buffer; answer: Promise<BurstResponse> }>((resolve, reject) => {
          const socket = net.connect({ host: hostname, port: Number(port) }, () => {
            const raw = encode(hostname, port, req);
            socket.write(raw.subarray(0, raw.length - 1), (err) => (err ? reject(err) : resolve({ socket, last: raw.subarray(raw.length - 1), answer })));
          });
          socket.setNoDelay(true);
          const chunks: Buffer[] = [];
          const answer = new Promise<BurstResponse>((done, fail) => {
            socket.on('data', (c: Buffer) => chunks.push(c));
            socket.on('end', () => done(parse(Buffer.concat(chunks))));
            socket.on('error', fail);
          });
          socket.on('error', reject);
        }),
    ),
  );
  // Give the server a moment to read every request's head and body but the last byte.
  await new Promise((r) => setTimeout(r, 50));
  for (const s of sockets) s.socket.write(s.last);
  return Promise.all(sockets.map((s) => s.answer));
}

function encode(host: string, port: string, req: BurstRequest): Buffer {
  const body = req.body === undefined ? '' : typeof req.body === 'string' ? req.body : JSON.stringify(req.body);
  const headers: Record<string, string> = {
    host: `${host}:${port}`,
    connection: 'close',
    ...(req.body !== undefined ? { 'content-type': 'application/json' } : {}),
    'content-length': String(Buffer.byteLength(body)),
    ...req.headers,
  };
  const head = `${req.method} ${req.path} HTTP/1.1\r\n${Object.entries(headers)
    .map(([k, v]) => `${k}: ${v}`)
    .join('\r\n')}\r\n\r\n`;
  // A request without a body still needs a last byte held back: the final CRLF of its head.
  return Buffer.from(head + body, 'utf8');
}

function parse(raw: Buffer): BurstResponse {
  const split = raw.indexOf('\r\n\r\n');
  const [statusLine, ...lines] = raw.subarray(0, split).toString('latin1').split('\r\n');
  const headers: Record<string, string> = {};
  for (const l of lines) {
    const i = l.indexOf(':');
    headers[l.slice(0, i).trim().toLowerCase()] = l.slice(i + 1).trim();
  }
  let rest = raw.subarray(split + 4);
  if (headers['transfer-encoding'] === 'chunked') rest = unchunk(rest);
  const bodyText = rest.toString('utf8');
  let body: unknown = bodyText;
  try {
    body = bodyText ? JSON.parse(bodyText) : null;
  } catch {
    /* not JSON */
  }
  return { status: Number(statusLine!.split(' ')[1]), headers, body };
}

/** Chunk sizes count bytes: decoded on the buffer, not on text. */
function unchunk(b: Buffer): Buffer {
  const parts: Buffer[] = [];
  let i = 0;
  for (;;) {
    const nl = b.indexOf('\r\n', i);
    if (nl < 0) break;
    const size = parseInt(b.subarray(i, nl).toString('latin1'), 16);
    if (!size) break;
    parts.push(b.subarray(nl + 2, nl + 2 + size));
    i = nl + 2 + size + 2;
  }
  return Buffer.concat(parts);
}
