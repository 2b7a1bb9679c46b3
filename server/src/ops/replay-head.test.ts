import http from 'node:http';
import net from 'node:net';
import { replayHead, replayTrust, writeReplay, type Replayable } from './replay-head';

// A stored answer as ResponseCache keeps one: headers as the full path wrote them, the request id last.
const BODY = Buffer.from(JSON.stringify({ data: { featuredWorlds: [{ id: 'w1', name: 'Ashfall' }] } }));
const HEAD = [
  'access-control-allow-origin',
  '*',
  'content-security-policy',
  "default-src 'none'",
  'x-content-type-options',
  'nosniff',
  'content-type',
  'application/json; charset=utf-8',
  'link',
  ['</a>; rel=preload', '</b>; rel=preload'],
  'vary',
  'Origin, Accept-Encoding',
  'content-length',
  String(BODY.length),
  'x-request-id',
  '',
];

const stored = (): Replayable => ({
  head: HEAD.map((v) => (Array.isArray(v) ? [...v] : v)),
  replay: replayHead(200, 'OK', HEAD),
  verified: false,
  body: BODY,
});

/** A server answering every request with the stored answer, by writeReplay or by Node's writeHead. */
async function serve(how: 'replay' | 'node', setup: (s: http.Server) => void = () => undefined, options: http.ServerOptions = {}) {
  const v = stored();
  let n = 0;
  const mismatches: Array<{ node: string; ours: string }> = [];
  const server = http.createServer(options, (req, res) => {
    const id = `req-${++n}`;
    if (req.headers['x-drain'] === '1') res.shouldKeepAlive = false;
    if (how === 'node') {
      res.writeHead(200, [...HEAD.slice(0, -1), id] as string[]);
      res.end(BODY);
    } else writeReplay(res, 200, v, id, (d) => mismatches.push(d));
  });
  setup(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as net.AddressInfo).port;
  return { v, mismatches, port, close: () => new Promise((r) => server.close(r)) };
}

/** How many whole responses (head and content-length's body) `got` holds. */
function wholeResponses(got: string): number {
  let n = 0;
  let at = 0;
  for (;;) {
    const end = got.indexOf('\r\n\r\n', at);
    if (end === -1) return n;
    const head = got.slice(at, end + 2);
    if (/\r\ntransfer-encoding: chunked\r\n/i.test(head)) {
      // Only Node's own bodiless 503 here: its last chunk ends it.
      const last = got.indexOf('0\r\n\r\n', end + 4);
      if (last === -1) return n;
      n++;
      at = last + 5;
      continue;
    }
    const length = Number(/\r\ncontent-length: (\d+)\r\n/i.exec(head)?.[1] ?? 0);
    if (got.length < end + 4 + length) return n;
    n++;
    at = end + 4 + length;
  }
}

/** Sends `raw` on one connection; resolves with the bytes once `expected` whole responses came (or the server closed). */
function exchange(port: number, raw: string, expected: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => socket.write(raw));
    let got = '';
    const done = () => {
      socket.destroy();
      resolve(got);
    };
    socket.on('data', (d) => {
      got += d.toString('latin1');
      if (wholeResponses(got) >= expected) done();
    });
    socket.on('end', done);
    socket.on('error', reject);
  });
}

const noDate = (s: string) => s.replace(/\r\nDate: [A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT\r\n/g, '\r\nDate: (now)\r\n');
const get = (extra = '') => `GET /x HTTP/1.1\r\nHost: a\r\n${extra}\r\n`;

afterEach(() => replayTrust.reset());

describe('a stored answer written from its stored head', () => {
  const cases: Array<[string, string, number, (s: http.Server) => void]> = [
    ['keep-alive, three requests on one connection', get() + get() + get(), 3, () => undefined],
    ['a long keep-alive (the app sets 65 s)', get() + get(), 2, (s) => (s.keepAliveTimeout = 65_000)],
    ['the client asks to close', get() + get('Connection: close\r\n'), 2, () => undefined],
    ['HTTP/1.0 without keep-alive', 'GET /x HTTP/1.0\r\nHost: a\r\n\r\n', 1, () => undefined],
    ['HTTP/1.0 with keep-alive', 'GET /x HTTP/1.0\r\nHost: a\r\nConnection: keep-alive\r\n\r\n' + get(), 2, () => undefined],
    ['a connection capped at two requests', get() + get() + get(), 3, (s) => (s.maxRequestsPerSocket = 2)],
    ['draining: the response is the connection last', get() + get('x-drain: 1\r\n') + get(), 2, () => undefined],
    ['Date turned off server-wide', get() + get(), 2, (s) => s.prependListener('request', (_q, r: http.ServerResponse) => (r.sendDate = false))],
  ];

  it.each(cases)('is byte for byte what writeHead sends: %s', async (_name, raw, expected, setup) => {
    const node = await serve('node', setup);
    const ours = await serve('replay', setup);
    try {
      // Warm the shortcut up first (its first answer goes through writeHead and is compared).
      await exchange(ours.port, get('Connection: close\r\n'), 1);
      await exchange(node.port, get('Connection: close\r\n'), 1);
      expect(ours.v.verified).toBe(true);
      const [a, b] = await Promise.all([exchange(node.port, raw, expected), exchange(ours.port, raw, expected)]);
      expect(wholeResponses(a)).toBe(expected);
      expect(noDate(b)).toBe(noDate(a));
      expect(ours.mismatches).toEqual([]);
    } finally {
      await node.close();
      await ours.close();
    }
  });

  it('skips writeHead after the first answer, and answers requests pipelined in one packet in order', async () => {
    const calls = jest.spyOn(http.ServerResponse.prototype, 'writeHead');
    const ours = await serve('replay');
    try {
      const first = await exchange(ours.port, get(), 1);
      expect(first).toContain('x-request-id: req-1\r\n');
      expect(calls).toHaveBeenCalledTimes(1);
      const got = await exchange(ours.port, get() + get() + get(), 3);
      expect(calls).toHaveBeenCalledTimes(1);
      const ids = [...got.matchAll(/x-request-id: (\S+)\r\n/g)].map((m) => m[1]);
      expect(ids).toEqual(['req-2', 'req-3', 'req-4']);
      // Each response whole: its head, then exactly its body.
      expect(got.split(BODY.toString()).length - 1).toBe(3);
      expect(got).toContain('Date: ');
      expect(got).toContain('Keep-Alive: timeout=5\r\n');
    } finally {
      calls.mockRestore();
      await ours.close();
    }
  });

  it('stands down for the process when Node writes the head differently, and says so once', async () => {
    // A Node whose responses carry a header of its own: what a future version could do.
    class Future extends http.ServerResponse {
      _storeHeader(firstLine: string, headers: unknown) {
        (http.ServerResponse.prototype as unknown as { _storeHeader: (a: string, b: unknown) => void })._storeHeader.call(this, firstLine, headers);
        const self = this as unknown as { _header: string };
        self._header = self._header.replace('\r\n\r\n', '\r\nServer-Timing: node\r\n\r\n');
      }
    }
    const ours = await serve('replay', () => undefined, { ServerResponse: Future as unknown as typeof http.ServerResponse });
    try {
      const got = await exchange(ours.port, get() + get() + get(), 3);
      expect(got.split('Server-Timing: node\r\n').length - 1).toBe(3);
      expect(ours.mismatches).toHaveLength(1);
      expect(ours.mismatches[0]!.node).toContain('Server-Timing: node');
      expect(ours.mismatches[0]!.ours).not.toContain('Server-Timing');
      expect(replayTrust.on).toBe(false);
      expect(ours.v.verified).toBe(false);
    } finally {
      await ours.close();
    }
  });

  it('leaves to Node any head with a header Node writes around (connection, transfer-encoding, date, …)', () => {
    for (const name of ['Connection', 'transfer-encoding', 'date', 'content-disposition', 'keep-alive', 'Set-Cookie']) {
      expect(replayHead(200, 'OK', [name, 'x', 'x-request-id', ''])).toBeNull();
    }
    expect(replayHead(200, 'OK', ['content-type', 'text/plain', 'x-request-id', ''])).toBe('HTTP/1.1 200 OK\r\ncontent-type: text/plain\r\nx-request-id: ');
  });
});
