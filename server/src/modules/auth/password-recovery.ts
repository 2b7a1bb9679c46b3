import type { DataSource } from 'typeorm';
import { AppError } from '../../common/app-error';
import { escapeHtml } from '../../common/html';
import type { Logger } from '../../common/logger';
import type { RateLimiter } from '../../common/rate-limiter';
import type { Config } from '../../config/env';
import type { Mailer } from '../mail/mailer';
import type { AttemptBudgets } from '../shared/attempt-budgets';
import type { AuthService, IssuedSession, RequestMeta } from './auth.service';
import { normalizeEmail } from './auth.validation';
import { afterAnswer, guessLinkToken, issueMailToken, limitMailRequests, mailableUser, mailLink, safeRedirect, spendMailToken } from './mail-tokens';

/** A reset link works this long, once. */
const RECOVERY_TOKEN_MINUTES = 60;
/** Reset requests per email per hour (from anywhere) and per client address per hour. */
const PER_EMAIL_PER_HOUR = 3;
const PER_IP_PER_HOUR = 20;

export const MAIL_LINK_INVALID = 'Email link is invalid or has expired';

/**
 * Password reset by mail (GoTrue `POST /recover`, `GET|POST /verify`). A request answers the same
 * whether or not the email has an account, and at the same speed: the mail is sent after the answer.
 * A link is single-use and lives an hour; following it ends every session of the account and opens
 * one that may set a new password (AuthService.openRecoverySession).
 */
export class PasswordRecovery {
  constructor(
    private readonly dataSource: DataSource,
    private readonly deps: { config: Config; auth: AuthService; mailer: Mailer; limiter: RateLimiter; budgets: AttemptBudgets; logger: Logger },
  ) {}

  async request(rawEmail: unknown, redirectTo: unknown, meta: RequestMeta = {}): Promise<void> {
    const email = normalizeEmail(rawEmail);
    await limitMailRequests(
      this.deps.limiter,
      [
        // Per address and client: strangers asking elsewhere never lock the owner out (the mail budget
        // bounds what the address receives from everyone together).
        [`recover:email:${email}:${meta.ip ?? '-'}`, PER_EMAIL_PER_HOUR],
        [`recover:ip:${meta.ip ?? '-'}`, PER_IP_PER_HOUR],
      ],
      'Too many reset requests. Please wait a while and try again.',
    );
    const redirect = this.safeRedirect(redirectTo);
    afterAnswer(this.deps.logger, 'password reset', () => this.mailLink(email, redirect, meta.ip));
  }

  private async mailLink(email: string, redirect: string, requesterIp: string | undefined): Promise<void> {
    const user = await mailableUser(this.dataSource, email);
    if (!user) return;
    // One live link per account: a new request spends the older ones.
    const token = await this.dataSource.transaction((m) => issueMailToken(m, user.id, 'recovery', RECOVERY_TOKEN_MINUTES));
    const link = mailLink(this.deps.config.publicUrl, token, 'recovery', redirect);
    const name = escapeHtml(user.username);
    await this.deps.mailer.send({
      to: email,
      requesterIp,
      subject: 'Reset your Taleforge password',
      link,
      text: `Hello ${user.username},\n\nSomeone (hopefully you) asked to reset the password of your Taleforge account. Open this link within ${RECOVERY_TOKEN_MINUTES} minutes to choose a new one:\n\n${link}\n\nThe link works once. Opening it signs you out everywhere else. If you did not ask for this, ignore this mail: your password stays as it is.\n`,
      html: `<p>Hello ${name},</p><p>Someone (hopefully you) asked to reset the password of your Taleforge account. Open this link within ${RECOVERY_TOKEN_MINUTES} minutes to choose a new one:</p><p><a href="${escapeHtml(link)}">Choose a new password</a></p><p>The link works once. Opening it signs you out everywhere else. If you did not ask for this, ignore this mail: your password stays as it is.</p>`,
    });
  }

  /** Spends a reset token and opens the recovery session; INVALID for unknown, used or expired tokens. */
  async verify(rawToken: unknown, type: unknown, meta: RequestMeta = {}): Promise<IssuedSession> {
    if (type !== 'recovery') throw AppError.badInput('type must be recovery.', 'type');
    const spent = await guessLinkToken(this.deps.budgets, meta.ip, () => spendMailToken(this.dataSource, rawToken, 'recovery'));
    if (!spent) throw new AppError('UNAUTHENTICATED', MAIL_LINK_INVALID, { reason: 'otp_expired' });
    return this.deps.auth.openRecoverySession(spent.userId, meta);
  }

  /** Where a followed reset link lands (no open redirect). */
  safeRedirect(raw: unknown, fallbackPath = '/reset-password'): string {
    return safeRedirect(this.deps.config, raw, fallbackPath);
  }
}
