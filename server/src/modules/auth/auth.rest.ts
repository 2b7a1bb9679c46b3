import express, { type ErrorRequestHandler, type Request, type Response } from 'express';
import { AppError, httpStatusFor } from '../../common/app-error';
import { jsonBody, requestMeta, toAppError } from '../../common/http';
import { bearerToken } from '../../graphql/context';
import type { Services } from '../../services';
import { type IssuedSession, isSession } from './auth.service';
import { goTrueFactor } from './mfa';
import type { MfaFactor } from './session.entity';
import type { User } from './user.entity';

/**
 * A GoTrue-compatible identity surface (the calls @supabase/auth-js makes), so a stock GoTrue or
 * Supabase auth client can sign in against us. Thin: every rule lives in AuthService.
 */
export function authRestRouter(services: Services, bodyLimit: number, log: (e: unknown) => void): express.Router {
  const r = express.Router();
  r.use(jsonBody(bodyLimit));

  r.post('/signup', async (req, res) => {
    const body = objectBody(req);
    const data = (body.data ?? body.options) as Record<string, unknown> | undefined;
    const outcome = await services.emailLinks.signUp(
      { email: body.email, password: body.password, username: data?.username ?? body.username },
      req.query.redirect_to,
      requestMeta(req),
    );
    // Waiting for the confirmation link: GoTrue answers the user alone, without a session.
    res.json(isSession(outcome) ? await goTrueSession(services, outcome) : goTrueUser(outcome.user));
  });

  // A new confirmation link (auth-js resend({ type: 'signup' })): the same {} for any address.
  r.post('/resend', async (req, res) => {
    const body = objectBody(req);
    if (body.type !== 'signup') throw AppError.badInput('type must be signup.', 'type');
    await services.emailLinks.resendSignup(body.email, req.query.redirect_to, requestMeta(req));
    res.json({});
  });

  r.post('/token', async (req, res) => {
    const body = objectBody(req);
    switch (req.query.grant_type) {
      case 'password':
        res.json(await goTrueSession(services, await services.auth.signIn({ email: body.email, password: body.password }, requestMeta(req))));
        return;
      case 'refresh_token':
        res.json(await goTrueSession(services, await services.auth.refresh(body.refresh_token, requestMeta(req))));
        return;
      default:
        throw AppError.badInput('grant_type must be password or refresh_token.', 'grant_type');
    }
  });

  // GoTrue's scopes: local (this session), global (every session: a stock client's default), others.
  // A session still waiting for its MFA code may sign out too.
  r.post('/logout', async (req, res) => {
    const user = await identified(services, req);
    await services.auth.signOutScope(user, req.query.scope ?? 'local');
    res.status(204).end();
  });

  r.put('/user', async (req, res) => {
    // A session still waiting for its authenticator code is live (GoTrue answers insufficient_aal, so
    // a stock client keeps it and asks for the code), but may not change the account yet.
    const me = await identified(services, req);
    if (me.mfaEnabled && me.aal !== 'aal2') throw new AppError('FORBIDDEN', 'Enter a code from your authenticator app first.', { reason: 'insufficient_aal' });
    const body = objectBody(req);
    const data = body.data as Record<string, unknown> | undefined;
    const meta = requestMeta(req);
    // A new address changes when the link mailed to it is followed; until then the user says new_email.
    let newEmail: string | undefined;
    if (typeof body.email === 'string' && body.email.trim().toLowerCase() !== me.email) {
      await services.emailLinks.requestEmailChange(me, body.email, body.current_password, req.query.redirect_to, meta);
      newEmail = body.email.trim().toLowerCase();
    }
    const changesMore = (body.password !== undefined && body.password !== null) || (data?.username !== undefined && data.username !== null);
    const user = changesMore
      ? await services.auth.updateAccount(me, { password: body.password, currentPassword: body.current_password, username: data?.username }, meta)
      : await services.auth.userById(me.id);
    if (!user) throw AppError.unauthenticated();
    res.json({ ...goTrueUser(user), ...(newEmail ? { new_email: newEmail } : {}) });
  });

  // Password reset (GoTrue): the same 200 whether or not the email has an account.
  r.post('/recover', async (req, res) => {
    const body = objectBody(req);
    await services.recovery.request(body.email, req.query.redirect_to ?? body.redirect_to, requestMeta(req));
    res.json({});
  });

  // The mailed link: spends the token, then sends the browser on with the session in the fragment
  // (GoTrue's implicit flow), or with the error there when the link is used up or expired.
  r.get('/verify', async (req, res) => {
    const type = req.query.type;
    const meta = requestMeta(req);
    const redirect = services.recovery.safeRedirect(
      req.query.redirect_to,
      type === 'signup' ? '/auth' : type === 'email_change' ? '/profile' : '/reset-password',
    );
    try {
      if (type === 'email_change') {
        await services.emailLinks.verifyEmailChange(req.query.token, meta);
        const fragment = new URLSearchParams({ message: 'Your new email address is confirmed.', type: 'email_change' });
        res.redirect(303, `${redirect}#${fragment.toString()}`);
        return;
      }
      const issued =
        type === 'signup' ? await services.emailLinks.verifySignup(req.query.token, meta) : await services.recovery.verify(req.query.token, type, meta);
      const s = await goTrueSession(services, issued);
      const fragment = new URLSearchParams({
        access_token: s.access_token,
        token_type: s.token_type,
        expires_in: String(s.expires_in),
        expires_at: String(s.expires_at),
        refresh_token: s.refresh_token,
        type: type === 'signup' ? 'signup' : 'recovery',
        // Not GoTrue's (stock clients ignore it): the account has an authenticator, whose code comes
        // before anything else (setting the password included).
        ...(issued.mfaRequired ? { mfa_required: '1' } : {}),
      });
      res.redirect(303, `${redirect}#${fragment.toString()}`);
    } catch (e) {
      const err = toAppError(e);
      if (!err || err.code === 'INTERNAL') throw e;
      const fragment = new URLSearchParams({ error: 'access_denied', error_code: goTrueCode(err), error_description: err.message });
      res.redirect(303, `${redirect}#${fragment.toString()}`);
    }
  });

  // A mailed sign-in code (auth-js signInWithOtp): the same {} whether or not the email has an account.
  r.post('/otp', async (req, res) => {
    const body = objectBody(req);
    await services.emailCodes.request(body.email, requestMeta(req));
    res.json({});
  });

  // auth-js verifyOtp: { token_hash, type: 'recovery' } (a reset link, as JSON) or { email, token, type: 'email' } (a mailed code).
  r.post('/verify', async (req, res) => {
    const body = objectBody(req);
    const meta = requestMeta(req);
    if (body.type === 'email' || body.type === 'magiclink') {
      res.json(await goTrueSession(services, await services.emailCodes.verify(body.email, body.token, meta)));
      return;
    }
    if (body.type === 'signup') {
      res.json(await goTrueSession(services, await services.emailLinks.verifySignup(body.token_hash ?? body.token, meta)));
      return;
    }
    if (body.type === 'email_change') {
      res.json(goTrueUser(await services.emailLinks.verifyEmailChange(body.token_hash ?? body.token, meta)));
      return;
    }
    res.json(await goTrueSession(services, await services.recovery.verify(body.token_hash ?? body.token, body.type, meta)));
  });

  r.get('/user', async (req, res) => {
    const me = await identified(services, req);
    const user = await services.auth.userById(me.id);
    if (!user) throw AppError.unauthenticated();
    res.json(goTrueUser(user, await services.mfa.factors(me.id)));
  });

  // TOTP MFA (auth-js mfa.enroll / challenge / verify / unenroll). Reached by sessions still at aal1.
  r.post('/factors', async (req, res) => {
    const me = await identified(services, req);
    const body = objectBody(req);
    // current_password is ours (GoTrue has none): a session that signed in over 10 minutes ago proves the password again here.
    res.json(
      await services.mfa.enroll(
        me,
        { factorType: body.factor_type, friendlyName: body.friendly_name, issuer: body.issuer, currentPassword: body.current_password },
        requestMeta(req),
      ),
    );
  });

  r.post('/factors/:id/challenge', async (req, res) => {
    const me = await identified(services, req);
    res.json(await services.mfa.challenge(me, req.params.id));
  });

  r.post('/factors/:id/verify', async (req, res) => {
    const me = await identified(services, req);
    const body = objectBody(req);
    res.json(await goTrueSession(services, await services.mfa.verify(me, req.params.id, body.challenge_id, body.code)));
  });

  r.delete('/factors/:id', async (req, res) => {
    const me = await identified(services, req);
    res.json(await services.mfa.unenroll(me, req.params.id));
  });

  r.use(goTrueErrorHandler(log));
  return r;
}

/** A live session, including one still waiting for its MFA code (only the identity calls accept those). */
async function identified(services: Services, req: Request) {
  const user = await services.auth.authenticateIdentity(bearerToken(req.headers.authorization));
  if (!user) throw new AppError('UNAUTHENTICATED', 'Invalid or expired token', { reason: 'bad_jwt' });
  return user;
}

function objectBody(req: Request): Record<string, unknown> {
  const b: unknown = req.body;
  if (b === undefined || b === null || typeof b !== 'object' || Array.isArray(b)) {
    throw AppError.badInput('Expected a JSON object body.');
  }
  return b as Record<string, unknown>;
}

function goTrueUser(user: User, factors?: MfaFactor[]) {
  return {
    id: user.id,
    aud: 'authenticated',
    role: 'authenticated',
    email: user.email,
    created_at: user.createdAt.toISOString(),
    updated_at: user.updatedAt.toISOString(),
    user_metadata: { username: user.username },
    app_metadata: { provider: 'email', providers: ['email'] },
    identities: [],
    ...(factors && factors.length > 0 ? { factors: factors.map(goTrueFactor) } : {}),
  };
}

/** A session as GoTrue answers it; its user lists the factors (auth-js reads the next assurance level there). */
async function goTrueSession(services: Services, s: IssuedSession) {
  const factors = await services.mfa.factors(s.user.id);
  return {
    access_token: s.accessToken,
    token_type: s.tokenType,
    expires_in: s.expiresIn,
    expires_at: s.expiresAt,
    refresh_token: s.refreshToken,
    user: goTrueUser(s.user, factors),
  };
}

/** GoTrue's error codes, which auth clients branch on. */
function goTrueCode(e: AppError): string {
  switch (e.code) {
    case 'INVALID_CREDENTIALS':
      return typeof e.details?.reason === 'string' ? e.details.reason : 'invalid_credentials';
    case 'FORBIDDEN':
      return typeof e.details?.reason === 'string' ? e.details.reason : 'user_banned';
    case 'NOT_FOUND':
      return 'mfa_factor_not_found';
    case 'CONFLICT':
      return 'user_already_exists';
    case 'RATE_LIMITED':
      return 'over_request_rate_limit';
    case 'BAD_USER_INPUT':
      return e.details?.field === 'password' ? 'weak_password' : e.details?.field === 'email' ? 'email_address_invalid' : 'validation_failed';
    case 'PAYLOAD_TOO_LARGE':
      return 'request_too_large';
    case 'UNAUTHENTICATED':
      return typeof e.details?.reason === 'string' ? e.details.reason : 'bad_jwt';
    default:
      return 'unexpected_failure';
  }
}

function goTrueErrorHandler(log: (e: unknown) => void): ErrorRequestHandler {
  return (err, _req, res: Response, next) => {
    if (res.headersSent) return next(err);
    let e = toAppError(err);
    if (!e) {
      log(err);
      e = new AppError('INTERNAL', 'Internal server error');
    }
    // GoTrue answers refresh failures with 400, not 401: auth clients then sign out instead of retrying.
    const refreshFailure = e.code === 'UNAUTHENTICATED' && typeof e.details?.reason === 'string' && e.details.reason.startsWith('refresh_token');
    const status = refreshFailure || e.code === 'CONFLICT' ? (refreshFailure ? 400 : 422) : httpStatusFor(e.code);
    if (e.code === 'RATE_LIMITED' && typeof e.details?.retryAfterSeconds === 'number') {
      res.setHeader('Retry-After', String(e.details.retryAfterSeconds));
    }
    res.status(status).json({ code: status, error_code: goTrueCode(e), msg: e.message });
  };
}
