import crypto from 'node:crypto';
import Redis from 'ioredis';
import { newIdentity, SIGN_UP } from '../support/test-app';
import { INSTANCE_BOOT_TIMEOUT_MS, METRICS_TOKEN, startInstance, startProxy, type Instance, type Proxy } from '../support/cluster';
import { waitFor } from '../support/wait';
import { runAdmin } from '../support/admin-cli';
import { watchStatus, type Watch } from './billing-support';

/**
 * docker-compose.yml's topology without Docker: two real server processes on the machine's
 * PostgreSQL and Redis behind a round-robin proxy that passes WebSocket upgrades. A player's
 * requests alternate between the instances and their live-credits socket sits on one of them;
 * every flow must still be right.
 */
const databaseUrl = process.env.DATABASE_URL;
const redisUrl = process.env.REDIS_URL;
const enabled = Boolean(databaseUrl && redisUrl);
const title = enabled
  ? 'two server processes behind a proxy (PostgreSQL + Redis)'
  : 'two server processes behind a proxy — SKIPPED: set DATABASE_URL (PostgreSQL) and REDIS_URL to run it';
jest.setTimeout(90_000);

(enabled ? describe : describe.skip)(title, () => {
  let a: Instance;
  let b: Instance;
  let proxy: Proxy;
  const watches: Watch[] = [];
  beforeAll(async () => {
    // The same signing secret on every instance, as docker-compose.yml passes JWT_SECRET to both.
    const env = { DATABASE_URL: databaseUrl!, REDIS_URL: redisUrl!, JWT_SECRET: crypto.randomBytes(32).toString('hex'), RATE_LIMIT_PER_IP: '100000' };
    [a, b] = await Promise.all([startInstance('A', env), startInstance('B', env)]);
    proxy = await startProxy([a, b]);
  }, INSTANCE_BOOT_TIMEOUT_MS);
  afterAll(async () => {
    await Promise.all(watches.map((w) => w.dispose().catch(() => undefined)));
    await proxy?.close();
    const codes = await Promise.all([a?.stop(), b?.stop()]);
    // Both drain and stop cleanly on SIGTERM, as the orchestrator's stop would.
    expect(codes).toEqual([0, 0]);
  });

  const gql = async (query: string, variables: Record<string, unknown> = {}, token?: string) => {
    const res = await fetch(`${proxy.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify({ query, variables }),
    });
    return (await res.json()) as { data?: any; errors?: any[] };
  };

  it('sign-up, token refresh, featured worlds and live credits work with requests spread over both instances', async () => {
    expect((await fetch(`${a.url}/readyz`)).status).toBe(200);
    expect((await fetch(`${b.url}/readyz`)).status).toBe(200);

    const up = await gql(SIGN_UP, { input: newIdentity('scale') });
    expect(up.errors).toBeUndefined();
    const session = up.data.signUp;
    // The refresh lands on the other instance: sessions live in PostgreSQL, tokens verify anywhere.
    const refreshed = await gql('mutation($t: String!) { refreshSession(refreshToken: $t) { accessToken refreshToken } }', { t: session.refreshToken });
    expect(refreshed.errors).toBeUndefined();
    const token = refreshed.data.refreshSession.accessToken;
    for (let i = 0; i < 4; i++) expect((await gql('{ me { email } credits }', {}, token)).data).toEqual({ me: { email: session.user.email }, credits: 10 });

    const featured = await gql('{ featuredWorlds(limit: 5) { id name } }');
    expect(featured.data.featuredWorlds).toHaveLength(5);
    expect((await gql('{ featuredWorlds(limit: 5) { id name } }')).data).toEqual(featured.data); // the other instance agrees

    // The live-credits socket goes through the proxy too.
    const live = watchStatus({ url: proxy.url }, token);
    watches.push(live);
    await live.next((s) => s.credits === 10, 'the initial status');
    const wsOn = proxy.log.filter((l) => l.kind === 'ws').at(-1)!.target;

    // Generate characters until one request is served by the instance without the socket.
    let spentElsewhere = false;
    let expected = 10;
    for (let i = 0; i < 2 && !spentElsewhere; i++) {
      const before = proxy.log.length;
      const g = await gql(
        'mutation($input: GenerateCharacterInput!) { generateCharacter(input: $input) { username } }',
        {
          input: {
            worldDescription: 'A city of canals and clockwork, ruled by guilds.',
            questions: ['Who are you?'],
            answers: ['A smuggler'],
            username: 'Vell',
          },
        },
        token,
      );
      expect(g.errors).toBeUndefined();
      expected -= 3;
      const servedBy = proxy.log[before].target;
      spentElsewhere = servedBy !== wsOn;
      await live.next((s) => s.credits === expected, `credits ${expected} on the socket`, 3000);
    }
    expect(spentElsewhere).toBe(true);
    expect(new Set(proxy.log.filter((l) => l.kind === 'http').map((l) => l.target))).toEqual(new Set(['A', 'B']));

    // REST agrees with GraphQL wherever it lands.
    for (let i = 0; i < 2; i++) {
      const r = await fetch(`${proxy.url}/api/subscription/credits`, { headers: { authorization: `Bearer ${token}` } });
      expect(((await r.json()) as any).credits).toBe(expected);
    }
  });

  it('a spend or a sign-out on one instance is seen by the other at once, not after its cache lifetime', async () => {
    const direct = async (inst: Instance, query: string, token: string, variables: Record<string, unknown> = {}) =>
      (await (
        await fetch(`${inst.url}/graphql`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
          body: JSON.stringify({ query, variables }),
        })
      ).json()) as { data?: any; errors?: any[] };
    const up = await gql(SIGN_UP, { input: newIdentity('inval') });
    const token = up.data.signUp.accessToken;
    // B has checked the session and read the balance: both are now in its memory (SESSION/CREDITS_CACHE_SECONDS = 10).
    for (let i = 0; i < 2; i++) expect((await direct(b, '{ me { id } credits }', token)).data).toEqual({ me: { id: up.data.signUp.user.id }, credits: 10 });

    const spent = await direct(a, 'mutation($input: GenerateCharacterInput!) { generateCharacter(input: $input) { username } }', token, {
      input: { worldDescription: 'A city of canals and clockwork, ruled by guilds.', questions: ['Who are you?'], answers: ['A smuggler'], username: 'Vell' },
    });
    expect(spent.errors).toBeUndefined();
    await waitFor(async () => (await direct(b, '{ credits }', token)).data?.credits === 7, 'B to show the balance spent on A', 1500);

    expect((await direct(a, 'mutation { signOut }', token)).data).toEqual({ signOut: true });
    await waitFor(async () => (await direct(b, '{ me { id } }', token)).data?.me === null, 'B to refuse the token signed out on A', 1500);
    expect((await direct(b, '{ credits }', token)).errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
  });

  it('a world created through one instance empties the public cache of the other', async () => {
    const up = await gql(SIGN_UP, { input: newIdentity('cache') });
    const token = up.data.signUp.accessToken;
    const metric = async (inst: Instance, result: string) => {
      const text = await (await fetch(`${inst.url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).text();
      return Number(new RegExp(`taleforge_response_cache_total\\{result="${result}"\\} (\\d+)`).exec(text)?.[1] ?? 0);
    };
    const ask = () =>
      fetch(`${b.url}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query: '{ featuredWorlds(limit: 2) { id } }' }),
      });
    await ask();
    await ask();
    const hits = await metric(b, 'hit');
    expect(hits).toBeGreaterThan(0);
    const misses = await metric(b, 'miss');

    // Both instances listen for invalidations on their Redis channel.
    const redis = new Redis(redisUrl!);
    try {
      await waitFor(
        async () => {
          const [, n] = (await redis.pubsub('NUMSUB', 'taleforge:cache:invalidate')) as [string, number];
          return Number(n) >= 2;
        },
        'both instances to listen for cache invalidations',
        5000,
      );
    } finally {
      redis.disconnect();
    }
    const created = await fetch(`${a.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({
        query: 'mutation { submitWorld(input: { name: "Glasswater", description: "A lake that remembers.", questions: ["Why?"] }) { id } }',
      }),
    }).then((r) => r.json() as Promise<any>);
    expect(created.errors).toBeUndefined();
    // Delivered through Redis: B's next answer is computed again (a miss), not replayed.
    await waitFor(
      async () => {
        await ask();
        return (await metric(b, 'miss')) > misses;
      },
      'the invalidation on B',
      3000,
    );
  });

  it('Community across instances: shared on A shows on B (anonymous, cached), unshared or hidden by the operator CLI is gone from B at once; likes through both stay exact', async () => {
    const on = async (inst: Instance, query: string, token?: string) =>
      (await (
        await fetch(`${inst.url}/graphql`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
          body: JSON.stringify({ query }),
        })
      ).json()) as { data?: any; errors?: any[] };
    const signUpOn = async () => (await gql(SIGN_UP, { input: newIdentity('community') })).data.signUp as { accessToken: string; user: { id: string } };
    const owner = await signUpOn();
    const word = `Zq${crypto.randomBytes(4).toString('hex')}`;
    const created = await on(
      a,
      `mutation { submitWorld(input: { name: "Tidewell ${word}", description: "A drowned city that keeps its bells ringing.", questions: ["Why?"] }) { id } }`,
      owner.accessToken,
    );
    const id = created.data.submitWorld.id as string;
    const listedOnB = async () => {
      const r = await on(b, `{ communityWorlds(search: "${word}") { total worlds { id likeCount } } }`);
      const rest = (await (await fetch(`${b.url}/api/worlds/community?search=${word}`)).json()) as { total: number };
      return { gql: r.data.communityWorlds.total as number, rest: rest.total };
    };
    expect(await listedOnB()).toEqual({ gql: 0, rest: 0 });
    expect((await on(a, `mutation { setWorldShared(id: "${id}", shared: true) { id } }`, owner.accessToken)).errors).toBeUndefined();
    await waitFor(async () => (await listedOnB()).gql === 1 && (await listedOnB()).rest === 1, 'B to list the world shared on A', 1500);

    // Eight fans like it at once through both instances: exactly eight likes.
    const fans = await Promise.all(Array.from({ length: 8 }, () => signUpOn()));
    await Promise.all(fans.map((f, i) => on(i % 2 ? a : b, `mutation { setWorldLiked(id: "${id}", liked: true) { likeCount } }`, f.accessToken)));
    expect((await on(b, `{ world(id: "${id}") { likeCount } }`)).data.world.likeCount).toBe(8);

    // The operator hides it from a third process: B drops its cached lists at once.
    const admin = (...args: string[]) => runAdmin(args, { DATABASE_URL: databaseUrl!, REDIS_URL: redisUrl! });
    const hidden = await admin('hide', 'world', id, 'reported', 'by', 'mail');
    expect(hidden).toMatchObject({ code: 0 });
    expect(hidden.stdout).toContain(`Hidden: world ${id}.`);
    await waitFor(async () => (await listedOnB()).gql === 0 && (await listedOnB()).rest === 0, 'B to drop the world hidden by the CLI', 1500);
    expect((await admin('restore', 'world', id)).code).toBe(0);
    await waitFor(async () => (await listedOnB()).gql === 1, 'B to list the restored world', 1500);
    expect((await admin('audit', '5')).stdout).toMatch(new RegExp(`restore  world ${id}[\\s\\S]*hide  world ${id}  \\{"reason":"reported by mail"\\}`));

    expect((await on(a, `mutation { setWorldShared(id: "${id}", shared: false) { id } }`, owner.accessToken)).errors).toBeUndefined();
    await waitFor(async () => (await listedOnB()).gql === 0 && (await listedOnB()).rest === 0, 'B to drop the world unshared on A', 1500);
  });
});
