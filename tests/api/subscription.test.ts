/**
 * Subscriptions and credits: tiers and status on both surfaces, the local checkout end to end over
 * HTTP (paid once, and only by its buyer), the webhook path both providers share (duplicates, bad
 * signatures, events out of order), tier changes and renewals, and live credits over graphql-ws.
 */
import Stripe from 'stripe';
import { newIdentity, signUp, startTestApp, type TestApp } from '../support/test-app';
import { sleep, waitFor } from '../support/wait';
import { confirmLocalCheckout, ledgerSum, openCheckout, STATUS_FIELDS, watchStatus, type Watch } from './billing-support';

/**
 * Subscriptions with the embedded payment provider (no Stripe keys): reads, direct subscribe, the
 * local checkout page end to end over HTTP, its webhook-path events, renewals and live credits.
 * Runs on PGlite and on PostgreSQL (and through Redis when REDIS_URL is set).
 */
let t: TestApp;
const watches: Watch[] = [];
beforeAll(async () => {
  t = await startTestApp({ wsAuthRecheckSeconds: 0.2, billingSweepSeconds: 0 });
});
afterAll(async () => {
  await Promise.all(watches.map((w) => w.dispose().catch(() => undefined)));
  await t.close();
});
const watch = (token?: string) => {
  const w = watchStatus(t, token);
  watches.push(w);
  return w;
};

const STATUS = `query { subscriptionStatus { ${STATUS_FIELDS} } }`;
const SUBSCRIBE = `mutation($tierId: ID!) { subscribe(tierId: $tierId) { ${STATUS_FIELDS} } }`;
const CHECKOUT = `mutation($tierId: ID!) { createCheckout(tierId: $tierId) { url } }`;

async function status(token: string) {
  const r = await t.gql(STATUS, {}, token);
  if (!r.data) throw new Error(JSON.stringify(r.errors));
  return r.data.subscriptionStatus;
}

/** Signs up, buys `tierId` through the local checkout page; returns the player and the checkout URL. */
async function buy(tierId = 'adventurer') {
  const p = await signUp(t);
  const c = await t.rest('POST', '/api/subscription/create-checkout', { tierId }, p.accessToken);
  expect(c.status).toBe(200);
  const res = await confirmLocalCheckout(t, c.body.url);
  expect(res.status).toBe(303);
  return { ...p, url: c.body.url as string };
}

describe('tiers and status', () => {
  it('lists the tiers with the SPEC fields, publicly, on both surfaces', async () => {
    const rest = await t.rest('GET', '/api/subscription/tiers');
    expect(rest.status).toBe(200);
    expect(rest.body.map((x: { id: string }) => x.id)).toEqual(['free', 'adventurer', 'hero', 'legend']);
    expect(rest.body[1]).toEqual({
      id: 'adventurer',
      name: 'Adventurer',
      price: 4.99,
      monthly_credits: 100,
      max_context_tokens: 8000,
      description: expect.any(String),
      features: expect.arrayContaining(['100 credits per month']),
    });
    const gql = await t.gql(`{ tiers { id name price monthlyCredits maxContextTokens features } }`);
    expect(gql.data?.tiers[3]).toMatchObject({ id: 'legend', price: 19.99, monthlyCredits: 1000, maxContextTokens: 32000 });
  });

  it('a new player is on Free with the signup credits; status and credits on REST and GraphQL', async () => {
    const p = await signUp(t);
    const rest = await t.rest('GET', '/api/subscription/status', undefined, p.accessToken);
    expect(rest.status).toBe(200);
    expect(rest.body).toEqual({ tier: { id: 'free', name: 'Free' }, credits: 10, maxContextTokens: 2000, active: true, endDate: null });
    expect((await t.rest('GET', '/api/subscription/credits', undefined, p.accessToken)).body).toEqual({ credits: 10 });
    expect((await t.gql(`{ credits }`, {}, p.accessToken)).data).toEqual({ credits: 10 });
    const s = await status(p.accessToken);
    expect(s).toMatchObject({ tier: { id: 'free' }, credits: 10, active: true, endDate: null, provider: 'none', cancelAtPeriodEnd: false });
    expect(new Date(s.currentPeriodEnd).getTime()).toBeGreaterThan(Date.now() + 27 * 86400_000);
  });

  it('refuses anonymous callers with 401 / UNAUTHENTICATED', async () => {
    for (const [method, path] of [
      ['GET', '/api/subscription/status'],
      ['GET', '/api/subscription/credits'],
      ['POST', '/api/subscription/subscribe'],
      ['POST', '/api/subscription/create-checkout'],
    ]) {
      const r = await t.rest(method, path, method === 'POST' ? { tierId: 'free' } : undefined, 'not-a-token');
      expect([path, r.status, r.body.code]).toEqual([path, 401, 'UNAUTHENTICATED']);
    }
    const g = await t.gql(STATUS);
    expect(g.errors?.[0].extensions?.code).toBe('UNAUTHENTICATED');
  });

  it('rejects bad tier choices with clear errors', async () => {
    const p = await signUp(t);
    const cases: Array<[string, unknown, number, string]> = [
      ['/api/subscription/subscribe', { tierId: 'platinum' }, 404, 'NOT_FOUND'],
      ['/api/subscription/subscribe', {}, 400, 'BAD_USER_INPUT'],
      ['/api/subscription/subscribe', { tierId: 'hero' }, 400, 'BAD_USER_INPUT'], // paid → checkout
      ['/api/subscription/create-checkout', { tierId: 'free' }, 400, 'BAD_USER_INPUT'],
      ['/api/subscription/create-checkout', { tierId: 42 }, 400, 'BAD_USER_INPUT'],
    ];
    for (const [path, body, status, code] of cases) {
      const r = await t.rest('POST', path, body, p.accessToken);
      expect([path, body, r.status, r.body.code]).toEqual([path, body, status, code]);
    }
    const g = await t.gql(SUBSCRIBE, { tierId: 'hero' }, p.accessToken);
    expect(g.errors?.[0].extensions?.code).toBe('BAD_USER_INPUT');
    expect((await status(p.accessToken)).tier.id).toBe('free');
  });

  it('subscribing to Free while on Free changes nothing', async () => {
    const p = await signUp(t);
    const r = await t.rest('POST', '/api/subscription/subscribe', { tierId: 'free' }, p.accessToken);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ tier: { id: 'free' }, credits: 10 });
    expect(await ledgerSum(t, p.user.id)).toEqual({ sum: 10, balance: 10 });
  });
});

describe('local checkout, end to end over HTTP', () => {
  it('create-checkout → checkout page → confirm → redirect to /subscription; tier and credits applied once', async () => {
    const p = await signUp(t);
    const live = watch(p.accessToken);
    await live.next((s) => s.credits === 10, 'the initial status');

    const c = await t.rest('POST', '/api/subscription/create-checkout', { tierId: 'adventurer' }, p.accessToken);
    expect(c.status).toBe(200);
    expect(c.body.url).toMatch(new RegExp(`^${t.app.config.publicUrl}/checkout/local/cs_local_[A-Za-z0-9_-]+\\?handoff=[A-Za-z0-9_-]+$`));
    const path = new URL(c.body.url).pathname;

    // The buyer's browser opens the URL: the page binds the session to it and drops the token.
    const open = await fetch(`${t.url}${path}${new URL(c.body.url).search}`, { redirect: 'manual' });
    expect(open.status).toBe(303);
    expect(open.headers.get('location')).toBe(path);
    const setCookie = open.headers.get('set-cookie') ?? '';
    expect(setCookie).toMatch(/HttpOnly/);
    expect(setCookie).toMatch(/SameSite=Strict/);
    expect(setCookie).toContain(`Path=${path}`);
    const cookie = setCookie.split(';')[0];

    const page = await fetch(`${t.url}${path}`, { headers: { cookie } });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/text\/html/);
    const csp = page.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("default-src 'none'");
    expect(csp).not.toContain('unsafe-inline');
    const html = await page.text();
    expect(html).toContain('Adventurer');
    expect(html).toContain('$4.99');
    expect(html).toContain(`action="${path}/confirm"`);
    expect(html).not.toMatch(/<script/i);

    const res = await fetch(`${t.url}${path}/confirm`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie, origin: new URL(t.app.config.publicUrl).origin },
      redirect: 'manual',
    });
    expect(res.status).toBe(303);
    // Relative: back to the origin the buyer's browser is on (its session lives there).
    expect(res.headers.get('location')).toBe('/subscription?checkout=success');

    const s = await status(p.accessToken);
    expect(s).toMatchObject({ tier: { id: 'adventurer', name: 'Adventurer' }, credits: 110, maxContextTokens: 8000, active: true, provider: 'local' });
    const end = new Date(s.endDate).getTime();
    expect(end).toBeGreaterThan(Date.now() + 27 * 86400_000);
    expect(end).toBeLessThan(Date.now() + 32 * 86400_000);
    const rest = await t.rest('GET', '/api/subscription/status', undefined, p.accessToken);
    expect(rest.body).toEqual({ tier: { id: 'adventurer', name: 'Adventurer' }, credits: 110, maxContextTokens: 8000, active: true, endDate: s.endDate });

    // The subscriber saw the purchase without asking.
    await live.next((x) => x.credits === 110 && x.tier.id === 'adventurer', 'the live purchase update');

    // A second submit (double click, back button) pays nothing more.
    const again2 = await fetch(`${t.url}${path}/confirm`, {
      method: 'POST',
      headers: { cookie, origin: new URL(t.app.config.publicUrl).origin },
      redirect: 'manual',
    });
    expect(again2.status).toBe(303);
    expect((await status(p.accessToken)).credits).toBe(110);
    expect(await ledgerSum(t, p.user.id)).toEqual({ sum: 110, balance: 110 });
    const done = await fetch(`${t.url}${path}`, { headers: { cookie } });
    expect(await done.text()).toContain('Payment complete');

    // Buying the tier you are on is refused.
    const again = await t.gql(CHECKOUT, { tierId: 'adventurer' }, p.accessToken);
    expect(again.errors?.[0].extensions?.code).toBe('CONFLICT');
  });

  it("the checkout leads back to the page's origin when it is ours (a loopback alias of a loopback PUBLIC_URL), else to PUBLIC_URL", async () => {
    const p = await signUp(t);
    const pub = new URL(t.app.config.publicUrl);
    expect(pub.hostname).toBe('localhost'); // the default PUBLIC_URL
    const ask = async (origin: string) => {
      const r = await fetch(`${t.url}/api/subscription/create-checkout`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${p.accessToken}`, origin },
        body: JSON.stringify({ tierId: 'hero' }),
      });
      expect(r.status).toBe(200);
      return ((await r.json()) as { url: string }).url;
    };
    const alias = `http://127.0.0.1:${pub.port}`;
    expect(await ask(alias)).toMatch(new RegExp(`^${alias}/checkout/local/cs_local_`));
    expect(await ask(`http://[::1]:${pub.port}`)).toMatch(new RegExp(`^http://\\[::1\\]:${pub.port}/checkout/local/`));
    // Not ours: another port, another host, a name that is not loopback.
    for (const foreign of [`http://127.0.0.1:${Number(pub.port) + 1}`, 'https://evil.example', `http://localhost.evil.example:${pub.port}`]) {
      expect(await ask(foreign)).toMatch(new RegExp(`^${pub.origin}/checkout/local/`));
    }
    // GraphQL takes the same rule from the request's Origin.
    const g = await fetch(`${t.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${p.accessToken}`, origin: alias },
      body: JSON.stringify({ query: CHECKOUT, variables: { tierId: 'hero' } }),
    });
    expect(((await g.json()) as { data: { createCheckout: { url: string } } }).data.createCheckout.url).toMatch(new RegExp(`^${alias}/checkout/local/`));

    // The checkout page opened at the alias accepts a confirm from the alias.
    const url = new URL(await ask(alias));
    const open = await fetch(`${t.url}${url.pathname}${url.search}`, { redirect: 'manual' });
    const cookie = (open.headers.get('set-cookie') ?? '').split(';')[0];
    const res = await fetch(`${t.url}${url.pathname}/confirm`, { method: 'POST', headers: { cookie, origin: alias }, redirect: 'manual' });
    expect(res.status).toBe(303);
    expect((await status(p.accessToken)).tier.id).toBe('hero');
  });

  it('unknown or malformed checkout ids get a 404 page, not a payment', async () => {
    for (const id of ['cs_local_doesnotexist0000000000', '..%2F..%2Fetc', 'cs_local_<script>']) {
      const r = await fetch(`${t.url}/checkout/local/${id}`);
      expect(r.status).toBe(404);
      expect(await r.text()).not.toContain('<script>');
      const c = await fetch(`${t.url}/checkout/local/${id}/confirm`, {
        method: 'POST',
        headers: { origin: new URL(t.app.config.publicUrl).origin },
        redirect: 'manual',
      });
      expect(c.status).toBe(404);
    }
  });

  it('an expired checkout cannot be paid', async () => {
    const p = await signUp(t);
    const c = await t.rest('POST', '/api/subscription/create-checkout', { tierId: 'hero' }, p.accessToken);
    const id = new URL(c.body.url).pathname.split('/').pop();
    const cookie = await openCheckout(t, c.body.url);
    await t.app.db.dataSource.query(`UPDATE local_checkout_sessions SET expires_at = now() - interval '1 minute' WHERE id = $1`, [id]);
    expect((await fetch(`${t.url}/checkout/local/${id}`, { headers: { cookie } })).status).toBe(410);
    const r = await confirmLocalCheckout(t, c.body.url);
    expect(r.status).toBe(409);
    expect((await status(p.accessToken)).tier.id).toBe('free');
  });

  it('a new purchase on another tier replaces the running subscription (no double billing)', async () => {
    const p = await buy('adventurer');
    const first = (await t.app.db.dataSource.query(`SELECT provider_subscription_id AS id FROM subscriptions WHERE user_id = $1`, [p.user.id]))[0].id;
    const c = await t.rest('POST', '/api/subscription/create-checkout', { tierId: 'legend' }, p.accessToken);
    expect((await confirmLocalCheckout(t, c.body.url)).status).toBe(303);
    const s = await status(p.accessToken);
    expect(s).toMatchObject({ tier: { id: 'legend' }, credits: 10 + 100 + 1000 });
    const [old] = await t.app.db.dataSource.query(`SELECT status FROM local_subscriptions WHERE id = $1`, [first]);
    expect(old.status).toBe('canceled');
  });
});

describe('the local checkout pays only for its buyer, once', () => {
  const ORIGIN = () => new URL(t.app.config.publicUrl).origin;
  const post = (path: string, headers: Record<string, string>) =>
    fetch(`${t.url}${path}/confirm`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers }, redirect: 'manual' });

  it('someone else holding the checkout URL cannot pay it or even see it, before or after the buyer opened it', async () => {
    const p = await signUp(t);
    const c = await t.rest('POST', '/api/subscription/create-checkout', { tierId: 'legend' }, p.accessToken);
    const path = new URL(c.body.url).pathname;
    // No browser cookie at all (the probe's unauthenticated confirm).
    const anon = await post(path, { origin: ORIGIN() });
    expect(anon.status).toBe(403);
    expect(await anon.text()).toContain('This checkout belongs to the browser that started it.');
    expect((await fetch(`${t.url}${path}`)).status).toBe(403);
    // The buyer opens it; the same URL (history, referrer, a shared screenshot) then gives nothing.
    await openCheckout(t, c.body.url);
    const u = new URL(c.body.url);
    const stranger = await fetch(`${t.url}${u.pathname}${u.search}`, { redirect: 'manual' });
    expect(stranger.headers.get('set-cookie')).toBeNull();
    expect((await post(path, { origin: ORIGIN(), cookie: 'tf_checkout=guessed' })).status).toBe(403);
    expect(await status(p.accessToken)).toMatchObject({ tier: { id: 'free' }, credits: 10 });
  });

  it("a confirm from a foreign origin, or with no Origin, is refused even with the buyer's cookie", async () => {
    const p = await signUp(t);
    const c = await t.rest('POST', '/api/subscription/create-checkout', { tierId: 'hero' }, p.accessToken);
    const cookie = await openCheckout(t, c.body.url);
    expect(cookie).toMatch(/^tf_checkout=/);
    const path = new URL(c.body.url).pathname;
    for (const headers of [{ cookie, origin: 'https://evil.example' }, { cookie, origin: 'null' }, { cookie }] as Array<Record<string, string>>) {
      const r = await post(path, headers);
      expect(r.status).toBe(403);
    }
    expect(await status(p.accessToken)).toMatchObject({ tier: { id: 'free' }, credits: 10 });
    // The buyer's own page still pays.
    expect((await confirmLocalCheckout(t, c.body.url)).status).toBe(303);
    expect((await status(p.accessToken)).tier.id).toBe('hero');
  });

  it('parallel confirms of several open checkouts grant one purchase, once', async () => {
    const p = await signUp(t);
    const urls: string[] = [];
    for (let i = 0; i < 3; i++) {
      const c = await t.rest('POST', '/api/subscription/create-checkout', { tierId: 'legend' }, p.accessToken);
      urls.push(c.body.url);
      await openCheckout(t, c.body.url);
    }
    // Each checkout confirmed from its page, five times, all at once.
    const results = await Promise.all(urls.flatMap((u) => Array.from({ length: 5 }, () => confirmLocalCheckout(t, u))));
    expect(results.filter((r) => r.status === 303).length).toBeGreaterThanOrEqual(1);
    expect(await status(p.accessToken)).toMatchObject({ tier: { id: 'legend' }, credits: 10 + 1000 });
    expect(await ledgerSum(t, p.user.id)).toEqual({ sum: 1010, balance: 1010 });
    const [{ n }] = await t.app.db.dataSource.query(`SELECT count(*)::int AS n FROM local_subscriptions WHERE user_id = $1`, [p.user.id]);
    expect(n).toBe(1);
  });
});

describe('payment events (the webhook path both providers share)', () => {
  /** Completes a local checkout WITHOUT delivering its events, so the test can deliver them. */
  async function pendingEvents(tierId = 'adventurer') {
    const p = await signUp(t);
    const c = await t.rest('POST', '/api/subscription/create-checkout', { tierId }, p.accessToken);
    const sessionId = new URL(c.body.url).pathname.split('/').pop()!;
    const events = await t.app.services.billing.local.completeCheckout(sessionId);
    return { p, events: events.map((e) => JSON.stringify(e)) };
  }
  const secret = () => t.app.services.billing.local.webhookSecret;
  const post = (payload: string, signature?: string) =>
    t.rest('POST', '/api/subscription/webhook', payload, undefined, {
      'content-type': 'application/json',
      ...(signature ? { 'stripe-signature': signature } : {}),
    });
  const signed = (payload: string, timestamp?: number) => Stripe.webhooks.generateTestHeaderString({ payload, secret: secret(), timestamp });

  it('an event delivered 5 times (in a row and at once) grants its credits once', async () => {
    const { p, events } = await pendingEvents();
    const [completed, invoice] = events;
    for (let i = 0; i < 5; i++) {
      const r = await post(invoice, signed(invoice));
      expect(r.status).toBe(200);
      expect(r.body.outcome).toBe(i === 0 ? 'applied' : 'duplicate');
    }
    const parallel = await Promise.all(Array.from({ length: 5 }, () => post(completed, signed(completed))));
    expect(parallel.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    expect(parallel.filter((r) => r.body.outcome === 'applied')).toHaveLength(1);
    const s = await status(p.accessToken);
    expect(s).toMatchObject({ tier: { id: 'adventurer' }, credits: 110 });
    const grants = await t.app.db.dataSource.query(`SELECT count(*)::int AS n FROM credit_transactions WHERE user_id = $1 AND reason = 'period_grant'`, [
      p.user.id,
    ]);
    expect(grants[0].n).toBe(1);
    expect(await ledgerSum(t, p.user.id)).toEqual({ sum: 110, balance: 110 });
  });

  it('a bad, missing, tampered or stale signature gets 400 and changes nothing', async () => {
    const { p, events } = await pendingEvents();
    const invoice = events[1];
    const eventId = JSON.parse(invoice).id;
    const wrongSecret = Stripe.webhooks.generateTestHeaderString({ payload: invoice, secret: 'whsec_not_ours' });
    const stale = signed(invoice, Math.floor(Date.now() / 1000) - 10 * 60);
    const tampered = invoice.replace('"subscription_create"', '"subscription_cycle"');
    for (const [payload, sig] of [
      [invoice, wrongSecret],
      [invoice, undefined],
      [invoice, 't=1,v1=deadbeef'],
      [tampered, signed(invoice)],
      [invoice, stale],
    ] as Array<[string, string | undefined]>) {
      const r = await post(payload, sig);
      expect(r.status).toBe(400);
      expect(r.body.code).toBe('BAD_USER_INPUT');
    }
    const seen = await t.app.db.dataSource.query(`SELECT count(*)::int AS n FROM payment_events WHERE id = $1`, [eventId]);
    expect(seen[0].n).toBe(0);
    expect(await status(p.accessToken)).toMatchObject({ tier: { id: 'free' }, credits: 10 });
    // The same payload, correctly signed, still works afterwards: nothing was half-applied.
    expect((await post(invoice, signed(invoice))).body.outcome).toBe('applied');
    expect((await status(p.accessToken)).credits).toBe(110);
  });

  it('customer.subscription.deleted before invoice.paid leaves a consistent state', async () => {
    const { p, events } = await pendingEvents();
    const [completed, invoice] = events;
    expect((await post(completed, signed(completed))).body.outcome).toBe('applied');
    expect((await status(p.accessToken)).tier.id).toBe('adventurer');
    const subId = JSON.parse(completed).data.object.subscription;
    // The provider ends the subscription; its deletion arrives before the (paid) first invoice.
    await t.app.services.billing.local.cancelNow(subId);
    const deleted = JSON.stringify({
      id: `evt_test_deleted_${subId}`,
      type: 'customer.subscription.deleted',
      created: 0,
      data: { object: { id: subId, object: 'subscription', status: 'canceled' } },
    });
    expect((await post(deleted, signed(deleted))).body.outcome).toBe('applied');
    expect((await post(invoice, signed(invoice))).body.outcome).toBe('applied');
    // Replays of either change nothing.
    expect((await post(deleted, signed(deleted))).body.outcome).toBe('duplicate');
    expect((await post(completed, signed(completed))).body.outcome).toBe('duplicate');

    const s = await status(p.accessToken);
    // Back on Free (the paid tier is not resurrected by the late invoice); the money received bought
    // that period's credits exactly once; the ledger adds up.
    expect(s).toMatchObject({ tier: { id: 'free' }, provider: 'none', active: true, endDate: null, cancelAtPeriodEnd: false, credits: 110 });
    const [row] = await t.app.db.dataSource.query(`SELECT provider_subscription_id FROM subscriptions WHERE user_id = $1`, [p.user.id]);
    expect(row.provider_subscription_id).toBeNull();
    expect(await ledgerSum(t, p.user.id)).toEqual({ sum: 110, balance: 110 });
  });

  it('events that arrive in reverse order end in the same state as in order', async () => {
    const { p, events } = await pendingEvents('hero');
    const [completed, invoice] = events;
    expect((await post(invoice, signed(invoice))).body.outcome).toBe('applied');
    expect((await post(completed, signed(completed))).body.outcome).toBe('applied');
    expect(await status(p.accessToken)).toMatchObject({ tier: { id: 'hero' }, credits: 310, provider: 'local', active: true });
  });
});

describe('changing tier and renewals', () => {
  const setPeriodEnded = async (userId: string) => {
    const ds = t.app.db.dataSource;
    await ds.query(
      `UPDATE subscriptions SET current_period_start = now() - interval '40 days', current_period_end = now() - interval '10 days' WHERE user_id = $1`,
      [userId],
    );
    await ds.query(
      `UPDATE local_subscriptions SET current_period_start = now() - interval '40 days', current_period_end = now() - interval '10 days' WHERE user_id = $1 AND status = 'active'`,
      [userId],
    );
  };

  it('choosing Free on a paid tier cancels at period end; choosing the tier again resumes; at period end → Free', async () => {
    const p = await buy('adventurer');
    const down = await t.gql(SUBSCRIBE, { tierId: 'free' }, p.accessToken);
    expect(down.data?.subscribe).toMatchObject({ tier: { id: 'adventurer' }, cancelAtPeriodEnd: true, active: true, credits: 110 });
    const resumed = await t.gql(SUBSCRIBE, { tierId: 'adventurer' }, p.accessToken);
    expect(resumed.data?.subscribe).toMatchObject({ tier: { id: 'adventurer' }, cancelAtPeriodEnd: false });
    await t.rest('POST', '/api/subscription/subscribe', { tierId: 'free' }, p.accessToken);

    await setPeriodEnded(p.user.id);
    const s = await status(p.accessToken);
    expect(s).toMatchObject({ tier: { id: 'free' }, provider: 'none', credits: 110, cancelAtPeriodEnd: false, endDate: null });
    expect(await ledgerSum(t, p.user.id)).toEqual({ sum: 110, balance: 110 });
  });

  it('a paid period renews once, however many readers notice it at the same time', async () => {
    const p = await buy('adventurer');
    await setPeriodEnded(p.user.id);
    const reads = await Promise.all([
      status(p.accessToken),
      t.rest('GET', '/api/subscription/credits', undefined, p.accessToken),
      status(p.accessToken),
      t.app.services.billing.sweep(),
    ]);
    expect(reads[0].tier.id).toBe('adventurer');
    const s = await status(p.accessToken);
    expect(s.credits).toBe(210);
    // Now in the period that contains today (the ended one started 40 days ago).
    expect(new Date(s.endDate).getTime()).toBeGreaterThan(Date.now() + 15 * 86400_000);
    const grants = await t.app.db.dataSource.query(`SELECT count(*)::int AS n FROM credit_transactions WHERE user_id = $1 AND reason = 'period_grant'`, [
      p.user.id,
    ]);
    expect(grants[0].n).toBe(2);
  });

  it("the Free tier's monthly credits arrive at period start, once", async () => {
    const p = await signUp(t);
    await setPeriodEnded(p.user.id);
    const [a, b] = await Promise.all([
      t.rest('GET', '/api/subscription/credits', undefined, p.accessToken),
      t.rest('GET', '/api/subscription/credits', undefined, p.accessToken),
    ]);
    expect([a.body.credits, b.body.credits]).toEqual([20, 20]);
    expect((await status(p.accessToken)).credits).toBe(20);
    const [row] = await t.app.db.dataSource.query(`SELECT current_period_end FROM subscriptions WHERE user_id = $1`, [p.user.id]);
    expect(new Date(row.current_period_end).getTime()).toBeGreaterThan(Date.now());
  });

  it('the periodic sweep renews Free periods nobody reads', async () => {
    const p = await signUp(t);
    await setPeriodEnded(p.user.id);
    expect(await t.app.services.billing.sweep()).toBeGreaterThanOrEqual(1);
    expect(await t.app.services.credits.balance(p.user.id)).toBe(20);
  });
});

describe('live credits over graphql-ws', () => {
  it('pushes spends, refunds and grants to the player — and only to that player', async () => {
    const a = await signUp(t);
    const b = await signUp(t);
    const wa = watch(a.accessToken);
    const wb = watch(b.accessToken);
    await wa.next((s) => s.credits === 10, "A's initial status");
    await wb.next((s) => s.credits === 10, "B's initial status");

    const spent = await t.app.services.credits.spend(a.user.id, 3, 'world_create');
    await wa.next((s) => s.credits === 7, 'the spend');
    await t.app.services.credits.refund(a.user.id, spent, 3);
    await wa.next((s) => s.credits === 10 && wa.values.length >= 3, 'the refund');
    await sleep(150);
    // B saw only its own initial status.
    expect(wb.values.map((v) => v.data?.subscriptionChanged.credits)).toEqual([10]);
    expect(wb.values).toHaveLength(1);
  });

  it('refuses an unauthenticated subscribe', async () => {
    const w = watch();
    await waitFor(() => w.values.length > 0 || w.errors.length > 0, 'an answer');
    const errors = w.values[0]?.errors ?? (w.errors[0] as any[]);
    expect(errors?.[0]?.extensions?.code ?? errors?.[0]?.message).toMatch(/UNAUTHENTICATED|signed in/);
    expect(w.values.some((v) => v.data?.subscriptionChanged)).toBe(false);
  });

  it('a socket with an invalid token is closed with 4401', async () => {
    const w = watch('not.a.valid.token');
    await waitFor(() => w.closeCodes.length > 0, 'the socket to close');
    expect(w.closeCodes[0]).toBe(4401);
  });

  it('closes the socket with 4401 once the session is revoked (sign-out)', async () => {
    const p = await signUp(t);
    const w = watch(p.accessToken);
    await w.next((s) => s.credits === 10, 'the initial status');
    const out = await t.gql(`mutation { signOut }`, {}, p.accessToken);
    expect(out.data?.signOut).toBe(true);
    await waitFor(() => w.closeCodes.length > 0, 'the socket to close', 3000);
    expect(w.closeCodes[0]).toBe(4401);
  });

  it('accepts a refreshed token sent with a subscribe, and never one of another user', async () => {
    const p = await signUp(t);
    const other = await signUp(t, newIdentity('other'));
    const refreshed = await t.gql(`mutation($r: String!) { refreshSession(refreshToken: $r) { accessToken } }`, { r: p.refreshToken });
    const token = refreshed.data?.refreshSession.accessToken as string;
    const w = watch(p.accessToken);
    await w.next(() => true, 'the first status');
    const got: any[] = [];
    await new Promise<void>((resolve) => {
      const stop = w.client.subscribe(
        { query: `subscription { subscriptionChanged { credits } }`, extensions: { authorization: `Bearer ${token}` } },
        { next: (v) => (got.push(v), stop(), resolve()), error: () => resolve(), complete: () => resolve() },
      );
    });
    expect(got[0]?.data?.subscriptionChanged.credits).toBe(10);
    // Another player's token on this socket: closed, nothing of theirs is sent.
    w.client.subscribe(
      { query: `subscription { subscriptionChanged { credits } }`, extensions: { authorization: `Bearer ${other.accessToken}` } },
      { next: (v) => void got.push(v), error: () => undefined, complete: () => undefined },
    );
    await waitFor(() => w.closeCodes.length > 0, 'the socket to close');
    expect(w.closeCodes[0]).toBe(4401);
    expect(got).toHaveLength(1);
  });
});
