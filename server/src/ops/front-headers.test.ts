import http from 'node:http';
import net from 'node:net';
import { frontHeaders, type FrontHeaders } from './front-headers';

/**
 * The front reads its seven headers from the raw list; whatever a client sends (any case, a header
 * twice), each must be what Node's own `req.headers` says, or a limit or the cache would see another
 * request than express and Apollo do.
 */
describe('the front headers agree with req.headers', () => {
  let server: http.Server;
  let port: number;
  const seen: Array<{ front: FrontHeaders; node: http.IncomingHttpHeaders }> = [];

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      seen.push({ front: frontHeaders(req), node: { ...req.headers } });
      req.resume();
      req.on('end', () => res.end('ok'));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    port = (server.address() as net.AddressInfo).port;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  /** Sends one request with exactly these header lines (a raw socket: fetch would merge or reorder them). */
  const send = (lines: string[], body = '') =>
    new Promise<void>((resolve, reject) => {
      const s = net.connect(port, '127.0.0.1', () => {
        s.write(`POST /graphql HTTP/1.1\r\nHost: x\r\nConnection: close\r\n${lines.join('\r\n')}${lines.length ? '\r\n' : ''}\r\n${body}`);
      });
      s.on('data', () => undefined);
      s.on('close', () => resolve());
      s.on('error', reject);
    });

  const cases: Array<[string, string[]]> = [
    ['none of them', ['Accept: */*']],
    [
      'each once, lower case',
      [
        'content-type: application/json',
        'content-length: 2',
        'origin: https://a.example',
        'accept-encoding: gzip',
        'x-request-id: abcdefgh1',
        'authorization: Bearer t',
        'x-forwarded-for: 10.0.0.1',
      ],
    ],
    [
      'each once, mixed case',
      [
        'Content-Type: application/json',
        'CONTENT-LENGTH: 2',
        'Origin: https://a.example',
        'Accept-Encoding: br, gzip',
        'X-Request-Id: abcdefgh2',
        'Authorization: Bearer t',
        'X-Forwarded-For: 10.0.0.1',
      ],
    ],
    [
      'each twice',
      [
        'content-type: application/json',
        'Content-Type: text/plain',
        'content-length: 2',
        'authorization: Bearer first',
        'Authorization: Bearer second',
        'origin: https://a.example',
        'Origin: https://b.example',
        'accept-encoding: gzip',
        'Accept-Encoding: br',
        'x-request-id: abcdefgh3',
        'X-Request-ID: abcdefgh4',
        'x-forwarded-for: 10.0.0.1',
        'X-Forwarded-For: 10.0.0.2, 10.0.0.3',
      ],
    ],
    ['same-length names that are not read', ['x-powered-by: a', 'accept-charset: utf-8', 'x-frame-optionz: b', 'cache-control: no', 'content-langua: x']],
    ['an empty value', ['origin: ', 'accept-encoding:', 'content-length: 2']],
  ];

  it.each(cases)('%s', async (_name, lines) => {
    seen.length = 0;
    await send(lines, lines.some((l) => /^content-length/i.test(l)) ? '{}' : '');
    expect(seen).toHaveLength(1);
    const { front, node } = seen[0]!;
    expect(front).toEqual({
      requestId: node['x-request-id'],
      contentType: node['content-type'],
      contentLength: node['content-length'],
      authorization: node.authorization,
      origin: node.origin,
      acceptEncoding: node['accept-encoding'],
      forwardedFor: node['x-forwarded-for'],
    });
  });
});
