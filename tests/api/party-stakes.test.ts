/**
 * Party stakes (issue 34, step 7): each player's stats and checks are their own. In a live round of
 * three players each part is judged on its own and rolled on its own player's party stats (the story
 * owner's on the story character: the chapter's check); growth lands on the right member's party
 * stats, never on their saved character; the storyteller is told each companion's outcome; another
 * take keeps every roll; undo puts the stats back and reopens the round with its actions.
 * The dice are scripted in the order they are rolled: the hero first, then the companions by seat.
 */
import type { ChapterInput } from '../../server/src/ai/story-ai';
import type { PartyService } from '../../server/src/modules/parties/party.service';
import { BASE_STATS, scriptedAI, scriptedDice, useStoryAI } from '../support/story-fixtures';
import { partyPlayer } from '../support/party-fixtures';
import { startTestApp, type TestApp } from '../support/test-app';
import { loadConfig } from '../../server/src/config/env';

let t: TestApp;
let parties: PartyService;
let worldId: string;

beforeAll(async () => {
  const base = loadConfig({ NODE_ENV: 'test' });
  t = await startTestApp({ party: { ...base.party, chapterCredits: 0, sweepSeconds: 0 } });
  parties = t.app.services.parties;
  const worlds = (await t.app.db.dataSource.query(`SELECT id FROM worlds WHERE featured ORDER BY name LIMIT 1`)) as Array<{ id: string }>;
  worldId = worlds[0]!.id;
});
afterAll(async () => {
  await parties.idle();
  await t.close();
});

interface Player {
  id: string;
  token: string;
  characterId: string;
}

const player = (name: string, stats: Record<string, number>) => partyPlayer(t, worldId, name, stats);

async function ok<T = any>(query: string, variables: Record<string, unknown>, token: string): Promise<T> {
  const r = await t.gql(query, variables, token);
  if (!r.data || r.errors) throw new Error(`GraphQL failed: ${JSON.stringify(r.errors)}`);
  return r.data as T;
}

const CHECK = 'attempt stat difficulty roll modifier total outcome';
const PARTY_FIELDS = `id round roundState members { userId characterName hasActed stats }`;
const CREATE = `mutation($input: CreatePartyInput!) { createParty(input: $input) { ${PARTY_FIELDS} } }`;
const INVITE = `mutation($id: ID!) { partyInvite(partyId: $id) { code } }`;
const JOIN = `mutation($code: String!, $c: ID!) { joinParty(code: $code, characterId: $c) { ${PARTY_FIELDS} } }`;
const ACT = `mutation($id: ID!, $a: String!) { submitPartyAction(partyId: $id, action: $a) { ${PARTY_FIELDS} } }`;
const CLOSE = `mutation($id: ID!) { closePartyRound(partyId: $id) { ${PARTY_FIELDS} } }`;
const PARTY = `query($id: ID!) { party(id: $id) { ${PARTY_FIELDS} story { totalChapters chapters { index take text check { ${CHECK} } partyChecks { userId name action statIncreases check { ${CHECK} } } } } } }`;
const REGENERATE = `mutation($id: ID!) { regenerateChapter(input: { characterId: $id }) { newChapter { take check { roll outcome } partyChecks { name check { roll outcome } } } } }`;
const UNDO = `mutation($id: ID!) { undoLastChapter(characterId: $id) { id stats } }`;

const savedStats = async (characterId: string) =>
  ((await t.app.db.dataSource.query(`SELECT stats FROM characters WHERE id = $1`, [characterId])) as Array<{ stats: Record<string, number> }>)[0]!.stats;
const seen = async (partyId: string) =>
  (await t.app.db.dataSource.query(`SELECT user_id, seen_through_index FROM party_members WHERE party_id = $1 ORDER BY seat`, [partyId])) as Array<{
    user_id: string;
    seen_through_index: number;
  }>;

it("a live round of three: each part judged and rolled on its own player's stats, growth on their party stats only; another take keeps the rolls; undo restores them and reopens the round", async () => {
  const ai = scriptedAI();
  // The hero (Mira) rolls 12, Tom 15, Ada 3.
  useStoryAI(t, ai, { dice: scriptedDice([12, 15, 3]) });
  const mira = await player('Mira', { ...BASE_STATS, agility: 10 });
  const tom = await player('Tom', { ...BASE_STATS, strength: 13 });
  const ada = await player('Ada', { ...BASE_STATS, charisma: 8 });
  const created = (await ok(CREATE, { input: { characterId: mira.characterId, mode: 'live' } }, mira.token)).createParty;
  const id = created.id as string;
  const code = (await ok(INVITE, { id }, mira.token)).partyInvite.code;
  const joined = (await ok(JOIN, { code, c: tom.characterId }, tom.token)).joinParty;
  await ok(JOIN, { code, c: ada.characterId }, ada.token);
  // Party stats start as each member's saved character's.
  expect(joined.members.map((m: { stats: Record<string, number> }) => m.stats.strength)).toEqual([12, 13]);

  await ok(ACT, { id, a: 'climbs the bell tower' }, mira.token);
  await ok(ACT, { id, a: 'attacks the guard' }, tom.token);
  await ok(ACT, { id, a: 'persuade the innkeeper to talk' }, ada.token);
  await parties.idle();

  const read = (await ok(PARTY, { id }, tom.token)).party;
  expect(read).toMatchObject({ round: 1, roundState: 'collecting' });
  const ch = read.story.chapters[0];
  // The hero's check is the chapter's: Mira's own part, on the story character's agility 10 (+0): 12 against 12.
  expect(ch.check).toEqual({ attempt: 'climb the bell tower', stat: 'agility', difficulty: 12, roll: 12, modifier: 0, total: 12, outcome: 'success' });
  // Tom's part on Tom's strength 13 (+1): 15 + 1 = 16 against 14, a success (and 14 > 13: he grows).
  // Ada's on Ada's charisma 8 (−1): 3 − 1 = 2 against 12, a failure.
  expect(ch.partyChecks).toEqual([
    {
      userId: tom.id,
      name: 'Tom',
      action: 'attacks the guard',
      statIncreases: { strength: 1 },
      check: { attempt: 'attack the guard', stat: 'strength', difficulty: 14, roll: 15, modifier: 1, total: 16, outcome: 'success' },
    },
    {
      userId: ada.id,
      name: 'Ada',
      action: 'persuade the innkeeper to talk',
      statIncreases: {},
      check: { attempt: 'persuade the innkeeper to talk', stat: 'charisma', difficulty: 12, roll: 3, modifier: -1, total: 2, outcome: 'failure' },
    },
  ]);
  // The storyteller was told each companion's outcome, and the offline narration tells it by name.
  const told = ai.calls[ai.calls.length - 1] as ChapterInput;
  expect(told.companionChecks?.map((c) => [c.name, c.check.outcome])).toEqual([
    ['Tom', 'success'],
    ['Ada', 'failure'],
  ]);
  expect(ch.text).toContain('Tom manages to attack the guard');
  expect(ch.text).toContain('Ada tries to persuade the innkeeper to talk, but fails');
  // Growth: the hero's agility on the story character, Tom's strength on his party stats — never on his saved character.
  const stats = (who: Player) => read.members.find((m: { userId: string }) => m.userId === who.id).stats as Record<string, number>;
  expect(stats(mira).agility).toBe(11);
  expect(stats(tom)).toEqual({ ...BASE_STATS, strength: 14 });
  expect(stats(ada)).toEqual({ ...BASE_STATS, charisma: 8 });
  expect(await savedStats(tom.characterId)).toEqual({ ...BASE_STATS, strength: 13 });
  expect(await savedStats(ada.characterId)).toEqual({ ...BASE_STATS, charisma: 8 });

  // Exports show every player's dice, named (HTML-escaped).
  const html = await t.rest('GET', `/api/stories/export/${mira.characterId}?format=html`, undefined, mira.token);
  expect(html.body).toContain(
    'Check — agility against 12: rolled 12 = 12, success. Tom&#39;s check — strength against 14: rolled 15 + 1 (strength) = 16, success. Ada&#39;s check — charisma against 12: rolled 3 − 1 (charisma) = 2, failure.',
  );

  // Another take (other dice now): every roll is kept, and the growth is the same, not twice.
  useStoryAI(t, scriptedAI(), { dice: scriptedDice([1, 1, 20]) });
  const regen = (await ok(REGENERATE, { id: mira.characterId }, mira.token)).regenerateChapter.newChapter;
  expect(regen).toEqual({
    take: 1,
    check: { roll: 12, outcome: 'success' },
    partyChecks: [
      { name: 'Tom', check: { roll: 15, outcome: 'success' } },
      { name: 'Ada', check: { roll: 3, outcome: 'failure' } },
    ],
  });
  const again = (await ok(PARTY, { id }, tom.token)).party;
  expect(again.members.map((m: { stats: Record<string, number> }) => [m.stats.agility, m.stats.strength])).toEqual([
    [11, 12],
    [10, 14],
    [10, 12],
  ]);
  expect((await seen(id)).map((r) => r.seen_through_index)).toEqual([0, 0, 0]);

  // Undo: the stats are as before the round, and the round is open again with its three actions.
  const watch = await parties.watch(ada.id, id);
  expect((await watch.next()).value).toMatchObject({ reason: 'snapshot', party: { round: 1 } });
  const undone = (await ok(UNDO, { id: mira.characterId }, mira.token)).undoLastChapter;
  // The members are told at once: the party as it is now.
  expect((await watch.next()).value).toMatchObject({ reason: 'story_changed', party: { round: 0, roundState: 'collecting' } });
  await watch.return(undefined);
  expect(undone.stats.agility).toBe(10);
  const reopened = (await ok(PARTY, { id }, ada.token)).party;
  expect(reopened).toMatchObject({ round: 0, roundState: 'collecting', story: { totalChapters: 0 } });
  expect(reopened.members.map((m: { hasActed: boolean }) => m.hasActed)).toEqual([true, true, true]);
  expect(reopened.members.find((m: { userId: string }) => m.userId === tom.id).stats).toEqual({ ...BASE_STATS, strength: 13 });
  expect((await seen(id)).map((r) => r.seen_through_index)).toEqual([-1, -1, -1]);
  // The host closes it again: the same actions are written as the round's chapter.
  useStoryAI(t, scriptedAI(), { dice: scriptedDice([2, 2, 2]) });
  const closed = (await ok(CLOSE, { id }, mira.token)).closePartyRound;
  expect(closed.roundState).toBe('writing');
  await parties.idle();
  const rewritten = (await ok(PARTY, { id }, tom.token)).party;
  expect(rewritten).toMatchObject({ round: 1, roundState: 'collecting', story: { totalChapters: 1 } });
  expect(rewritten.story.chapters[0].partyChecks.map((c: { action: string; check: { roll: number } }) => [c.action, c.check.roll])).toEqual([
    ['attacks the guard', 2],
    ['persuade the innkeeper to talk', 2],
  ]);
});

it('a rewind past party rounds puts the companions back and the party at the earliest round set aside; undo is refused while a round is written', async () => {
  useStoryAI(t, scriptedAI(), { dice: scriptedDice([20]) });
  const mira = await player('Mira', BASE_STATS);
  const tom = await player('Tom', { ...BASE_STATS, strength: 10 });
  const id = (await ok(CREATE, { input: { characterId: mira.characterId, mode: 'live' } }, mira.token)).createParty.id as string;
  const code = (await ok(INVITE, { id }, mira.token)).partyInvite.code;
  await ok(JOIN, { code, c: tom.characterId }, tom.token);
  // Three rounds; Tom attacks in each (a natural 20 every time: he grows each time).
  for (let r = 0; r < 3; r++) {
    await ok(ACT, { id, a: 'looks around' }, mira.token);
    await ok(ACT, { id, a: 'attacks the guard' }, tom.token);
    await parties.idle();
  }
  const strength = async () => ((await ok(PARTY, { id }, tom.token)).party.members[1].stats as Record<string, number>).strength;
  expect(await strength()).toBe(13);
  // Rewind to the first chapter: rounds 1 and 2 are set aside.
  await ok(`mutation($id: ID!) { rewindStory(characterId: $id, chapterIndex: 0) { id } }`, { id: mira.characterId }, mira.token);
  expect(await strength()).toBe(11);
  const party = (await ok(PARTY, { id }, tom.token)).party;
  expect(party).toMatchObject({ round: 1, roundState: 'collecting', story: { totalChapters: 1 } });
  expect(party.members.map((m: { hasActed: boolean }) => m.hasActed)).toEqual([true, true]);
  expect((await seen(id)).map((r) => r.seen_through_index)).toEqual([0, 0]);
  // Round 2's actions are gone (that round has not happened now).
  const later = (await t.app.db.dataSource.query(`SELECT count(*)::int AS n FROM party_actions WHERE party_id = $1 AND round > 1`, [id])) as Array<{
    n: number;
  }>;
  expect(later[0]!.n).toBe(0);

  // Returning to the branch: Tom's growth is back, and the party moves on past its rounds.
  const branches = (await ok(`query($id: ID!) { character(id: $id) { storyBranches { id } } }`, { id: mira.characterId }, mira.token)).character
    .storyBranches as Array<{ id: string }>;
  await ok(
    `mutation($id: ID!, $b: ID!) { restoreStoryBranch(characterId: $id, branchId: $b) { id } }`,
    { id: mira.characterId, b: branches[0]!.id },
    mira.token,
  );
  expect(await strength()).toBe(13);
  expect((await ok(PARTY, { id }, tom.token)).party).toMatchObject({ round: 3, roundState: 'collecting', story: { totalChapters: 3 } });
  await ok(`mutation($id: ID!) { rewindStory(characterId: $id, chapterIndex: 0) { id } }`, { id: mira.characterId }, mira.token);
  expect(await strength()).toBe(11);

  // While a round is being written, undo is refused.
  await t.app.db.dataSource.query(`UPDATE parties SET round_state = 'writing' WHERE id = $1`, [id]);
  const r = await t.gql(UNDO, { id: mira.characterId }, mira.token);
  expect(r.errors?.[0]?.extensions?.code).toBe('CONFLICT');
  await t.app.db.dataSource.query(`UPDATE parties SET round_state = 'collecting' WHERE id = $1`, [id]);
});

it("by post: undo of a turn's chapter gives the turn back to its player, with its action and a full turn's time", async () => {
  useStoryAI(t, scriptedAI(), { dice: scriptedDice([20]) });
  const mira = await player('Mira', BASE_STATS);
  const tom = await player('Tom', { ...BASE_STATS, strength: 10 });
  const id = (await ok(CREATE, { input: { characterId: mira.characterId, mode: 'post' } }, mira.token)).createParty.id as string;
  const code = (await ok(INVITE, { id }, mira.token)).partyInvite.code;
  await ok(JOIN, { code, c: tom.characterId }, tom.token);
  await ok(ACT, { id, a: 'looks around' }, mira.token);
  await parties.idle();
  await ok(ACT, { id, a: 'attacks the guard' }, tom.token);
  await parties.idle();
  const TURN = `query($id: ID!) { party(id: $id) { round roundState turnUserId deadlineAt members { userId stats hasActed } } }`;
  const before = (await ok(TURN, { id }, tom.token)).party;
  expect(before).toMatchObject({ round: 2, turnUserId: mira.id });
  expect(before.members[1].stats.strength).toBe(11);

  await ok(UNDO, { id: mira.characterId }, mira.token);
  const after = (await ok(TURN, { id }, tom.token)).party;
  expect(after).toMatchObject({ round: 1, roundState: 'collecting', turnUserId: tom.id });
  expect(after.members[1]).toMatchObject({ hasActed: true, stats: { ...BASE_STATS, strength: 10 } });
  expect(new Date(after.deadlineAt).getTime() - Date.now()).toBeGreaterThan(23 * 3600_000);
  expect((await seen(id)).map((r) => r.seen_through_index)).toEqual([0, 0]);
  // Tom takes his turn again: a new chapter for round 1, rolled afresh.
  await ok(ACT, { id, a: 'sneaks past the guard' }, tom.token);
  await parties.idle();
  const again = (await ok(PARTY, { id }, tom.token)).party;
  expect(again.story.totalChapters).toBe(2);
  expect(again.story.chapters[1].partyChecks.map((c: { action: string }) => c.action)).toEqual(['sneaks past the guard']);
});
