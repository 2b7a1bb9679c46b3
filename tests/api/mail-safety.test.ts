import { AuthClient } from '@supabase/auth-js';
import { totpCode } from '../../server/src/modules/auth/totp';
import { startSmtp, type ReceivedMail } from '../support/smtp';
import { newIdentity, startTestApp, type TestApp } from '../support/test-app';
import { waitFor } from '../support/wait';

/**
 * What mail can and cannot be made to do (issue 36, findings 4, 5, 7 and the reset lock-out of 9), with
 * a stock auth-js client and a real SMTP server:
 * - one budget per recipient address across every kind of mail, per hour and per day, whoever asks;
 *   the owner asking from an address they signed in from before has an allowance strangers cannot spend;
 * - every mailed token dies when the account's email, password or authenticators change;
 * - adding an authenticator needs a fresh password, and the owner is mailed whenever they change.
 */
const PER_HOUR = 4;
let t: TestApp;
let smtp: Awaited<ReturnType<typeof startSmtp>>;
beforeAll(async () => {
  smtp = await startSmtp();
  t = await startTestApp({
    mail: { smtpUrl: smtp.url, from: 'Taleforge <no-reply@taleforge.test>', outboxDir: '/nonexistent', requireEmailConfirmation: true },
    mailBudget: { perAddressPerHour: PER_HOUR, perAddressPerDay: 10 },
  });
});
afterAll(async () => {
  await t.close();
  await smtp.close();
});

const client = (headers: Record<string, string> = {}) =>
  new AuthClient({ url: `${t.url}/api/auth/v1`, autoRefreshToken: false, persistSession: false, headers });
const from = (ip: string) => ({ 'x-forwarded-for': ip });
let ipCounter = 0;
/** A stranger's address, never used before in this file. */
const strangerIp = () => `198.51.${Math.floor(++ipCounter / 250)}.${(ipCounter % 250) + 1}`;
const mailsTo = (email: string) => smtp.mails.filter((m) => m.to.includes(email));
const linkIn = (mail: ReceivedMail) =>
  /https?:\/\/\S+\/api\/auth\/v1\/verify\?token=[^\s"<>]+/.exec(mail.text)![0].replace(/&amp;/g, '&').replace(t.app.config.publicUrl, t.url);
/** Mail goes out after the answer: wait until nothing new has arrived for a while. */
async function settled(): Promise<void> {
  let n = -1;
  while (n !== smtp.mails.length) {
    n = smtp.mails.length;
    await new Promise((r) => setTimeout(r, 300));
  }
}

/** A confirmed account signed up from `ip` (so `ip` is an address its owner used). */
async function account(prefix: string, ip: string) {
  const id = newIdentity(prefix);
  const up = await t.rest('POST', '/api/auth/v1/signup', { email: id.email, password: id.password, data: { username: id.username } }, undefined, from(ip));
  expect(up.status).toBe(200);
  const confirm = await waitFor(() => mailsTo(id.email).find((m) => /Confirm your Taleforge account/.test(m.raw)), 'the confirmation', 5000);
  const landed = await fetch(linkIn(confirm), { redirect: 'manual', headers: from(ip) });
  const fragment = new URLSearchParams(new URL(landed.headers.get('location')!).hash.slice(1));
  expect(fragment.get('access_token')).toBeTruthy();
  const signIn = await t.rest('POST', '/api/auth/v1/token?grant_type=password', { email: id.email, password: id.password }, undefined, from(ip));
  expect(signIn.status).toBe(200);
  await settled();
  return { id, token: signIn.body.access_token as string, refreshToken: signIn.body.refresh_token as string };
}

describe('one mail budget per recipient address', () => {
  it('sign-ups with a taken address from many addresses, resets and codes together mail its owner at most the hourly budget', async () => {
    const { id } = await account('flooded', '192.0.2.10');
    const answers = [];
    for (let i = 0; i < 12; i++) {
      answers.push(
        (
          await t.rest(
            'POST',
            '/api/auth/v1/signup',
            { email: id.email, password: `whatever ${i} pass`, data: { username: `Flood ${i}` } },
            undefined,
            from(strangerIp()),
          )
        ).status,
      );
      answers.push((await t.rest('POST', '/api/auth/v1/recover', { email: id.email }, undefined, from(strangerIp()))).status);
      answers.push((await t.rest('POST', '/api/auth/v1/otp', { email: id.email }, undefined, from(strangerIp()))).status);
    }
    // Every request answers as usual: the budget never tells anyone anything.
    expect(new Set(answers)).toEqual(new Set([200]));
    await settled();
    // Its own confirmation link counted too: four mails this hour, whatever was asked.
    expect(mailsTo(id.email).length).toBe(PER_HOUR);
  });

  it("strangers spending an address's budget do not lock its owner out: from an address the owner used, a reset still arrives", async () => {
    const ownerIp = '192.0.2.20';
    const { id } = await account('lockout', ownerIp);
    for (let i = 0; i < 8; i++) expect((await t.rest('POST', '/api/auth/v1/recover', { email: id.email }, undefined, from(strangerIp()))).status).toBe(200);
    await settled();
    const before = mailsTo(id.email).length;
    const own = await t.rest('POST', '/api/auth/v1/recover', { email: id.email }, undefined, from(ownerIp));
    expect(own.status).toBe(200);
    const reset = await waitFor(
      () =>
        mailsTo(id.email)
          .slice(before)
          .find((m) => /Reset your Taleforge password/.test(m.raw)),
      'the owner’s reset',
      5000,
    );
    expect(linkIn(reset)).toContain('type=recovery');
  });
});

describe('mailed tokens die when the account changes', () => {
  it('a reset link asked for before an email change does not open the account once the address moved and someone else took it', async () => {
    const ip = '192.0.2.30';
    const { id, token } = await account('moving', ip);
    expect((await t.rest('POST', '/api/auth/v1/recover', { email: id.email }, undefined, from(ip))).status).toBe(200);
    const reset = await waitFor(() => mailsTo(id.email).find((m) => /Reset your Taleforge password/.test(m.raw)), 'the reset', 5000);

    const next = newIdentity('moved').email;
    expect((await t.rest('PUT', '/api/auth/v1/user', { email: next, current_password: id.password }, token, from(ip))).status).toBe(200);
    const confirm = await waitFor(() => mailsTo(next).find((m) => /Confirm your new Taleforge email/.test(m.raw)), 'the change link', 5000);
    expect((await fetch(linkIn(confirm), { redirect: 'manual' })).status).toBe(303);
    // Someone registers the old address.
    const squatter = await t.rest(
      'POST',
      '/api/auth/v1/signup',
      { email: id.email, password: 'squatter password 1', data: { username: 'Squatter' } },
      undefined,
      from(strangerIp()),
    );
    expect(squatter.status).toBe(200);

    const followed = await fetch(linkIn(reset), { redirect: 'manual' });
    const fragment = new URLSearchParams(new URL(followed.headers.get('location')!).hash.slice(1));
    expect(fragment.get('access_token')).toBeNull();
    expect(fragment.get('error_code')).toBe('otp_expired');
  });

  it('a password change and a new authenticator each spend every pending link and code', async () => {
    const ip = '192.0.2.40';
    const { id, token } = await account('changing', ip);
    const count = () => mailsTo(id.email).length;
    let before = count();
    await t.rest('POST', '/api/auth/v1/recover', { email: id.email }, undefined, from(ip));
    const firstReset = await waitFor(
      () =>
        mailsTo(id.email)
          .slice(before)
          .find((m) => /Reset your Taleforge password/.test(m.raw)),
      'a reset',
      5000,
    );
    const newPassword = `${id.password} v2`;
    expect((await t.rest('PUT', '/api/auth/v1/user', { password: newPassword, current_password: id.password }, token, from(ip))).status).toBe(200);
    const dead = await fetch(linkIn(firstReset), { redirect: 'manual' });
    expect(new URLSearchParams(new URL(dead.headers.get('location')!).hash.slice(1)).get('error_code')).toBe('otp_expired');

    before = count();
    await t.rest('POST', '/api/auth/v1/otp', { email: id.email }, undefined, from(ip));
    const codeMail = await waitFor(
      () =>
        mailsTo(id.email)
          .slice(before)
          .find((m) => /sign-in code is/.test(m.text)),
      'a code',
      5000,
    );
    const code = /sign-in code is (\d{6})/.exec(codeMail.text)![1]!;
    const auth = client(from(ip));
    expect((await auth.signInWithPassword({ email: id.email, password: newPassword })).error).toBeNull();
    const enrolled = await auth.mfa.enroll({ factorType: 'totp' });
    expect(enrolled.error).toBeNull();
    expect((await auth.mfa.challengeAndVerify({ factorId: enrolled.data!.id, code: totpCode(enrolled.data!.totp.secret) })).error).toBeNull();
    expect((await client(from(ip)).verifyOtp({ email: id.email, token: code, type: 'email' })).error?.message).toBe('Token has expired or is invalid');
  });
});

describe('authenticators', () => {
  it('a stolen access token alone cannot add an authenticator; the password again can; the owner is mailed when they change', async () => {
    const ip = '192.0.2.50';
    const { id, token } = await account('stolen', ip);
    // The token's session proved the password long ago (as a stolen token's would have).
    await t.app.db.dataSource.query(
      `UPDATE sessions SET reauthenticated_at = now() - interval '1 hour' WHERE user_id = (SELECT id FROM users WHERE email = $1)`,
      [id.email],
    );
    const refused = await t.rest('POST', '/api/auth/v1/factors', { factor_type: 'totp' }, token, from(strangerIp()));
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ error_code: 'reauthentication_needed', msg: 'Enter your password again to add an authenticator.' });
    const gql = await t.gql('mutation { enrollTotp { factorId } }', {}, token);
    expect(gql.errors?.[0]).toMatchObject({ message: 'Enter your password again to add an authenticator.', extensions: { code: 'FORBIDDEN' } });
    // With the password (GraphQL) the owner can.
    const wrong = await t.gql('mutation($p: String) { enrollTotp(currentPassword: $p) { factorId } }', { p: 'not the password' }, token);
    expect(wrong.errors?.[0]?.extensions?.code).toBe('INVALID_CREDENTIALS');
    const before = mailsTo(id.email).length;
    const ok = await t.gql<{ enrollTotp: { factorId: string; secret: string } }>(
      'mutation($p: String) { enrollTotp(currentPassword: $p) { factorId secret } }',
      { p: id.password },
      token,
    );
    expect(ok.errors).toBeUndefined();
    const confirmed = await t.gql<{ confirmTotp: { accessToken: string } }>(
      'mutation($f: ID!, $c: String!) { confirmTotp(factorId: $f, code: $c) { accessToken } }',
      { f: ok.data!.enrollTotp.factorId, c: totpCode(ok.data!.enrollTotp.secret) },
      token,
    );
    expect(confirmed.errors).toBeUndefined();
    const added = await waitFor(
      () =>
        mailsTo(id.email)
          .slice(before)
          .find((m) => /An authenticator was added/.test(m.raw)),
      'the added notice',
      5000,
    );
    expect(added.text).toContain('If this was not you');
    const aal2 = confirmed.data!.confirmTotp.accessToken;
    expect((await t.gql('mutation($f: ID!) { removeMfaFactor(factorId: $f) }', { f: ok.data!.enrollTotp.factorId }, aal2)).errors).toBeUndefined();
    await waitFor(
      () =>
        mailsTo(id.email)
          .slice(before)
          .find((m) => /An authenticator was removed/.test(m.raw)),
      'the removed notice',
      5000,
    );
  });
});
