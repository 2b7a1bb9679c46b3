import Redis from 'ioredis';
import { signUp, startTestApp, type TestApp } from '../support/test-app';
import { waitFor } from '../support/wait';
import { confirmLocalCheckout, watchStatus, type Watch } from './billing-support';
import { STATUS_TOPIC } from '../../server/src/modules/billing/billing.service';

/**
 * Two server instances on one PostgreSQL and one Redis, as behind a load balancer: a change made on one
 * reaches a browser whose WebSocket is connected to the other. Needs both services; CI runs the api
 * suite a second time with DATABASE_URL and REDIS_URL set.
 */
const databaseUrl = process.env.DATABASE_URL;
const redisUrl = process.env.REDIS_URL;
const enabled = Boolean(databaseUrl && redisUrl);
const title = enabled
  ? 'live credits across two instances (PostgreSQL + Redis)'
  : 'live credits across two instances — SKIPPED: set DATABASE_URL (PostgreSQL) and REDIS_URL to run it';

// Straight to stderr: jest's reporter neither lists skipped tests by name nor shows a skipped file's console.
if (!enabled) process.stderr.write(`\n[tests/api/subscription-redis.test.ts] ${title}\n`);

(enabled ? describe : describe.skip)(title, () => {
  let a: TestApp;
  let b: TestApp;
  let redis: Redis;
  const watches: Watch[] = [];
  beforeAll(async () => {
    [a, b] = await Promise.all([
      startTestApp({ databaseUrl, redisUrl, billingSweepSeconds: 0 }),
      startTestApp({ databaseUrl, redisUrl, billingSweepSeconds: 0 }),
    ]);
    await Promise.all([a.app.services.realtime.ready(), b.app.services.realtime.ready()]);
    redis = new Redis(redisUrl!);
  });
  afterAll(async () => {
    await Promise.all(watches.map((w) => w.dispose().catch(() => undefined)));
    await Promise.all([a?.close(), b?.close()]);
    redis?.disconnect();
  });

  /** Waits until the instance holding the socket has subscribed to the player's Redis channel. */
  const subscribedInRedis = (userId: string) =>
    waitFor(async () => {
      const [, n] = (await redis.pubsub('NUMSUB', `${STATUS_TOPIC}:${userId}`)) as [string, number];
      return Number(n) > 0;
    }, 'the Redis subscription');

  it('a purchase completed on instance A reaches a subscriber on instance B within a second', async () => {
    expect([a.app.services.realtime.mode, b.app.services.realtime.mode]).toEqual(['redis', 'redis']);
    const p = await signUp(a);
    const onB = watchStatus(b, p.accessToken);
    watches.push(onB);
    await onB.next((s) => s.credits === 10, 'the initial status on B');
    await subscribedInRedis(p.user.id);

    const c = await a.rest('POST', '/api/subscription/create-checkout', { tierId: 'hero' }, p.accessToken);
    expect(c.status).toBe(200);
    const res = await confirmLocalCheckout(a, c.body.url);
    expect(res.status).toBe(303);
    const completedAt = Date.now();
    const seen = await onB.next((s) => s.credits === 310, 'the purchase on B', 1000);
    expect(Date.now() - completedAt).toBeLessThan(1000);
    expect(seen).toMatchObject({ tier: { id: 'hero', name: 'Hero' }, maxContextTokens: 16000, active: true, provider: 'local' });
    // Dates crossed Redis as strings and still come out as ISO date-times.
    expect(new Date(seen.endDate).toISOString()).toBe(seen.endDate);
  });

  it('a spend on instance B reaches a subscriber on instance A, and no other player', async () => {
    const p = await signUp(b);
    const bystander = await signUp(a);
    const onA = watchStatus(a, p.accessToken);
    const otherOnA = watchStatus(a, bystander.accessToken);
    watches.push(onA, otherOnA);
    await onA.next((s) => s.credits === 10, 'the initial status on A');
    await otherOnA.next((s) => s.credits === 10, "the bystander's initial status");
    await subscribedInRedis(p.user.id);
    await b.app.services.credits.spend(p.user.id, 3, 'character_generate');
    await onA.next((s) => s.credits === 7, 'the spend on A', 1000);
    await new Promise((r) => setTimeout(r, 100));
    expect(otherOnA.values).toHaveLength(1);
  });
});
