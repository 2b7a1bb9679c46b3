import { AuthClient } from '@supabase/auth-js';
import { totpCode } from '../../server/src/modules/auth/totp';
import { CreditsService } from '../../server/src/modules/billing/credits.service';
import { OperatorService } from '../../server/src/modules/community/operator';
import { countRows } from './domain-helpers';
import { startSmtp } from '../support/smtp';
import { newIdentity, startTestApp, type TestApp } from '../support/test-app';
import { waitFor } from '../support/wait';

/**
 * One-time sign-in codes and TOTP MFA (issue 21), driven by a stock @supabase/auth-js client, with mail
 * received by a real SMTP server. With a factor enrolled, a password (or a mailed code) alone no longer
 * reaches the app: the session stays aal1 until the authenticator's code is verified.
 */
let t: TestApp;
let smtp: Awaited<ReturnType<typeof startSmtp>>;
beforeAll(async () => {
  smtp = await startSmtp();
  t = await startTestApp({
    mail: { smtpUrl: smtp.url, from: 'Taleforge <no-reply@taleforge.test>', outboxDir: '/nonexistent', requireEmailConfirmation: false },
  });
});
afterAll(async () => {
  await t.close();
  await smtp.close();
});

const client = () => new AuthClient({ url: `${t.url}/api/auth/v1`, autoRefreshToken: false, persistSession: false });
const ME = 'query { me { id username } }';
const me = async (token: string) => (await t.gql<{ me: { id: string } | null }>(ME, {}, token)).data?.me ?? null;
const codeIn = (text: string) => /sign-in code is (\d{6})/.exec(text)![1];

async function account(prefix = 'mfa') {
  const id = newIdentity(prefix);
  const auth = client();
  const up = await auth.signUp({ email: id.email, password: id.password, options: { data: { username: id.username } } });
  expect(up.error).toBeNull();
  return { id, auth, token: up.data.session!.access_token };
}

/** Enrols and verifies a TOTP factor with the given client, answering its secret. */
async function enrol(auth: ReturnType<typeof client>) {
  const enrolled = await auth.mfa.enroll({ factorType: 'totp', friendlyName: 'Phone' });
  expect(enrolled.error).toBeNull();
  const factor = enrolled.data!;
  expect(factor.totp.qr_code).toMatch(/^data:image\/svg\+xml;utf-8,<svg/);
  expect(factor.totp.uri).toMatch(/^otpauth:\/\/totp\/Taleforge:.+\?secret=[A-Z2-7]+&issuer=Taleforge/);
  const verified = await auth.mfa.challengeAndVerify({ factorId: factor.id, code: totpCode(factor.totp.secret) });
  expect(verified.error).toBeNull();
  return { factorId: factor.id, secret: factor.totp.secret };
}

it('enrols TOTP with a stock client; the next sign-in needs the code: aal1 reaches nothing of the app until the code makes it aal2', async () => {
  const { id, auth, token: enrolling } = await account();
  const other = client();
  const otherSession = await other.signInWithPassword({ email: id.email, password: id.password });
  expect(otherSession.error).toBeNull();

  const { factorId, secret } = await enrol(auth);
  const aal = await auth.mfa.getAuthenticatorAssuranceLevel();
  expect(aal.data).toMatchObject({ currentLevel: 'aal2', nextLevel: 'aal2' });
  expect(aal.data!.currentAuthenticationMethods.map((m) => (typeof m === 'string' ? m : m.method))).toEqual(['totp', 'password']);
  // The enrolling session goes on at aal2 (even its earlier token); sessions opened without the second step ended.
  expect((await me((await auth.getSession()).data.session!.access_token))?.id).toBeTruthy();
  expect(await me(enrolling)).not.toBeNull();
  expect(await me(otherSession.data.session!.access_token)).toBeNull();

  const next = client();
  const signIn = await next.signInWithPassword({ email: id.email, password: id.password });
  expect(signIn.error).toBeNull();
  const pending = signIn.data.session!.access_token;
  const level = await next.mfa.getAuthenticatorAssuranceLevel();
  expect(level.data).toMatchObject({ currentLevel: 'aal1', nextLevel: 'aal2' });
  // The password alone: the app answers as to a stranger, REST too.
  expect(await me(pending)).toBeNull();
  expect((await t.rest('GET', '/api/profile', undefined, pending)).status).toBe(401);
  const factors = await next.mfa.listFactors();
  expect(factors.data!.totp.map((f) => f.id)).toEqual([factorId]);

  // A wrong code is refused; the right one upgrades the session.
  const wrong = await next.mfa.challengeAndVerify({ factorId, code: totpCode(secret, Date.now() + 5 * 60_000) });
  expect(wrong.error?.message).toBe('That code is not correct. Check your authenticator app and try again.');
  // The code the enrolment used cannot be replayed within its window.
  await new Promise((r) => setTimeout(r, 10));
  const code = totpCode(secret);
  const ok = await next.mfa.challengeAndVerify({ factorId, code: code });
  // Either the code's step was already spent by the enrolment (then the next step's code works) or it passes.
  if (ok.error) {
    expect(ok.error.message).toBe('That code is not correct. Check your authenticator app and try again.');
    const later = await next.mfa.challengeAndVerify({ factorId, code: totpCode(secret, Date.now() + 30_000) });
    expect(later.error).toBeNull();
  }
  const upgraded = (await next.getSession()).data.session!;
  expect(await me(upgraded.access_token)).toMatchObject({ username: id.username });
  expect((await next.mfa.getAuthenticatorAssuranceLevel()).data!.currentLevel).toBe('aal2');
  // A refresh keeps the level.
  const refreshed = await next.refreshSession();
  expect(refreshed.error).toBeNull();
  expect(await me(refreshed.data.session!.access_token)).not.toBeNull();
});

it('a password alone cannot turn MFA off or add another authenticator; at aal2 unenrolling turns it off', async () => {
  const { id, auth } = await account();
  const { factorId } = await enrol(auth);
  const thief = client();
  expect((await thief.signInWithPassword({ email: id.email, password: id.password })).error).toBeNull();
  expect((await thief.mfa.unenroll({ factorId })).error?.message).toBe('Enter a code from your authenticator app first.');
  expect((await thief.mfa.enroll({ factorType: 'totp' })).error?.message).toBe('Enter a code from your authenticator app first.');
  // Someone else's factor id is simply not found.
  const stranger = await account('stranger');
  expect((await stranger.auth.mfa.unenroll({ factorId })).error?.message).toBe('Factor not found');

  expect((await auth.mfa.unenroll({ factorId })).error).toBeNull();
  const after = client();
  const s = await after.signInWithPassword({ email: id.email, password: id.password });
  expect(await me(s.data.session!.access_token)).not.toBeNull();
  expect((await after.mfa.getAuthenticatorAssuranceLevel()).data).toMatchObject({ currentLevel: 'aal1', nextLevel: 'aal1' });
});

it('a password alone (aal1) signs out only itself, whatever scope it asks for', async () => {
  const { id, auth } = await account('aal1out');
  await enrol(auth);
  const owner = (await auth.getSession()).data.session!.access_token;
  const thief = await client().signInWithPassword({ email: id.email, password: id.password });
  const pending = thief.data.session!.access_token;
  // A stock client signs out with scope=global: answered as usual, but only the asking session ends.
  expect((await t.rest('POST', '/api/auth/v1/logout?scope=global', undefined, pending)).status).toBe(204);
  expect(await me(owner)).not.toBeNull();
  const another = (await client().signInWithPassword({ email: id.email, password: id.password })).data.session!.access_token;
  expect((await t.rest('POST', '/api/auth/v1/logout?scope=others', undefined, another)).status).toBe(204);
  expect(await me(owner)).not.toBeNull();
  expect((await t.rest('GET', '/api/auth/v1/user', undefined, pending)).status).toBe(401);
});

it('guessing codes stops after five wrong ones', async () => {
  const { id, auth } = await account();
  const { factorId } = await enrol(auth);
  const guesser = client();
  await guesser.signInWithPassword({ email: id.email, password: id.password });
  for (let i = 0; i < 5; i++) {
    const r = await guesser.mfa.challengeAndVerify({ factorId, code: String(100000 + i) });
    expect(r.error?.message).toBe('That code is not correct. Check your authenticator app and try again.');
  }
  const blocked = await guesser.mfa.challengeAndVerify({ factorId, code: '123456' });
  expect(blocked.error?.message).toBe('Too many wrong codes. Please wait a few minutes and try again.');
});

it('signs in with a mailed code (signInWithOtp + verifyOtp); the same answer for unknown emails; a code works once and dies after five wrong guesses', async () => {
  const { id } = await account('otp');
  const unknown = `nobody.${Date.now()}@example.com`;
  const reader = client();
  expect((await reader.signInWithOtp({ email: unknown })).error).toBeNull();
  expect((await reader.signInWithOtp({ email: id.email })).error).toBeNull();
  const mail = await waitFor(() => smtp.mails.find((m) => m.to.includes(id.email)), 'the code mail', 5000);
  expect(mail.raw).toMatch(/^Subject: Your Taleforge sign-in code: \d{6}/m);
  const code = codeIn(mail.text);

  const wrongCode = code === '000000' ? '000001' : '000000';
  expect((await reader.verifyOtp({ email: id.email, token: wrongCode, type: 'email' })).error?.message).toBe('Token has expired or is invalid');
  const ok = await reader.verifyOtp({ email: id.email, token: code, type: 'email' });
  expect(ok.error).toBeNull();
  expect(await me(ok.data.session!.access_token)).toMatchObject({ username: id.username });
  expect((await reader.mfa.getAuthenticatorAssuranceLevel()).data!.currentAuthenticationMethods).toEqual([expect.objectContaining({ method: 'otp' })]);
  expect((await client().verifyOtp({ email: id.email, token: code, type: 'email' })).error?.message).toBe('Token has expired or is invalid');
  expect(smtp.mails.some((m) => m.to.includes(unknown))).toBe(false);

  // A fresh code, then five wrong guesses: the right code no longer works either.
  const count = smtp.mails.length;
  expect((await reader.signInWithOtp({ email: id.email })).error).toBeNull();
  const second = await waitFor(() => smtp.mails.slice(count).find((m) => m.to.includes(id.email)), 'the second code', 5000);
  const fresh = codeIn(second.text);
  for (let i = 0; i < 4; i++) {
    const guess = String((Number(fresh) + 1 + i) % 1_000_000).padStart(6, '0');
    expect((await client().verifyOtp({ email: id.email, token: guess, type: 'email' })).error).not.toBeNull();
  }
  // Past the budget nothing is compared any more (the code was spent by the fifth wrong guess).
  expect((await client().verifyOtp({ email: id.email, token: fresh, type: 'email' })).error?.message).toBe(
    'Too many wrong codes. Ask for a new code in a few minutes.',
  );
  expect(await countRows(t, 'auth_tokens', `kind = 'otp' AND user_id = (SELECT id FROM users WHERE email = $1)`, [id.email])).toBe(0);
});

it('a mailed code does not get past MFA: the session it opens is aal1', async () => {
  const { id, auth } = await account('otpmfa');
  await enrol(auth);
  const count = smtp.mails.length;
  const c = client();
  await c.signInWithOtp({ email: id.email });
  const mail = await waitFor(() => smtp.mails.slice(count).find((m) => m.to.includes(id.email) && /sign-in code is/.test(m.text)), 'the code mail', 5000);
  const s = await c.verifyOtp({ email: id.email, token: codeIn(mail.text), type: 'email' });
  expect(s.error).toBeNull();
  expect(await me(s.data.session!.access_token)).toBeNull();
  expect((await c.mfa.getAuthenticatorAssuranceLevel()).data).toMatchObject({ currentLevel: 'aal1', nextLevel: 'aal2' });
});

it('code requests are rate limited with the same answer for known and unknown emails', async () => {
  const { id } = await account('otprl');
  const unknown = `nobody.rl.${Date.now()}@example.com`;
  for (const email of [id.email, unknown]) {
    const answers = [];
    for (let i = 0; i < 6; i++) answers.push((await t.rest('POST', '/api/auth/v1/otp', { email })).status);
    expect(answers).toEqual([200, 200, 200, 200, 200, 429]);
  }
});

it('a reset link does not get past MFA either: the code comes before the new password', async () => {
  const { id, auth } = await account('resetmfa');
  const { factorId, secret } = await enrol(auth);
  const count = smtp.mails.length;
  expect((await client().resetPasswordForEmail(id.email)).error).toBeNull();
  const mail = await waitFor(
    () => smtp.mails.slice(count).find((m) => m.to.includes(id.email) && /Reset your Taleforge password/.test(m.raw)),
    'the reset mail',
    5000,
  );
  const link = /https?:\/\/\S+\/api\/auth\/v1\/verify\?token=[^\s"<>]+/.exec(mail.text)![0].replace(/&amp;/g, '&').replace(t.app.config.publicUrl, t.url);
  const followed = await fetch(link, { redirect: 'manual' });
  const fragment = new URLSearchParams(new URL(followed.headers.get('location')!).hash.slice(1));
  expect(fragment.get('mfa_required')).toBe('1');
  const c = client();
  await c.setSession({ access_token: fragment.get('access_token')!, refresh_token: fragment.get('refresh_token')! });
  const newPassword = `${id.password} again`;
  // GoTrue's answer for a session that still needs its second step (a stock client keeps the session).
  expect((await c.updateUser({ password: newPassword })).error).toMatchObject({ status: 403, code: 'insufficient_aal' });
  expect((await c.mfa.challengeAndVerify({ factorId, code: totpCode(secret, Date.now() + 30_000) })).error).toBeNull();
  // Still the reset link's session: no current password needed.
  expect((await c.updateUser({ password: newPassword })).error).toBeNull();
  expect((await client().signInWithPassword({ email: id.email, password: newPassword })).error).toBeNull();
});

it('an operator removes the authenticators of a player who lost theirs: every session ends, the password alone signs in again, and the audit trail says so', async () => {
  const { id, auth } = await account('lostphone');
  await enrol(auth);
  const before = (await auth.getSession()).data.session!.access_token;
  const db = t.app.db.dataSource;
  const ops = new OperatorService(db, new CreditsService(db), 'support-desk');
  const r = await ops.resetMfa(id.email);
  expect(r.message).toMatch(/^Removed 1 authenticator\(s\) of .+; 1 session\(s\) ended\.$/);
  for (const inv of r.invalidations) if (inv.kind === 'session') t.app.services.auth.forgetSession(inv.id);
  expect(await me(before)).toBeNull();
  const again = await client().signInWithPassword({ email: id.email, password: id.password });
  expect(await me(again.data.session!.access_token)).not.toBeNull();
  const [audit] = await db.query(`SELECT action, detail FROM operator_actions WHERE operator = 'support-desk' ORDER BY created_at DESC LIMIT 1`);
  expect(audit).toEqual({ action: 'reset_mfa', detail: { factors: 1, sessions: 1 } });
});
