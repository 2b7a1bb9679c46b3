import { AuthClient } from '@supabase/auth-js';
import { startSmtp, type ReceivedMail } from '../support/smtp';
import { newIdentity, startTestApp, type TestApp } from '../support/test-app';
import { waitFor } from '../support/wait';

/**
 * Email addresses proven by mail (issue 21), with a stock @supabase/auth-js client and a real SMTP
 * server: a change of address waits for the link sent to the new one; with REQUIRE_EMAIL_CONFIRMATION
 * on, sign-up mails a confirmation link and sign-in waits for it.
 */
let t: TestApp;
let strict: TestApp;
let smtp: Awaited<ReturnType<typeof startSmtp>>;
beforeAll(async () => {
  smtp = await startSmtp();
  const mail = { smtpUrl: smtp.url, from: 'Taleforge <no-reply@taleforge.test>', outboxDir: '/nonexistent' };
  t = await startTestApp({ mail: { ...mail, requireEmailConfirmation: false } });
  strict = await startTestApp({ mail: { ...mail, requireEmailConfirmation: true } });
});
afterAll(async () => {
  await t.close();
  await strict.close();
  await smtp.close();
});

const client = (app: TestApp) => new AuthClient({ url: `${app.url}/api/auth/v1`, autoRefreshToken: false, persistSession: false });
const mailTo = (email: string, subject: RegExp, after = 0) =>
  waitFor(() => smtp.mails.slice(after).find((m) => m.to.includes(email) && subject.test(m.raw)), `a mail to ${email}`, 5000);
const linkIn = (app: TestApp, mail: ReceivedMail) =>
  /https?:\/\/\S+\/api\/auth\/v1\/verify\?token=[^\s"<>]+/.exec(mail.text)![0].replace(/&amp;/g, '&').replace(app.app.config.publicUrl, app.url);

describe('changing the email address', () => {
  it('a stock client asks for a new address with its password; it changes only when the link sent there is followed; the old address is told', async () => {
    const id = newIdentity('move');
    const auth = client(t);
    expect((await auth.signUp({ email: id.email, password: id.password, options: { data: { username: id.username } } })).error).toBeNull();
    const next = newIdentity('moved').email;

    expect((await auth.updateUser({ email: next })).error?.message).toBe('Enter your current password to change your email.');
    expect((await auth.updateUser({ email: next, current_password: 'not it at all' })).error?.message).toBe('Your current password is not correct.');
    const asked = await auth.updateUser({ email: next, current_password: id.password });
    expect(asked.error).toBeNull();
    expect(asked.data.user).toMatchObject({ email: id.email, new_email: next });
    await mailTo(id.email, /^Subject: Your Taleforge email is about to change/m);
    const confirm = await mailTo(next, /^Subject: Confirm your new Taleforge email/m);
    // Not yet: the old address still signs in, the new one does not.
    expect((await client(t).signInWithPassword({ email: next, password: id.password })).error?.message).toBe('Incorrect email or password.');

    const followed = await fetch(linkIn(t, confirm), { redirect: 'manual' });
    expect(followed.status).toBe(303);
    const landing = new URL(followed.headers.get('location')!);
    expect(landing.pathname).toBe('/profile');
    expect(new URLSearchParams(landing.hash.slice(1)).get('type')).toBe('email_change');
    // The same session sees the new address at once; the new address signs in, the old one no longer.
    expect((await auth.getUser()).data.user?.email).toBe(next);
    expect((await client(t).signInWithPassword({ email: next, password: id.password })).error).toBeNull();
    expect((await client(t).signInWithPassword({ email: id.email, password: id.password })).error?.message).toBe('Incorrect email or password.');
    // Used once.
    const again = await fetch(linkIn(t, confirm), { redirect: 'manual' });
    expect(new URLSearchParams(new URL(again.headers.get('location')!).hash.slice(1)).get('error_code')).toBe('otp_expired');
  });

  it('an address that already has an account gets the same answer and a warning mail, and nothing changes', async () => {
    const a = newIdentity('owner');
    const b = newIdentity('taker');
    await client(t).signUp({ email: a.email, password: a.password, options: { data: { username: a.username } } });
    const auth = client(t);
    await auth.signUp({ email: b.email, password: b.password, options: { data: { username: b.username } } });
    const r = await auth.updateUser({ email: a.email, current_password: b.password });
    expect(r.error).toBeNull();
    const warning = await mailTo(a.email, /^Subject: Someone tried to use this address on Taleforge/m);
    expect(warning.text).not.toMatch(/verify\?token=/);
    expect((await auth.getUser()).data.user?.email).toBe(b.email);
  });

  it('GraphQL updateAccount asks for the new address the same way', async () => {
    const id = newIdentity('gqlmove');
    const up = await t.gql<{ signUp: { accessToken: string } }>('mutation($i: SignUpInput!) { signUp(input: $i) { accessToken } }', { i: id });
    const token = up.data!.signUp.accessToken;
    const next = newIdentity('gqlmoved').email;
    const r = await t.gql(
      'mutation($i: UpdateAccountInput!) { updateAccount(input: $i) { email } }',
      { i: { email: next, currentPassword: id.password } },
      token,
    );
    expect(r.data!.updateAccount).toEqual({ email: id.email });
    await mailTo(next, /^Subject: Confirm your new Taleforge email/m);
  });
});

describe('REQUIRE_EMAIL_CONFIRMATION', () => {
  it('sign-up mails a link and gives no session; sign-in waits for the link, which signs the player in', async () => {
    const id = newIdentity('confirm');
    const auth = client(strict);
    const up = await auth.signUp({ email: id.email, password: id.password, options: { data: { username: id.username } } });
    expect(up.error).toBeNull();
    expect(up.data.session).toBeNull();
    expect(up.data.user?.email).toBe(id.email);
    const mail = await mailTo(id.email, /^Subject: Confirm your Taleforge account/m);

    const early = await client(strict).signInWithPassword({ email: id.email, password: id.password });
    expect(early.error?.message).toBe('Please confirm your email first: open the link we sent you, or ask for a new one.');
    expect((early.error as { code?: string }).code).toBe('email_not_confirmed');
    const viaGraphql = await strict.gql('mutation($i: SignInInput!) { signIn(input: $i) { accessToken } }', { i: { email: id.email, password: id.password } });
    expect(viaGraphql.errors![0].extensions).toMatchObject({ code: 'FORBIDDEN', reason: 'email_not_confirmed' });
    // A wrong password says nothing about confirmation.
    expect((await client(strict).signInWithPassword({ email: id.email, password: 'wrong password here' })).error?.message).toBe('Incorrect email or password.');

    const followed = await fetch(linkIn(strict, mail), { redirect: 'manual' });
    const landing = new URL(followed.headers.get('location')!);
    expect(landing.pathname).toBe('/auth');
    const fragment = new URLSearchParams(landing.hash.slice(1));
    expect(fragment.get('type')).toBe('signup');
    const me = await strict.gql<{ me: { email: string } }>('{ me { email } }', {}, fragment.get('access_token')!);
    expect(me.data!.me.email).toBe(id.email);
    expect((await client(strict).signInWithPassword({ email: id.email, password: id.password })).error).toBeNull();
  });

  it('resend answers the same for any address and mails only unconfirmed accounts; GraphQL signUp answers null', async () => {
    const id = newIdentity('resend');
    const up = await strict.gql('mutation($i: SignUpInput!) { signUp(input: $i) { accessToken } }', { i: id });
    expect(up.errors).toBeUndefined();
    expect(up.data!.signUp).toBeNull();
    await mailTo(id.email, /^Subject: Confirm your Taleforge account/m);
    const count = smtp.mails.length;
    const stranger = `nobody.${Date.now()}@example.com`;
    expect((await client(strict).resend({ type: 'signup', email: stranger })).error).toBeNull();
    expect((await client(strict).resend({ type: 'signup', email: id.email })).error).toBeNull();
    const second = await mailTo(id.email, /^Subject: Confirm your Taleforge account/m, count);
    expect(smtp.mails.some((m) => m.to.includes(stranger))).toBe(false);
    // Only the newest link works.
    const first = smtp.mails.slice(0, count).find((m) => m.to.includes(id.email))!;
    expect(new URL((await fetch(linkIn(strict, first), { redirect: 'manual' })).headers.get('location')!).hash).toContain('error_code=otp_expired');
    expect(new URL((await fetch(linkIn(strict, second), { redirect: 'manual' })).headers.get('location')!).hash).toContain('type=signup');
  });

  it('with confirmation on, signing up with an address that has an account answers like a new one; its owner is told', async () => {
    const id = newIdentity('again');
    await client(strict).signUp({ email: id.email, password: id.password, options: { data: { username: id.username } } });
    const first = await mailTo(id.email, /^Subject: Confirm your Taleforge account/m);
    const again = await client(strict).signUp({ email: id.email, password: 'another password 123', options: { data: { username: 'Someone Else' } } });
    expect(again.error).toBeNull();
    expect(again.data.session).toBeNull();
    expect(again.data.user?.email).toBe(id.email);
    const notice = await mailTo(id.email, /^Subject: You already have a Taleforge account/m);
    expect(notice.text).not.toMatch(/verify\?token=/);
    // The original password is untouched and the first link still works.
    expect(new URL((await fetch(linkIn(strict, first), { redirect: 'manual' })).headers.get('location')!).hash).toContain('type=signup');
    expect((await client(strict).signInWithPassword({ email: id.email, password: id.password })).error).toBeNull();
  });

  it('is off by default: sign-up signs in at once', async () => {
    const id = newIdentity('open');
    const up = await client(t).signUp({ email: id.email, password: id.password, options: { data: { username: id.username } } });
    expect(up.data.session).not.toBeNull();
  });
});
