import { AuthClient } from '@supabase/auth-js';
import { totpCode } from '../../server/src/modules/auth/totp';
import { burst, type BurstResponse } from '../support/burst';
import { startSmtp } from '../support/smtp';
import { newIdentity, startTestApp, type TestApp } from '../support/test-app';
import { waitFor } from '../support/wait';

/**
 * Guesses at a secret (an authenticator code, a mailed code, a link token, a password) are counted
 * before they are judged, by one statement that answers the new count: a burst of concurrent guesses
 * released together (the way a race attack sends them) judges at most the budget, on PGlite and on
 * PostgreSQL (issue 36, findings 1 and 3). A judged guess answers "wrong"; one past the budget answers
 * 429 without being judged.
 */
const ACCOUNT_FAILURES = 5;
let t: TestApp;
let smtp: Awaited<ReturnType<typeof startSmtp>>;
beforeAll(async () => {
  smtp = await startSmtp();
  t = await startTestApp({
    mail: { smtpUrl: smtp.url, from: 'Taleforge <no-reply@taleforge.test>', outboxDir: '/nonexistent', requireEmailConfirmation: false },
    authRateLimit: { perIpPerWindow: 100_000, perEmailPerWindow: 100_000, perAccountFailuresPerWindow: ACCOUNT_FAILURES, windowSeconds: 600 },
  });
});
afterAll(async () => {
  await t.close();
  await smtp.close();
});

const client = () => new AuthClient({ url: `${t.url}/api/auth/v1`, autoRefreshToken: false, persistSession: false });
const BURST = 60;
/** Each request from an address of its own: per-address limits must not be what stops the burst. */
const from = (i: number) => ({ 'x-forwarded-for': `10.36.${Math.floor(i / 250)}.${(i % 250) + 1}` });
const counts = (rs: BurstResponse[]) => {
  const by: Record<number, number> = {};
  for (const r of rs) by[r.status] = (by[r.status] ?? 0) + 1;
  return by;
};
/** Six-digit codes that are none of the codes the secret makes around now. */
function wrongCodes(secret: string, n: number): string[] {
  const live = new Set([-60_000, -30_000, 0, 30_000, 60_000].map((d) => totpCode(secret, Date.now() + d)));
  const out: string[] = [];
  for (let i = 0; out.length < n; i++) {
    const c = String((123_457 * (i + 1)) % 1_000_000).padStart(6, '0');
    if (!live.has(c)) out.push(c);
  }
  return out;
}

async function mfaAccount(prefix: string) {
  const id = newIdentity(prefix);
  const auth = client();
  expect((await auth.signUp({ email: id.email, password: id.password, options: { data: { username: id.username } } })).error).toBeNull();
  const enrolled = await auth.mfa.enroll({ factorType: 'totp', friendlyName: 'Phone' });
  expect(enrolled.error).toBeNull();
  const secret = enrolled.data!.totp.secret;
  expect((await auth.mfa.challengeAndVerify({ factorId: enrolled.data!.id, code: totpCode(secret) })).error).toBeNull();
  // The password alone: an aal1 session that waits for the code.
  const pending = await client().signInWithPassword({ email: id.email, password: id.password });
  expect(pending.error).toBeNull();
  return { id, factorId: enrolled.data!.id, secret, token: pending.data.session!.access_token };
}

it('a burst of authenticator codes on one challenge judges at most five; the right code is then refused too', async () => {
  const { factorId, secret, token } = await mfaAccount('totpburst');
  const challenge = await t.rest('POST', `/api/auth/v1/factors/${factorId}/challenge`, {}, token);
  expect(challenge.status).toBe(200);
  const answers = await burst(
    t.url,
    wrongCodes(secret, BURST).map((code, i) => ({
      method: 'POST',
      path: `/api/auth/v1/factors/${factorId}/verify`,
      headers: { authorization: `Bearer ${token}`, ...from(i) },
      body: { challenge_id: challenge.body.id, code },
    })),
  );
  const by = counts(answers);
  expect((by[400] ?? 0) + (by[429] ?? 0)).toBe(BURST);
  expect(by[400] ?? 0).toBeLessThanOrEqual(5);
  expect(answers.find((r) => r.status === 429)!.body).toMatchObject({ error_code: 'over_request_rate_limit' });
  // The budget is spent: even the right code waits.
  const right = await t.rest('POST', `/api/auth/v1/factors/${factorId}/verify`, { challenge_id: challenge.body.id, code: totpCode(secret) }, token);
  expect(right.status).toBe(429);
});

it('a burst of GraphQL verifyMfaCode calls judges at most five', async () => {
  const { secret, token } = await mfaAccount('gqlburst');
  const answers = await burst(
    t.url,
    wrongCodes(secret, BURST).map((code, i) => ({
      method: 'POST',
      path: '/graphql',
      headers: { authorization: `Bearer ${token}`, ...from(i) },
      body: { query: 'mutation($code: String!) { verifyMfaCode(code: $code) { accessToken } }', variables: { code } },
    })),
  );
  const codes = answers.map((r) => r.body.errors?.[0]?.extensions?.code);
  expect(codes.filter((c) => c !== 'INVALID_CREDENTIALS' && c !== 'RATE_LIMITED')).toEqual([]);
  expect(codes.filter((c) => c === 'INVALID_CREDENTIALS').length).toBeLessThanOrEqual(5);
});

it('a burst of mailed sign-in codes judges at most five, and the code is spent after them', async () => {
  const id = newIdentity('otpburst');
  expect((await client().signUp({ email: id.email, password: id.password, options: { data: { username: id.username } } })).error).toBeNull();
  const before = smtp.mails.length;
  expect((await client().signInWithOtp({ email: id.email })).error).toBeNull();
  const mail = await waitFor(() => smtp.mails.slice(before).find((m) => m.to.includes(id.email)), 'the code mail', 5000);
  const code = /sign-in code is (\d{6})/.exec(mail.text)![1]!;
  const guesses = Array.from({ length: BURST }, (_, i) => String((Number(code) + 1 + i) % 1_000_000).padStart(6, '0'));
  const answers = await burst(
    t.url,
    guesses.map((token, i) => ({ method: 'POST', path: '/api/auth/v1/verify', headers: from(i), body: { type: 'email', email: id.email, token } })),
  );
  const by = counts(answers);
  expect((by[401] ?? 0) + (by[429] ?? 0)).toBe(BURST);
  expect(by[401] ?? 0).toBeLessThanOrEqual(5);
  expect((await client().verifyOtp({ email: id.email, token: code, type: 'email' })).error).not.toBeNull();
});

it('a burst of wrong passwords from many addresses judges at most the account-wide budget', async () => {
  const id = newIdentity('pwburst');
  // The owner signs up from an address of their own: the burst's addresses are all strangers.
  const up = await t.rest('POST', '/api/auth/v1/signup', { email: id.email, password: id.password, data: { username: id.username } }, undefined, {
    'x-forwarded-for': '192.0.2.36',
  });
  expect(up.status).toBe(200);
  const answers = await burst(
    t.url,
    Array.from({ length: BURST }, (_, i) => ({
      method: 'POST',
      path: '/api/auth/v1/token?grant_type=password',
      headers: from(i),
      body: { email: id.email, password: `not the password ${i}` },
    })),
  );
  const by = counts(answers);
  expect((by[400] ?? 0) + (by[429] ?? 0)).toBe(BURST);
  expect(by[400] ?? 0).toBeLessThanOrEqual(ACCOUNT_FAILURES);
  // The owner, from the address they used before, still gets in; a stranger with the right password waits.
  const owner = await t.rest('POST', '/api/auth/v1/token?grant_type=password', { email: id.email, password: id.password }, undefined, {
    'x-forwarded-for': '192.0.2.36',
  });
  expect(owner.status).toBe(200);
  const stranger = await t.rest('POST', '/api/auth/v1/token?grant_type=password', { email: id.email, password: id.password }, undefined, {
    'x-forwarded-for': '198.51.100.7',
  });
  expect(stranger.status).toBe(429);
});

it('a burst of made-up link tokens from one address judges at most its budget', async () => {
  const answers = await burst(
    t.url,
    Array.from({ length: BURST }, (_, i) => ({
      method: 'POST',
      path: '/api/auth/v1/verify',
      headers: { 'x-forwarded-for': '203.0.113.36' },
      body: { type: 'recovery', token_hash: `made-up-token-${i}-${'x'.repeat(40)}` },
    })),
  );
  const by = counts(answers);
  expect((by[401] ?? 0) + (by[429] ?? 0)).toBe(BURST);
  expect(by[401] ?? 0).toBeLessThanOrEqual(30);
  expect(by[429] ?? 0).toBeGreaterThan(0);
});
