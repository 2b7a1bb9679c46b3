/**
 * Accounts and sessions: sign-up (the account with its settings, profile and Free subscription in one
 * transaction), sign-in (rate-limited per IP and per email, the same answer whether or not the
 * email exists), single-use rotating refresh tokens (a spent one revokes its whole session),
 * sign-out by scope, account updates, and the session check every request makes (cached for
 * SESSION_CACHE_SECONDS, forgotten at once here and on the other instances when a session is
 * revoked). One class because these share the session store, its cache and the token signer; the
 * mailed links and codes (email-links.ts, email-codes.ts), MFA (mfa.ts) and password recovery live
 * beside it and open or upgrade their sessions through it.
 */
import crypto from 'node:crypto';
import type { DataSource, EntityManager } from 'typeorm';
import { AppError } from '../../common/app-error';
import { FreshCache } from '../../common/fresh-cache';
import type { RateLimiter } from '../../common/rate-limiter';
import type { Config } from '../../config/env';
import type { SubscriptionService } from '../billing/subscription.service';
import { UserCharacterProfile } from '../profile/character-profile.entity';
import { UserSettings } from '../profile/user-settings.entity';
import type { AttemptBudgets } from '../shared/attempt-budgets';
import { AppSecret } from './app-secret.entity';
import { normalizeEmail, validatePassword, validateUsername } from './auth.validation';
import { hashPassword, verifyPassword } from './password';
import { RefreshToken, Session } from './session.entity';
import { type Aal, AccessTokens, hashToken, newRefreshToken } from './tokens';
import { User } from './user.entity';

export interface RequestMeta {
  ip?: string;
  userAgent?: string;
  /** The browser page's origin (the Origin header), for links back to where the player is. */
  origin?: string;
}

export interface IssuedSession {
  accessToken: string;
  refreshToken: string;
  expiresAt: number;
  expiresIn: number;
  tokenType: 'bearer';
  user: User;
  sessionId: string;
  aal: Aal;
  /** The account has a verified TOTP factor and this session is still aal1: the code comes next. */
  mfaRequired: boolean;
}

/** How a session was opened (the token's `amr`). */
export type AuthMethod = 'password' | 'otp' | 'recovery' | 'email_link';

/** A sign-up that waits for its confirmation link (REQUIRE_EMAIL_CONFIRMATION): no session yet. */
export interface PendingConfirmation {
  confirmationRequired: true;
  user: User;
}

export function isSession(outcome: IssuedSession | PendingConfirmation): outcome is IssuedSession {
  return !('confirmationRequired' in outcome);
}

/** Who is calling, as resolved from a valid access token of a live session. */
export interface AuthUser {
  id: string;
  email: string;
  username: string;
  createdAt: Date;
  sessionId: string;
  /** Set on a session a reset link opened: until then it may set a password without the current one. */
  recoveryUntil?: Date | null;
  aal: Aal;
  /** The account has a verified MFA factor: the app serves its sessions only at aal2. */
  mfaEnabled: boolean;
}

const INVALID_LOGIN_MESSAGE = 'Incorrect email or password.';
/** How long a session opened by a reset link may set a password without the current one. */
const RECOVERY_SESSION_MINUTES = 15;
const ACCOUNT_DISABLED_MESSAGE = 'This account has been disabled. Contact support if you think this is a mistake.';
const RATE_LIMITED_MESSAGE = 'Too many attempts. Please wait a moment and try again.';

/** A live session's user as the session check reads it (accounts never change once created). */
type SessionUser = Omit<AuthUser, 'sessionId'>;

export class AuthService {
  /**
   * Session checks by session id (null = revoked or unknown; a revoked session never comes back).
   * Every request of a signed-in player needs one, so it is kept for SESSION_CACHE_SECONDS; a
   * revocation forgets it here at once and, through onSessionRevoked, on the other instances.
   */
  private readonly sessions: FreshCache<string, SessionUser | null>;
  private readonly revokedListeners = new Set<(sessionId: string) => void>();

  private constructor(
    private readonly dataSource: DataSource,
    private readonly config: Config,
    private readonly tokens: AccessTokens,
    private readonly limiter: RateLimiter,
    private readonly budgets: AttemptBudgets,
    private readonly subscriptions: SubscriptionService,
  ) {
    this.sessions = new FreshCache(config.sessionCacheSeconds * 1000, 50_000);
  }

  static async create(
    dataSource: DataSource,
    config: Config,
    limiter: RateLimiter,
    budgets: AttemptBudgets,
    subscriptions: SubscriptionService,
  ): Promise<AuthService> {
    const secret = config.jwtSecret ?? (await AuthService.generatedSecret(dataSource, 'jwt'));
    return new AuthService(dataSource, config, new AccessTokens(secret, config.accessTokenTtlSeconds), limiter, budgets, subscriptions);
  }

  /** A secret generated once and shared by every instance through the database. */
  private static async generatedSecret(dataSource: DataSource, name: string): Promise<string> {
    await dataSource.query(`INSERT INTO app_secrets (name, value) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING`, [
      name,
      crypto.randomBytes(48).toString('base64url'),
    ]);
    const row = await dataSource.getRepository(AppSecret).findOneByOrFail({ name });
    return row.value;
  }

  /**
   * Creates the account with its settings, profile and Free subscription, and signs it in; with
   * REQUIRE_EMAIL_CONFIRMATION, answers the account without a session instead (EmailLinks mails the
   * confirmation link, and sign-in waits for it).
   */
  async signUp(input: { email: unknown; username: unknown; password: unknown }, meta: RequestMeta = {}): Promise<IssuedSession | PendingConfirmation> {
    const email = normalizeEmail(input.email);
    const username = validateUsername(input.username);
    const password = validatePassword(input.password, [email, username]);
    await this.limit('signup', email, meta);
    const passwordHash = await hashPassword(password); // slow on purpose; outside any transaction
    return this.dataSource.transaction(async (m) => {
      const users = m.getRepository(User);
      // ON CONFLICT keeps two simultaneous sign-ups with one email from both succeeding.
      const confirm = this.config.mail.requireEmailConfirmation;
      const inserted = (await m.query(
        `INSERT INTO users (email, username, password_hash, email_confirmed_at) VALUES ($1, $2, $3, CASE WHEN $4::boolean THEN NULL ELSE now() END)
         ON CONFLICT (email) DO NOTHING RETURNING id`,
        [email, username, passwordHash, confirm],
      )) as Array<{ id: string }>;
      if (inserted.length === 0) throw new AppError('CONFLICT', 'User already registered', { field: 'email' });
      const user = await users.findOneByOrFail({ id: inserted[0].id });
      await m.getRepository(UserSettings).insert({ userId: user.id });
      await m.getRepository(UserCharacterProfile).insert({ userId: user.id });
      await this.subscriptions.startFree(m, user.id);
      if (confirm) return { confirmationRequired: true as const, user };
      return this.issue(m, user, meta);
    });
  }

  async signIn(input: { email: unknown; password: unknown }, meta: RequestMeta = {}): Promise<IssuedSession> {
    if (typeof input.email !== 'string' || input.email.trim() === '') throw AppError.badInput('email is required.', 'email');
    if (typeof input.password !== 'string' || input.password === '') throw AppError.badInput('password is required.', 'password');
    const email = input.email.trim().toLowerCase();
    await this.limit('signin', email, meta);
    const user = email.length <= 254 ? await this.dataSource.getRepository(User).findOneBy({ email }) : null;
    // Every guess counts against the account-wide budget before the password is checked (a burst checks
    // at most the budget); past it only addresses the owner signed in from before may try, decided
    // before the password is checked, so the answer says nothing about the password.
    const ok = await this.guessPassword(email, user, input.password, meta, true);
    // One message whether the email exists or not.
    if (!user || !ok) throw new AppError('INVALID_CREDENTIALS', INVALID_LOGIN_MESSAGE);
    // Said only after the right password: a disabled account is not revealed to someone guessing.
    if (user.disabledAt) throw new AppError('FORBIDDEN', ACCOUNT_DISABLED_MESSAGE);
    if (!user.emailConfirmedAt && this.config.mail.requireEmailConfirmation) {
      throw new AppError('FORBIDDEN', 'Please confirm your email first: open the link we sent you, or ask for a new one.', { reason: 'email_not_confirmed' });
    }
    return this.dataSource.transaction((m) => this.issue(m, user, meta));
  }

  /**
   * Single-use rotation. Presenting a token that was already used means it leaked (or a client
   * raced): the whole session is revoked, so neither the thief nor the victim can go on with it.
   */
  async refresh(refreshToken: unknown, meta: RequestMeta = {}): Promise<IssuedSession> {
    if (typeof refreshToken !== 'string' || refreshToken.length < 16 || refreshToken.length > 512) {
      throw new AppError('UNAUTHENTICATED', 'Invalid refresh token', { reason: 'refresh_token_not_found' });
    }
    const outcome = await this.dataSource.transaction(async (m) => {
      const rows = (await m.query(
        `SELECT t.id, t.used_at, t.expires_at, s.id AS session_id, s.revoked_at, s.user_id, s.aal, s.auth_method, s.created_at
           FROM refresh_tokens t JOIN sessions s ON s.id = t.session_id
          WHERE t.token_hash = $1
          FOR UPDATE OF t, s`,
        [hashToken(refreshToken)],
      )) as Array<{
        id: string;
        used_at: Date | null;
        expires_at: Date;
        session_id: string;
        revoked_at: Date | null;
        user_id: string;
        aal: string;
        auth_method: string;
        created_at: Date;
      }>;
      const row = rows[0];
      if (!row || row.revoked_at) return { kind: 'invalid' as const, reason: 'refresh_token_not_found', revoked: null };
      if (row.used_at) {
        await m.getRepository(Session).update({ id: row.session_id }, { revokedAt: new Date(), revokedReason: 'refresh_token_reuse' });
        return { kind: 'invalid' as const, reason: 'refresh_token_already_used', revoked: row.session_id };
      }
      if (new Date(row.expires_at).getTime() <= Date.now()) return { kind: 'invalid' as const, reason: 'session_expired', revoked: null };
      const now = new Date();
      await m.getRepository(RefreshToken).update({ id: row.id }, { usedAt: now });
      await m.getRepository(Session).update({ id: row.session_id }, { lastRefreshedAt: now, ip: meta.ip ?? null });
      const user = await m.getRepository(User).findOneByOrFail({ id: row.user_id });
      if (user.disabledAt) return { kind: 'invalid' as const, reason: 'account_disabled', revoked: null };
      const token = await this.newRefresh(m, row.session_id, now);
      const session = { id: row.session_id, aal: row.aal, authMethod: row.auth_method, createdAt: row.created_at };
      return { kind: 'ok' as const, session: this.present(user, session, token, await hasVerifiedFactor(m, user.id)) };
    });
    // Thrown after the transaction so a reuse revocation is committed, not rolled back with the error.
    if (outcome.kind === 'invalid' && outcome.revoked) this.revoked(outcome.revoked);
    if (outcome.kind === 'invalid') throw new AppError('UNAUTHENTICATED', 'Invalid refresh token', { reason: outcome.reason });
    return outcome.session;
  }

  async signOut(sessionId: string): Promise<void> {
    await this.dataSource
      .getRepository(Session)
      .createQueryBuilder()
      .update()
      .set({ revokedAt: () => 'now()', revokedReason: 'sign_out' })
      .where('id = :id AND revoked_at IS NULL', { id: sessionId })
      .execute();
    this.revoked(sessionId);
  }

  /**
   * GoTrue's sign-out scopes: `local` ends this session, `global` every session of the account,
   * `others` every session but this one ("sign out everywhere else"). Answers how many ended.
   */
  async signOutScope(user: AuthUser, scope: unknown): Promise<number> {
    if (scope !== undefined && scope !== null && scope !== 'local' && scope !== 'global' && scope !== 'others') {
      throw AppError.badInput('scope must be global, local or others.', 'scope');
    }
    // A session still waiting for its authenticator code (a password alone) ends only itself: it must
    // not sign the owner out everywhere, again and again. Stock clients sign out with `global`, so
    // this is not refused.
    const pendingMfa = user.mfaEnabled && user.aal !== 'aal2';
    if (scope === undefined || scope === null || scope === 'local' || pendingMfa) {
      await this.signOut(user.sessionId);
      return 1;
    }
    const ended = await this.endSessions(this.dataSource.manager, user.id, scope === 'others' ? user.sessionId : null, 'sign_out');
    for (const id of ended) this.revoked(id);
    return ended.length;
  }

  /**
   * Revokes every live session of the account except `keep`, answering their ids. The caller tells
   * the other instances (`revoked`) once the write is committed, never before.
   */
  private async endSessions(m: EntityManager, userId: string, keep: string | null, reason: string): Promise<string[]> {
    const [rows] = (await m.query(
      `UPDATE sessions SET revoked_at = now(), revoked_reason = $3
        WHERE user_id = $1 AND revoked_at IS NULL AND ($2::uuid IS NULL OR id <> $2::uuid) RETURNING id`,
      [userId, keep, reason],
    )) as [Array<{ id: string }>, number];
    return rows.map((r) => r.id);
  }

  /**
   * GoTrue `PUT /user` and the Account tab: a new password (the current one is required, and every
   * other session of the account ends, so a stolen session does not outlive the change) and a new
   * username. A wrong current password counts against the account's sign-in failure budget.
   * A new email address is EmailLinks' part: it changes once the link mailed to it is followed.
   */
  async updateAccount(user: AuthUser, input: { password?: unknown; currentPassword?: unknown; username?: unknown }, meta: RequestMeta = {}): Promise<User> {
    const username = input.username === undefined || input.username === null ? null : validateUsername(input.username);
    let passwordHash: string | null = null;
    if (input.password !== undefined && input.password !== null) {
      const password = validatePassword(input.password, [user.email, user.username]);
      // A session a reset link opened sets the password without the current one (its player forgot it).
      const recovering = !!user.recoveryUntil && user.recoveryUntil.getTime() > Date.now();
      if (!recovering) await this.checkCurrentPassword(user, input.currentPassword, meta);
      passwordHash = await hashPassword(password);
    }
    if (username === null && passwordHash === null) throw AppError.badInput('Nothing to change.');
    let ended: string[] = [];
    const updated = await this.dataSource.transaction(async (m) => {
      await m.getRepository(User).update({ id: user.id }, { ...(username !== null ? { username } : {}), ...(passwordHash !== null ? { passwordHash } : {}) });
      if (passwordHash !== null) {
        ended = await this.endSessions(m, user.id, user.sessionId, 'password_changed');
        // A reset link's session is an ordinary one once the new password is set (and has just proved it).
        await m.query('UPDATE sessions SET recovery_until = NULL, reauthenticated_at = now() WHERE id = $1', [user.sessionId]);
      }
      return m.getRepository(User).findOneByOrFail({ id: user.id });
    });
    for (const id of ended) this.revoked(id);
    // The session check caches the username with the session: this one must show the new name at once.
    this.sessions.forget(user.sessionId);
    return updated;
  }

  async checkCurrentPassword(user: AuthUser, current: unknown, meta: RequestMeta, missing = 'Enter your current password to set a new one.'): Promise<void> {
    if (typeof current !== 'string' || current === '') throw AppError.badInput(missing, 'current_password');
    await this.limit('signin', user.email, meta);
    const stored = await this.dataSource.getRepository(User).findOne({ select: { id: true, passwordHash: true }, where: { id: user.id } });
    // The signed-in owner is not held to the strangers' budget (they are on a known session), but a
    // stolen session's guesses still count toward it.
    if (!(await this.guessPassword(user.email, stored, current, meta, false))) {
      throw new AppError('INVALID_CREDENTIALS', 'Your current password is not correct.', { field: 'current_password' });
    }
    await this.dataSource.query('UPDATE sessions SET reauthenticated_at = now() WHERE id = $1', [user.sessionId]);
  }

  /** Whether this session proved the password (signed in with it, or entered it again) within the last `minutes`. */
  async recentlyReauthenticated(sessionId: string, minutes: number): Promise<boolean> {
    const rows = (await this.dataSource.query(`SELECT 1 FROM sessions WHERE id = $1 AND reauthenticated_at > now() - make_interval(mins => $2)`, [
      sessionId,
      minutes,
    ])) as unknown[];
    return rows.length > 0;
  }

  /**
   * One guess at an account's password, counted against its failure budget before the hash is
   * compared and given back when right. Past the budget, only addresses the owner used before (and,
   * with `strangersOnly` false, the owner's own sessions) are compared; others are refused unjudged.
   */
  private async guessPassword(
    email: string,
    user: Pick<User, 'id' | 'passwordHash'> | null,
    password: string,
    meta: RequestMeta,
    strangersOnly: boolean,
  ): Promise<boolean> {
    const key = `signin:${email}`;
    const { perAccountFailuresPerWindow, windowSeconds } = this.config.authRateLimit;
    const attempt = await this.budgets.take(key, perAccountFailuresPerWindow, windowSeconds);
    if (!attempt.allowed && strangersOnly && !(user && (await this.knownAddress(user.id, meta.ip)))) {
      throw new AppError('RATE_LIMITED', RATE_LIMITED_MESSAGE, { retryAfterSeconds: attempt.retryAfterSeconds });
    }
    const ok = password.length <= 1024 && (await verifyPassword(user?.passwordHash ?? null, password));
    if (ok) await this.budgets.refund(key);
    return ok;
  }

  /**
   * A reset link was followed (its token already spent by the caller): every session of the account
   * ends — whoever else holds one is out — and a new one opens that may set a password without the
   * current one for `RECOVERY_SESSION_MINUTES`.
   */
  async openRecoverySession(userId: string, meta: RequestMeta = {}): Promise<IssuedSession> {
    let ended: string[] = [];
    const issued = await this.dataSource.transaction(async (m) => {
      // The reset link reached the address: it is the player's.
      await m.query(`UPDATE users SET email_confirmed_at = coalesce(email_confirmed_at, now()) WHERE id = $1`, [userId]);
      const user = await m.getRepository(User).findOneByOrFail({ id: userId });
      if (user.disabledAt) throw new AppError('FORBIDDEN', ACCOUNT_DISABLED_MESSAGE);
      ended = await this.endSessions(m, userId, null, 'password_reset');
      const s = await this.issue(m, user, meta, 'recovery');
      await m.query(`UPDATE sessions SET recovery_until = now() + make_interval(mins => $2) WHERE id = $1`, [s.sessionId, RECOVERY_SESSION_MINUTES]);
      return s;
    });
    for (const id of ended) this.revoked(id);
    return issued;
  }

  /** Called with the id of every session revoked here (after its commit), to tell the other instances. */
  onSessionRevoked(listener: (sessionId: string) => void): () => void {
    this.revokedListeners.add(listener);
    return () => this.revokedListeners.delete(listener);
  }

  /** Another instance revoked this session: drop what this one remembers of it. */
  forgetSession(sessionId: string): void {
    this.sessions.forget(sessionId);
  }

  private revoked(sessionId: string): void {
    this.sessions.forget(sessionId);
    for (const listener of this.revokedListeners) {
      try {
        listener(sessionId);
      } catch {
        /* a listener reports its own failures; the revocation is committed */
      }
    }
  }

  /**
   * The signature and expiry check alone, without the session lookup: cheap enough to run on every
   * request before any work (per-player rate limits). Not proof the session is still live.
   */
  verifyAccessToken(accessToken: string): { userId: string; sessionId: string } | null {
    return this.tokens.verify(accessToken);
  }

  /**
   * Resolves a bearer token to its user, or null when invalid, expired, or its session is revoked, or
   * when the account has MFA and this session has not passed the second step (aal1): the app is
   * served only at aal2. The identity endpoints that complete that step use `authenticateIdentity`.
   */
  async authenticate(accessToken: string | undefined): Promise<AuthUser | null> {
    const user = await this.authenticateIdentity(accessToken);
    return user && user.mfaEnabled && user.aal !== 'aal2' ? null : user;
  }

  /** As `authenticate`, but also answers a session still waiting for its MFA code. */
  async authenticateIdentity(accessToken: string | undefined): Promise<AuthUser | null> {
    if (!accessToken) return null;
    const claims = this.tokens.verify(accessToken);
    if (!claims) return null;
    const user = await this.sessions.load(claims.sessionId, () => this.sessionUser(claims.sessionId));
    return user && user.id === claims.userId ? { ...user, sessionId: claims.sessionId } : null;
  }

  private async sessionUser(sessionId: string): Promise<SessionUser | null> {
    const rows = (await this.dataSource.query(
      `SELECT u.id, u.email, u.username, u.created_at, s.recovery_until, s.aal,
              EXISTS (SELECT 1 FROM mfa_factors f WHERE f.user_id = u.id AND f.status = 'verified') AS mfa
         FROM sessions s JOIN users u ON u.id = s.user_id
        WHERE s.id = $1 AND s.revoked_at IS NULL AND u.disabled_at IS NULL`,
      [sessionId],
    )) as Array<{ id: string; email: string; username: string; created_at: Date; recovery_until: Date | null; aal: string; mfa: boolean }>;
    const r = rows[0];
    return r
      ? {
          id: r.id,
          email: r.email,
          username: r.username,
          createdAt: new Date(r.created_at),
          recoveryUntil: r.recovery_until ? new Date(r.recovery_until) : null,
          aal: r.aal === 'aal2' ? 'aal2' : 'aal1',
          mfaEnabled: r.mfa,
        }
      : null;
  }

  async userById(id: string): Promise<User | null> {
    return this.dataSource.getRepository(User).findOneBy({ id });
  }

  private async issue(m: EntityManager, user: User, meta: RequestMeta, method: AuthMethod = 'password'): Promise<IssuedSession> {
    const now = new Date();
    const session = await m.getRepository(Session).save({
      userId: user.id,
      lastRefreshedAt: now,
      userAgent: meta.userAgent?.slice(0, 256) ?? null,
      ip: meta.ip?.slice(0, 64) ?? null,
      authMethod: method,
      reauthenticatedAt: method === 'password' ? now : null,
    });
    const token = await this.newRefresh(m, session.id, now);
    return this.present(user, { id: session.id, aal: 'aal1', authMethod: method, createdAt: session.createdAt }, token, await hasVerifiedFactor(m, user.id));
  }

  private async newRefresh(m: EntityManager, sessionId: string, now = new Date()): Promise<string> {
    const token = newRefreshToken();
    await m.getRepository(RefreshToken).insert({
      sessionId,
      tokenHash: hashToken(token),
      expiresAt: new Date(now.getTime() + this.config.refreshTokenTtlSeconds * 1000),
    });
    return token;
  }

  private present(
    user: User,
    session: { id: string; aal: string; authMethod: string; createdAt: Date },
    refreshToken: string,
    mfaEnabled: boolean,
  ): IssuedSession {
    const aal: Aal = session.aal === 'aal2' ? 'aal2' : 'aal1';
    const opened = Math.floor(new Date(session.createdAt).getTime() / 1000);
    const amr = [{ method: session.authMethod, timestamp: opened }];
    if (aal === 'aal2') amr.unshift({ method: 'totp', timestamp: Math.floor(Date.now() / 1000) });
    const access = this.tokens.sign({ sub: user.id, sid: session.id, email: user.email, username: user.username, aal, amr });
    return {
      accessToken: access.token,
      refreshToken,
      expiresAt: access.expiresAt,
      expiresIn: access.expiresIn,
      tokenType: 'bearer',
      user,
      sessionId: session.id,
      aal,
      mfaRequired: mfaEnabled && aal !== 'aal2',
    };
  }

  /**
   * A TOTP code was verified in this session (MfaService): it becomes aal2, and fresh tokens say so.
   * Its older refresh tokens expire, so none can mint another aal1-looking token. After enrolling the
   * first factor (`endOthers`), every other session ends: they were opened without the second step.
   */
  async upgradeSession(m: EntityManager, user: AuthUser, endOthers: boolean): Promise<{ session: IssuedSession; ended: string[] }> {
    await m.query(`UPDATE sessions SET aal = 'aal2' WHERE id = $1`, [user.sessionId]);
    await m.query(`UPDATE refresh_tokens SET expires_at = now() WHERE session_id = $1 AND used_at IS NULL`, [user.sessionId]);
    const ended = endOthers ? await this.endSessions(m, user.id, user.sessionId, 'mfa_enrolled') : [];
    const row = await m.getRepository(Session).findOneByOrFail({ id: user.sessionId });
    const account = await m.getRepository(User).findOneByOrFail({ id: user.id });
    return { session: this.present(account, row, await this.newRefresh(m, row.id), true), ended };
  }

  /** Drops what every instance remembers of the account's live sessions (their MFA state changed). */
  async forgetSessionsOf(userId: string): Promise<void> {
    const rows = (await this.dataSource.query(`SELECT id FROM sessions WHERE user_id = $1 AND revoked_at IS NULL`, [userId])) as Array<{ id: string }>;
    for (const r of rows) this.revoked(r.id);
  }

  /**
   * A mailed code or confirmation link was accepted (EmailCodes, EmailLinks): a new aal1 session, as a
   * password would open. Either proves the address is the player's, so it counts as confirmed.
   */
  async openSession(userId: string, method: AuthMethod, meta: RequestMeta = {}): Promise<IssuedSession> {
    return this.dataSource.transaction(async (m) => {
      await m.query(`UPDATE users SET email_confirmed_at = coalesce(email_confirmed_at, now()) WHERE id = $1`, [userId]);
      const user = await m.getRepository(User).findOneByOrFail({ id: userId });
      if (user.disabledAt) throw new AppError('FORBIDDEN', ACCOUNT_DISABLED_MESSAGE);
      return this.issue(m, user, meta, method);
    });
  }

  /** Called with the ids of sessions ended elsewhere in this module (after commit). */
  sessionsEnded(ids: string[]): void {
    for (const id of ids) this.revoked(id);
  }

  /**
   * Attempts per client IP (any account) and per account from one IP. An account is never limited
   * from all addresses at once here: that would let anyone lock its owner out (see signIn for the
   * account-wide budget on failures).
   */
  private async limit(bucket: string, email: string, meta: RequestMeta): Promise<void> {
    const { perIpPerWindow, perEmailPerWindow, windowSeconds } = this.config.authRateLimit;
    const checks = [this.limiter.hit(`${bucket}:email:${email}:${meta.ip ?? '-'}`, perEmailPerWindow, windowSeconds)];
    if (meta.ip) checks.push(this.limiter.hit(`${bucket}:ip:${meta.ip}`, perIpPerWindow, windowSeconds));
    const results = await Promise.all(checks);
    const blocked = results.find((r) => !r.allowed);
    if (blocked) throw new AppError('RATE_LIMITED', RATE_LIMITED_MESSAGE, { retryAfterSeconds: blocked.retryAfterSeconds });
  }

  /** Whether the account has signed in (or up) from this address before: a session was issued to it. */
  private async knownAddress(userId: string, ip: string | undefined): Promise<boolean> {
    if (!ip) return false;
    const rows = (await this.dataSource.query(`SELECT 1 FROM sessions WHERE user_id = $1 AND ip = $2 LIMIT 1`, [userId, ip])) as unknown[];
    return rows.length > 0;
  }
}

async function hasVerifiedFactor(m: EntityManager, userId: string): Promise<boolean> {
  const rows = (await m.query(`SELECT 1 FROM mfa_factors WHERE user_id = $1 AND status = 'verified' LIMIT 1`, [userId])) as unknown[];
  return rows.length > 0;
}
