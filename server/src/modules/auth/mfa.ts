import { qrcode } from '../../common/lazy-modules';
import type { DataSource } from 'typeorm';
import { AppError } from '../../common/app-error';
import { escapeHtml } from '../../common/html';
import type { Logger } from '../../common/logger';
import type { RateLimiter } from '../../common/rate-limiter';
import type { Mailer } from '../mail/mailer';
import type { AttemptBudgets } from '../shared/attempt-budgets';
import type { AuthService, AuthUser, IssuedSession, RequestMeta } from './auth.service';
import { afterAnswer } from './mail-tokens';
import { MfaChallenge, MfaFactor } from './session.entity';
import { matchTotp, newTotpSecret, otpauthUri } from './totp';

/** GoTrue's limit on factors per account. */
const MAX_FACTORS = 10;
const CHALLENGE_MINUTES = 5;
/** Wrong codes per account per window before verification pauses (a 6-digit code must not be guessable). */
const FAILURES_PER_WINDOW = 5;
const FAILURE_WINDOW_SECONDS = 300;
/** Challenges per account per window: each is a row, and a sign-in needs one or two. */
const CHALLENGES_PER_WINDOW = 30;
const ISSUER = 'Taleforge';
/** How recent a password proof adding an authenticator needs. */
const REAUTH_MINUTES = 10;

export interface EnrolledFactor {
  id: string;
  type: 'totp';
  friendly_name: string | null;
  totp: { qr_code: string; secret: string; uri: string };
}

/** A factor as GoTrue lists it on the user (`factors`). */
export function goTrueFactor(f: MfaFactor) {
  return {
    id: f.id,
    friendly_name: f.friendlyName ?? undefined,
    factor_type: f.factorType,
    status: f.status,
    created_at: f.createdAt.toISOString(),
    updated_at: f.updatedAt.toISOString(),
  };
}

/**
 * TOTP multi-factor authentication with GoTrue's calls: enrol (a secret and its QR code), challenge,
 * verify (the session becomes aal2) and unenrol. Once an account has a verified factor, the app serves
 * it only at aal2 (AuthService.authenticate), so a password or a mailed code alone no longer signs in.
 */
export class MfaService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly deps: {
      auth: AuthService;
      limiter: RateLimiter;
      budgets: AttemptBudgets;
      /** The owner is told whenever an authenticator is added or removed. */
      mailer: Mailer;
      logger: Logger;
    },
  ) {}

  async factors(userId: string): Promise<MfaFactor[]> {
    return this.dataSource.getRepository(MfaFactor).find({ where: { userId }, order: { createdAt: 'ASC' } });
  }

  /**
   * Starts adding an authenticator. It needs a fresh proof of the password: this session signed in with
   * it (or entered it again) within REAUTH_MINUTES, or `currentPassword` now. A stolen access token
   * alone must not put a thief's authenticator on the account, which would then lock its owner out.
   */
  async enroll(
    user: AuthUser,
    input: { factorType?: unknown; friendlyName?: unknown; issuer?: unknown; currentPassword?: unknown },
    meta: RequestMeta = {},
  ): Promise<EnrolledFactor> {
    if (input.factorType !== 'totp') throw AppError.badInput('factor_type must be totp: only authenticator apps are supported.', 'factor_type');
    const friendlyName = optionalText(input.friendlyName, 'friendly_name');
    const issuer = optionalText(input.issuer, 'issuer') ?? ISSUER;
    // A signed-in thief with only a password must not add their own authenticator to a protected account.
    if (user.mfaEnabled && user.aal !== 'aal2')
      throw new AppError('FORBIDDEN', 'Enter a code from your authenticator app first.', { reason: 'insufficient_aal' });
    if (input.currentPassword !== undefined && input.currentPassword !== null && input.currentPassword !== '') {
      await this.deps.auth.checkCurrentPassword(user, input.currentPassword, meta);
    } else if (!(await this.deps.auth.recentlyReauthenticated(user.sessionId, REAUTH_MINUTES))) {
      throw new AppError('FORBIDDEN', 'Enter your password again to add an authenticator.', { reason: 'reauthentication_needed' });
    }
    const repo = this.dataSource.getRepository(MfaFactor);
    // Abandoned enrolments (never verified) are replaced rather than piling up.
    await repo.delete({ userId: user.id, status: 'unverified' });
    if ((await repo.countBy({ userId: user.id })) >= MAX_FACTORS)
      throw AppError.badInput(`An account can have at most ${MAX_FACTORS} authenticators.`, 'factor_type');
    if (friendlyName && (await repo.existsBy({ userId: user.id, friendlyName }))) {
      throw new AppError('CONFLICT', `You already have an authenticator named "${friendlyName}".`, { field: 'friendly_name' });
    }
    const secret = newTotpSecret();
    const factor = await repo.save({ userId: user.id, friendlyName, factorType: 'totp', secret, status: 'unverified' });
    const uri = otpauthUri(secret, issuer, user.email);
    const qr = await qrcode().toString(uri, { type: 'svg', errorCorrectionLevel: 'M', margin: 1 });
    return { id: factor.id, type: 'totp', friendly_name: friendlyName, totp: { qr_code: qr, secret, uri } };
  }

  async challenge(user: AuthUser, factorId: unknown): Promise<{ id: string; type: 'totp'; expires_at: number }> {
    const factor = await this.ownFactor(user, factorId);
    const r = await this.deps.limiter.hit(`mfa:challenge:${user.id}`, CHALLENGES_PER_WINDOW, FAILURE_WINDOW_SECONDS);
    if (!r.allowed)
      throw new AppError('RATE_LIMITED', 'Too many code requests. Please wait a few minutes and try again.', { retryAfterSeconds: r.retryAfterSeconds });
    const expiresAt = new Date(Date.now() + CHALLENGE_MINUTES * 60_000);
    const c = await this.dataSource.getRepository(MfaChallenge).save({ factorId: factor.id, expiresAt });
    return { id: c.id, type: 'totp', expires_at: Math.floor(expiresAt.getTime() / 1000) };
  }

  /**
   * Checks a code against a challenge. Right: the factor is verified (first time: enrolment done, and
   * every other session of the account ends), this session becomes aal2 and fresh tokens are issued.
   */
  async verify(user: AuthUser, factorId: unknown, challengeId: unknown, code: unknown): Promise<IssuedSession> {
    const factor = await this.ownFactor(user, factorId);
    if (typeof challengeId !== 'string' || !UUID.test(challengeId)) throw AppError.badInput('challenge_id is required.', 'challenge_id');
    const digits = sixDigits(code);
    return this.guess(user, async () => {
      const outcome = await this.check(user, factor.id, challengeId, digits);
      if (outcome.kind === 'expired')
        throw new AppError('UNAUTHENTICATED', 'This code request has expired. Please try again.', { reason: 'mfa_challenge_expired' });
      return outcome;
    });
  }

  /** Challenge and verify in one step, against the account's verified factor the code matches (sign-in): one guess, whatever the number of factors. */
  async verifyAny(user: AuthUser, code: unknown): Promise<IssuedSession> {
    const verified = (await this.factors(user.id)).filter((f) => f.status === 'verified');
    if (verified.length === 0) throw AppError.badInput('This account has no authenticator app.', 'code');
    const digits = sixDigits(code);
    return this.guess(user, async () => {
      for (const f of verified) {
        const c = await this.challenge(user, f.id);
        const outcome = await this.check(user, f.id, c.id, digits);
        if (outcome.kind === 'ok') return outcome;
      }
      return { kind: 'wrong' as const };
    });
  }

  /**
   * One guess at the account's codes: counted before the code is compared (a burst of guesses compares
   * at most FAILURES_PER_WINDOW), given back when it was right.
   */
  private async guess(user: AuthUser, compare: () => Promise<CheckOutcome>): Promise<IssuedSession> {
    const key = `mfa:${user.id}`;
    const attempt = await this.deps.budgets.take(key, FAILURES_PER_WINDOW, FAILURE_WINDOW_SECONDS);
    if (!attempt.allowed) {
      throw new AppError('RATE_LIMITED', 'Too many wrong codes. Please wait a few minutes and try again.', { retryAfterSeconds: attempt.retryAfterSeconds });
    }
    let outcome: CheckOutcome;
    try {
      outcome = await compare();
    } catch (e) {
      await this.deps.budgets.refund(key); // never compared (an expired challenge, a database error)
      throw e;
    }
    if (outcome.kind === 'wrong') {
      throw new AppError('INVALID_CREDENTIALS', 'That code is not correct. Check your authenticator app and try again.', { reason: 'mfa_verification_failed' });
    }
    await this.deps.budgets.refund(key);
    this.deps.auth.sessionsEnded(outcome.ended);
    await this.deps.auth.forgetSessionsOf(user.id);
    if (outcome.firstVerification) this.tellOwner(user, 'added');
    return outcome.session;
  }

  /** Compares a code against one factor's live challenge, under the factor's row lock (a code is never accepted twice). */
  private async check(user: AuthUser, factorId: string, challengeId: string, code: string): Promise<CheckOutcome | { kind: 'expired' }> {
    return this.dataSource.transaction(async (m) => {
      // Locked: two requests with the same code cannot both pass the replay check.
      const [f] = (await m.query(`SELECT id, secret, status, last_used_step FROM mfa_factors WHERE id = $1 FOR UPDATE`, [factorId])) as Array<{
        id: string;
        secret: string;
        status: string;
        last_used_step: string | null;
      }>;
      const [c] = (await m.query(`SELECT id FROM mfa_challenges WHERE id = $1 AND factor_id = $2 AND verified_at IS NULL AND expires_at > now() FOR UPDATE`, [
        challengeId,
        factorId,
      ])) as Array<{ id: string }>;
      if (!f || !c) return { kind: 'expired' as const };
      const step = matchTotp(f.secret, code, f.last_used_step === null ? null : Number(f.last_used_step));
      if (step === null) return { kind: 'wrong' as const };
      await m.query(`UPDATE mfa_challenges SET verified_at = now() WHERE id = $1`, [c.id]);
      await m.query(`UPDATE mfa_factors SET status = 'verified', last_used_step = $2, updated_at = now() WHERE id = $1`, [f.id, step]);
      const first = f.status !== 'verified';
      const up = await this.deps.auth.upgradeSession(m, user, first);
      return { kind: 'ok' as const, session: up.session, ended: up.ended, firstVerification: first };
    });
  }

  /** Removes a factor; removing a verified one needs an aal2 session (a password alone cannot turn MFA off). */
  async unenroll(user: AuthUser, factorId: unknown): Promise<{ id: string }> {
    const factor = await this.ownFactor(user, factorId);
    if (factor.status === 'verified' && user.aal !== 'aal2') {
      throw new AppError('FORBIDDEN', 'Enter a code from your authenticator app first.', { reason: 'insufficient_aal' });
    }
    await this.dataSource.getRepository(MfaFactor).delete({ id: factor.id });
    await this.deps.auth.forgetSessionsOf(user.id);
    if (factor.status === 'verified') this.tellOwner(user, 'removed');
    return { id: factor.id };
  }

  /** An alert to the account's address (after the answer): whoever changed the authenticators, the owner knows. */
  private tellOwner(user: AuthUser, change: 'added' | 'removed'): void {
    const what =
      change === 'added'
        ? 'An authenticator app was added to your account: signing in now needs a code from it.'
        : 'An authenticator app was removed from your account.';
    const advice = 'If this was not you, reset your password now (Forgot password? on the sign-in page) and contact support.';
    afterAnswer(this.deps.logger, 'authenticator notice', () =>
      this.deps.mailer.send({
        to: user.email,
        alert: true,
        subject: `An authenticator was ${change} on your Taleforge account`,
        text: `Hello ${user.username},\n\n${what}\n\n${advice}\n`,
        html: `<p>Hello ${escapeHtml(user.username)},</p><p>${what}</p><p>${advice}</p>`,
      }),
    );
  }

  private async ownFactor(user: AuthUser, factorId: unknown): Promise<MfaFactor> {
    if (typeof factorId !== 'string' || !UUID.test(factorId)) throw AppError.notFound('Factor');
    const f = await this.dataSource.getRepository(MfaFactor).findOneBy({ id: factorId, userId: user.id });
    if (!f) throw AppError.notFound('Factor');
    return f;
  }
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

type CheckOutcome = { kind: 'wrong' } | { kind: 'ok'; session: IssuedSession; ended: string[]; firstVerification: boolean };

function sixDigits(code: unknown): string {
  if (typeof code !== 'string' || !/^\s*\d{6}\s*$/.test(code)) throw AppError.badInput('Enter the 6-digit code from your authenticator app.', 'code');
  return code.trim();
}

function optionalText(v: unknown, field: string): string | null {
  if (v === undefined || v === null || v === '') return null;
  if (typeof v !== 'string' || v.length > 64 || /[<>]/.test(v)) throw AppError.badInput(`${field} must be text of at most 64 characters.`, field);
  return v.trim() || null;
}
