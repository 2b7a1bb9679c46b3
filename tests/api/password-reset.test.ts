import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { AuthClient } from '@supabase/auth-js';
import { createMailer } from '../../server/src/modules/mail/mailer';
import { createLogger } from '../../server/src/common/logger';
import { startSmtp, type ReceivedMail } from '../support/smtp';
import { newIdentity, startTestApp, type TestApp } from '../support/test-app';
import { waitFor } from '../support/wait';

/**
 * Password reset by mail (issue 21), with a stock @supabase/auth-js client and mail received by a real
 * SMTP server: the same answer for unknown emails, a single-use link that ends every other session,
 * a recovery session that sets the password without the old one, rate limits.
 */
let t: TestApp;
let smtp: Awaited<ReturnType<typeof startSmtp>>;
let outbox: string;
beforeAll(async () => {
  smtp = await startSmtp();
  outbox = fs.mkdtempSync(path.join(os.tmpdir(), 'taleforge-outbox-'));
  t = await startTestApp({ mail: { smtpUrl: smtp.url, from: 'Taleforge <no-reply@taleforge.test>', outboxDir: outbox, requireEmailConfirmation: false } });
});
afterAll(async () => {
  await t.close();
  await smtp.close();
  fs.rmSync(outbox, { recursive: true, force: true });
});

const client = () => new AuthClient({ url: `${t.url}/api/auth/v1`, autoRefreshToken: false, persistSession: false });
const alive = async (token: string) => (await fetch(`${t.url}/api/auth/v1/user`, { headers: { authorization: `Bearer ${token}` } })).status === 200;
const mailTo = (email: string) => waitFor(() => smtp.mails.find((m) => m.to.includes(email)), `a mail to ${email}`, 5000);
/** The mailed link, pointed at this test's port (the mail names PUBLIC_URL, as it must). */
const linkIn = (mail: ReceivedMail) =>
  /https?:\/\/\S+\/api\/auth\/v1\/verify\?token=[^\s"<>]+/.exec(mail.text)![0].replace(/&amp;/g, '&').replace(t.app.config.publicUrl, t.url);

async function account() {
  const id = newIdentity('reset');
  const auth = client();
  const up = await auth.signUp({ email: id.email, password: id.password, options: { data: { username: id.username } } });
  expect(up.error).toBeNull();
  return { id, auth, token: up.data.session!.access_token };
}

it('a stock client requests a reset, follows the mailed link and sets a new password; every other session ends; the link works once', async () => {
  const { id, token } = await account();
  const reader = client();
  const asked = await reader.resetPasswordForEmail(id.email, { redirectTo: `${t.app.config.publicUrl}/reset-password` });
  expect(asked.error).toBeNull();
  const mail = await mailTo(id.email);
  expect(mail.raw).toMatch(/^Subject: Reset your Taleforge password/m);
  expect(mail.raw).toMatch(/^From: Taleforge <no-reply@taleforge.test>/m);
  const link = linkIn(mail);

  const followed = await fetch(link, { redirect: 'manual' });
  expect(followed.status).toBe(303);
  const landing = new URL(followed.headers.get('location')!);
  expect(`${landing.origin}${landing.pathname}`).toBe(`${t.app.config.publicUrl}/reset-password`);
  const fragment = new URLSearchParams(landing.hash.slice(1));
  expect(fragment.get('type')).toBe('recovery');
  // Following the link signed the account out everywhere.
  expect(await alive(token)).toBe(false);

  const session = await reader.setSession({ access_token: fragment.get('access_token')!, refresh_token: fragment.get('refresh_token')! });
  expect(session.error).toBeNull();
  const newPassword = `${id.password} after the storm`;
  const set = await reader.updateUser({ password: newPassword });
  expect(set.error).toBeNull();
  // Once set, the session is an ordinary one: another change needs the current password again.
  expect((await reader.updateUser({ password: `${newPassword}!` })).error?.message).toBe('Enter your current password to set a new one.');

  expect((await client().signInWithPassword({ email: id.email, password: id.password })).error?.message).toBe('Incorrect email or password.');
  expect((await client().signInWithPassword({ email: id.email, password: newPassword })).error).toBeNull();

  const again = await fetch(link, { redirect: 'manual' });
  const error = new URLSearchParams(new URL(again.headers.get('location')!).hash.slice(1));
  expect(error.get('error_code')).toBe('otp_expired');
  expect(error.get('error_description')).toBe('Email link is invalid or has expired');
});

it('answers an unknown email exactly like a known one and mails nothing; a newer link spends the older one; foreign redirects are ignored', async () => {
  const unknown = `nobody.${Date.now()}@example.com`;
  const r = await t.rest('POST', '/api/auth/v1/recover', { email: unknown });
  expect(r).toMatchObject({ status: 200, body: {} });
  const { id } = await account();
  const known = await t.rest('POST', `/api/auth/v1/recover?redirect_to=${encodeURIComponent('https://evil.example/steal')}`, { email: id.email });
  expect(known).toMatchObject({ status: 200, body: {} });
  const first = linkIn(await mailTo(id.email));
  expect(decodeURIComponent(first)).toContain(`redirect_to=${t.app.config.publicUrl}/reset-password`);
  await new Promise((res) => setTimeout(res, 200));
  expect(smtp.mails.some((m) => m.to.includes(unknown))).toBe(false);

  const before = smtp.mails.length;
  expect((await t.gql('mutation($e: String!) { requestPasswordReset(email: $e) }', { e: id.email })).data?.requestPasswordReset).toBe(true);
  await waitFor(() => smtp.mails.length > before, 'the second mail', 5000);
  const second = linkIn(smtp.mails.at(-1)!);
  expect(new URL((await fetch(first, { redirect: 'manual' })).headers.get('location')!).hash).toContain('error_code=otp_expired');
  // auth-js verifyOtp with the token: the same session as the link gives, as JSON.
  const verified = await client().verifyOtp({ token_hash: new URL(second).searchParams.get('token')!, type: 'recovery' });
  expect(verified.error).toBeNull();
  expect(verified.data.session?.access_token).toBeTruthy();
});

it('rate-limits requests per email, known or not, with the same answer', async () => {
  const { id } = await account();
  const unknown = `ghost.${Date.now()}@example.com`;
  for (const email of [id.email, unknown]) {
    const answers = [];
    for (let i = 0; i < 4; i++) answers.push((await t.rest('POST', '/api/auth/v1/recover', { email })).status);
    expect(answers).toEqual([200, 200, 200, 429]);
  }
  // Three mails to the known address, none to the unknown one.
  await waitFor(() => smtp.mails.filter((m) => m.to.includes(id.email)).length === 3, 'three mails', 5000);
  expect(smtp.mails.some((m) => m.to.includes(unknown))).toBe(false);
});

it('without SMTP the mail goes to the outbox folder as an .eml file with its link', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'taleforge-outbox-'));
  try {
    const mailer = createMailer(
      { mail: { from: 'Taleforge <no-reply@taleforge.test>', outboxDir: dir, requireEmailConfirmation: false } },
      createLogger({ logLevel: 'silent' }),
    );
    expect(mailer.kind).toBe('outbox');
    await mailer.send({
      to: 'mira@example.com',
      subject: 'Reset your Taleforge password',
      text: 'Open https://x.test/verify?token=abc',
      html: '<p>x</p>',
      link: 'https://x.test/verify?token=abc',
    });
    const files = fs.readdirSync(dir).filter((f) => f.endsWith('.eml'));
    expect(files).toHaveLength(1);
    const eml = fs.readFileSync(path.join(dir, files[0]!), 'utf8');
    expect(eml).toMatch(/^To: mira@example.com$/m);
    expect(eml).toContain('https://x.test/verify?token=abc');
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
