/**
 * Running the app: probes and metrics, security headers and CORS, the GraphQL depth, alias and cost
 * limits (HTTP and WebSocket), persisted queries, the public response cache, rate limits, /metrics in
 * production, client mistakes answered as coded 400s, and the WebSocket Origin check.
 */
import fs from 'node:fs';
import http from 'node:http';
import zlib from 'node:zlib';
import path from 'node:path';
import { createHash } from 'node:crypto';
import { getIntrospectionQuery } from 'graphql';
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { loadConfig } from '../../server/src/config/env';
import { newIdentity, SIGN_UP, signUp, startTestApp, type TestApp } from '../support/test-app';

/**
 * Production hardening on one instance: probes, metrics, headers, CORS, GraphQL limits on both
 * transports, persisted queries, rate limits and the public response cache.
 */
jest.setTimeout(60_000);

const ALLOWED_ORIGIN = 'https://partner.example';
const base = loadConfig({ NODE_ENV: 'test' }).ops;

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ ops: { ...base, corsOrigins: [ALLOWED_ORIGIN], rateLimit: { perIp: 0, perUser: 0, windowSeconds: 60 } } });
});
afterAll(() => t?.close());

async function post(body: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(`${t.url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  return { status: res.status, headers: res.headers, json: (await res.json()) as any };
}
const codes = (json: any): string[] => (json.errors ?? []).map((e: any) => e.extensions?.code);
const messages = (json: any): string => (json.errors ?? []).map((e: any) => e.message).join(' | ');

describe('probes and metrics', () => {
  it('/healthz is alive and /readyz checks the database and migrations', async () => {
    const h = await t.rest('GET', '/healthz');
    expect(h.status).toBe(200);
    expect(h.body.status).toBe('ok');
    const r = await t.rest('GET', '/readyz');
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ status: 'ready', checks: { database: 'ok', migrations: 'ok' } });
  });

  it('/metrics has request latency by GraphQL operation and REST route, generation times, tokens and credits', async () => {
    const p = await signUp(t);
    await t.gql('query OpsProbe_featured { featuredWorlds(limit: 1) { id } }');
    await t.rest('GET', '/api/worlds/fetch-world-cards');
    const d = await t.gql('mutation { generateWorldDescription(worldDescription: "a drowned city of bells") }', {}, p.accessToken);
    expect(d.errors).toBeUndefined();
    await t.app.services.credits.spend(p.user.id, 3, 'character_generate');
    // A spend rolled back with its transaction must not count.
    await t.app.db.dataSource
      .transaction(async (m) => {
        await t.app.services.credits.spendIn(m, p.user.id, 2, 'world_create');
        throw new Error('roll back');
      })
      .catch(() => undefined);

    const res = await fetch(`${t.url}/metrics`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/plain');
    const text = await res.text();
    expect(text).toMatch(/taleforge_request_duration_seconds_bucket\{[^}]*surface="graphql",operation="OpsProbe_featured",status="200"/);
    expect(text).toMatch(/taleforge_request_duration_seconds_count\{surface="rest",operation="\/api\/worlds\/fetch-world-cards",status="200"\} 1/);
    expect(text).toMatch(/taleforge_generation_duration_seconds_count\{kind="world_description",outcome="ok"\} 1/);
    expect(text).toMatch(/taleforge_ai_tokens_total\{provider="offline",kind="completion"\} \d+/);
    expect(text).toContain('taleforge_credits_spent_total{reason="character_generate"} 3');
    expect(text).not.toContain('taleforge_credits_spent_total{reason="world_create"}');
  });

  it('every response carries a request id, and an incoming one is kept', async () => {
    const a = await fetch(`${t.url}/healthz`);
    expect(a.headers.get('x-request-id')).toMatch(/^[0-9a-f]{8}-[0-9a-z]+$/);
    const b = await fetch(`${t.url}/healthz`, { headers: { 'x-request-id': 'edge-1234567890' } });
    expect(b.headers.get('x-request-id')).toBe('edge-1234567890');
  });

  it('keeps an idle connection open longer than the proxy in front does (nginx: 60 s), on the full path and on a cached read', async () => {
    // Node's default (5 s) let a request sent on a connection the server was closing fail with a reset.
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const keepAlive = (p: string) =>
      new Promise<string | undefined>((resolve, reject) => {
        http
          .get(`${t.url}${p}`, { agent }, (res) => {
            res.resume();
            res.on('end', () => resolve(String(res.headers['keep-alive'])));
          })
          .on('error', reject);
      });
    try {
      for (const p of ['/healthz', '/api/worlds/fetch-world-cards?limit=2', '/api/worlds/fetch-world-cards?limit=2'])
        expect(await keepAlive(p)).toBe('timeout=65');
    } finally {
      agent.destroy();
    }
  });
});

describe('headers', () => {
  it('a Content-Security-Policy without inline script on every page, relaxed only for GraphiQL styles', async () => {
    const page = await fetch(`${t.url}/worlds`);
    const csp = page.headers.get('content-security-policy')!;
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain('unsafe-inline');
    expect(csp).toContain("frame-ancestors 'none'");
    // Read-aloud plays a chapter's audio from a blob: URL (fetched with the session).
    expect(csp).toContain("media-src 'self' blob:");
    expect(page.headers.get('x-content-type-options')).toBe('nosniff');
    const gi = await fetch(`${t.url}/graphiql`);
    const giCsp = gi.headers.get('content-security-policy')!;
    expect(giCsp).toContain("style-src-attr 'unsafe-inline'");
    expect(giCsp).toMatch(/script-src 'self'(;|$)/);
  });

  it('a JSON POST to /graphql (answered by Apollo from the front, without express) gets the same headers as the express path', async () => {
    const origin = new URL(t.app.config.publicUrl).origin;
    const query = '{ tiers { id } }';
    const lane = await fetch(`${t.url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json', origin }, body: JSON.stringify({ query }) });
    const viaExpress = await fetch(`${t.url}/graphql?query=${encodeURIComponent(query)}`, { headers: { origin, 'apollo-require-preflight': '1' } });
    expect(lane.status).toBe(200);
    expect(viaExpress.status).toBe(200);
    expect(await lane.json()).toEqual(await viaExpress.json());
    const pick = (h: Headers) =>
      Object.fromEntries(
        [
          'content-security-policy',
          'x-content-type-options',
          'x-frame-options',
          'cross-origin-resource-policy',
          'referrer-policy',
          'access-control-allow-origin',
          'access-control-expose-headers',
          'content-type',
        ].map((n) => [n, h.get(n)]),
      );
    expect(pick(lane.headers)).toEqual(pick(viaExpress.headers));
    expect(lane.headers.get('access-control-allow-origin')).toBe(origin);
    expect(lane.headers.get('content-security-policy')).toContain("script-src 'self'");
    // CSRF prevention is Apollo's and stays on in the lane: a simple (form-like) POST is refused.
    const simple = await fetch(`${t.url}/graphql`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: JSON.stringify({ query }) });
    expect(simple.status).toBe(400);
  });

  it('the built pages load every script from a same-origin file (the CSP holds)', () => {
    const dist = t.app.config.clientDistDir;
    for (const file of ['index.html', 'graphiql.html']) {
      const full = path.join(dist, file);
      if (!fs.existsSync(full)) continue; // built by npm test's ensureBuilt; absent only in partial runs
      const html = fs.readFileSync(full, 'utf8');
      const scripts = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)];
      expect(scripts.length).toBeGreaterThan(0);
      for (const [, attrs, body] of scripts) {
        expect(body.trim()).toBe('');
        expect(attrs).toMatch(/src="\/[^/]/);
      }
      expect(html).not.toMatch(/\son[a-z]+=/i); // no inline event handlers either
    }
  });

  it('CORS answers allow-listed origins only', async () => {
    const pre = await fetch(`${t.url}/graphql`, {
      method: 'OPTIONS',
      headers: { origin: ALLOWED_ORIGIN, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type,authorization' },
    });
    expect(pre.status).toBe(204);
    expect(pre.headers.get('access-control-allow-origin')).toBe(ALLOWED_ORIGIN);
    expect(pre.headers.get('access-control-allow-headers')).toContain('authorization');
    const foreign = await post({ query: '{ tiers { id } }' }, { origin: 'https://evil.example' });
    expect(foreign.headers.get('access-control-allow-origin')).toBeNull();
    const own = await post({ query: '{ tiers { id } }' }, { origin: new URL(t.app.config.publicUrl).origin });
    expect(own.headers.get('access-control-allow-origin')).toBe(new URL(t.app.config.publicUrl).origin);
  });
});

describe('GraphQL limits', () => {
  const nested = (levels: number) => `{ ${'a { '.repeat(levels - 1)}b${' }'.repeat(levels - 1)} }`;

  it('refuses documents deeper than 8 levels, with more than 15 aliases, or costing more than 5,000', async () => {
    const deep = await post({ query: nested(9) });
    expect(deep.status).toBe(400);
    expect(messages(deep.json)).toContain('nested 9 levels deep; the maximum is 8');
    expect(codes(deep.json)).toContain('GRAPHQL_VALIDATION_FAILED');

    const aliases = Array.from({ length: 16 }, (_, i) => `a${i}: tiers { id }`).join(' ');
    const al = await post({ query: `{ ${aliases} }` });
    expect(al.status).toBe(400);
    expect(messages(al.json)).toContain('uses 16 aliases; the maximum is 15');
    const fifteen = Array.from({ length: 15 }, (_, i) => `a${i}: tiers { id }`).join(' ');
    expect((await post({ query: `{ ${fifteen} }` })).json.errors).toBeUndefined();

    // Fragment amplification: 5⁴ copies of eight fields in a tiny document.
    const bomb = `
      fragment W on World { id name description questions imageUrl isOwn author genre }
      fragment W2 on World { ...W ...W ...W ...W ...W }
      fragment W3 on World { ...W2 ...W2 ...W2 ...W2 ...W2 }
      fragment W4 on World { ...W3 ...W3 ...W3 ...W3 ...W3 }
      query Bomb { featuredWorlds(limit: 1) { ...W4 ...W4 ...W4 ...W4 ...W4 } }`;
    const cost = await post({ query: bomb });
    expect(cost.status).toBe(400);
    expect(messages(cost.json)).toMatch(/Operation "Bomb" costs \d+; the maximum is 5000/);
  });

  it('introspection stays on, and its cost counts', async () => {
    const intro = getIntrospectionQuery({
      descriptions: true,
      specifiedByUrl: true,
      directiveIsRepeatable: true,
      schemaDescription: true,
      inputValueDeprecation: true,
    });
    const ok = await post({ query: intro });
    expect(ok.status).toBe(200);
    expect(ok.json.data.__schema.queryType.name).toBe('Query');
    // Several copies of the schema in one request are too expensive.
    const fragments = intro.slice(intro.indexOf('fragment FullType'));
    const copies = (n: number) =>
      `query Copies { ${Array.from({ length: n }, (_, i) => `s${i}: __schema { types { ...FullType } directives { name locations args { ...InputValue } } }`).join(' ')} }\n${fragments}`;
    expect((await post({ query: copies(1) })).status).toBe(200);
    const many = await post({ query: copies(5) });
    expect(many.status).toBe(400);
    expect(messages(many.json)).toMatch(/costs \d+; the maximum is 5000/);
    // Recursion through the type graph deeper than the standard query is refused too.
    const recursive = `{ __schema { types { ${'fields { type { '.repeat(8)}name${' } }'.repeat(8)} } } }`;
    const rec = await post({ query: recursive });
    expect(rec.status).toBe(400);
    expect(messages(rec.json)).toMatch(/Introspection .* nested \d+ levels deep/);
  });

  it('refuses batched requests and oversized documents', async () => {
    const batch = await post([{ query: '{ tiers { id } }' }, { query: '{ tiers { id } }' }]);
    expect(batch.status).toBe(400);
    const huge = await post({ query: `{ ${Array.from({ length: 2100 }, () => '__typename').join(' ')} }` });
    expect(huge.status).toBe(400);
    expect(messages(huge.json)).toContain('tokens');
  });

  it('masks internal errors and keeps coded ones (unchanged by the limits)', async () => {
    const r = await post({ query: '{ myWorlds { id } }' });
    expect(codes(r.json)).toEqual(['UNAUTHENTICATED']);
  });

  it('WebSocket subscriptions get the same limits, the same auth, and an Origin check', async () => {
    const url = `${t.url.replace(/^http/, 'ws')}/graphql`;
    const subscribeOnce = (query: string, opts: { token?: string; origin?: string } = {}) =>
      new Promise<{ errors?: any; closed?: number }>((resolve) => {
        const client = createClient({
          url,
          webSocketImpl: class extends WebSocket {
            constructor(address: string, protocols?: string | string[]) {
              super(address, protocols, opts.origin ? { headers: { origin: opts.origin } } : {});
            }
          },
          connectionParams: opts.token ? { authorization: `Bearer ${opts.token}` } : {},
          retryAttempts: 0,
          on: { closed: (e) => resolve({ closed: (e as { code: number }).code }) },
        });
        const done = (v: { errors?: any }) => {
          resolve(v);
          void client.dispose();
        };
        client.subscribe(
          { query },
          { next: (v) => done({ errors: v.errors }), error: (e) => done({ errors: Array.isArray(e) ? e : [e] }), complete: () => undefined },
        );
      });

    const deep = await subscribeOnce(`subscription ${nested(9)}`);
    expect(JSON.stringify(deep.errors)).toContain('levels deep');

    const anon = await subscribeOnce('subscription { subscriptionChanged { credits } }');
    expect(JSON.stringify(anon.errors)).toContain('UNAUTHENTICATED');

    const p = await signUp(t);
    const foreign = await subscribeOnce('subscription { subscriptionChanged { credits } }', { token: p.accessToken, origin: 'https://evil.example' });
    expect(foreign.errors ?? foreign.closed).toBeDefined();
    expect(foreign.errors).toBeUndefined(); // refused at the upgrade: no operation ever ran

    const allowed = await subscribeOnce('subscription { subscriptionChanged { credits } }', { token: p.accessToken, origin: ALLOWED_ORIGIN });
    expect(allowed.errors).toBeUndefined();
  });
});

describe('automatic persisted queries', () => {
  it('a hash alone is unknown until the query was sent once with it', async () => {
    const query = `query Apq_${Date.now()} { tiers { id name } }`;
    const sha256Hash = createHash('sha256').update(query).digest('hex');
    const ext = { persistedQuery: { version: 1, sha256Hash } };
    const miss = await post({ extensions: ext });
    expect(codes(miss.json)).toEqual(['PERSISTED_QUERY_NOT_FOUND']);
    const register = await post({ query, extensions: ext });
    expect(register.json.data.tiers.length).toBeGreaterThan(0);
    const hit = await post({ extensions: ext });
    expect(hit.json).toEqual(register.json);
  });
});

describe('the public response cache', () => {
  const FEATURED = { query: 'query Cache_featured { featuredWorlds(limit: 3) { id name isOwn } }' };

  it('answers anonymous featured worlds from the cache, byte for byte, and forgets them when a world changes', async () => {
    const first = await post(FEATURED);
    const second = await post(FEATURED);
    expect(second.json).toEqual(first.json);
    expect(second.headers.get('content-security-policy')).toBe(first.headers.get('content-security-policy'));
    expect(second.headers.get('x-request-id')).not.toBe(first.headers.get('x-request-id'));
    let metrics = await (await fetch(`${t.url}/metrics`)).text();
    expect(metrics).toMatch(/taleforge_response_cache_total\{result="hit"\} [1-9]/);

    // Signed-in callers are never served from it (isOwn is theirs).
    const p = await signUp(t);
    const mine = await t.gql(FEATURED.query, {}, p.accessToken);
    expect(mine.data!.featuredWorlds.length).toBe(3);

    // A world write (here: creating one) empties it on this instance.
    const missesBefore = Number(/taleforge_response_cache_total\{result="miss"\} (\d+)/.exec(metrics)![1]);
    const w = await t.rest(
      'POST',
      '/api/worlds/submit-world',
      { worldName: 'Cachebreak', worldDescription: 'A harbour of glass ships.', questions: ['Who are you?'] },
      p.accessToken,
    );
    expect(w.status).toBe(201);
    await post(FEATURED);
    metrics = await (await fetch(`${t.url}/metrics`)).text();
    expect(Number(/taleforge_response_cache_total\{result="miss"\} (\d+)/.exec(metrics)![1])).toBe(missesBefore + 1);
  });

  it("caches Featured's search as the page sends it, one answer per search text", async () => {
    const hits = async () => Number(/taleforge_response_cache_total\{result="hit"\} (\d+)/.exec(await (await fetch(`${t.url}/metrics`)).text())?.[1] ?? 0);
    // The client's own operation (client/src/features/worlds/WorldsPage.graphql), as the browser posts it.
    const search = (text: string) => ({
      operationName: 'WorldsPage_featuredSearch',
      query: 'query WorldsPage_featuredSearch($search: String!, $limit: Int! = 50) { featuredWorlds(limit: $limit, search: $search) { id name } }',
      variables: { search: text },
    });
    const names = (r: { json: any }) => r.json.data.featuredWorlds.map((w: { name: string }) => w.name);
    const aether = await post(search('aethermoor'));
    expect(names(aether)).toEqual(['Aethermoor']);
    const before = await hits();
    expect(names(await post(search('aethermoor')))).toEqual(['Aethermoor']);
    expect(await hits()).toBe(before + 1);
    // Another search is another entry, never the cached answer of the first.
    const other = await post(search('zzz-no-such-world'));
    expect(names(other)).toEqual([]);
  });

  it("a cached answer carries every header the computed one did, with the caller's own request id", async () => {
    // A replay may be gzipped (fetch takes gzip; the text compared is the decoded body): its encoding,
    // length and Vary (extended with Accept-Encoding, checked below) differ by design.
    const PER_REPLAY = new Set(['date', 'x-request-id', 'vary', 'content-encoding', 'content-length']);
    const headersOf = (res: Response) => Object.fromEntries([...res.headers].filter(([k]) => !PER_REPLAY.has(k)));
    for (const [path, init] of [
      [
        '/graphql',
        {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ query: 'query Cache_heads { featuredWorlds(limit: 2) { id } }' }),
        },
      ],
      ['/api/worlds/fetch-world-cards?limit=3', {}],
    ] as const) {
      const computed = await fetch(`${t.url}${path}`, init);
      const replayed = await fetch(`${t.url}${path}`, { ...init, headers: { ...('headers' in init ? init.headers : {}), 'x-request-id': 'edge-cached-0001' } });
      expect(await replayed.text()).toBe(await computed.text());
      expect(headersOf(replayed)).toEqual(headersOf(computed));
      expect(replayed.headers.get('content-security-policy')).toBeTruthy();
      expect(replayed.headers.get('x-content-type-options')).toBe('nosniff');
      expect(replayed.headers.get('x-request-id')).toBe('edge-cached-0001');
      expect(replayed.headers.get('vary')).toBe(`${computed.headers.get('vary')}, Accept-Encoding`);
      // Later replays write the stored head as text once the first matched Node's (ops/replay-head.ts).
      const later = await fetch(`${t.url}${path}`, { ...init, headers: { ...('headers' in init ? init.headers : {}), 'x-request-id': 'edge-cached-0002' } });
      expect(await later.text()).toBe(await (await fetch(`${t.url}${path}`, init)).text());
      expect(headersOf(later)).toEqual(headersOf(computed));
      expect(later.headers.get('x-request-id')).toBe('edge-cached-0002');
      expect(later.headers.get('vary')).toBe(replayed.headers.get('vary'));
      expect(later.headers.get('content-length')).toBe(replayed.headers.get('content-length'));
    }
  });

  it('replays a cached answer gzipped to callers that take gzip, and as it is to the others', async () => {
    const body = JSON.stringify({ query: 'query Cache_gzip { featuredWorlds(limit: 12) { id name description } }' });
    const send = (headers: Record<string, string>) =>
      new Promise<{ headers: http.IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
        const req = http.request(`${t.url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers } }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => resolve({ headers: res.headers, body: Buffer.concat(chunks) }));
        });
        req.on('error', reject);
        req.end(body);
      });
    const computed = await send({}); // a miss: stored
    const plain = await send({});
    const gzipped = await send({ 'accept-encoding': 'br, gzip;q=0.8' });
    const refused = await send({ 'accept-encoding': 'gzip;q=0' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.equals(computed.body)).toBe(true);
    expect(gzipped.headers['content-encoding']).toBe('gzip');
    expect(gzipped.headers.vary).toMatch(/Accept-Encoding/i);
    expect(Number(gzipped.headers['content-length'])).toBe(gzipped.body.length);
    expect(gzipped.body.length).toBeLessThan(plain.body.length / 2);
    expect(zlib.gunzipSync(gzipped.body).equals(plain.body)).toBe(true);
    expect(refused.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(plain.body.toString()).data.featuredWorlds).toHaveLength(12);
  });

  it('answers the public REST reads (featured cards, community page) from the cache too, per query string, and forgets them when a world changes', async () => {
    const hits = async () => Number(/taleforge_response_cache_total\{result="hit"\} (\d+)/.exec(await (await fetch(`${t.url}/metrics`)).text())?.[1] ?? 0);
    const get = async (path: string, token?: string) => {
      const res = await fetch(`${t.url}${path}`, { headers: token ? { authorization: `Bearer ${token}` } : {} });
      return { status: res.status, text: await res.text(), id: res.headers.get('x-request-id') };
    };
    for (const path of ['/api/worlds/fetch-world-cards?limit=4', '/api/worlds/community?limit=5&sort=new']) {
      const first = await get(path);
      expect(first.status).toBe(200);
      const before = await hits();
      const second = await get(path);
      expect(second.text).toBe(first.text);
      expect(second.id).not.toBe(first.id);
      expect(await hits()).toBe(before + 1);
    }
    // Another query string is another page: never answered with the first one's bytes.
    const two = JSON.parse((await get('/api/worlds/fetch-world-cards?limit=2')).text) as unknown[];
    expect(two).toHaveLength(2);
    // Refusals are never stored: the edge rule answers each time.
    for (let i = 0; i < 2; i++) expect((await get('/api/worlds/community?search=%00')).status).toBe(400);
    // A hit is metered under its route, not as an unmatched path.
    expect(await (await fetch(`${t.url}/metrics`)).text()).toMatch(/surface="rest",operation="\/api\/worlds\/fetch-world-cards"/);

    // A world shared by a player is on the next community page at once.
    const p = await signUp(t);
    const hitsBefore = await hits();
    const w = await t.rest(
      'POST',
      '/api/worlds/submit-world',
      { worldName: 'Cachebreak REST', worldDescription: 'A harbour of glass ships.', questions: ['Who are you?'] },
      p.accessToken,
    );
    expect(w.status).toBe(201);
    const shared = await t.gql('mutation($id: ID!) { setWorldShared(id: $id, shared: true) { id } }', { id: w.body.world.id }, p.accessToken);
    expect(shared.errors).toBeUndefined();
    const page = JSON.parse((await get('/api/worlds/community?limit=5&sort=new')).text) as { worlds: Array<{ name: string }> };
    expect(await hits()).toBe(hitsBefore);
    expect(page.worlds.map((x) => x.name)).toContain('Cachebreak REST');
  });

  it('never caches errors, mutations or private fields', async () => {
    const bad = await post({ query: '{ featuredWorlds(limit: 1000) { id } }' });
    expect(codes(bad.json)).toEqual(['BAD_USER_INPUT']);
    const again = await post({ query: '{ featuredWorlds(limit: 1000) { id } }' });
    expect(codes(again.json)).toEqual(['BAD_USER_INPUT']);
    const mixed = await post({ query: '{ featuredWorlds(limit: 1) { id } myWorlds { id } }' });
    expect(codes(mixed.json)).toEqual(['UNAUTHENTICATED']);
    const malformed = await fetch(`${t.url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"query": ' });
    expect(malformed.status).toBe(400);
    expect(((await malformed.json()) as any).errors[0].extensions.code).toBe('BAD_USER_INPUT');
  });
});

describe('rate limits', () => {
  let limited: TestApp;
  beforeAll(async () => {
    limited = await startTestApp({ ops: { ...base, rateLimit: { perIp: 8, perUser: 3, windowSeconds: 60 } } });
  });
  afterAll(() => limited?.close());

  it('per player and per IP, on GraphQL and REST, with Retry-After (in Redis when REDIS_URL is set)', async () => {
    // A client address of its own (X-Forwarded-For from a trusted loopback hop): windows in a shared
    // Redis are not disturbed by other test files, nor they by this one.
    const ip = `10.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}.${(process.pid % 250) + 1}`;
    const call = async (method: string, path: string, body?: unknown, token?: string) => {
      const res = await fetch(`${limited.url}${path}`, {
        method,
        headers: { 'x-forwarded-for': ip, ...(body ? { 'content-type': 'application/json' } : {}), ...(token ? { authorization: `Bearer ${token}` } : {}) },
        body: body ? JSON.stringify(body) : undefined,
      });
      return { status: res.status, headers: res.headers, body: (await res.json()) as any };
    };
    const up = await call('POST', '/graphql', { query: SIGN_UP, variables: { input: newIdentity('limits') } }); // 1 (per IP)
    const token = up.body.data.signUp.accessToken;
    for (let i = 0; i < 3; i++) expect((await call('POST', '/graphql', { query: '{ me { id } credits }' }, token)).status).toBe(200); // 2–4
    const overUser = await call('POST', '/graphql', { query: '{ me { id } }' }, token); // 5: the player's 4th
    expect(overUser.status).toBe(429);
    expect(overUser.body.errors[0].extensions).toMatchObject({ code: 'RATE_LIMITED' });
    for (let i = 0; i < 3; i++) expect((await call('GET', '/api/worlds/fetch-world-cards')).status).toBe(200); // 6–8
    const overIp = await call('GET', '/api/worlds/fetch-world-cards'); // 9
    expect(overIp.status).toBe(429);
    expect(overIp.body.code).toBe('RATE_LIMITED');
    expect(Number(overIp.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(limited.app.services.limiter.mode).toBe(process.env.REDIS_URL ? 'redis' : 'memory');
    // Probes are never limited.
    expect((await call('GET', '/healthz')).status).toBe(200);
  });
});

describe('/metrics is not public in production', () => {
  const VARIANTS = ['/metrics', '/METRICS', '/Metrics', '/metrics/'];

  it('production without METRICS_TOKEN: every spelling of /metrics answers 404', async () => {
    const prod = await startTestApp({ nodeEnv: 'production', localCheckoutDemo: true, ops: { ...base, metricsToken: undefined } });
    try {
      for (const path of VARIANTS) {
        const r = await fetch(`${prod.url}${path}`);
        expect([path, r.status]).toEqual([path, 404]);
        expect(await r.text()).not.toContain('taleforge_');
      }
    } finally {
      await prod.close();
    }
  });

  it('with METRICS_TOKEN: every spelling needs the bearer token', async () => {
    const guarded = await startTestApp({ nodeEnv: 'production', localCheckoutDemo: true, ops: { ...base, metricsToken: 'scrape-secret-0123456789' } });
    try {
      for (const path of VARIANTS) {
        expect([path, (await fetch(`${guarded.url}${path}`)).status]).toEqual([path, 401]);
        const wrong = await fetch(`${guarded.url}${path}`, { headers: { authorization: 'Bearer scrape-secret-012345678' } });
        expect([path, wrong.status]).toEqual([path, 401]);
        const ok = await fetch(`${guarded.url}${path}`, { headers: { authorization: 'Bearer scrape-secret-0123456789' } });
        expect([path, ok.status]).toEqual([path, 200]);
        expect(await ok.text()).toContain('taleforge_');
      }
    } finally {
      await guarded.close();
    }
  });
});

describe('client mistakes are 400s with a code, never 500s with a stack', () => {
  it('malformed percent-encoding in a path', async () => {
    const logged = jest.spyOn(t.app.logger, 'error');
    try {
      const p = await signUp(t);
      const api = await fetch(`${t.url}/api/stories/storyline/%E0%A4%A`, { headers: { authorization: `Bearer ${p.accessToken}` } });
      expect(api.status).toBe(400);
      expect(await api.json()).toMatchObject({ code: 'BAD_USER_INPUT' });
      const checkout = await fetch(`${t.url}/checkout/local/%E0%A4%A/confirm`, {
        method: 'POST',
        headers: { origin: new URL(t.app.config.publicUrl).origin },
        redirect: 'manual',
      });
      expect(checkout.status).toBe(400);
      const page = await fetch(`${t.url}/checkout/local/%E0%A4%A`);
      expect(page.status).toBe(400);
      expect(logged).not.toHaveBeenCalled();
    } finally {
      logged.mockRestore();
    }
  });

  it('a persisted query whose hash does not match its text', async () => {
    const logged = jest.spyOn(t.app.logger, 'error');
    try {
      const query = `query ApqMismatch_${Date.now()} { tiers { id } }`;
      const r = await post({ query, extensions: { persistedQuery: { version: 1, sha256Hash: 'a'.repeat(64) } } });
      expect(r.status).toBe(400);
      expect(codes(r.json)).toEqual(['BAD_USER_INPUT']);
      expect(messages(r.json)).not.toMatch(/Internal server error/);
      expect(logged).not.toHaveBeenCalled();
    } finally {
      logged.mockRestore();
    }
  });
});

describe('WebSocket Origin and DNS rebinding', () => {
  it('refuses an upgrade whose Origin is a foreign name equal to its Host header', async () => {
    const port = new URL(t.url).port;
    const status = await new Promise<number>((resolve, reject) => {
      const ws = new WebSocket(`${t.url.replace(/^http/, 'ws')}/graphql`, 'graphql-transport-ws', {
        headers: { host: `rebind.evil.example:${port}`, origin: `http://rebind.evil.example:${port}` },
      });
      ws.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
      ws.on('open', () => {
        ws.close();
        resolve(101);
      });
      ws.on('error', reject);
    });
    expect(status).toBe(403);
  });
});

describe('list sizes count in the cost limit', () => {
  it("refuses the probe's 1.3 KB query for a 39 MB answer before running it", async () => {
    const p = await signUp(t);
    const aliases = Array.from({ length: 15 }, (_, i) => `a${i}: myCharacters { storyline(limit: 200) { chapters { text choices index } } }`).join('\n');
    const query = `query Amplify {\n${aliases}\n}`;
    expect(query.length).toBeLessThan(1500);
    const r = await post({ query }, { authorization: `Bearer ${p.accessToken}` });
    expect(r.status).toBe(400);
    expect(codes(r.json)).toContain('GRAPHQL_VALIDATION_FAILED');
    expect(messages(r.json)).toMatch(/Operation "Amplify" costs \d+; the maximum is 5000/);
    // One copy alone is over budget too: 50 characters × 200 chapters.
    const one = await post({ query: '{ myCharacters { storyline(limit: 200) { chapters { text } } } }' }, { authorization: `Bearer ${p.accessToken}` });
    expect(messages(one.json)).toMatch(/costs \d+; the maximum is 5000/);
    // A page of one story, as the story screen asks, passes.
    const page = await post({ query: '{ myCharacters { id name storyline(limit: 20) { totalChapters } } }' }, { authorization: `Bearer ${p.accessToken}` });
    expect(page.json.errors).toBeUndefined();
  });
});
