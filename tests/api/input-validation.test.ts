import { newIdentity, SIGN_UP, signUp, startTestApp, type TestApp } from '../support/test-app';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const userCount = async () => (await t.app.db.dataSource.query('SELECT count(*)::int AS n FROM users'))[0].n as number;
const usersWithEmail = async (email: string) =>
  (await t.app.db.dataSource.query('SELECT count(*)::int AS n FROM users WHERE email = $1', [email.trim().toLowerCase()]))[0].n as number;

/** Sign-up through both surfaces; each must fail with a coded error and write nothing. */
async function expectRejected(input: Record<string, unknown>, field: string) {
  const before = await userCount();
  const g = await t.gql(SIGN_UP, { input });
  expect(g.errors?.[0].extensions).toMatchObject({ code: 'BAD_USER_INPUT', field });
  // signUp is nullable (null: a confirmation link was mailed), so an error nulls the field, not data.
  expect(g.data?.signUp ?? null).toBeNull();
  const r = await t.rest('POST', '/api/auth/v1/signup', { email: input.email, password: input.password, data: { username: input.username } });
  expect(r.status).toBe(400);
  expect(typeof r.body.msg).toBe('string');
  expect(r.body.error_code).toMatch(/^(validation_failed|weak_password|email_address_invalid)$/);
  expect(await userCount()).toBe(before);
}

describe('bad input gets a clear coded error and writes nothing', () => {
  it('malformed JSON → 400 with a code, on GraphQL and REST', async () => {
    const g = await t.rest('POST', '/graphql', '{"query": "{ me { id }', undefined, { 'content-type': 'application/json' });
    expect(g.status).toBe(400);
    expect(g.body.errors[0].extensions.code).toBe('BAD_USER_INPUT');
    expect(g.body.errors[0].message).toBe('Malformed JSON body.');
    const r = await t.rest('POST', '/api/auth/v1/signup', '{"email": ', undefined, { 'content-type': 'application/json' });
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ error_code: 'validation_failed', msg: 'Malformed JSON body.' });
  });

  it('a 10 MB body → 413 PAYLOAD_TOO_LARGE, nothing written', async () => {
    const before = await userCount();
    const huge = JSON.stringify({ email: 'big@example.com', password: 'x'.repeat(10 * 1024 * 1024), data: { username: 'Big' } });
    const r = await t.rest('POST', '/api/auth/v1/signup', huge, undefined, { 'content-type': 'application/json' });
    expect(r.status).toBe(413);
    expect(r.body.error_code).toBe('request_too_large');
    const g = await t.rest(
      'POST',
      '/graphql',
      JSON.stringify({ query: SIGN_UP, variables: { input: { email: 'big@example.com', username: 'Big', password: 'y'.repeat(10 * 1024 * 1024) } } }),
      undefined,
      {
        'content-type': 'application/json',
      },
    );
    expect(g.status).toBe(413);
    expect(g.body.errors[0].extensions.code).toBe('PAYLOAD_TOO_LARGE');
    expect(await userCount()).toBe(before);
  });

  it('missing fields → GraphQL validation error; REST → coded 400', async () => {
    const g = await t.gql(`mutation { signUp(input: { email: "a@b.co", password: "password1" }) { accessToken } }`);
    expect(g.errors?.[0].extensions?.code).toBe('GRAPHQL_VALIDATION_FAILED');
    const before = await userCount();
    for (const body of [{}, { email: 'x@example.com' }, { email: 'x@example.com', password: 'password1' }, [], 'null']) {
      const r = await t.rest('POST', '/api/auth/v1/signup', body);
      expect(r.status).toBe(400);
      expect(r.body.error_code).toBeDefined();
    }
    expect(await userCount()).toBe(before);
  });

  it('an email without @ is refused', async () => {
    await expectRejected({ ...newIdentity(), email: 'no-at-sign.example.com' }, 'email');
  });

  it('a 3-character password is refused; so is one over 128 characters', async () => {
    await expectRejected({ ...newIdentity(), password: 'abc' }, 'password');
    await expectRejected({ ...newIdentity(), password: 'p'.repeat(129) }, 'password');
  });

  it('a 500-character username is refused', async () => {
    await expectRejected({ ...newIdentity(), username: 'u'.repeat(500) }, 'username');
  });

  it('HTML in the username or email is refused', async () => {
    await expectRejected({ ...newIdentity(), username: '<script>alert(1)</script>' }, 'username');
    await expectRejected({ ...newIdentity(), username: '<img src=x onerror=alert(1)>' }, 'username');
    await expectRejected({ ...newIdentity(), email: '<b>x</b>@example.com' }, 'email');
  });

  it('SQL in the username or email is refused and the tables stay intact', async () => {
    const someone = await signUp(t);
    const before = await userCount();
    await expectRejected({ ...newIdentity(), username: "Robert'); DROP TABLE users;--" }, 'username');
    await expectRejected({ ...newIdentity(), email: "x'; DROP TABLE users;--@example.com" }, 'email');
    // The table is still there with every row, and an existing player still signs in.
    expect(await userCount()).toBe(before);
    const r = await t.rest('POST', '/api/auth/v1/token?grant_type=password', { email: someone.email, password: someone.password });
    expect(r.status).toBe(200);
  });

  it('SQL and HTML in a password are just characters: stored hashed, and they sign in', async () => {
    for (const password of ["'; DROP TABLE users; --", '<script>alert("x")</script>']) {
      const id = { ...newIdentity(), password };
      const up = await t.gql(SIGN_UP, { input: id });
      expect(up.errors).toBeUndefined();
      const r = await t.rest('POST', '/api/auth/v1/token?grant_type=password', { email: id.email, password });
      expect(r.status).toBe(200);
      expect(await usersWithEmail(id.email)).toBe(1);
    }
  });

  it('SQL and HTML in sign-in fields are inert: INVALID_CREDENTIALS, nothing leaks', async () => {
    for (const email of ["' OR '1'='1", "admin@example.com' --", '<script>@x.y']) {
      const r = await t.rest('POST', '/api/auth/v1/token?grant_type=password', { email, password: "' OR '1'='1" });
      expect(r.status).toBe(400);
      expect(r.body.error_code).toBe('invalid_credentials');
    }
  });

  it('SQL and HTML in the featured-worlds search are plain text', async () => {
    for (const search of ["%' OR 1=1 --", '<script>', '_']) {
      const r = await t.gql(`query($s: String) { featuredWorlds(search: $s) { id } }`, { s: search });
      expect(r.errors).toBeUndefined();
      expect(r.data!.featuredWorlds).toEqual([]);
    }
  });

  it('wrong JSON types are refused, not coerced', async () => {
    const before = await userCount();
    const r = await t.rest('POST', '/api/auth/v1/signup', { email: ['a@b.co'], password: 12345678, data: { username: { x: 1 } } });
    expect(r.status).toBe(400);
    const g = await t.gql(SIGN_UP, { input: { email: 42, username: 'Valid Name', password: 'password1' } });
    expect(g.errors?.[0].extensions?.code).toBe('BAD_USER_INPUT');
    expect(await userCount()).toBe(before);
  });
});
