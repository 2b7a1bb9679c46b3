import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { httpDrainer } from './http-drain';

/** A server whose /slow answers after `slowMs`, and whose responses close the connection once draining. */
async function serve(slowMs: number) {
  let draining = false;
  const server = http.createServer((req, res) => {
    if (draining) res.shouldKeepAlive = false;
    const answer = () => res.end('ok');
    if (req.url === '/slow') setTimeout(answer, slowMs);
    else answer();
  });
  const drainer = httpDrainer(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const agent = new http.Agent({ keepAlive: true, maxSockets: 4 });
  const port = (server.address() as AddressInfo).port;
  const get = (path: string) =>
    new Promise<{ status: number; body: string; connection: string | undefined }>((resolve, reject) => {
      http
        .get({ host: '127.0.0.1', port, path, agent }, (res) => {
          let body = '';
          res.on('data', (d: Buffer) => (body += d.toString()));
          res.on('end', () => resolve({ status: res.statusCode!, body, connection: res.headers.connection }));
        })
        .on('error', reject);
    });
  return { server, agent, get, drain: (ms: number) => ((draining = true), drainer.drain(ms)) };
}

describe('HTTP drain on shutdown', () => {
  it('closes idle keep-alive connections at once and lets a request in flight finish, then closes its connection', async () => {
    const s = await serve(300);
    await s.get('/'); // one idle keep-alive connection left open
    const slow = s.get('/slow');
    await new Promise((r) => setTimeout(r, 50));
    const t0 = Date.now();
    await s.drain(10_000);
    const took = Date.now() - t0;
    expect(await slow).toEqual({ status: 200, body: 'ok', connection: 'keep-alive' });
    // Done when the slow answer went out (not after keep-alive's 5 s, not after the 10 s grace).
    expect(took).toBeLessThan(2_000);
    expect(s.server.listening).toBe(false);
    s.agent.destroy();
  });

  it('destroys what is still open when the grace period ends', async () => {
    const s = await serve(60_000);
    const slow = s.get('/slow').catch((e: Error) => e);
    await new Promise((r) => setTimeout(r, 50));
    const t0 = Date.now();
    await s.drain(200);
    expect(Date.now() - t0).toBeLessThan(2_000);
    expect(String(await slow)).toMatch(/socket hang up|ECONNRESET/); // the client sees the connection cut
    s.agent.destroy();
  });
});
