import crypto from 'node:crypto';
import type { DataSource } from 'typeorm';
import { AppError } from '../../common/app-error';
import { escapeHtml } from '../../common/html';
import type { Logger } from '../../common/logger';
import type { RateLimiter } from '../../common/rate-limiter';
import type { Config } from '../../config/env';
import type { Mailer } from '../mail/mailer';
import type { AttemptBudgets } from '../shared/attempt-budgets';
import { type AuthService, type AuthUser, type IssuedSession, isSession, type PendingConfirmation, type RequestMeta } from './auth.service';
import { normalizeEmail } from './auth.validation';
import { afterAnswer, guessLinkToken, issueMailToken, limitMailRequests, mailLink, safeRedirect, spendMailToken } from './mail-tokens';
import { MAIL_LINK_INVALID } from './password-recovery';
import { User } from './user.entity';

/** A confirmation link works this long, once (GoTrue's default for both). */
const LINK_MINUTES = 24 * 60;
const PER_EMAIL_PER_HOUR = 3;
const PER_IP_PER_HOUR = 20;

/**
 * The links that prove an address is the player's: the sign-up confirmation (REQUIRE_EMAIL_CONFIRMATION)
 * and the confirmation of a new address (GoTrue `PUT /user {email}`). Both are single-use; the
 * requests that send them answer the same whether or not an address has an account.
 */
export class EmailLinks {
  constructor(
    private readonly dataSource: DataSource,
    private readonly deps: { config: Config; auth: AuthService; mailer: Mailer; limiter: RateLimiter; budgets: AttemptBudgets; logger: Logger },
  ) {}

  /**
   * Sign-up, mailing the confirmation link when the server asks for one. Then an address that has an
   * account already gets the same answer as a new one (GoTrue does the same), and its owner a mail
   * saying someone tried: with confirmation on, sign-up no longer tells who has an account.
   */
  async signUp(
    input: { email: unknown; username: unknown; password: unknown },
    redirectTo: unknown,
    meta: RequestMeta = {},
  ): Promise<IssuedSession | PendingConfirmation> {
    let outcome: IssuedSession | PendingConfirmation;
    try {
      outcome = await this.deps.auth.signUp(input, meta);
    } catch (e) {
      if (!(e instanceof AppError) || e.code !== 'CONFLICT' || !this.deps.config.mail.requireEmailConfirmation) throw e;
      const email = normalizeEmail(input.email);
      afterAnswer(this.deps.logger, 'sign-up notice', () => this.mailAlreadyRegistered(email, meta.ip));
      const now = new Date();
      const user = Object.assign(new User(), { id: crypto.randomUUID(), email, username: String(input.username).trim(), createdAt: now, updatedAt: now });
      return { confirmationRequired: true, user };
    }
    if (!isSession(outcome)) {
      const pending = outcome;
      afterAnswer(this.deps.logger, 'sign-up confirmation', () => this.mailSignupLink(pending.user, this.redirect(redirectTo, '/auth'), meta.ip));
    }
    return outcome;
  }

  private async mailAlreadyRegistered(email: string, requesterIp: string | undefined): Promise<void> {
    await this.deps.mailer.send({
      to: email,
      requesterIp,
      subject: 'You already have a Taleforge account',
      text: `Someone (hopefully you) tried to sign up to Taleforge with this address, which already has an account. Nothing was changed. Log in instead; if you forgot your password, use "Forgot password?".\n`,
      html: `<p>Someone (hopefully you) tried to sign up to Taleforge with this address, which already has an account. Nothing was changed. Log in instead; if you forgot your password, use "Forgot password?".</p>`,
    });
  }

  /** GoTrue `POST /resend {type: 'signup'}`: a new confirmation link for an account still unconfirmed; the same answer for any address. */
  async resendSignup(rawEmail: unknown, redirectTo: unknown, meta: RequestMeta = {}): Promise<void> {
    const email = normalizeEmail(rawEmail);
    await this.limit(`confirm:${email}:${meta.ip ?? '-'}`, meta);
    const redirect = this.redirect(redirectTo, '/auth');
    afterAnswer(this.deps.logger, 'sign-up confirmation', async () => {
      const [user] = (await this.dataSource.query(
        'SELECT id, email, username FROM users WHERE email = $1 AND email_confirmed_at IS NULL AND disabled_at IS NULL',
        [email],
      )) as Array<{
        id: string;
        email: string;
        username: string;
      }>;
      if (user) await this.mailSignupLink(user, redirect, meta.ip);
    });
  }

  private async mailSignupLink(user: Pick<User, 'id' | 'email' | 'username'>, redirect: string, requesterIp: string | undefined): Promise<void> {
    const token = await this.dataSource.transaction((m) => issueMailToken(m, user.id, 'signup', LINK_MINUTES));
    const link = mailLink(this.deps.config.publicUrl, token, 'signup', redirect);
    await this.deps.mailer.send({
      to: user.email,
      requesterIp,
      subject: 'Confirm your Taleforge account',
      link,
      text: `Welcome to Taleforge, ${user.username}!\n\nOpen this link within 24 hours to confirm your email and sign in:\n\n${link}\n\nIf you did not sign up, ignore this mail: no account is used without this link.\n`,
      html: `<p>Welcome to Taleforge, ${escapeHtml(user.username)}!</p><p>Open this link within 24 hours to confirm your email and sign in:</p><p><a href="${escapeHtml(link)}">Confirm my email</a></p><p>If you did not sign up, ignore this mail: no account is used without this link.</p>`,
    });
  }

  /**
   * A new address for the account: it changes only when the link mailed to it is followed. Needs the
   * current password (unless the session came from a reset link): a stolen session must not move the
   * account to another inbox, from where a reset would take it. The old address is told. An address
   * that already has an account gets a mail saying so, and the caller the same answer as any other.
   */
  async requestEmailChange(user: AuthUser, rawEmail: unknown, currentPassword: unknown, redirectTo: unknown, meta: RequestMeta = {}): Promise<void> {
    const email = normalizeEmail(rawEmail);
    if (email === user.email) throw AppError.badInput('That is already your email address.', 'email');
    const recovering = !!user.recoveryUntil && user.recoveryUntil.getTime() > Date.now();
    if (!recovering) await this.deps.auth.checkCurrentPassword(user, currentPassword, meta, 'Enter your current password to change your email.');
    await this.limit(`email-change:${user.id}`, meta);
    const redirect = this.redirect(redirectTo, '/profile');
    afterAnswer(this.deps.logger, 'email change', async () => {
      const taken = ((await this.dataSource.query('SELECT 1 FROM users WHERE email = $1', [email])) as unknown[]).length > 0;
      if (taken) {
        await this.deps.mailer.send({
          to: email,
          requesterIp: meta.ip,
          subject: 'Someone tried to use this address on Taleforge',
          text: `Someone signed in to a Taleforge account asked to move it to this address, which already has an account. Nothing was changed. If it was you, sign in to that account instead, or reset its password.\n`,
          html: `<p>Someone signed in to a Taleforge account asked to move it to this address, which already has an account. Nothing was changed. If it was you, sign in to that account instead, or reset its password.</p>`,
        });
        return;
      }
      const token = await this.dataSource.transaction((m) => issueMailToken(m, user.id, 'email_change', LINK_MINUTES, email));
      const link = mailLink(this.deps.config.publicUrl, token, 'email_change', redirect);
      await this.deps.mailer.send({
        to: email,
        requesterIp: meta.ip,
        subject: 'Confirm your new Taleforge email',
        link,
        text: `Hello ${user.username},\n\nOpen this link within 24 hours to make this your Taleforge account's email:\n\n${link}\n\nIf you did not ask for this, ignore this mail: nothing changes without it.\n`,
        html: `<p>Hello ${escapeHtml(user.username)},</p><p>Open this link within 24 hours to make this your Taleforge account's email:</p><p><a href="${escapeHtml(link)}">Confirm my new email</a></p><p>If you did not ask for this, ignore this mail: nothing changes without it.</p>`,
      });
      await this.deps.mailer.send({
        to: user.email,
        alert: true,
        subject: 'Your Taleforge email is about to change',
        text: `Hello ${user.username},\n\nSomeone signed in to your account asked to change its email to ${email}. It changes only if the link sent there is opened. If this was not you, change your password now: that ends every other session.\n`,
        html: `<p>Hello ${escapeHtml(user.username)},</p><p>Someone signed in to your account asked to change its email to ${escapeHtml(email)}. It changes only if the link sent there is opened. If this was not you, change your password now: that ends every other session.</p>`,
      });
    });
  }

  /** Follows a sign-up link: the address is confirmed and a session opens (GoTrue signs the player in). */
  async verifySignup(rawToken: unknown, meta: RequestMeta = {}): Promise<IssuedSession> {
    const spent = await guessLinkToken(this.deps.budgets, meta.ip, () => spendMailToken(this.dataSource, rawToken, 'signup'));
    if (!spent) throw new AppError('UNAUTHENTICATED', MAIL_LINK_INVALID, { reason: 'otp_expired' });
    return this.deps.auth.openSession(spent.userId, 'email_link', meta);
  }

  /** Follows an email-change link: the account's address becomes the new one, unless another account took it meanwhile. */
  async verifyEmailChange(rawToken: unknown, meta: RequestMeta = {}): Promise<User> {
    const user = await guessLinkToken(this.deps.budgets, meta.ip, () =>
      this.dataSource.transaction(async (m) => {
        const spent = await spendMailToken(m, rawToken, 'email_change');
        if (!spent?.newEmail) return null;
        const [rows] = (await m.query(
          `UPDATE users SET email = $2, email_confirmed_at = now(), updated_at = now()
            WHERE id = $1 AND NOT EXISTS (SELECT 1 FROM users o WHERE o.email = $2) RETURNING id`,
          [spent.userId, spent.newEmail],
        )) as [Array<{ id: string }>, number];
        if (rows.length === 0) throw new AppError('CONFLICT', 'That address already has an account.', { field: 'email' });
        return m.getRepository(User).findOneByOrFail({ id: spent.userId });
      }),
    );
    if (!user) throw new AppError('UNAUTHENTICATED', MAIL_LINK_INVALID, { reason: 'otp_expired' });
    // Sessions remember the address with the account: every instance drops its copy.
    await this.deps.auth.forgetSessionsOf(user.id);
    return user;
  }

  redirect(raw: unknown, fallbackPath: string): string {
    return safeRedirect(this.deps.config, raw, fallbackPath);
  }

  private limit(key: string, meta: RequestMeta): Promise<void> {
    return limitMailRequests(
      this.deps.limiter,
      [
        [key, PER_EMAIL_PER_HOUR],
        [`links:ip:${meta.ip ?? '-'}`, PER_IP_PER_HOUR],
      ],
      'Too many requests for email links. Please wait a while and try again.',
    );
  }
}
