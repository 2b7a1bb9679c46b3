import express, { type Request } from 'express';
import { jsonBody, requestMeta } from '../../common/http';
import { AppError } from '../../common/app-error';
import { bearerToken } from '../../graphql/context';
import type { Services } from '../../services';
import type { SubscriptionStatusView } from './billing.types';
import type { Tier } from './tier.entity';

/**
 * SPEC §7 `/subscription/*` under /api, plus the payment webhook. Thin: BillingService has the rules.
 * Mounted by the app with no body parser in front: the webhook needs the exact bytes that were signed.
 */
export function billingRestRouter(services: Services, bodyLimit: number): express.Router {
  const r = express.Router();

  r.post('/webhook', express.raw({ type: () => true, limit: bodyLimit }), async (req, res) => {
    const raw = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
    const outcome = await services.billing.handleWebhook(raw, req.headers['stripe-signature']);
    res.json({ received: true, outcome });
  });

  r.use(jsonBody(bodyLimit));

  r.get('/tiers', async (_req, res) => {
    res.json((await services.billing.tiers()).map(presentTier));
  });

  r.get('/status', async (req, res) => {
    const user = await authenticated(services, req);
    res.json(presentStatus(await services.billing.status(user.id)));
  });

  r.get('/credits', async (req, res) => {
    const user = await authenticated(services, req);
    res.json({ credits: await services.billing.credits(user.id) });
  });

  r.post('/subscribe', async (req, res) => {
    const user = await authenticated(services, req);
    res.json({ success: true, ...presentStatus(await services.billing.subscribe(user, body(req).tierId)) });
  });

  r.post('/create-checkout', async (req, res) => {
    const user = await authenticated(services, req);
    res.json(await services.billing.createCheckout(user, body(req).tierId, requestMeta(req).origin));
  });

  // Manage Subscription: Stripe's Customer Portal, or this app's own page for the built-in checkout.
  r.post('/manage', async (req, res) => {
    const user = await authenticated(services, req);
    res.json(await services.billing.manageUrl(user, requestMeta(req).origin));
  });

  r.get('/payments', async (req, res) => {
    const user = await authenticated(services, req);
    res.json(await services.billing.pastPayments(user.id));
  });

  return r;
}

async function authenticated(services: Services, req: Request) {
  const user = await services.auth.authenticate(bearerToken(req.headers.authorization));
  if (!user) throw AppError.unauthenticated();
  return user;
}

function body(req: Request): Record<string, unknown> {
  const b: unknown = req.body;
  if (!b || typeof b !== 'object' || Array.isArray(b)) throw AppError.badInput('Expected a JSON object body.');
  return b as Record<string, unknown>;
}

/** SPEC §3 Tier, with its snake_case field names. */
function presentTier(t: Tier) {
  return {
    id: t.id,
    name: t.name,
    price: t.price,
    monthly_credits: t.monthlyCredits,
    max_context_tokens: t.maxContextTokens,
    description: t.description,
    features: t.features,
  };
}

/** SPEC §3 Subscription status. */
function presentStatus(s: SubscriptionStatusView) {
  return {
    tier: { id: s.tier.id, name: s.tier.name },
    credits: s.credits,
    maxContextTokens: s.maxContextTokens,
    active: s.active,
    endDate: s.endDate?.toISOString() ?? null,
  };
}
