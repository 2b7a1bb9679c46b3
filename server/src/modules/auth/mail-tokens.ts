import type { DataSource, EntityManager } from 'typeorm';
import { AppError } from '../../common/app-error';
import type { Logger } from '../../common/logger';
import type { RateLimiter } from '../../common/rate-limiter';
import type { Config } from '../../config/env';
import type { AttemptBudgets } from '../shared/attempt-budgets';
import { hashToken, newRefreshToken } from './tokens';

/** What a mailed link does: reset the password, confirm a new address, confirm a sign-up. */
export type MailTokenKind = 'recovery' | 'email_change' | 'signup';

/**
 * Issues a single-use link token (only its SHA-256 is stored). One live token per account and kind: a
 * new one spends the older ones, so only the latest mail works.
 */
export async function issueMailToken(m: EntityManager, userId: string, kind: MailTokenKind, minutes: number, newEmail: string | null = null): Promise<string> {
  const token = newRefreshToken();
  await m.query(`UPDATE auth_tokens SET used_at = now() WHERE user_id = $1 AND kind = $2 AND used_at IS NULL`, [userId, kind]);
  await m.query(`INSERT INTO auth_tokens (user_id, kind, token_hash, expires_at, new_email) VALUES ($1, $2, $3, now() + make_interval(mins => $4), $5)`, [
    userId,
    kind,
    hashToken(token),
    minutes,
    newEmail,
  ]);
  return token;
}

/** Spends a live token of this kind, answering its account (and new address), or null when unknown, used or expired. */
export async function spendMailToken(
  db: DataSource | EntityManager,
  rawToken: unknown,
  kind: MailTokenKind,
): Promise<{ userId: string; newEmail: string | null } | null> {
  if (typeof rawToken !== 'string' || rawToken.length < 16 || rawToken.length > 512) return null;
  const [rows] = (await db.query(
    `UPDATE auth_tokens SET used_at = now()
      WHERE token_hash = $1 AND kind = $2 AND used_at IS NULL AND expires_at > now() RETURNING user_id, new_email`,
    [hashToken(rawToken), kind],
  )) as [Array<{ user_id: string; new_email: string | null }>, number];
  return rows[0] ? { userId: rows[0].user_id, newEmail: rows[0].new_email } : null;
}

/** Made-up or spent link tokens one client may present per window (tokens are 256 random bits: this bounds the work, not the odds). */
const LINK_GUESSES = 30;
const LINK_GUESS_WINDOW_SECONDS = 600;

/**
 * One guess at a mailed link's token from this client: counted before the token is looked up (a burst
 * looks up at most LINK_GUESSES), given back when the token was live. `spend` answers null for an
 * unknown, used or expired token.
 */
export async function guessLinkToken<T>(budgets: AttemptBudgets, ip: string | undefined, spend: () => Promise<T | null>): Promise<T | null> {
  const key = `link:${ip ?? '-'}`;
  const attempt = await budgets.take(key, LINK_GUESSES, LINK_GUESS_WINDOW_SECONDS);
  if (!attempt.allowed) {
    throw new AppError('RATE_LIMITED', 'Too many invalid links from this address. Please wait a few minutes and try again.', {
      retryAfterSeconds: attempt.retryAfterSeconds,
    });
  }
  const found = await spend();
  if (found !== null) await budgets.refund(key);
  return found;
}

/** The link a mail carries: GoTrue's GET /verify, which spends the token and sends the browser on. */
export function mailLink(publicUrl: string, token: string, type: MailTokenKind, redirect: string): string {
  return `${publicUrl}/api/auth/v1/verify?token=${token}&type=${type}&redirect_to=${encodeURIComponent(redirect)}`;
}

/** Where a followed link lands: a page of this app, or of an allowed origin (CORS_ORIGINS); never elsewhere (no open redirect). */
export function safeRedirect(config: Pick<Config, 'publicUrl' | 'ops'>, raw: unknown, fallbackPath: string): string {
  const fallback = `${config.publicUrl}${fallbackPath}`;
  if (typeof raw !== 'string' || raw === '') return fallback;
  try {
    const u = new URL(raw);
    const allowed = new Set([new URL(config.publicUrl).origin, ...config.ops.corsOrigins]);
    return allowed.has(u.origin) ? u.toString() : fallback;
  } catch {
    return fallback;
  }
}

/** Hourly budgets of a request that sends mail (per address, per client…): the first one spent refuses it. */
export async function limitMailRequests(limiter: RateLimiter, budgets: ReadonlyArray<readonly [string, number]>, message: string): Promise<void> {
  for (const [key, limit] of budgets) {
    const r = await limiter.hit(key, limit, 3600);
    if (!r.allowed) throw new AppError('RATE_LIMITED', message, { retryAfterSeconds: r.retryAfterSeconds });
  }
}

/** Mail work run after the answer: whether an address has an account must not show in how long the answer takes. */
export function afterAnswer(logger: Logger, what: string, work: () => Promise<void>): void {
  setImmediate(() => {
    work().catch((err: unknown) => logger.error(`${what} mail failed`, { err }));
  });
}

/** The account an address names, when it may be mailed (not disabled). */
export async function mailableUser(db: DataSource, email: string): Promise<{ id: string; username: string } | null> {
  const rows = (await db.query('SELECT id, username FROM users WHERE email = $1 AND disabled_at IS NULL', [email])) as Array<{ id: string; username: string }>;
  return rows[0] ?? null;
}
