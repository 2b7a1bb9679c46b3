import crypto from 'node:crypto';
/**
 * Party play (issue 34) against a real database: joining by invite code (expired, revoked, banned,
 * locked refused with coded errors), live rounds (one chapter naming every actor, closed by the last
 * action or the host), turns by post (rotation, a missed turn skipped once however many sweeps run,
 * the "your turn" mail in the outbox, "Previously…"), host controls, who may read the party story,
 * and who pays (refunded when the chapter fails). Time moves through the service's clock.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import type { ChapterEvent } from '../../server/src/ai/story-ai';
import { loadConfig } from '../../server/src/config/env';
import type { PartyService } from '../../server/src/modules/parties/party.service';
import { BASE_STATS, gatedStream, scriptedAI, useStoryAI } from '../support/story-fixtures';
import { partyPlayer } from '../support/party-fixtures';
import { startTestApp, type TestApp } from '../support/test-app';
import { waitFor } from '../support/wait';

let t: TestApp;
let outbox: string;
let parties: PartyService;
let worldId: string;
let otherWorldId: string;

beforeAll(async () => {
  outbox = fs.mkdtempSync(path.join(os.tmpdir(), 'taleforge-party-outbox-'));
  const base = loadConfig({ NODE_ENV: 'test' });
  t = await startTestApp({
    mail: { ...base.mail, smtpUrl: undefined, outboxDir: outbox },
    // The sweep is driven by the tests (parties.sweep()), never by a timer.
    party: { ...base.party, chapterCredits: 1, sweepSeconds: 0 },
  });
  parties = t.app.services.parties;
  const worlds = (await t.app.db.dataSource.query(`SELECT id FROM worlds WHERE featured ORDER BY name LIMIT 2`)) as Array<{ id: string }>;
  worldId = worlds[0]!.id;
  otherWorldId = worlds[1]!.id;
});
afterAll(async () => {
  await parties.idle();
  await t.close();
  fs.rmSync(outbox, { recursive: true, force: true });
});

interface Player {
  id: string;
  password: string;
  email: string;
  token: string;
  characterId: string;
  name: string;
}

/** A signed-up player with a saved character called `name` in the party world (or another). */
const player = (name: string, world = worldId) => partyPlayer(t, world, name);

const PARTY_FIELDS = /* GraphQL */ `
  id
  mode
  status
  hostUserId
  storyCharacterId
  locked
  hostPays
  round
  roundState
  turnUserId
  deadlineAt
  lastError
  members {
    userId
    characterName
    seat
    isHost
    hasActed
    stats
  }
`;

async function ok<T = any>(query: string, variables: Record<string, unknown>, token: string): Promise<T> {
  const r = await t.gql(query, variables, token);
  if (!r.data || r.errors) throw new Error(`GraphQL failed: ${JSON.stringify(r.errors)}`);
  return r.data as T;
}

async function code(query: string, variables: Record<string, unknown>, token: string): Promise<{ code?: string; reason?: unknown }> {
  const r = await t.gql(query, variables, token);
  const e = r.errors?.[0];
  return { code: e?.extensions?.code, reason: e?.extensions?.reason };
}

const CREATE = `mutation($input: CreatePartyInput!) { createParty(input: $input) { ${PARTY_FIELDS} } }`;
const INVITE = `mutation($id: ID!, $hours: Int) { partyInvite(partyId: $id, hours: $hours) { id code expiresAt } }`;
const JOIN = `mutation($code: String!, $c: ID!) { joinParty(code: $code, characterId: $c) { ${PARTY_FIELDS} } }`;
const ACT = `mutation($id: ID!, $a: String!) { submitPartyAction(partyId: $id, action: $a) { ${PARTY_FIELDS} } }`;
const CLOSE = `mutation($id: ID!) { closePartyRound(partyId: $id) { ${PARTY_FIELDS} } }`;
const PARTY = `query($id: ID!) { party(id: $id) { ${PARTY_FIELDS} story { totalChapters chapters { index playerChoice text } } } }`;
const CREDITS = `{ credits creditLedger(limit: 5) { delta reason } }`;

async function createParty(host: Player, mode: 'live' | 'post', extra: Record<string, unknown> = {}) {
  return (await ok(CREATE, { input: { characterId: host.characterId, mode, ...extra } }, host.token)).createParty;
}

async function invite(host: Player, partyId: string, hours?: number): Promise<string> {
  return (await ok(INVITE, { id: partyId, hours }, host.token)).partyInvite.code;
}

/** A party of `host` with `others` joined by one code. */
async function partyOf(mode: 'live' | 'post', host: Player, others: Player[], extra: Record<string, unknown> = {}) {
  const p = await createParty(host, mode, extra);
  const c = await invite(host, p.id);
  for (const o of others) await ok(JOIN, { code: c, c: o.characterId }, o.token);
  return { id: p.id as string, code: c };
}

const credits = async (p: Player) => await ok<{ credits: number; creditLedger: Array<{ delta: number; reason: string }> }>(CREDITS, {}, p.token);

/** The .eml files in the outbox that are addressed to `email`. */
function mailsTo(email: string): string[] {
  return fs
    .readdirSync(outbox)
    .map((f) => fs.readFileSync(path.join(outbox, f), 'utf8'))
    .filter((m) => m.toLowerCase().includes(`to: ${email.toLowerCase()}`));
}

it('three players join by code; expired, revoked and unknown codes, and a character of another world, are refused with coded errors', async () => {
  const [host, a, b, c] = [await player('Mira'), await player('Tom'), await player('Ada'), await player('Bo')];
  const p = await createParty(host, 'live');
  expect(p).toMatchObject({ mode: 'live', status: 'open', hostUserId: host.id, storyCharacterId: host.characterId, round: 0, roundState: 'collecting' });
  const inv = (await ok(INVITE, { id: p.id }, host.token)).partyInvite;
  expect(inv.code).toMatch(/^[0-9A-Z]{5}-[0-9A-Z]{5}$/);
  // 48 hours by default.
  expect(new Date(inv.expiresAt).getTime() - Date.now()).toBeGreaterThan(47 * 3600_000);
  // Only its hash is stored.
  const stored = (await t.app.db.dataSource.query(`SELECT code_hash FROM party_invites WHERE id = $1`, [inv.id])) as Array<{ code_hash: string }>;
  expect(stored[0]!.code_hash).toHaveLength(64);
  expect(stored[0]!.code_hash).not.toContain(inv.code.replace('-', ''));
  // A slow hash (scrypt), not SHA-256 of the symbols: with 4 of them in the host's invite list, a copy of
  // the database must not give the code back in seconds.
  const sha256 = (code: string) => crypto.createHash('sha256').update(code.replace('-', '')).digest('hex');
  expect(stored[0]!.code_hash).not.toBe(sha256(inv.code));
  // An invite stored the old way (plain SHA-256, before the slow hash) still leads to its party.
  const old = (await ok(INVITE, { id: p.id }, host.token)).partyInvite;
  await t.app.db.dataSource.query(`UPDATE party_invites SET code_hash = $2 WHERE id = $1`, [old.id, sha256(old.code)]);
  expect(await t.app.services.parties.previewInvite(a.id, old.code)).toMatchObject({ hostUsername: expect.any(String), expired: false, revoked: false });
  await t.app.db.dataSource.query(`DELETE FROM party_invites WHERE id = $1`, [old.id]); // (the invite counts below are of the others)

  await ok(JOIN, { code: inv.code, c: a.characterId }, a.token);
  // Case and dashes do not matter.
  await ok(JOIN, { code: inv.code.toLowerCase().replace('-', ''), c: b.characterId }, b.token);
  const rest = await t.rest('POST', '/api/parties/join', { code: inv.code, characterId: c.characterId }, c.token);
  expect(rest.status).toBe(200);
  expect(rest.body.party.members.map((m: { characterName: string }) => m.characterName)).toEqual(['Mira', 'Tom', 'Ada', 'Bo']);
  // Joining again with the same character changes nothing.
  expect((await ok(JOIN, { code: inv.code, c: a.characterId }, a.token)).joinParty.members).toHaveLength(4);

  const [late, stranger] = [await player('Late'), await player('Elsewhere', otherWorldId)];
  // Another world's character.
  expect(await code(JOIN, { code: inv.code, c: stranger.characterId }, stranger.token)).toMatchObject({ code: 'BAD_USER_INPUT' });
  // Someone else's character.
  expect(await code(JOIN, { code: inv.code, c: a.characterId }, late.token)).toMatchObject({ code: 'NOT_FOUND' });
  expect(await code(JOIN, { code: 'ZZZZZ-ZZZZZ', c: late.characterId }, late.token)).toMatchObject({ code: 'NOT_FOUND' });

  // Expired: an hour's code, two hours later by the service's clock.
  const short = await invite(host, p.id, 1);
  const realClock = parties.clock;
  parties.clock = () => new Date(Date.now() + 2 * 3600_000);
  try {
    expect(await code(JOIN, { code: short, c: late.characterId }, late.token)).toEqual({ code: 'FORBIDDEN', reason: 'invite_expired' });
  } finally {
    parties.clock = realClock;
  }
  // Revoked (host only; a member is told FORBIDDEN).
  const revoked = (await ok(INVITE, { id: p.id }, host.token)).partyInvite;
  const REVOKE = `mutation($id: ID!) { revokeInvite(inviteId: $id) }`;
  expect(await code(REVOKE, { id: revoked.id }, a.token)).toMatchObject({ code: 'FORBIDDEN' });
  expect(await code(REVOKE, { id: revoked.id }, late.token)).toMatchObject({ code: 'NOT_FOUND' });
  expect((await ok(REVOKE, { id: revoked.id }, host.token)).revokeInvite).toBe(true);
  expect(await code(JOIN, { code: revoked.code, c: late.characterId }, late.token)).toEqual({ code: 'FORBIDDEN', reason: 'invite_revoked' });
  // The host lists invites (never their codes): the revoked one is not working.
  const INVITES = `query($id: ID!) { partyInvites(partyId: $id) { id working revokedAt } }`;
  const listed = (await ok(INVITES, { id: p.id }, host.token)).partyInvites as Array<{ id: string; working: boolean; revokedAt: string | null }>;
  expect(listed).toHaveLength(3);
  expect(listed.find((i) => i.id === revoked.id)).toMatchObject({ working: false, revokedAt: expect.any(String) });
  expect(listed.filter((i) => i.working)).toHaveLength(2);
  expect(await code(INVITES, { id: p.id }, a.token)).toMatchObject({ code: 'FORBIDDEN' });
  // Only the host invites.
  expect(await code(INVITE, { id: p.id }, a.token)).toMatchObject({ code: 'FORBIDDEN' });
  // Twenty working invites at most (two work now: the first and the hour's code).
  for (let i = 0; i < 18; i++) await invite(host, p.id);
  expect(await code(INVITE, { id: p.id }, host.token)).toEqual({ code: 'CONFLICT', reason: 'too_many_invites' });
  // Six players at most.
  const [e1, e2, e3] = [await player('Eve'), await player('Fin'), await player('Gus')];
  await ok(JOIN, { code: inv.code, c: e1.characterId }, e1.token);
  await ok(JOIN, { code: inv.code, c: e2.characterId }, e2.token);
  expect(await code(JOIN, { code: inv.code, c: e3.characterId }, e3.token)).toEqual({ code: 'CONFLICT', reason: 'full' });
});

it('a live round closes when every member has acted and writes one chapter naming each actor; the closer pays', async () => {
  const [host, tom, ada] = [await player('Mira'), await player('Tom'), await player('Ada')];
  const { id } = await partyOf('live', host, [tom, ada]);
  await ok(ACT, { id, a: 'looks around' }, host.token);
  // Sending again replaces the action.
  const after = (await ok(ACT, { id, a: 'climbs the bell tower' }, host.token)).submitPartyAction;
  expect(after.members.map((m: { hasActed: boolean }) => m.hasActed)).toEqual([true, false, false]);
  expect(after.deadlineAt).not.toBeNull(); // the round's timer started with its first action
  await ok(ACT, { id, a: 'questions the innkeeper' }, tom.token);
  const closed = (await ok(ACT, { id, a: 'Counts the coins!' }, ada.token)).submitPartyAction;
  expect(closed.roundState).toBe('writing');
  // No action while the chapter is written.
  expect(await code(ACT, { id, a: 'waits' }, tom.token)).toEqual({ code: 'CONFLICT', reason: 'writing' });
  await parties.idle();

  const read = (await ok(PARTY, { id }, tom.token)).party;
  expect(read).toMatchObject({ round: 1, roundState: 'collecting', lastError: null, deadlineAt: null });
  expect(read.members.every((m: { hasActed: boolean }) => !m.hasActed)).toBe(true);
  expect(read.story.totalChapters).toBe(1);
  expect(read.story.chapters[0].playerChoice).toBe('Mira: climbs the bell tower. Tom: questions the innkeeper. Ada: Counts the coins!');
  expect(read.story.chapters[0].text.length).toBeGreaterThan(100);
  // Each player keeps their own character's stats.
  expect(read.members[1].stats).toEqual(BASE_STATS);
  // The members' characters joined the party story's cast: pinned character cards the storyteller always gets.
  const cast = (await t.app.db.dataSource.query(`SELECT name, kind, pinned FROM story_cards WHERE character_id = $1 AND pinned ORDER BY name`, [
    host.characterId,
  ])) as Array<{ name: string; kind: string; pinned: boolean }>;
  expect(cast).toEqual([
    { name: 'Ada', kind: 'character', pinned: true },
    { name: 'Tom', kind: 'character', pinned: true },
  ]);
  // The member whose action closed the round paid one credit; nobody else did.
  expect((await credits(ada)).creditLedger[0]).toEqual({ delta: -1, reason: 'party_round' });
  expect((await credits(ada)).credits).toBe(9);
  expect((await credits(host)).credits).toBe(10);
  expect((await credits(tom)).credits).toBe(10);
  // The pending charge was settled (it stands).
  const pending = (await t.app.db.dataSource.query(`SELECT count(*)::int AS n FROM pending_charges WHERE user_id = $1`, [ada.id])) as Array<{ n: number }>;
  expect(pending[0]!.n).toBe(0);

  // The REST twins: act and read.
  const acted = await t.rest('POST', `/api/parties/${id}/act`, { action: 'rings the bell' }, host.token);
  expect(acted.status).toBe(200);
  expect(acted.body.party.members[0].hasActed).toBe(true);
  const got = await t.rest('GET', `/api/parties/${id}`, undefined, ada.token);
  expect(got.status).toBe(200);
  expect(got.body.story.chapters).toHaveLength(1);
});

it('the host closes a round early and pays; members cannot; a round without actions cannot be closed', async () => {
  const [host, tom, ada] = [await player('Mira'), await player('Tom'), await player('Ada')];
  const { id } = await partyOf('live', host, [tom, ada]);
  expect(await code(CLOSE, { id }, host.token)).toMatchObject({ code: 'BAD_USER_INPUT' });
  await ok(ACT, { id, a: 'kicks the door in' }, tom.token);
  expect(await code(CLOSE, { id }, tom.token)).toEqual({ code: 'FORBIDDEN', reason: 'not_host' });
  expect((await ok(CLOSE, { id }, host.token)).closePartyRound.roundState).toBe('writing');
  await parties.idle();
  const read = (await ok(PARTY, { id }, host.token)).party;
  expect(read.story.chapters.map((c: { playerChoice: string }) => c.playerChoice)).toEqual(['Tom: kicks the door in.']);
  expect((await credits(host)).creditLedger[0]).toEqual({ delta: -1, reason: 'party_round' });
  expect((await credits(tom)).credits).toBe(10);

  // The timer: a round past its deadline is closed by the sweep, paid by the last member to act.
  await ok(ACT, { id, a: 'lights a torch' }, ada.token);
  const realClock = parties.clock;
  parties.clock = () => new Date(Date.now() + 301_000);
  try {
    // (Other tests' due rounds close too: the sweep is every party's.)
    expect(await parties.sweep()).toBeGreaterThanOrEqual(1);
  } finally {
    parties.clock = realClock;
  }
  await parties.idle();
  const timed = (await ok(PARTY, { id }, host.token)).party;
  expect(timed.round).toBe(2);
  expect(timed.story.chapters.at(-1).playerChoice).toBe('Ada: lights a torch.');
  expect((await credits(ada)).credits).toBe(9);
});

it('by post: turns rotate in seat order with a "your turn" mail, a missed turn is skipped once however many sweeps run, and "Previously…" lists what a member missed', async () => {
  const [host, tom, ada] = [await player('Mira'), await player('Tom'), await player('Ada')];
  const { id } = await partyOf('post', host, [tom, ada], { turnSeconds: 3600 });
  let read = (await ok(PARTY, { id }, host.token)).party;
  expect(read).toMatchObject({ mode: 'post', turnUserId: host.id });
  expect(await code(ACT, { id, a: 'jumps the queue' }, tom.token)).toEqual({ code: 'CONFLICT', reason: 'not_your_turn' });

  await ok(ACT, { id, a: 'opens the map' }, host.token);
  await parties.idle();
  read = (await ok(PARTY, { id }, host.token)).party;
  expect(read).toMatchObject({ round: 1, turnUserId: tom.id, roundState: 'collecting' });
  expect(read.story.chapters[0].playerChoice).toBe('Mira: opens the map.');
  expect((await credits(host)).creditLedger[0]).toEqual({ delta: -1, reason: 'party_turn' });
  const mail = mailsTo(tom.email);
  expect(mail).toHaveLength(1);
  expect(mail[0]).toContain('Subject: Your turn in your Taleforge party');
  expect(mail[0]).toContain(`/parties/${id}`);

  // Tom misses his turn: two sweeps at once (two instances) skip it exactly once.
  const realClock = parties.clock;
  parties.clock = () => new Date(Date.now() + 3601_000);
  try {
    await Promise.all([parties.sweep(), parties.sweep()]);
  } finally {
    parties.clock = realClock;
  }
  await parties.idle();
  read = (await ok(PARTY, { id }, host.token)).party;
  expect(read).toMatchObject({ round: 2, turnUserId: ada.id });
  expect(mailsTo(ada.email)).toHaveLength(1);

  await ok(ACT, { id, a: 'reads the runes' }, ada.token);
  await parties.idle();
  read = (await ok(PARTY, { id }, host.token)).party;
  expect(read).toMatchObject({ round: 3, turnUserId: host.id });

  // Tom never acted: he missed both chapters. Ada saw her own: nothing since.
  const PREV = `query($id: ID!) { partyPreviously(partyId: $id) { index playerChoice gist } }`;
  const prev = (await ok(PREV, { id }, tom.token)).partyPreviously;
  expect(prev.map((p: { playerChoice: string }) => p.playerChoice)).toEqual(['Mira: opens the map.', 'Ada: reads the runes.']);
  expect(prev[0].gist.length).toBeGreaterThan(20);
  expect((await ok(PREV, { id }, ada.token)).partyPreviously).toEqual([]);
  const restPrev = await t.rest('GET', `/api/parties/${id}/previously`, undefined, host.token);
  expect(restPrev.body.chapters.map((p: { index: number }) => p.index)).toEqual([1]);
});

it('kick and ban: a kicked player is refused at once and told so live; a banned one cannot rejoin with any code', async () => {
  const [host, tom, ada] = [await player('Mira'), await player('Tom'), await player('Ada')];
  const { id, code: c } = await partyOf('live', host, [tom, ada]);
  const watch = await parties.watch(tom.id, id);
  expect((await watch.next()).value).toMatchObject({ reason: 'snapshot' });

  const KICK = `mutation($id: ID!, $u: ID!) { kickPartyMember(partyId: $id, userId: $u) { members { userId } } }`;
  const BAN = `mutation($id: ID!, $u: ID!) { banPartyMember(partyId: $id, userId: $u) { members { userId } } }`;
  expect(await code(KICK, { id, u: ada.id }, tom.token)).toMatchObject({ code: 'FORBIDDEN' });
  // The story's owner cannot be removed from their own storyline.
  const members = (await ok(KICK, { id, u: tom.id }, host.token)).kickPartyMember.members;
  expect(members.map((m: { userId: string }) => m.userId)).toEqual([host.id, ada.id]);
  expect(await code(ACT, { id, a: 'sneaks back' }, tom.token)).toMatchObject({ code: 'NOT_FOUND' });
  expect(await code(PARTY, { id }, tom.token)).toMatchObject({ code: 'NOT_FOUND' });
  // (Earlier changes may still be on their way, e.g. Ada's join: the last event says Tom is out.)
  let last = (await watch.next()).value;
  for (let i = 0; i < 5 && last?.reason !== 'removed'; i++) last = (await watch.next()).value;
  expect(last).toEqual({ partyId: id, reason: 'removed', party: null });
  expect((await watch.next()).done).toBe(true);

  // Kicked, not banned: the code still works.
  await ok(JOIN, { code: c, c: tom.characterId }, tom.token);
  expect((await ok(BAN, { id, u: tom.id }, host.token)).banPartyMember.members).toHaveLength(2);
  expect(await code(JOIN, { code: c, c: tom.characterId }, tom.token)).toEqual({ code: 'FORBIDDEN', reason: 'banned' });
  const fresh = await invite(host, id);
  expect(await code(JOIN, { code: fresh, c: tom.characterId }, tom.token)).toEqual({ code: 'FORBIDDEN', reason: 'banned' });

  // Ada leaves on her own.
  expect((await ok(`mutation($id: ID!) { leaveParty(partyId: $id) }`, { id }, ada.token)).leaveParty).toBe(true);
  expect(await code(PARTY, { id }, ada.token)).toMatchObject({ code: 'NOT_FOUND' });
});

it('lock refuses new joins until unlocked; transferring host moves the controls; ending stops play but not reading', async () => {
  const [host, tom, ada] = [await player('Mira'), await player('Tom'), await player('Ada')];
  const { id, code: c } = await partyOf('live', host, [tom]);
  const LOCK = `mutation($id: ID!, $l: Boolean!) { lockParty(partyId: $id, locked: $l) { locked } }`;
  expect((await ok(LOCK, { id, l: true }, host.token)).lockParty.locked).toBe(true);
  expect(await code(JOIN, { code: c, c: ada.characterId }, ada.token)).toEqual({ code: 'CONFLICT', reason: 'locked' });
  await ok(LOCK, { id, l: false }, host.token);
  await ok(JOIN, { code: c, c: ada.characterId }, ada.token);

  const TRANSFER = `mutation($id: ID!, $u: ID!) { transferPartyHost(partyId: $id, userId: $u) { hostUserId members { userId isHost } } }`;
  const moved = (await ok(TRANSFER, { id, u: tom.id }, host.token)).transferPartyHost;
  expect(moved.hostUserId).toBe(tom.id);
  expect(await code(LOCK, { id, l: true }, host.token)).toEqual({ code: 'FORBIDDEN', reason: 'not_host' });
  expect((await ok(LOCK, { id, l: true }, tom.token)).lockParty.locked).toBe(true);
  // The new host still cannot remove the story's owner.
  expect(await code(`mutation($id: ID!, $u: ID!) { kickPartyMember(partyId: $id, userId: $u) { id } }`, { id, u: host.id }, tom.token)).toEqual({
    code: 'FORBIDDEN',
    reason: 'story_owner',
  });

  const END = `mutation($id: ID!) { endParty(partyId: $id) { status } }`;
  expect(await code(END, { id }, ada.token)).toMatchObject({ code: 'FORBIDDEN' });
  expect((await ok(END, { id }, tom.token)).endParty.status).toBe('ended');
  expect(await code(ACT, { id, a: 'keeps going' }, ada.token)).toEqual({ code: 'CONFLICT', reason: 'ended' });
  expect((await ok(PARTY, { id }, ada.token)).party.status).toBe('ended');
  const mine = (await ok(`{ myParties { id status } }`, {}, ada.token)).myParties;
  expect(mine).toEqual([{ id, status: 'ended' }]);
});

it('a party ended while its turn is written keeps the chapter but starts no next turn and mails no one', async () => {
  const [host, tom] = [await player('Mira'), await player('Tom')];
  const { id } = await partyOf('post', host, [tom]);
  const gate = gatedStream();
  const previous = t.app.services.stories;
  useStoryAI(t, scriptedAI({ streamChapter: (input) => gate.stream(input) }));
  try {
    await ok(ACT, { id, a: 'lights the beacon' }, host.token);
    await gate.yielded(0);
    expect((await ok(`mutation($id: ID!) { endParty(partyId: $id) { status roundState } }`, { id }, host.token)).endParty).toEqual({
      status: 'ended',
      roundState: 'writing',
    });
    gate.release(Infinity);
    await parties.idle();
  } finally {
    t.app.services.stories = previous;
  }
  const read = (await ok(PARTY, { id }, tom.token)).party;
  expect(read).toMatchObject({ status: 'ended', roundState: 'collecting', deadlineAt: null });
  expect(read.story.chapters.map((c: { playerChoice: string }) => c.playerChoice)).toEqual(['Mira: lights the beacon.']);
  expect(mailsTo(tom.email)).toEqual([]);
  expect((await credits(host)).credits).toBe(9); // the chapter was written: its charge stands
});

it("a deleted account leaves the party to the others: the story's owner takes the host's controls back", async () => {
  const [host, tom, ada] = [await player('Mira'), await player('Tom'), await player('Ada')];
  const { id } = await partyOf('post', host, [tom, ada]);
  await ok(`mutation($id: ID!, $u: ID!) { transferPartyHost(partyId: $id, userId: $u) { hostUserId } }`, { id, u: tom.id }, host.token);
  expect((await t.rest('POST', '/api/account/delete', { password: tom.password }, tom.token)).status).toBe(204);
  const read = (await ok(PARTY, { id }, ada.token)).party;
  expect(read.hostUserId).toBe(host.id);
  expect(read.members.map((m: { characterName: string }) => m.characterName)).toEqual(['Mira', 'Ada']);
  expect((await ok(`mutation($id: ID!) { lockParty(partyId: $id) { locked } }`, { id }, host.token)).lockParty.locked).toBe(true);
});

it('the party story is readable by members only: party, REST, the storyline and its chapter stream', async () => {
  const [host, tom, outsider] = [await player('Mira'), await player('Tom'), await player('Zed')];
  const { id } = await partyOf('live', host, [tom]);
  await ok(ACT, { id, a: 'climbs the bell tower' }, host.token);
  await ok(ACT, { id, a: 'holds the ladder' }, tom.token);
  await parties.idle();

  // A member follows the story's chapter stream (the latest chapter, complete).
  const stream = await parties.openStream(tom.id, id);
  const first = (await stream.next()).value;
  expect(first).toMatchObject({ status: 'complete', index: 0, characterId: host.characterId });
  await stream.return(undefined);

  expect(await code(PARTY, { id }, outsider.token)).toMatchObject({ code: 'NOT_FOUND' });
  expect((await t.rest('GET', `/api/parties/${id}`, undefined, outsider.token)).status).toBe(404);
  expect(await code(`query($id: ID!) { partyPreviously(partyId: $id) { index } }`, { id }, outsider.token)).toMatchObject({ code: 'NOT_FOUND' });
  await expect(parties.openStream(outsider.id, id)).rejects.toMatchObject({ code: 'NOT_FOUND' });
  await expect(parties.watch(outsider.id, id)).rejects.toMatchObject({ code: 'NOT_FOUND' });
  // The host's character stays the host's alone through the existing reads.
  const STORY = `query($id: ID!) { character(id: $id) { storyline { totalChapters } } }`;
  expect(await code(STORY, { id: host.characterId }, tom.token)).toMatchObject({ code: 'NOT_FOUND' });
  expect(await code(STORY, { id: host.characterId }, outsider.token)).toMatchObject({ code: 'NOT_FOUND' });
  // Not signed in.
  expect(await code(PARTY, { id }, '')).toMatchObject({ code: 'UNAUTHENTICATED' });
});

/** A graphql-ws client (the browser's library) subscribed to `query`; what it receives, and its errors. */
function subscribe(token: string, query: string, variables: Record<string, unknown>) {
  const client = createClient({
    url: `${t.url.replace(/^http/, 'ws')}/graphql`,
    webSocketImpl: WebSocket,
    connectionParams: { authorization: `Bearer ${token}` },
    retryAttempts: 0,
  });
  const values: Array<{ data?: any; errors?: any[] }> = [];
  const errors: unknown[] = [];
  let completed = false;
  const stop = client.subscribe(
    { query, variables },
    { next: (v) => void values.push(v as (typeof values)[number]), error: (e) => void errors.push(e), complete: () => void (completed = true) },
  );
  return {
    values,
    errors,
    done: () => completed || errors.length > 0,
    dispose: async () => {
      stop();
      await client.dispose();
    },
  };
}

it('over WebSocket: partyUpdated and partyChapterStream reach members; a non-member is refused', async () => {
  const [host, tom, outsider] = [await player('Mira'), await player('Tom'), await player('Zed')];
  // Created and joined through the REST twins.
  const created = await t.rest('POST', '/api/parties', { characterId: host.characterId, mode: 'live' }, host.token);
  expect(created.status).toBe(201);
  const id = created.body.party.id as string;
  const inv = await t.rest('POST', `/api/parties/${id}/invite`, { hours: 2 }, host.token);
  expect(inv.status).toBe(201);
  expect((await t.rest('POST', '/api/parties/join', { code: inv.body.code, characterId: tom.characterId }, tom.token)).status).toBe(200);

  const UPDATED = `subscription($id: ID!) { partyUpdated(partyId: $id) { partyId reason party { round roundState deadlineAt members { characterName hasActed } } } }`;
  const STREAM = `subscription($id: ID!) { partyChapterStream(partyId: $id) { status index characterId delta } }`;
  const updates = subscribe(tom.token, UPDATED, { id });
  const refused = subscribe(outsider.token, UPDATED, { id });
  try {
    await waitFor(() => updates.values.some((v) => v.data?.partyUpdated?.reason === 'snapshot'), 'the snapshot');
    await waitFor(() => refused.done(), "the outsider's refusal");
    expect(refused.values.flatMap((v) => v.errors ?? []).map((e) => e.extensions?.code)).toEqual(['NOT_FOUND']);

    await ok(ACT, { id, a: 'climbs the bell tower' }, host.token);
    const acted = await waitFor(() => updates.values.map((v) => v.data?.partyUpdated).find((u) => u?.reason === 'acted'), 'the host acted');
    expect(acted.party.members).toEqual([
      { characterName: 'Mira', hasActed: true },
      { characterName: 'Tom', hasActed: false },
    ]);
    expect(typeof acted.party.deadlineAt).toBe('string');
    // The REST twin of closing early.
    expect((await t.rest('POST', `/api/parties/${id}/close-round`, undefined, host.token)).status).toBe(200);
    await waitFor(() => updates.values.some((v) => v.data?.partyUpdated?.reason === 'chapter_written'), 'the chapter written', 10_000);
    await parties.idle();

    const stream = subscribe(tom.token, STREAM, { id });
    const strangerStream = subscribe(outsider.token, STREAM, { id });
    try {
      const first = await waitFor(() => stream.values.map((v) => v.data?.partyChapterStream).find(Boolean), 'the chapter stream');
      expect(first).toMatchObject({ status: 'complete', index: 0, characterId: host.characterId });
      await waitFor(() => strangerStream.done(), "the outsider's stream refusal");
      expect(strangerStream.values.flatMap((v) => v.errors ?? []).map((e) => e.extensions?.code)).toEqual(['NOT_FOUND']);
    } finally {
      await Promise.all([stream.dispose(), strangerStream.dispose()]);
    }
  } finally {
    await Promise.all([updates.dispose(), refused.dispose()]);
  }
});

it('credits: hostPays charges the host; a failed chapter refunds its payer and reopens the round with its actions', async () => {
  const [host, tom] = [await player('Mira'), await player('Tom')];
  const { id } = await partyOf('live', host, [tom]);
  await ok(`mutation($id: ID!) { updatePartySettings(partyId: $id, input: { hostPays: true }) { hostPays } }`, { id }, host.token);
  await ok(ACT, { id, a: 'waves' }, host.token);
  await ok(ACT, { id, a: 'waves back' }, tom.token);
  await parties.idle();
  expect((await credits(host)).credits).toBe(9);
  expect((await credits(tom)).credits).toBe(10);
  await ok(`mutation($id: ID!) { updatePartySettings(partyId: $id, input: { hostPays: false }) { hostPays } }`, { id }, host.token);

  // The storyteller fails: Tom, whose action closed the round, is refunded; the round reopens.
  const previous = t.app.services.stories;
  useStoryAI(
    t,
    scriptedAI({
      // eslint-disable-next-line require-yield
      streamChapter: async function* (): AsyncGenerator<ChapterEvent> {
        throw new Error('the storyteller fell over');
      },
    }),
  );
  try {
    await ok(ACT, { id, a: 'opens the chest' }, host.token);
    await ok(ACT, { id, a: 'keeps watch' }, tom.token);
    await parties.idle();
    const read = (await ok(PARTY, { id }, host.token)).party;
    expect(read).toMatchObject({ round: 1, roundState: 'collecting' });
    expect(read.lastError).toMatch(/Failed to generate/);
    expect(read.members.map((m: { hasActed: boolean }) => m.hasActed)).toEqual([true, true]);
    expect(read.story.totalChapters).toBe(1);
    const ledger = await credits(tom);
    expect(ledger.credits).toBe(10);
    expect(ledger.creditLedger.slice(0, 2)).toEqual([
      { delta: 1, reason: 'refund' },
      { delta: -1, reason: 'party_round' },
    ]);
  } finally {
    t.app.services.stories = previous;
  }
  // With the storyteller back, resending an action closes the round again.
  await ok(ACT, { id, a: 'keeps a sharp watch' }, tom.token);
  await parties.idle();
  const done = (await ok(PARTY, { id }, tom.token)).party;
  expect(done.story.chapters.at(-1).playerChoice).toBe('Mira: opens the chest. Tom: keeps a sharp watch.');
  expect((await credits(tom)).credits).toBe(9);

  // A payer without credits: the round stays open with its actions, and the closer is told.
  await t.app.db.dataSource.query(`UPDATE subscriptions SET credits = 0 WHERE user_id = $1`, [host.id]);
  await ok(ACT, { id, a: 'sits down' }, tom.token);
  expect(await code(ACT, { id, a: 'pays up' }, host.token)).toMatchObject({ code: 'INSUFFICIENT_CREDITS' });
  const open = (await ok(PARTY, { id }, host.token)).party;
  expect(open).toMatchObject({ roundState: 'collecting', round: 2 });
});
