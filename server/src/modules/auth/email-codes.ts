import crypto from 'node:crypto';
import type { DataSource } from 'typeorm';
import { AppError } from '../../common/app-error';
import { escapeHtml } from '../../common/html';
import type { Logger } from '../../common/logger';
import type { RateLimiter } from '../../common/rate-limiter';
import type { Mailer } from '../mail/mailer';
import type { AttemptBudgets } from '../shared/attempt-budgets';
import type { AuthService, IssuedSession, RequestMeta } from './auth.service';
import { normalizeEmail } from './auth.validation';
import { afterAnswer, limitMailRequests, mailableUser } from './mail-tokens';
import { hashToken } from './tokens';

const CODE_MINUTES = 10;
const PER_EMAIL_PER_HOUR = 5;
const PER_IP_PER_HOUR = 30;
/** Wrong codes for one email before its live code is spent: 5 guesses in a million. */
const MAX_WRONG = 5;
const INVALID = 'Token has expired or is invalid';

/**
 * Sign-in by a 6-digit code mailed to the address (GoTrue `POST /otp`, then `POST /verify` with
 * type 'email'). The request answers the same whether or not the email has an account, and mails only
 * existing accounts: sign-up needs a username, so a code never creates an account. A session opened
 * by a code is aal1 like a password's: an account with MFA still needs its authenticator code.
 */
export class EmailCodes {
  constructor(
    private readonly dataSource: DataSource,
    private readonly deps: { auth: AuthService; mailer: Mailer; limiter: RateLimiter; budgets: AttemptBudgets; logger: Logger },
  ) {}

  async request(rawEmail: unknown, meta: RequestMeta = {}): Promise<void> {
    const email = normalizeEmail(rawEmail);
    await limitMailRequests(
      this.deps.limiter,
      [
        // Per address and client: strangers asking elsewhere never lock the owner out (the mail budget
        // bounds what the address receives from everyone together).
        [`otp:email:${email}:${meta.ip ?? '-'}`, PER_EMAIL_PER_HOUR],
        [`otp:ip:${meta.ip ?? '-'}`, PER_IP_PER_HOUR],
      ],
      'Too many code requests. Please wait a while and try again.',
    );
    afterAnswer(this.deps.logger, 'sign-in code', () => this.mailCode(email, meta.ip));
  }

  private async mailCode(email: string, requesterIp: string | undefined): Promise<void> {
    const user = await mailableUser(this.dataSource, email);
    if (!user) return;
    const code = crypto.randomInt(0, 1_000_000).toString().padStart(6, '0');
    await this.dataSource.transaction(async (m) => {
      // One live code per account: a new one replaces the last.
      await m.query(`DELETE FROM auth_tokens WHERE user_id = $1 AND kind = 'otp'`, [user.id]);
      await m.query(`INSERT INTO auth_tokens (user_id, kind, token_hash, expires_at) VALUES ($1, 'otp', $2, now() + make_interval(mins => $3))`, [
        user.id,
        codeHash(user.id, code),
        CODE_MINUTES,
      ]);
    });
    await this.deps.mailer.send({
      to: email,
      requesterIp,
      subject: `Your Taleforge sign-in code: ${code}`,
      text: `Hello ${user.username},\n\nYour sign-in code is ${code}. It works once, for ${CODE_MINUTES} minutes.\n\nIf you did not ask for it, ignore this mail: nobody can sign in without it.\n`,
      html: `<p>Hello ${escapeHtml(user.username)},</p><p>Your sign-in code is <strong style="font-size:1.4em;letter-spacing:0.2em">${code}</strong>. It works once, for ${CODE_MINUTES} minutes.</p><p>If you did not ask for it, ignore this mail: nobody can sign in without it.</p>`,
    });
  }

  /**
   * A guess at the address's live code. It is counted before the code is compared, so a burst of
   * guesses compares at most MAX_WRONG; once they are spent, so is the code.
   */
  async verify(rawEmail: unknown, rawCode: unknown, meta: RequestMeta = {}): Promise<IssuedSession> {
    const email = normalizeEmail(rawEmail);
    const code = typeof rawCode === 'string' ? rawCode.trim() : '';
    const key = `otp:${email}`;
    const rows = (await this.dataSource.query('SELECT id FROM users WHERE email = $1', [email])) as Array<{ id: string }>;
    const userId = rows[0]?.id;
    const attempt = await this.deps.budgets.take(key, MAX_WRONG, CODE_MINUTES * 60);
    if (!attempt.allowed) {
      if (userId) await this.spendCode(userId);
      throw new AppError('RATE_LIMITED', 'Too many wrong codes. Ask for a new code in a few minutes.', { retryAfterSeconds: attempt.retryAfterSeconds });
    }
    const [spent] =
      userId && /^\d{6}$/.test(code)
        ? ((await this.dataSource.query(
            `UPDATE auth_tokens SET used_at = now()
              WHERE user_id = $1 AND kind = 'otp' AND token_hash = $2 AND used_at IS NULL AND expires_at > now() RETURNING user_id`,
            [userId, codeHash(userId, code)],
          )) as [Array<{ user_id: string }>, number])
        : [[]];
    if (!userId || spent.length === 0) {
      // The last allowed guess failed: the live code is spent, so guessing on cannot find it.
      if (attempt.count >= MAX_WRONG && userId) await this.spendCode(userId);
      throw new AppError('UNAUTHENTICATED', INVALID, { reason: 'otp_expired' });
    }
    await this.deps.budgets.refund(key);
    return this.deps.auth.openSession(userId, 'otp', meta);
  }

  private async spendCode(userId: string): Promise<void> {
    await this.dataSource.query(`DELETE FROM auth_tokens WHERE user_id = $1 AND kind = 'otp'`, [userId]);
  }
}

function codeHash(userId: string, code: string): string {
  return hashToken(`otp:${userId}:${code}`);
}
