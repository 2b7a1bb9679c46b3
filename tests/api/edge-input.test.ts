import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { makeCharacter } from '../support/story-fixtures';
import { signUp, startTestApp, type TestApp } from '../support/test-app';

/**
 * One edge rule (issue 36, finding 9): text with a NUL character or an unpaired surrogate, and an
 * explicit null for an argument that has a default, are the caller's mistake everywhere — 400 with
 * BAD_USER_INPUT on REST, BAD_USER_INPUT on GraphQL (HTTP and WebSocket) — never a 500 or INTERNAL.
 */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const NUL = 'a\u0000b';
const LONE = 'a\ud800b';
const code = (r: { errors?: Array<{ extensions?: { code?: string } }> }) => r.errors?.[0]?.extensions?.code;

it('REST: NUL in a query string or a JSON body answers 400 BAD_USER_INPUT', async () => {
  for (const path of ['/api/worlds/community', '/api/worlds/fetch-world-cards']) {
    const r = await t.rest('GET', `${path}?search=${encodeURIComponent(NUL)}`);
    expect([path, r.status, r.body?.code]).toEqual([path, 400, 'BAD_USER_INPUT']);
    expect(r.body.error).toBe('Text must not contain NUL characters or unpaired surrogates.');
  }
  const token = await t.rest('POST', '/api/auth/v1/token?grant_type=password', { email: `x${NUL}@example.com`, password: 'whatever password' });
  expect(token.status).toBe(400);
  expect(token.body).toMatchObject({ error_code: 'email_address_invalid', msg: 'Text must not contain NUL characters or unpaired surrogates.' });
  const p = await signUp(t);
  const factor = await t.rest('POST', '/api/auth/v1/factors', { factor_type: 'totp', friendly_name: NUL }, p.accessToken);
  expect(factor.status).toBe(400);
  const lone = await t.rest('POST', '/api/support/insert', { type: 'bug', message: `It broke ${LONE}` }, p.accessToken);
  expect([lone.status, lone.body?.code]).toEqual([400, 'BAD_USER_INPUT']);
  // Keys count too.
  const key = await t.rest('POST', '/api/support/insert', { type: 'bug', message: 'ok', [`x${NUL}`]: 1 }, p.accessToken);
  expect(key.status).toBe(400);
  // Text without them is fine.
  expect((await t.rest('GET', `/api/worlds/community?search=${encodeURIComponent('ümlaut 😀')}`)).status).toBe(200);
});

it('GraphQL: NUL or an unpaired surrogate in a literal or a variable is BAD_USER_INPUT', async () => {
  expect(code(await t.gql('{ featuredWorlds(search: "a\\u0000b") { id } }'))).toBe('BAD_USER_INPUT');
  expect(code(await t.gql('query($s: String) { communityWorlds(search: $s) { total } }', { s: NUL }))).toBe('BAD_USER_INPUT');
  const p = await signUp(t);
  expect(code(await t.gql('mutation($n: String) { enrollTotp(friendlyName: $n) { factorId } }', { n: NUL }, p.accessToken))).toBe('BAD_USER_INPUT');
  const c = await makeCharacter(t, p.user.id);
  const card = await t.gql(
    'mutation($c: ID!, $i: StoryCardInput!) { createStoryCard(characterId: $c, input: $i) { id } }',
    { c: c.id, i: { name: 'Ilse Varn', description: `Owes a favour ${LONE}` } },
    p.accessToken,
  );
  expect(code(card)).toBe('BAD_USER_INPUT');
  expect(card.errors![0]!.message).toBe('Text must not contain NUL characters or unpaired surrogates.');
});

it('GraphQL: an explicit null for an argument with a default is BAD_USER_INPUT, not INTERNAL', async () => {
  const p = await signUp(t);
  expect(code(await t.gql('query($s: String) { communityWorlds(sort: $s) { total } }', { s: null }))).toBe('BAD_USER_INPUT');
  expect(code(await t.gql('query($o: Int) { creditLedger(offset: $o) { delta } }', { o: null }, p.accessToken))).toBe('BAD_USER_INPUT');
  const out = await t.gql('mutation($s: String) { signOut(scope: $s) }', { s: null }, p.accessToken);
  expect(code(out)).toBe('BAD_USER_INPUT');
  // The session is still there: nothing ran.
  expect((await t.gql('{ me { id } }', {}, p.accessToken)).data?.me).toEqual({ id: p.user.id });
});

it('GraphQL over WebSocket: the same rule for subscription variables', async () => {
  const p = await signUp(t);
  const client = createClient({
    url: `${t.url.replace('http', 'ws')}/graphql`,
    webSocketImpl: WebSocket,
    connectionParams: { authorization: `Bearer ${p.accessToken}` },
    retryAttempts: 0,
  });
  try {
    const errors = await new Promise<Array<{ extensions?: { code?: string } }>>((resolve, reject) => {
      client.subscribe(
        { query: 'subscription($c: ID!, $ch: ID) { chapterStream(characterId: $c, chapterId: $ch) { chapterId delta } }', variables: { c: NUL, ch: null } },
        { next: () => undefined, error: (e) => (Array.isArray(e) ? resolve(e) : reject(e)), complete: () => reject(new Error('completed')) },
      );
    });
    expect(errors[0]?.extensions?.code).toBe('BAD_USER_INPUT');
  } finally {
    await client.dispose();
  }
});
