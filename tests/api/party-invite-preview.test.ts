/**
 * partyInvitePreview (issue 34, the join screen): what an invite code leads to before joining — the
 * party's world (so the player picks a character there), its host, member count and mode, and
 * whether the code still works (expired, revoked, locked, full, ended). Signed-in players only;
 * an unknown code is null. Also partyChapterCredits, which the create dialog states.
 */
import { loadConfig } from '../../server/src/config/env';
import { partyPlayer } from '../support/party-fixtures';
import { startTestApp, type TestApp } from '../support/test-app';

let t: TestApp;
let worldId: string;
let worldName: string;

beforeAll(async () => {
  const base = loadConfig({ NODE_ENV: 'test' });
  t = await startTestApp({ party: { ...base.party, chapterCredits: 2, sweepSeconds: 0 } });
  const [w] = (await t.app.db.dataSource.query(`SELECT id, name FROM worlds WHERE featured ORDER BY name LIMIT 1`)) as Array<{ id: string; name: string }>;
  worldId = w!.id;
  worldName = w!.name;
});
afterAll(async () => {
  await t.app.services.parties.idle();
  await t.close();
});

const player = (name: string) => partyPlayer(t, worldId, name);

async function ok<T = any>(query: string, variables: Record<string, unknown>, token?: string): Promise<T> {
  const r = await t.gql(query, variables, token);
  if (!r.data || r.errors) throw new Error(`GraphQL failed: ${JSON.stringify(r.errors)}`);
  return r.data as T;
}

const PREVIEW = `query($code: String!) { partyInvitePreview(code: $code) {
  worldId worldName hostUsername memberCount maxMembers mode hostPays chapterCredits full locked ended expired revoked memberOfPartyId } }`;

it('shows the party behind a code, says when it no longer works, and is for signed-in players only', async () => {
  const host = await player('Mira');
  const guest = await player('Tom');
  const p = (
    await ok(
      `mutation($input: CreatePartyInput!) { createParty(input: $input) { id } }`,
      { input: { characterId: host.characterId, mode: 'post', hostPays: true } },
      host.token,
    )
  ).createParty;
  const inv = (await ok(`mutation($id: ID!) { partyInvite(partyId: $id) { id code } }`, { id: p.id }, host.token)).partyInvite;

  const seen = (await ok(PREVIEW, { code: inv.code.toLowerCase() }, guest.token)).partyInvitePreview;
  expect(seen).toEqual({
    worldId,
    worldName,
    hostUsername: host.username,
    memberCount: 1,
    maxMembers: 6,
    mode: 'post',
    hostPays: true,
    chapterCredits: 2,
    full: false,
    locked: false,
    ended: false,
    expired: false,
    revoked: false,
    memberOfPartyId: null,
  });
  // The host (a member) is pointed at the party instead.
  expect((await ok(PREVIEW, { code: inv.code }, host.token)).partyInvitePreview.memberOfPartyId).toBe(p.id);

  // Unknown or malformed codes: null, not an error.
  expect((await ok(PREVIEW, { code: 'ZZZZZ-ZZZZZ' }, guest.token)).partyInvitePreview).toBeNull();
  expect((await ok(PREVIEW, { code: 'nope' }, guest.token)).partyInvitePreview).toBeNull();

  // Anonymous: refused.
  const anon = await t.gql(PREVIEW, { code: inv.code });
  expect(anon.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');

  await ok(`mutation($id: ID!) { lockParty(partyId: $id) { id } }`, { id: p.id }, host.token);
  await ok(`mutation($id: ID!) { revokeInvite(inviteId: $id) }`, { id: inv.id }, host.token);
  const after = (await ok(PREVIEW, { code: inv.code }, guest.token)).partyInvitePreview;
  expect(after).toMatchObject({ locked: true, revoked: true, ended: false });

  await ok(`mutation($id: ID!) { endParty(partyId: $id) { id } }`, { id: p.id }, host.token);
  expect((await ok(PREVIEW, { code: inv.code }, guest.token)).partyInvitePreview.ended).toBe(true);

  expect((await ok(`{ partyChapterCredits }`, {}, guest.token)).partyChapterCredits).toBe(2);
});

it("partyInvites: the host's invites from any visit, each with its code masked (only its last 4 symbols are kept), its expiry and whether it works", async () => {
  const host = await player('Mira');
  const p = (
    await ok(
      `mutation($input: CreatePartyInput!) { createParty(input: $input) { id } }`,
      { input: { characterId: host.characterId, mode: 'live' } },
      host.token,
    )
  ).createParty;
  const made = [];
  for (const hours of [1, 2, 3])
    made.push(
      (await ok(`mutation($id: ID!, $h: Int) { partyInvite(partyId: $id, hours: $h) { id code expiresAt } }`, { id: p.id, h: hours }, host.token)).partyInvite,
    );
  await ok(`mutation($id: ID!) { revokeInvite(inviteId: $id) }`, { id: made[1].id }, host.token);

  const INVITES = `query($id: ID!) { partyInvites(partyId: $id) { id maskedCode expiresAt revokedAt working } }`;
  const listed = (await ok(INVITES, { id: p.id }, host.token)).partyInvites as Array<Record<string, unknown>>;
  // Newest first; a code is shown as •••••-•XXXX: enough to tell codes apart, not enough to join with.
  expect(listed).toEqual(
    [...made].reverse().map((m, i) => ({
      id: m.id,
      maskedCode: `•••••-•${(m.code as string).slice(-4)}`,
      expiresAt: m.expiresAt,
      revokedAt: i === 1 ? expect.any(String) : null,
      working: i !== 1,
    })),
  );
  // What is stored cannot be joined with: the hash and the last 4 symbols only.
  const [row] = (await t.app.db.dataSource.query(`SELECT * FROM party_invites WHERE id = $1`, [made[0].id])) as Array<Record<string, unknown>>;
  expect(JSON.stringify(row)).not.toContain((made[0].code as string).replace('-', '').slice(0, 6));
});
