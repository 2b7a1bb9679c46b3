import crypto from 'node:crypto';
import { ourOrigin } from '../shared/public-base';
import express from 'express';
import { isAppError } from '../../common/app-error';
import type { Services } from '../../services';
import { CHECKOUT_OTHER_BROWSER } from './billing.service';
import type { Tier } from './tier.entity';

/** The HttpOnly cookie binding a checkout session to the browser it was handed to (path-scoped per session). */
const COOKIE = 'tf_checkout';

const STYLE = `
body{margin:0;min-height:100vh;display:flex;align-items:center;justify-content:center;background:#0b1628;color:#cdeffd;font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}
main{box-sizing:border-box;width:min(420px,92vw);background:#13233d;border:1px solid #24406b;border-radius:12px;padding:28px}
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
 * webhooks, and the browser goes back to /subscription. Only the browser the signed-in buyer opened the
 * checkout URL in can pay it (a one-time hand-off token becomes an HttpOnly SameSite=Strict cookie), and
 * only from a page of ours (Origin checked): a leaked URL or a cross-site form pays nothing.
 */
export function localCheckoutRouter(services: Services): express.Router {
  const r = express.Router();
  const publicUrl = services.config.publicUrl;
  const csp = [
    "default-src 'none'",
    `style-src 'sha256-${STYLE_HASH}'`,
    // The confirmation redirects to this page's own origin ('self'): links are relative, so a browser
    // that came in at 127.0.0.1 stays there, with its session.
    "form-action 'self'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
  ].join('; ');

  // Referrer-Policy same-origin, not no-referrer: under no-referrer browsers send `Origin: null` on the
  // confirm form's POST, which the Origin check below must refuse. Cross-origin requests get nothing.
  const send = (res: express.Response, status: number, title: string, body: string) => {
    res
      .status(status)
      .set({ 'Content-Security-Policy': csp, 'Cache-Control': 'no-store', 'X-Content-Type-Options': 'nosniff', 'Referrer-Policy': 'same-origin' })
      .type('html')
      .send(page(title, body));
  };
  const back = `<a class="button" href="/subscription">Back to subscriptions</a>`;

  const secure = new URL(publicUrl).protocol === 'https:';
  const browserSecret = (req: express.Request) => readCookie(req.headers.cookie, COOKIE);
  const otherBrowser = (res: express.Response) =>
    send(res, 403, 'Checkout unavailable', `<h1>Checkout unavailable</h1><p class="muted">${escapeHtml(CHECKOUT_OTHER_BROWSER)}</p>${back}`);

  r.get('/:sessionId', async (req, res) => {
    const found = await services.billing.localCheckout(req.params.sessionId);
    if (!found) return send(res, 404, 'Checkout not found', `<h1>Checkout not found</h1><p class="muted">This checkout link is not valid.</p>${back}`);
    const { session, tier } = found;
    const handoff = typeof req.query.handoff === 'string' ? req.query.handoff : '';
    if (handoff) {
      // The buyer's browser arrives from createCheckout: bind the session to it with an HttpOnly
      // cookie scoped to this checkout, then drop the token from the address bar (and from history).
      const secret = await services.billing.local.openInBrowser(session.id, handoff);
      if (secret) {
        const path = `/checkout/local/${encodeURIComponent(session.id)}`;
        res.setHeader('Set-Cookie', `${COOKIE}=${secret}; Path=${path}; Max-Age=86400; HttpOnly; SameSite=Strict${secure ? '; Secure' : ''}`);
      }
      res.set('Cache-Control', 'no-store');
      return res.redirect(303, `/checkout/local/${encodeURIComponent(session.id)}`);
    }
    if (!services.billing.local.belongsToBrowser(session, browserSecret(req))) return otherBrowser(res);
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
<a class="button" href="/subscription?checkout=cancelled">Cancel</a>`,
    );
  });

  r.post('/:sessionId/confirm', async (req, res) => {
    // A cross-site form (or a script elsewhere) must not pay: browsers always send Origin on POST.
    const origin = req.headers.origin;
    // A page of ours: the public origin, an allow-listed one, or a loopback alias of a loopback PUBLIC_URL.
    if (!ourOrigin(services.config, origin)) {
      return send(res, 403, 'Checkout failed', `<h1>Checkout failed</h1><p class="muted">This payment was not sent from Taleforge's checkout page.</p>${back}`);
    }
    try {
      await services.billing.confirmLocalCheckout(req.params.sessionId, browserSecret(req));
    } catch (e) {
      if (!isAppError(e)) throw e;
      if (e.code === 'FORBIDDEN') return otherBrowser(res);
      const status = e.code === 'NOT_FOUND' ? 404 : 409;
      return send(res, status, 'Checkout failed', `<h1>Checkout failed</h1><p class="muted">${escapeHtml(e.message)}</p>${back}`);
    }
    // 303: the browser follows with a GET, so a reload never re-posts the payment.
    res.redirect(303, '/subscription?checkout=success');
  });

  return r;
}

function formatPrice(tier: Tier): string {
  return `$${(tier.priceCents / 100).toFixed(2)}`;
}

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string);
}

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} · Taleforge</title><style>${STYLE}</style></head>
<body><main>${body}</main></body></html>`;
}

/** One cookie's value from a Cookie header (express has no cookie parser here, and needs none elsewhere). */
function readCookie(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}
