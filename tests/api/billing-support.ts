import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createClient, type Client } from 'graphql-ws';
import WebSocket from 'ws';
import type { TestApp } from '../support/test-app';
import { waitFor } from '../support/wait';

export const STATUS_FIELDS = 'tier { id name price } credits maxContextTokens active endDate status cancelAtPeriodEnd currentPeriodEnd provider';
const SUBSCRIPTION_CHANGED = `subscription { subscriptionChanged { ${STATUS_FIELDS} } }`;

export interface Watch {
  client: Client;
  values: Array<{ data?: any; errors?: any[] }>;
  errors: unknown[];
  closeCodes: number[];
  /** Resolves with the first received status (after `from`) matching `pred`. */
  next(pred: (status: any) => boolean, what: string, timeoutMs?: number): Promise<any>;
  dispose(): Promise<void>;
}

/** A graphql-ws client (the browser's library, over `ws`) subscribed to subscriptionChanged. */
export function watchStatus(t: Pick<TestApp, 'url'>, token?: string, query = SUBSCRIPTION_CHANGED): Watch {
  const closeCodes: number[] = [];
  const client = createClient({
    url: `${t.url.replace(/^http/, 'ws')}/graphql`,
    webSocketImpl: WebSocket,
    connectionParams: token ? { authorization: `Bearer ${token}` } : {},
    retryAttempts: 0,
    on: { closed: (e) => closeCodes.push((e as { code: number }).code) },
  });
  const values: Watch['values'] = [];
  const errors: unknown[] = [];
  const unsubscribe = client.subscribe(
    { query },
    { next: (v) => void values.push(v as Watch['values'][number]), error: (e) => void errors.push(e), complete: () => undefined },
  );
  return {
    client,
    values,
    errors,
    closeCodes,
    next: (pred, what, timeoutMs = 3000) => waitFor(() => values.map((v) => v.data?.subscriptionChanged).find((s) => s && pred(s)), what, timeoutMs),
    dispose: async () => {
      unsubscribe();
      await client.dispose();
    },
  };
}

/** The buyer's browser per checkout URL: the cookie it got when it opened the URL createCheckout gave. */
const browsers = new Map<string, string>();

/**
 * Opens a checkout URL like the buyer's browser does (createCheckout's URL carries a one-time hand-off
 * token that the page trades for a cookie) and returns that browser's cookie ('' when refused).
 */
export async function openCheckout(t: Pick<TestApp, 'url'>, checkoutUrl: string): Promise<string> {
  const known = browsers.get(checkoutUrl);
  if (known !== undefined) return known;
  const u = new URL(checkoutUrl);
  const r = await fetch(`${t.url}${u.pathname}${u.search}`, { redirect: 'manual' });
  const cookie = (r.headers.get('set-cookie') ?? '').split(';')[0];
  browsers.set(checkoutUrl, cookie);
  return cookie;
}

/** Posts the local checkout page's form from the buyer's browser, without following the redirect. */
export async function confirmLocalCheckout(t: TestApp, checkoutUrl: string, origin = new URL(t.app.config.publicUrl).origin): Promise<Response> {
  const cookie = await openCheckout(t, checkoutUrl);
  const path = new URL(checkoutUrl).pathname;
  return fetch(`${t.url}${path}/confirm`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie, origin },
    body: '',
    redirect: 'manual',
  });
}

export async function ledgerSum(t: TestApp, userId: string): Promise<{ sum: number; balance: number }> {
  const [row] = await t.app.db.dataSource.query(
    `SELECT COALESCE((SELECT SUM(delta) FROM credit_transactions WHERE user_id = $1), 0)::int AS sum,
            (SELECT credits FROM subscriptions WHERE user_id = $1) AS balance`,
    [userId],
  );
  return row;
}

// ---------------------------------------------------------------------------------------------
// A fake Stripe API on 127.0.0.1: the endpoints our StripeProvider calls, with Stripe's shapes.
// ---------------------------------------------------------------------------------------------

export interface FakeRequest {
  method: string;
  path: string;
  params: Record<string, string>;
  idempotencyKey: string | undefined;
  authorization: string | undefined;
}

export interface FakeSubscription {
  id: string;
  object: 'subscription';
  customer: string;
  status: string;
  cancel_at_period_end: boolean;
  metadata: Record<string, string>;
  start_date: number;
  items: { object: 'list'; data: Array<{ id: string; price: FakePrice; current_period_start: number; current_period_end: number }> };
}

interface FakePrice {
  id: string;
  object: 'price';
  lookup_key: string | null;
  unit_amount: number;
  active: boolean;
  metadata: Record<string, string>;
}

export class FakeStripe {
  readonly requests: FakeRequest[] = [];
  readonly prices = new Map<string, FakePrice>();
  readonly customers = new Map<string, { id: string; email: string; metadata: Record<string, string> }>();
  readonly sessions = new Map<string, Record<string, string>>();
  readonly subscriptions = new Map<string, FakeSubscription>();
  private readonly byIdempotencyKey = new Map<string, unknown>();
  private server!: http.Server;
  private seq = 0;
  port = 0;

  async start(): Promise<void> {
    this.server = http.createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        try {
          this.handle(req, body, res);
        } catch (e) {
          res.writeHead(500, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ error: { type: 'api_error', message: String(e) } }));
        }
      });
    });
    await new Promise<void>((r) => this.server.listen(0, '127.0.0.1', () => r()));
    this.port = (this.server.address() as AddressInfo).port;
  }

  stop(): Promise<void> {
    return new Promise((r) => this.server.close(() => r()));
  }

  id(prefix: string): string {
    return `${prefix}_${Date.now().toString(36)}${(++this.seq).toString(36)}${Math.random().toString(36).slice(2, 8)}`;
  }

  /** What Stripe does when the customer pays a checkout session: a subscription on its price. */
  paySession(sessionId: string, now = Math.floor(Date.now() / 1000)): FakeSubscription {
    const s = this.sessions.get(sessionId);
    if (!s) throw new Error(`no session ${sessionId}`);
    const price = this.prices.get(s['line_items[0][price]'])!;
    const sub = this.makeSubscription({
      customer: s.customer,
      price,
      metadata: { userId: s['subscription_data[metadata][userId]'], tierId: s['subscription_data[metadata][tierId]'] },
      now,
    });
    s.subscription = sub.id;
    return sub;
  }

  makeSubscription(o: { customer: string; price: FakePrice; metadata: Record<string, string>; now?: number }): FakeSubscription {
    const now = o.now ?? Math.floor(Date.now() / 1000);
    const sub: FakeSubscription = {
      id: this.id('sub'),
      object: 'subscription',
      customer: o.customer,
      status: 'active',
      cancel_at_period_end: false,
      metadata: o.metadata,
      start_date: now,
      items: { object: 'list', data: [{ id: this.id('si'), price: o.price, current_period_start: now, current_period_end: now + 30 * 86400 }] },
    };
    this.subscriptions.set(sub.id, sub);
    return sub;
  }

  priceByLookupKey(key: string): FakePrice | undefined {
    return [...this.prices.values()].find((p) => p.lookup_key === key);
  }

  private handle(req: http.IncomingMessage, body: string, res: http.ServerResponse): void {
    const url = new URL(req.url ?? '/', 'http://x');
    const params: Record<string, string> = Object.fromEntries(new URLSearchParams(req.method === 'GET' ? url.search : body));
    const idempotencyKey = req.headers['idempotency-key'] as string | undefined;
    this.requests.push({ method: req.method ?? '', path: url.pathname, params, idempotencyKey, authorization: req.headers.authorization });
    const send = (status: number, obj: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json', 'request-id': this.id('req') });
      res.end(JSON.stringify(obj));
    };
    const notFound = () => send(404, { error: { type: 'invalid_request_error', message: 'No such object', code: 'resource_missing' } });
    // Stripe's idempotency: the same key replays the first response.
    const once = (make: () => unknown) => {
      if (idempotencyKey && this.byIdempotencyKey.has(idempotencyKey)) return send(200, this.byIdempotencyKey.get(idempotencyKey));
      const obj = make();
      if (idempotencyKey) this.byIdempotencyKey.set(idempotencyKey, obj);
      send(200, obj);
    };
    const m = req.method;
    const p = url.pathname;
    let match: RegExpExecArray | null;
    if (m === 'GET' && p === '/v1/prices') {
      const key = params['lookup_keys[0]'];
      return send(200, { object: 'list', has_more: false, data: [...this.prices.values()].filter((x) => x.lookup_key === key && x.active) });
    }
    if (m === 'POST' && p === '/v1/prices') {
      return once(() => {
        const price: FakePrice = {
          id: this.id('price'),
          object: 'price',
          lookup_key: params.lookup_key ?? null,
          unit_amount: Number(params.unit_amount),
          active: true,
          metadata: { tierId: params['metadata[tierId]'] },
        };
        this.prices.set(price.id, price);
        return price;
      });
    }
    if (m === 'GET' && (match = /^\/v1\/prices\/([^/]+)$/.exec(p))) {
      const price = this.prices.get(match[1]);
      return price ? send(200, price) : notFound();
    }
    if (m === 'POST' && p === '/v1/customers') {
      return once(() => {
        const c = { id: this.id('cus'), object: 'customer', email: params.email, metadata: { userId: params['metadata[userId]'] } };
        this.customers.set(c.id, c);
        return c;
      });
    }
    if (m === 'POST' && p === '/v1/checkout/sessions') {
      return once(() => {
        const id = this.id('cs_test');
        this.sessions.set(id, params);
        return { id, object: 'checkout.session', mode: params.mode, customer: params.customer, url: `https://checkout.stripe.test/c/pay/${id}` };
      });
    }
    if (m === 'POST' && p === '/v1/billing_portal/sessions') {
      if (!this.customers.has(params.customer)) return notFound();
      const id = this.id('bps');
      return send(200, {
        id,
        object: 'billing_portal.session',
        customer: params.customer,
        return_url: params.return_url,
        url: `https://billing.stripe.test/p/session/${id}`,
      });
    }
    if ((match = /^\/v1\/subscriptions\/([^/]+)$/.exec(p))) {
      const sub = this.subscriptions.get(match[1]);
      if (!sub) return notFound();
      if (m === 'GET') return send(200, sub);
      if (m === 'POST') {
        if (params.cancel_at_period_end !== undefined) sub.cancel_at_period_end = params.cancel_at_period_end === 'true';
        return send(200, sub);
      }
      if (m === 'DELETE') {
        sub.status = 'canceled';
        return send(200, sub);
      }
    }
    notFound();
  }
}

let eventSeq = 0;
/** A Stripe event envelope around `object`. */
export function stripeEvent(type: string, object: Record<string, unknown>, id = `evt_test_${Date.now().toString(36)}_${++eventSeq}`) {
  return { id, object: 'event', api_version: '2026-10-28.endive', created: Math.floor(Date.now() / 1000), type, livemode: false, data: { object } };
}

/** An invoice.paid payload in the current API's shape (subscription under parent, price under pricing). */
export function invoicePaidObject(sub: FakeSubscription, billingReason = 'subscription_create') {
  const item = sub.items.data[0];
  return {
    id: `in_${sub.id}_${item.current_period_start}`,
    object: 'invoice',
    status: 'paid',
    billing_reason: billingReason,
    customer: sub.customer,
    parent: { type: 'subscription_details', subscription_details: { subscription: sub.id, metadata: sub.metadata } },
    lines: {
      object: 'list',
      data: [
        {
          id: `il_${sub.id}`,
          period: { start: item.current_period_start, end: item.current_period_end },
          pricing: { type: 'price_details', price_details: { price: item.price.id } },
        },
      ],
    },
  };
}
