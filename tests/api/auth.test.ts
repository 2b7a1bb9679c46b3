import { newIdentity, signUp, SIGN_UP, startTestApp, type TestApp } from '../support/test-app';

const ME = `{ me { id email username createdAt } }`;
const SIGN_IN = `mutation($input: SignInInput!) { signIn(input: $input) { accessToken refreshToken user { id email username } } }`;
const REFRESH = `mutation($t: String!) { refreshSession(refreshToken: $t) { accessToken refreshToken expiresAt } }`;
const SIGN_OUT = `mutation { signOut }`;

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

describe('sign up', () => {
  it('GraphQL sign-up returns a session with the SPEC shape and a working access token', async () => {
    const id = newIdentity();
    const r = await t.gql(SIGN_UP, { input: { ...id, email: `  ${id.email.toUpperCase()} ` } });
    expect(r.errors).toBeUndefined();
    const s = r.data!.signUp;
    expect(s.tokenType).toBe('bearer');
    expect(s.expiresIn).toBe(3600);
    expect(s.expiresAt).toBeGreaterThan(Date.now() / 1000 + 3500);
    expect(s.refreshToken.length).toBeGreaterThanOrEqual(43); // 256 bits, base64url
    expect(s.user).toMatchObject({ email: id.email, username: id.username });
    const me = await t.gql(ME, {}, s.accessToken);
    expect(me.data!.me).toMatchObject({ id: s.user.id, email: id.email, username: id.username });
  });

  it('GoTrue REST sign-up returns access_token, refresh_token, expires_at and user.user_metadata.username', async () => {
    const id = newIdentity();
    const r = await t.rest('POST', '/api/auth/v1/signup', { email: id.email, password: id.password, data: { username: id.username } });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      token_type: 'bearer',
      expires_in: 3600,
      user: { email: id.email, aud: 'authenticated', user_metadata: { username: id.username } },
    });
    expect(typeof r.body.access_token).toBe('string');
    expect(typeof r.body.refresh_token).toBe('string');
    expect(Number.isInteger(r.body.expires_at)).toBe(true);
    expect(new Date(r.body.user.created_at).getTime()).toBeGreaterThan(Date.now() - 60_000);
    const user = await t.rest('GET', '/api/auth/v1/user', undefined, r.body.access_token);
    expect(user.status).toBe(200);
    expect(user.body.email).toBe(id.email);
  });

  it('a second sign-up with the same email is refused and creates nothing', async () => {
    const id = newIdentity();
    await signUp(t, id);
    const again = await t.gql(SIGN_UP, { input: { ...id, username: 'Someone Else' } });
    expect(again.errors?.[0].extensions?.code).toBe('CONFLICT');
    const rows = await t.app.db.dataSource.query('SELECT count(*)::int AS n FROM users WHERE email = $1', [id.email]);
    expect(rows[0].n).toBe(1);
  });

  it('refuses the most common passwords (any case) on both surfaces, with weak_password on GoTrue REST', async () => {
    for (const password of ['password', '12345678', 'Password123', 'iloveyou', 'QWERTYUIOP']) {
      const id = newIdentity();
      const g = await t.gql(SIGN_UP, { input: { ...id, password } });
      expect([password, g.errors?.[0].extensions?.code]).toEqual([password, 'BAD_USER_INPUT']);
      expect(g.errors?.[0].message).toBe('This password is too common and easy to guess. Please choose another one.');
      const r = await t.rest('POST', '/api/auth/v1/signup', { email: id.email, password, data: { username: id.username } });
      expect([password, r.status, r.body.error_code]).toEqual([password, 400, 'weak_password']);
      const rows = await t.app.db.dataSource.query('SELECT count(*)::int AS n FROM users WHERE email = $1', [id.email]);
      expect(rows[0].n).toBe(0);
    }
  });

  it('refuses passwords that are easy to guess though not on the lists: repeats, sequences, the site, the player’s own name', async () => {
    const id = newIdentity('weakling');
    const own = `${id.email.split('@')[0]}`.slice(0, 20);
    for (const password of ['aaaaaaaa', 'abcdefgh', '12341234', 'taleforge', 'Taleforge1', own]) {
      const r = await t.rest('POST', '/api/auth/v1/signup', { email: id.email, password, data: { username: id.username } });
      expect([password, r.status, r.body.error_code, r.body.msg]).toEqual([
        password,
        400,
        'weak_password',
        'This password is too easy to guess. Add a few more words or characters that are hard to guess.',
      ]);
    }
    // A passphrase is fine.
    expect(
      (await t.rest('POST', '/api/auth/v1/signup', { email: id.email, password: 'lantern orchard seventeen', data: { username: id.username } })).status,
    ).toBe(200);
  });

  it('a new user starts on Free with enough credits for one world and two characters (3 + 2×3)', async () => {
    const s = await signUp(t);
    const [sub] = await t.app.db.dataSource.query('SELECT tier_id, credits FROM subscriptions WHERE user_id = $1', [s.user.id]);
    expect(sub.tier_id).toBe('free');
    expect(sub.credits).toBeGreaterThanOrEqual(9);
    const ledger = await t.app.db.dataSource.query('SELECT delta, reason FROM credit_transactions WHERE user_id = $1', [s.user.id]);
    expect(ledger).toEqual([{ delta: sub.credits, reason: 'signup_grant' }]);
  });
});

describe('sign in', () => {
  it('signs in with the right password (email case-insensitive) through GraphQL and GoTrue REST', async () => {
    const id = newIdentity();
    await signUp(t, id);
    const g = await t.gql(SIGN_IN, { input: { email: id.email.toUpperCase(), password: id.password } });
    expect(g.data!.signIn.user.email).toBe(id.email);
    const r = await t.rest('POST', '/api/auth/v1/token?grant_type=password', { email: id.email, password: id.password });
    expect(r.status).toBe(200);
    expect(r.body.user.user_metadata.username).toBe(id.username);
  });

  it('never tells whether an email exists: same code and message for a wrong password and an unknown email', async () => {
    const id = newIdentity();
    await signUp(t, id);
    const wrong = await t.gql(SIGN_IN, { input: { email: id.email, password: 'not the password' } });
    const unknown = await t.gql(SIGN_IN, { input: { email: `nobody.${Date.now()}@example.com`, password: 'not the password' } });
    for (const r of [wrong, unknown]) {
      expect(r.errors?.[0].extensions?.code).toBe('INVALID_CREDENTIALS');
      expect(r.errors?.[0].message).toBe('Incorrect email or password.');
    }
    const rest = await t.rest('POST', '/api/auth/v1/token?grant_type=password', { email: id.email, password: 'nope nope' });
    expect(rest.status).toBe(400);
    expect(rest.body).toEqual({ code: 400, error_code: 'invalid_credentials', msg: 'Incorrect email or password.' });
  });
});

describe('refresh tokens', () => {
  it('rotate: each refresh returns a new refresh token and a working access token', async () => {
    const s = await signUp(t);
    const r1 = await t.gql(REFRESH, { t: s.refreshToken });
    expect(r1.errors).toBeUndefined();
    expect(r1.data!.refreshSession.refreshToken).not.toBe(s.refreshToken);
    const r2 = await t.gql(REFRESH, { t: r1.data!.refreshSession.refreshToken });
    expect(r2.errors).toBeUndefined();
    const me = await t.gql(ME, {}, r2.data!.refreshSession.accessToken);
    expect(me.data!.me.id).toBe(s.user.id);
  });

  it('a refresh token used twice revokes the whole session: every token of it stops working', async () => {
    const s = await signUp(t);
    const first = await t.gql(REFRESH, { t: s.refreshToken });
    const rotated = first.data!.refreshSession;
    // In use (so this instance remembers the session as live) right up to the reuse.
    expect((await t.gql(ME, {}, rotated.accessToken)).data!.me.id).toBe(s.user.id);
    const reuse = await t.gql(REFRESH, { t: s.refreshToken });
    expect(reuse.errors?.[0].extensions).toMatchObject({ code: 'UNAUTHENTICATED', reason: 'refresh_token_already_used' });
    // The legitimate holder's newer tokens die with the session.
    const next = await t.gql(REFRESH, { t: rotated.refreshToken });
    expect(next.errors?.[0].extensions?.code).toBe('UNAUTHENTICATED');
    const me = await t.gql(ME, {}, rotated.accessToken);
    expect(me.data!.me).toBeNull();
    const [session] = await t.app.db.dataSource.query(`SELECT revoked_reason FROM sessions WHERE user_id = $1`, [s.user.id]);
    expect(session.revoked_reason).toBe('refresh_token_reuse');
  });

  it('GoTrue REST refresh and reuse answer like GoTrue (400 with an error_code)', async () => {
    const id = newIdentity();
    const up = await t.rest('POST', '/api/auth/v1/signup', { email: id.email, password: id.password, data: { username: id.username } });
    const ok = await t.rest('POST', '/api/auth/v1/token?grant_type=refresh_token', { refresh_token: up.body.refresh_token });
    expect(ok.status).toBe(200);
    expect(ok.body.refresh_token).not.toBe(up.body.refresh_token);
    const again = await t.rest('POST', '/api/auth/v1/token?grant_type=refresh_token', { refresh_token: up.body.refresh_token });
    expect(again.status).toBe(400);
    expect(again.body.error_code).toBe('refresh_token_already_used');
  });

  it('two concurrent refreshes with one token: at most one succeeds', async () => {
    const s = await signUp(t);
    const results = await Promise.all([t.gql(REFRESH, { t: s.refreshToken }), t.gql(REFRESH, { t: s.refreshToken })]);
    expect(results.filter((r) => !r.errors).length).toBeLessThanOrEqual(1);
  });

  it('refresh tokens are stored only as hashes', async () => {
    const s = await signUp(t);
    const rows = await t.app.db.dataSource.query(`SELECT t.token_hash FROM refresh_tokens t JOIN sessions s ON s.id = t.session_id WHERE s.user_id = $1`, [
      s.user.id,
    ]);
    expect(rows).toHaveLength(1);
    expect(rows[0].token_hash).not.toContain(s.refreshToken);
    expect(rows[0].token_hash).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe('access tokens', () => {
  it('sign out revokes the session: the access token and the refresh token stop working', async () => {
    const s = await signUp(t);
    const out = await t.gql(SIGN_OUT, {}, s.accessToken);
    expect(out.data!.signOut).toBe(true);
    expect((await t.gql(ME, {}, s.accessToken)).data!.me).toBeNull();
    expect((await t.gql(REFRESH, { t: s.refreshToken })).errors?.[0].extensions?.code).toBe('UNAUTHENTICATED');
  });

  it('GoTrue REST logout revokes the session; /user then answers 401', async () => {
    const id = newIdentity();
    const up = await t.rest('POST', '/api/auth/v1/signup', { email: id.email, password: id.password, data: { username: id.username } });
    const out = await t.rest('POST', '/api/auth/v1/logout?scope=global', undefined, up.body.access_token);
    expect(out.status).toBe(204);
    const user = await t.rest('GET', '/api/auth/v1/user', undefined, up.body.access_token);
    expect(user.status).toBe(401);
  });

  it('rejects tokens with another algorithm, a bad signature or garbage; anonymous signOut is UNAUTHENTICATED', async () => {
    const s = await signUp(t);
    const [h, p] = s.accessToken.split('.');
    const none = `${Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url')}.${p}.`;
    const tampered = `${h}.${p}.${'A'.repeat(43)}`;
    for (const token of [none, tampered, 'garbage']) {
      expect((await t.gql(ME, {}, token)).data!.me).toBeNull();
    }
    const anon = await t.gql(SIGN_OUT);
    expect(anon.errors?.[0].extensions?.code).toBe('UNAUTHENTICATED');
  });
});

/** A GoTrue password sign-in as it arrives from `ip` (the tests trust the loopback proxy hop). */
const signInFrom = (app: TestApp, ip: string, email: string, password: string) =>
  fetch(`${app.url}/api/auth/v1/token?grant_type=password`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': ip },
    body: JSON.stringify({ email, password }),
  });

describe('rate limits', () => {
  it('sign-in is limited per email and per IP with RATE_LIMITED and Retry-After', async () => {
    const limited = await startTestApp({ authRateLimit: { perIpPerWindow: 7, perEmailPerWindow: 3, perAccountFailuresPerWindow: 100, windowSeconds: 60 } });
    try {
      const id = newIdentity();
      const attempts = [];
      for (let i = 0; i < 4; i++) attempts.push(await limited.gql(SIGN_IN, { input: { email: id.email, password: 'whatever1' } }));
      expect(attempts.slice(0, 3).every((r) => r.errors?.[0].extensions?.code === 'INVALID_CREDENTIALS')).toBe(true);
      expect(attempts[3].errors?.[0].extensions).toMatchObject({ code: 'RATE_LIMITED' });
      expect(attempts[3].errors?.[0].extensions?.retryAfterSeconds).toBeGreaterThan(0);
      // Over HTTP the GraphQL answer carries Retry-After too, as the REST one does.
      const raw = await fetch(`${limited.url}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query: SIGN_IN, variables: { input: { email: id.email, password: 'whatever1' } } }),
      });
      expect(raw.status).toBe(200);
      expect(Number(raw.headers.get('retry-after'))).toBeGreaterThan(0);
      // Other emails from the same IP: the per-IP budget (6) runs out too.
      const codes = [];
      for (let i = 0; i < 3; i++) {
        const r = await limited.rest('POST', '/api/auth/v1/token?grant_type=password', { email: newIdentity().email, password: 'whatever1' });
        codes.push(r.status);
        if (r.status === 429) expect(r.headers.get('retry-after')).toMatch(/^\d+$/);
      }
      expect(codes).toEqual([400, 400, 429]);
    } finally {
      await limited.close();
    }
  });

  it('wrong passwords from many addresses never lock the owner out of a fresh address (no targeted lockout)', async () => {
    const limited = await startTestApp({ authRateLimit: { perIpPerWindow: 30, perEmailPerWindow: 10, perAccountFailuresPerWindow: 1000, windowSeconds: 600 } });
    try {
      const id = newIdentity();
      expect((await limited.gql(SIGN_UP, { input: id })).errors).toBeUndefined();
      const from = (ip: string, password: string) => signInFrom(limited, ip, id.email, password);
      // The probe: 10 wrong passwords from 10 addresses (a few from each)…
      for (let i = 0; i < 10; i++) for (let j = 0; j < 3; j++) await from(`203.0.113.${i + 1}`, `wrong guess ${j}`);
      // …and the owner, from an address never seen before, with the right password, gets in.
      const owner = await from('198.51.100.77', id.password);
      expect(owner.status).toBe(200);
      // An address that keeps guessing is stopped on this account (10 attempts a window)…
      const codes = [];
      for (let j = 0; j < 10; j++) codes.push((await from('203.0.113.200', `again ${j}`)).status);
      expect(codes.slice(0, 10)).toEqual(Array(10).fill(400));
      const stopped = await from('203.0.113.200', id.password);
      expect(stopped.status).toBe(429);
      expect(stopped.headers.get('retry-after')).toMatch(/^\d+$/);
    } finally {
      await limited.close();
    }
  });

  it('a guessing campaign past the account-wide budget is refused except from addresses the owner used before', async () => {
    const limited = await startTestApp({ authRateLimit: { perIpPerWindow: 30, perEmailPerWindow: 10, perAccountFailuresPerWindow: 12, windowSeconds: 600 } });
    try {
      const id = newIdentity();
      const from = (ip: string, password: string) => signInFrom(limited, ip, id.email, password);
      const up = await fetch(`${limited.url}/api/auth/v1/signup`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': '198.51.100.10' },
        body: JSON.stringify({ email: id.email, password: id.password, data: { username: id.username } }),
      });
      expect(up.status).toBe(200);
      for (let i = 0; i < 12; i++) expect((await from(`203.0.113.${i + 1}`, `guess ${i}`)).status).toBe(400);
      // Past 12 failures in the window: a new address is refused whatever it sends (the right password
      // too, so the answer tells a guesser nothing)…
      expect((await from('203.0.113.99', 'guess 99')).status).toBe(429);
      expect((await from('198.51.100.77', id.password)).status).toBe(429);
      // …while the address the owner signed up from still signs in.
      expect((await from('198.51.100.10', id.password)).status).toBe(200);
    } finally {
      await limited.close();
    }
  });
});
