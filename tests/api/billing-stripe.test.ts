import Stripe from 'stripe';
import { signUp, startTestApp, type TestApp } from '../support/test-app';
import { FakeStripe, invoicePaidObject, ledgerSum, STATUS_FIELDS, stripeEvent, watchStatus, type FakeSubscription } from './billing-support';

/**
 * Stripe for real (the official SDK) against a fake Stripe API on 127.0.0.1, with webhook payloads
 * signed by the SDK's own test-header helper. Runs on PGlite and on PostgreSQL.
 */
const WEBHOOK_SECRET = 'whsec_test_taleforge_billing';
let fake: FakeStripe;
let t: TestApp;
beforeAll(async () => {
  fake = new FakeStripe();
  await fake.start();
  t = await startTestApp({
    billingSweepSeconds: 0,
    stripe: { secretKey: 'sk_test_fake', webhookSecret: WEBHOOK_SECRET, apiHost: '127.0.0.1', apiPort: fake.port, apiProtocol: 'http' },
  });
});
afterAll(async () => {
  await t.close();
  await fake.stop();
});

const STATUS = `query { subscriptionStatus { ${STATUS_FIELDS} } }`;
async function status(token: string) {
  const r = await t.gql(STATUS, {}, token);
  if (!r.data) throw new Error(JSON.stringify(r.errors));
  return r.data.subscriptionStatus;
}

function deliver(event: ReturnType<typeof stripeEvent>, opts: { secret?: string; timestamp?: number } = {}) {
  const payload = JSON.stringify(event, null, 2); // Stripe's bodies are pretty-printed: the raw bytes must be verified as sent
  const signature = Stripe.webhooks.generateTestHeaderString({ payload, secret: opts.secret ?? WEBHOOK_SECRET, timestamp: opts.timestamp });
  return t.rest('POST', '/api/subscription/webhook', payload, undefined, { 'content-type': 'application/json', 'stripe-signature': signature });
}

/** A player who started a Stripe checkout for `tierId` and paid it (Stripe made the subscription). */
async function paidCheckout(tierId = 'adventurer') {
  const p = await signUp(t);
  const c = await t.rest('POST', '/api/subscription/create-checkout', { tierId }, p.accessToken);
  expect(c.status).toBe(200);
  const sessionId = c.body.url.split('/').pop() as string;
  const sub = fake.paySession(sessionId);
  const completed = stripeEvent('checkout.session.completed', {
    id: sessionId,
    object: 'checkout.session',
    mode: 'subscription',
    client_reference_id: p.user.id,
    customer: sub.customer,
    subscription: sub.id,
    metadata: sub.metadata,
  });
  return { p, sub, sessionId, completed, invoice: stripeEvent('invoice.paid', invoicePaidObject(sub)) };
}

describe('Stripe checkout', () => {
  it('creates a subscription-mode Checkout Session with a price found or created by lookup key and one customer per user', async () => {
    const p = await signUp(t);
    const before = fake.requests.length;
    const c = await t.rest('POST', '/api/subscription/create-checkout', { tierId: 'hero' }, p.accessToken);
    expect(c.status).toBe(200);
    expect(c.body.url).toMatch(/^https:\/\/checkout\.stripe\.test\/c\/pay\/cs_test_/);
    const calls = fake.requests.slice(before);
    expect(calls.every((r) => r.authorization === 'Bearer sk_test_fake')).toBe(true);
    // Every POST we make carries an idempotency key of ours.
    for (const r of calls.filter((x) => x.method === 'POST')) expect(r.idempotencyKey).toMatch(/^taleforge-/);

    const price = fake.priceByLookupKey('taleforge_hero_999_usd_month');
    expect(price).toMatchObject({ unit_amount: 999 });
    const session = fake.sessions.get(c.body.url.split('/').pop())!;
    expect(session).toMatchObject({
      mode: 'subscription',
      'line_items[0][price]': price!.id,
      'line_items[0][quantity]': '1',
      client_reference_id: p.user.id,
      'subscription_data[metadata][userId]': p.user.id,
      'subscription_data[metadata][tierId]': 'hero',
    });
    expect(session.success_url).toBe(`${t.app.config.publicUrl}/subscription?checkout=success`);
    const customer = fake.customers.get(session.customer)!;
    expect(customer).toMatchObject({ email: p.email, metadata: { userId: p.user.id } });

    // A second checkout (another tier) reuses the customer; the existing price is found, not re-created.
    const pricesBefore = fake.prices.size;
    const customersBefore = fake.customers.size;
    const c2 = await t.gql(`mutation { createCheckout(tierId: "adventurer") { url } }`, {}, p.accessToken);
    const c3 = await t.gql(`mutation { createCheckout(tierId: "hero") { url } }`, {}, p.accessToken);
    expect(c2.data?.createCheckout.url).toMatch(/cs_test_/);
    expect(c3.data?.createCheckout.url).toBe(c.body.url); // same minute, same idempotency key → same session
    expect(fake.customers.size).toBe(customersBefore);
    expect(fake.prices.size).toBe(pricesBefore + 1); // adventurer's, created once
    expect(fake.sessions.get(c2.data?.createCheckout.url.split('/').pop())?.customer).toBe(session.customer);
  });
});

describe('Stripe webhooks', () => {
  it('checkout.session.completed + invoice.paid delivered 5 times: the tier once, the credits once', async () => {
    const { p, sub, completed, invoice } = await paidCheckout('adventurer');
    const live = watchStatus(t, p.accessToken);
    try {
      await live.next((s) => s.credits === 10, 'the initial status');
      for (let i = 0; i < 5; i++) {
        const a = await deliver(completed);
        const b = await deliver(invoice);
        expect([a.status, b.status]).toEqual([200, 200]);
        expect([a.body.outcome, b.body.outcome]).toEqual(i === 0 ? ['applied', 'applied'] : ['duplicate', 'duplicate']);
      }
      const s = await status(p.accessToken);
      expect(s).toMatchObject({ tier: { id: 'adventurer' }, credits: 110, active: true, provider: 'stripe', cancelAtPeriodEnd: false });
      expect(new Date(s.endDate).getTime()).toBe(sub.items.data[0].current_period_end * 1000);
      expect(await ledgerSum(t, p.user.id)).toEqual({ sum: 110, balance: 110 });
      await live.next((x) => x.credits === 110 && x.tier.id === 'adventurer', 'the live update');
    } finally {
      await live.dispose();
    }
  });

  it('a bad or stale signature gets 400 and changes nothing', async () => {
    const { p, invoice } = await paidCheckout('adventurer');
    expect((await deliver(invoice, { secret: 'whsec_somebody_else' })).status).toBe(400);
    expect((await deliver(invoice, { timestamp: Math.floor(Date.now() / 1000) - 301 })).status).toBe(400);
    const unsigned = await t.rest('POST', '/api/subscription/webhook', JSON.stringify(invoice), undefined, { 'content-type': 'application/json' });
    expect(unsigned.status).toBe(400);
    expect(await status(p.accessToken)).toMatchObject({ tier: { id: 'free' }, credits: 10 });
    const [row] = await t.app.db.dataSource.query(`SELECT count(*)::int AS n FROM payment_events WHERE id = $1`, [invoice.id]);
    expect(row.n).toBe(0);
    // Within the default tolerance it is accepted.
    expect((await deliver(invoice, { timestamp: Math.floor(Date.now() / 1000) - 120 })).status).toBe(200);
  });

  it('invoice.paid before checkout.session.completed: same end state', async () => {
    const { p, completed, invoice } = await paidCheckout('legend');
    expect((await deliver(invoice)).body.outcome).toBe('applied');
    expect(await status(p.accessToken)).toMatchObject({ tier: { id: 'legend' }, credits: 1010 });
    expect((await deliver(completed)).body.outcome).toBe('applied');
    expect(await status(p.accessToken)).toMatchObject({ tier: { id: 'legend' }, credits: 1010, provider: 'stripe' });
  });

  it('customer.subscription.deleted before invoice.paid leaves a consistent state', async () => {
    const { p, sub, completed, invoice } = await paidCheckout('adventurer');
    expect((await deliver(completed)).status).toBe(200);
    sub.status = 'canceled';
    const deleted = stripeEvent('customer.subscription.deleted', { ...sub });
    expect((await deliver(deleted)).body.outcome).toBe('applied');
    expect((await deliver(invoice)).body.outcome).toBe('applied');
    for (const e of [deleted, invoice, completed]) expect((await deliver(e)).body.outcome).toBe('duplicate');
    const s = await status(p.accessToken);
    expect(s).toMatchObject({ tier: { id: 'free' }, provider: 'none', active: true, endDate: null, credits: 110 });
    expect(await ledgerSum(t, p.user.id)).toEqual({ sum: 110, balance: 110 });
  });

  it('a stale event is applied as the subscription is NOW (read from Stripe), not as the event says', async () => {
    const { p, sub, completed, invoice } = await paidCheckout('adventurer');
    await deliver(completed);
    await deliver(invoice);
    const staleCopy = JSON.parse(JSON.stringify(sub)) as FakeSubscription;
    // Meanwhile the player upgraded to Hero in Stripe's portal and later set it to cancel.
    sub.items.data[0].price = fake.priceByLookupKey('taleforge_hero_999_usd_month') ?? sub.items.data[0].price;
    if (!fake.priceByLookupKey('taleforge_hero_999_usd_month')) throw new Error('hero price missing');
    sub.cancel_at_period_end = true;
    // An old "updated" event (still saying adventurer, not cancelling) arrives late.
    expect((await deliver(stripeEvent('customer.subscription.updated', { ...staleCopy }))).body.outcome).toBe('applied');
    expect(await status(p.accessToken)).toMatchObject({ tier: { id: 'hero' }, cancelAtPeriodEnd: true, credits: 110 });
    // A proration invoice of the mid-period change grants nothing more.
    const proration = stripeEvent('invoice.paid', { ...invoicePaidObject(sub, 'subscription_update'), id: `in_proration_${sub.id}` });
    expect((await deliver(proration)).body.outcome).toBe('applied');
    expect((await status(p.accessToken)).credits).toBe(110);
  });

  it('a renewal invoice grants the new period once', async () => {
    const { p, sub, completed, invoice } = await paidCheckout('adventurer');
    await deliver(completed);
    await deliver(invoice);
    const item = sub.items.data[0];
    item.current_period_start = item.current_period_end;
    item.current_period_end += 30 * 86400;
    const renewal = stripeEvent('invoice.paid', invoicePaidObject(sub, 'subscription_cycle'));
    for (let i = 0; i < 3; i++) await deliver(renewal);
    expect(await status(p.accessToken)).toMatchObject({ credits: 210 });
    expect(new Date((await status(p.accessToken)).endDate).getTime()).toBe(item.current_period_end * 1000);
  });

  it('choosing Free cancels at period end in Stripe; a new paid checkout replaces (cancels) the old subscription', async () => {
    const { p, sub, completed, invoice } = await paidCheckout('adventurer');
    await deliver(completed);
    await deliver(invoice);
    const r = await t.rest('POST', '/api/subscription/subscribe', { tierId: 'free' }, p.accessToken);
    expect(r.status).toBe(200);
    const update = fake.requests.find((x) => x.method === 'POST' && x.path === `/v1/subscriptions/${sub.id}`);
    expect(update?.params.cancel_at_period_end).toBe('true');
    expect(update?.idempotencyKey).toMatch(/^taleforge-/);
    expect(await status(p.accessToken)).toMatchObject({ tier: { id: 'adventurer' }, cancelAtPeriodEnd: true });

    // Upgrade with a new checkout: the old subscription is cancelled at Stripe, the new one applies.
    const c = await t.rest('POST', '/api/subscription/create-checkout', { tierId: 'hero' }, p.accessToken);
    const sessionId = c.body.url.split('/').pop();
    const sub2 = fake.paySession(sessionId);
    await deliver(
      stripeEvent('checkout.session.completed', {
        id: sessionId,
        object: 'checkout.session',
        mode: 'subscription',
        client_reference_id: p.user.id,
        subscription: sub2.id,
        customer: sub2.customer,
      }),
    );
    await deliver(stripeEvent('invoice.paid', invoicePaidObject(sub2)));
    expect(await status(p.accessToken)).toMatchObject({ tier: { id: 'hero' }, credits: 410, cancelAtPeriodEnd: false });
    const cancel = fake.requests.find((x) => x.method === 'DELETE' && x.path === `/v1/subscriptions/${sub.id}`);
    expect(cancel?.idempotencyKey).toBe(`taleforge-cancel-${sub.id}`);
    expect(sub.status).toBe('canceled');
    // Its deletion event then changes nothing: the player follows the new subscription.
    expect((await deliver(stripeEvent('customer.subscription.deleted', { ...sub }))).body.outcome).toBe('applied');
    expect(await status(p.accessToken)).toMatchObject({ tier: { id: 'hero' }, credits: 410 });
  });
});

describe('Manage Subscription and account deletion with Stripe (issue 21)', () => {
  it("Manage Subscription opens Stripe's Customer Portal for the player's customer, returning to the Account tab", async () => {
    const { p, sub, completed, invoice } = await paidCheckout('adventurer');
    await deliver(completed);
    await deliver(invoice);
    const r = await t.rest('POST', '/api/subscription/manage', {}, p.accessToken);
    expect(r.status).toBe(200);
    expect(r.body.url).toMatch(/^https:\/\/billing\.stripe\.test\/p\/session\/bps_/);
    const call = fake.requests.find((x) => x.path === '/v1/billing_portal/sessions');
    expect(call?.params).toMatchObject({ customer: sub.customer, return_url: `${t.app.config.publicUrl}/profile` });
    // A Free player has no Stripe customer: the app's own page.
    const free = await signUp(t);
    expect((await t.gql('mutation { manageSubscription { url } }', {}, free.accessToken)).data!.manageSubscription.url).toBe(
      `${t.app.config.publicUrl}/subscription/manage`,
    );
  });

  it('deleting the account cancels the Stripe subscription at once', async () => {
    const { p, sub, completed, invoice } = await paidCheckout('hero');
    await deliver(completed);
    await deliver(invoice);
    const r = await t.rest('POST', '/api/account/delete', { password: p.password }, p.accessToken);
    expect(r.status).toBe(204);
    expect(fake.requests.some((x) => x.method === 'DELETE' && x.path === `/v1/subscriptions/${sub.id}`)).toBe(true);
    expect(sub.status).toBe('canceled');
  });
});
