import crypto from 'node:crypto';
import express from 'express';
import { isAppError } from '../../common/app-error';
import type { Services } from '../../services';
import type { Tier } from './tier.entity';

const STYLE = `
body{margin:0;min-height:100vh;display:flex;align-items:center;justify-content:center;background:#0b1628;color:#cdeffd;font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}
main{width:min(420px,92vw);background:#13233d;border:1px solid #24406b;border-radius:12px;padding:28px}
h1{margin:0 0 4px;font-size:1.4rem}.muted{color:#8fb3cf;font-size:.9rem}
.price{font-size:2rem;font-weight:700;margin:18px 0 4px}ul{padding-left:1.2rem;line-height:1.6}
.note{background:#1b2f52;border-radius:8px;padding:10px 12px;font-size:.85rem;color:#a9cde6}
button,a.button{display:block;width:100%;box-sizing:border-box;margin-top:14px;padding:12px;border:0;border-radius:8px;font-size:1rem;text-align:center;text-decoration:none;cursor:pointer}
button{background:#2bb3e6;color:#07121f;font-weight:700}a.button{background:transparent;color:#8fb3cf;border:1px solid #24406b}
`;
// The page carries no script at all, and its one stylesheet is allowed by hash rather than 'unsafe-inline'.
const STYLE_HASH = crypto.createHash('sha256').update(STYLE, 'utf8').digest('base64');

/**
 * The embedded payment provider's checkout page (no Stripe keys): the player confirms a test payment
 * with a plain form POST; the purchase then completes through the same event handling as Stripe's
 * webhooks, and the browser goes back to /subscription.
 */
export function localCheckoutRouter(services: Services): express.Router {
  const r = express.Router();
  const publicUrl = services.config.publicUrl;
  const csp = [
    "default-src 'none'",
    `style-src 'sha256-${STYLE_HASH}'`,
    // The confirmation redirects to PUBLIC_URL, which browsers also check against form-action.
    `form-action 'self' ${new URL(publicUrl).origin}`,
    "base-uri 'none'",
    "frame-ancestors 'none'",
  ].join('; ');

  const send = (res: express.Response, status: number, title: string, body: string) => {
    res
      .status(status)
      .set({ 'Content-Security-Policy': csp, 'Cache-Control': 'no-store', 'X-Content-Type-Options': 'nosniff', 'Referrer-Policy': 'no-referrer' })
      .type('html')
      .send(page(title, body));
  };
  const back = `<a class="button" href="${escapeHtml(`${publicUrl}/subscription`)}">Back to subscriptions</a>`;

  r.get('/:sessionId', async (req, res) => {
    const found = await services.billing.localCheckout(req.params.sessionId);
    if (!found) return send(res, 404, 'Checkout not found', `<h1>Checkout not found</h1><p class="muted">This checkout link is not valid.</p>${back}`);
    const { session, tier } = found;
    if (session.status === 'complete') {
      return send(res, 200, 'Payment complete', `<h1>Payment complete</h1><p class="muted">You are subscribed to ${escapeHtml(tier.name)}.</p>${back}`);
    }
    if (session.status !== 'open') {
      return send(res, 410, 'Checkout expired', `<h1>Checkout expired</h1><p class="muted">Please start the checkout again.</p>${back}`);
    }
    const action = `/checkout/local/${encodeURIComponent(session.id)}/confirm`;
    send(
      res,
      200,
      `Subscribe to ${tier.name}`,
      `<h1>Taleforge ${escapeHtml(tier.name)}</h1>
<p class="muted">${escapeHtml(tier.description)}</p>
<p class="price">${escapeHtml(formatPrice(tier))}<span class="muted"> / month</span></p>
<ul>${tier.features.map((f) => `<li>${escapeHtml(f)}</li>`).join('')}</ul>
<p class="note">Test checkout: this server has no payment provider configured, so no card is needed and nothing is charged.</p>
<form method="post" action="${escapeHtml(action)}"><button type="submit">Pay ${escapeHtml(formatPrice(tier))} (test payment)</button></form>
<a class="button" href="${escapeHtml(`${publicUrl}/subscription?checkout=cancelled`)}">Cancel</a>`,
    );
  });

  r.post('/:sessionId/confirm', async (req, res) => {
    try {
      await services.billing.confirmLocalCheckout(req.params.sessionId);
    } catch (e) {
      if (!isAppError(e)) throw e;
      const status = e.code === 'NOT_FOUND' ? 404 : 409;
      return send(res, status, 'Checkout failed', `<h1>Checkout failed</h1><p class="muted">${escapeHtml(e.message)}</p>${back}`);
    }
    // 303: the browser follows with a GET, so a reload never re-posts the payment.
    res.redirect(303, `${publicUrl}/subscription?checkout=success`);
  });

  return r;
}

function formatPrice(tier: Tier): string {
  return `$${(tier.priceCents / 100).toFixed(2)}`;
}

export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string);
}

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} · Taleforge</title><style>${STYLE}</style></head>
<body><main>${body}</main></body></html>`;
}
