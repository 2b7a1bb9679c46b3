import net from 'node:net';
import { INSTANCE_BOOT_TIMEOUT_MS, startInstance, type Instance } from '../support/cluster';
import { signUp, startTestApp, type TestApp } from '../support/test-app';

/**
 * The database goes away under a running instance (PostgreSQL restarting, a failover, a network cut):
 * clients get 503 + Retry-After with SERVICE_UNAVAILABLE, not 500/INTERNAL, and the instance serves
 * again by itself once the database is back. The app reaches PostgreSQL through a TCP proxy the test
 * can cut. PostgreSQL only: the embedded database lives inside the process and cannot go away alone.
 */
const PG = process.env.DATABASE_URL;

/** A TCP proxy to PostgreSQL that can drop every connection and refuse new ones, then heal. */
function cuttableProxy(target: URL) {
  const sockets = new Set<net.Socket>();
  let down = false;
  const server = net.createServer((client) => {
    if (down) return client.destroy();
    const upstream = net.connect(Number(target.port || 5432), target.hostname);
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
      s.on('error', () => undefined);
    }
    client.pipe(upstream).pipe(client);
  });
  return {
    listen: () => new Promise<number>((r) => server.listen(0, '127.0.0.1', () => r((server.address() as net.AddressInfo).port))),
    cut() {
      down = true;
      for (const s of sockets) s.destroy();
    },
    heal() {
      down = false;
    },
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

(PG ? describe : describe.skip)('a database outage', () => {
  let t: TestApp;
  let proxy: ReturnType<typeof cuttableProxy>;
  beforeAll(async () => {
    const target = new URL(PG!);
    proxy = cuttableProxy(target);
    const port = await proxy.listen();
    const via = new URL(PG!);
    via.hostname = '127.0.0.1';
    via.port = String(port);
    t = await startTestApp({ databaseUrl: via.toString(), sessionCacheSeconds: 0, creditsCacheSeconds: 0 });
  });
  afterAll(async () => {
    proxy.heal();
    await t?.close();
    await proxy.close();
  });

  it('answers 503 with Retry-After (REST) and SERVICE_UNAVAILABLE (GraphQL) while it lasts, then serves again', async () => {
    const p = await signUp(t);
    expect((await t.rest('GET', '/api/profile/', undefined, p.accessToken)).status).toBe(200);

    proxy.cut();
    const rest = await fetch(`${t.url}/api/worlds/fetch-world-cards`);
    expect(rest.status).toBe(503);
    expect(Number(rest.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await rest.json()).toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
    const gql = await fetch(`${t.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${p.accessToken}` },
      body: JSON.stringify({ query: '{ myCharacters { id } }' }),
    });
    const body = (await gql.json()) as { errors?: Array<{ message: string; extensions?: { code?: string } }> };
    expect(Number(gql.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(body.errors?.[0].extensions?.code).toBe('SERVICE_UNAVAILABLE');
    expect(body.errors?.[0].message).not.toMatch(/Internal server error/);
    const ready = await fetch(`${t.url}/readyz`);
    expect(ready.status).toBe(503);

    proxy.heal();
    let back = 0;
    for (let i = 0; i < 50 && back !== 200; i++) {
      back = (await t.rest('GET', '/api/profile/', undefined, p.accessToken)).status;
      if (back !== 200) await new Promise((r) => setTimeout(r, 200));
    }
    expect(back).toBe(200);
  });
});

(PG ? describe : describe.skip)('a database outage in the logs', () => {
  let proxy: ReturnType<typeof cuttableProxy>;
  let app: Instance;
  beforeAll(async () => {
    proxy = cuttableProxy(new URL(PG!));
    const via = new URL(PG!);
    via.hostname = '127.0.0.1';
    via.port = String(await proxy.listen());
    app = await startInstance('outage', { DATABASE_URL: via.toString(), LOG_LEVEL: 'info', SESSION_CACHE_SECONDS: '0', RESPONSE_CACHE_SECONDS: '0' });
  }, INSTANCE_BOOT_TIMEOUT_MS);
  afterAll(async () => {
    proxy?.heal();
    await app?.stop();
    await proxy?.close();
  });

  it('writes one error line per failed request: its access line, with the cause', async () => {
    expect((await fetch(`${app.url}/api/worlds/fetch-world-cards`)).status).toBe(200);
    const before = app.output().length;
    proxy.cut();
    const failed = [];
    for (let i = 0; i < 3; i++) {
      failed.push((await fetch(`${app.url}/api/worlds/fetch-world-cards?limit=${i + 1}`)).status);
      const gql = await fetch(`${app.url}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query: `{ featuredWorlds(limit: ${i + 1}) { id } }` }),
      });
      failed.push(((await gql.json()) as { errors?: Array<{ extensions?: { code?: string } }> }).errors?.[0]?.extensions?.code);
    }
    expect(failed).toEqual([503, 'SERVICE_UNAVAILABLE', 503, 'SERVICE_UNAVAILABLE', 503, 'SERVICE_UNAVAILABLE']);
    // Lines are written synchronously; give the process a moment to flush its pipe.
    await new Promise((r) => setTimeout(r, 200));
    const errors = app
      .output()
      .slice(before)
      .split('\n')
      .filter((l) => l.includes('"level":"error"'));
    expect(errors).toHaveLength(6);
    for (const line of errors) expect(JSON.parse(line)).toMatchObject({ msg: 'request', cause: expect.stringMatching(/^database unavailable: /) });
  });
});
