import { AuthClient } from '@supabase/auth-js';
import { newIdentity, signUp, startTestApp, type TestApp } from '../support/test-app';

/**
 * Account changes (issue 21, item 3 in part): a stock @supabase/auth-js client changes its password
 * (the current one required) and signs in with the new one; signOut's scopes end this session, every
 * session, or every other one. GraphQL offers the same through updateAccount and signOut(scope).
 */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const client = () => new AuthClient({ url: `${t.url}/api/auth/v1`, autoRefreshToken: false, persistSession: false });

async function devices(n: number) {
  const id = newIdentity('devices');
  const first = client();
  const up = await first.signUp({ email: id.email, password: id.password, options: { data: { username: id.username } } });
  expect(up.error).toBeNull();
  const all = [{ auth: first, token: up.data.session!.access_token }];
  for (let i = 1; i < n; i++) {
    const auth = client();
    const s = await auth.signInWithPassword({ email: id.email, password: id.password });
    expect(s.error).toBeNull();
    all.push({ auth, token: s.data.session!.access_token });
  }
  return { id, all };
}

const alive = async (token: string) => (await fetch(`${t.url}/api/auth/v1/user`, { headers: { authorization: `Bearer ${token}` } })).status === 200;

it('a stock auth-js client updates its password (the current one required) and signs in with the new one; other sessions end', async () => {
  const { id, all } = await devices(2);
  const [phone, laptop] = all;
  const newPassword = `${id.password} and a new verse`;

  const missing = await phone!.auth.updateUser({ password: newPassword });
  expect(missing.error?.message).toBe('Enter your current password to set a new one.');
  const wrong = await phone!.auth.updateUser({ password: newPassword, current_password: 'not my password at all' });
  expect(wrong.error?.message).toBe('Your current password is not correct.');
  const weak = await phone!.auth.updateUser({ password: 'short', current_password: id.password });
  expect(weak.error).not.toBeNull();

  const ok = await phone!.auth.updateUser({ password: newPassword, current_password: id.password });
  expect(ok.error).toBeNull();
  expect(ok.data.user?.email).toBe(id.email);
  // The session that changed it goes on; the other device is signed out.
  expect(await alive(phone!.token)).toBe(true);
  expect(await alive(laptop!.token)).toBe(false);

  expect((await client().signInWithPassword({ email: id.email, password: id.password })).error?.message).toBe('Incorrect email or password.');
  expect((await client().signInWithPassword({ email: id.email, password: newPassword })).error).toBeNull();
});

it('a stock client changes its username; an email change needs the current password (tests/api/email-confirmation.test.ts follows it through)', async () => {
  const { all } = await devices(1);
  const me = all[0]!;
  const renamed = await me.auth.updateUser({ data: { username: 'Captain Reyes' } });
  expect(renamed.error).toBeNull();
  expect(renamed.data.user?.user_metadata.username).toBe('Captain Reyes');
  expect((await t.gql('{ me { username } }', {}, me.token)).data?.me.username).toBe('Captain Reyes');
  expect((await me.auth.updateUser({ data: { username: '<b>x</b>' } })).error).not.toBeNull();
  expect((await me.auth.updateUser({ email: 'elsewhere@example.com' })).error?.message).toBe('Enter your current password to change your email.');
});

it("signOut({scope: 'global'}) ends every session; 'others' every session but this one; 'local' only this one", async () => {
  const a = await devices(3);
  const others = await fetch(`${t.url}/api/auth/v1/logout?scope=others`, { method: 'POST', headers: { authorization: `Bearer ${a.all[0]!.token}` } });
  expect(others.status).toBe(204);
  expect(await Promise.all(a.all.map((d) => alive(d.token)))).toEqual([true, false, false]);

  const b = await devices(3);
  // The stock client's signOut() is global by default: every device of the account is signed out.
  const out = await b.all[1]!.auth.signOut();
  expect(out.error).toBeNull();
  expect(await Promise.all(b.all.map((d) => alive(d.token)))).toEqual([false, false, false]);

  const c = await devices(2);
  expect((await c.all[0]!.auth.signOut({ scope: 'local' })).error).toBeNull();
  expect(await Promise.all(c.all.map((d) => alive(d.token)))).toEqual([false, true]);
  expect((await fetch(`${t.url}/api/auth/v1/logout?scope=everyone`, { method: 'POST', headers: { authorization: `Bearer ${c.all[1]!.token}` } })).status).toBe(
    400,
  );
});

it('GraphQL: updateAccount and signOut(scope)', async () => {
  const s = await signUp(t);
  const second = await t.gql('mutation($input: SignInInput!) { signIn(input: $input) { accessToken } }', { input: { email: s.email, password: s.password } });
  const other = second.data!.signIn.accessToken as string;
  const UPDATE = 'mutation($input: UpdateAccountInput!) { updateAccount(input: $input) { username } }';
  expect((await t.gql(UPDATE, { input: {} }, s.accessToken)).errors?.[0]?.message).toBe('Nothing to change.');
  expect(
    (await t.gql(UPDATE, { input: { newPassword: 'a much longer secret', currentPassword: 'wrong one here' } }, s.accessToken)).errors?.[0]?.extensions?.code,
  ).toBe('INVALID_CREDENTIALS');
  expect((await t.gql(UPDATE, { input: { username: 'Wren Ashdown' } }, s.accessToken)).data?.updateAccount.username).toBe('Wren Ashdown');
  expect(await alive(other)).toBe(true); // a new name ends no session
  expect((await t.gql('mutation { signOut(scope: "others") }', {}, s.accessToken)).data?.signOut).toBe(true);
  expect(await alive(other)).toBe(false);
  expect(await alive(s.accessToken)).toBe(true);
  expect((await t.gql('mutation { signOut(scope: "global") }', {}, s.accessToken)).data?.signOut).toBe(true);
  expect(await alive(s.accessToken)).toBe(false);
});
