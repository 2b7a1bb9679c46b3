/**
 * Party play (issue 34) and a dropped connection: a member whose websocket dies while the round's
 * chapter is being written reconnects and gets the whole chapter — what was streamed before the drop
 * and the rest, nothing missing and nothing twice — and the party's state after it, while the members
 * who stayed connected see the chapter through.
 */
import { createClient, type Client } from 'graphql-ws';
import WebSocket from 'ws';
import { Chapter } from '../../server/src/modules/stories/chapter.entity';
import { gatedStream, scriptedAI, useStoryAI } from '../support/story-fixtures';
import { partyPlayer } from '../support/party-fixtures';
import { startTestApp, type TestApp } from '../support/test-app';
import { waitFor } from '../support/wait';

let t: TestApp;
let worldId: string;
beforeAll(async () => {
  t = await startTestApp();
  const [w] = (await t.app.db.dataSource.query(`SELECT id FROM worlds WHERE featured ORDER BY name LIMIT 1`)) as Array<{ id: string }>;
  worldId = w!.id;
});
afterAll(async () => {
  await t.app.services.parties.idle();
  await t.close();
});

const player = (name: string) => partyPlayer(t, worldId, name);

async function ok(query: string, variables: Record<string, unknown>, token: string): Promise<any> {
  const r = await t.gql(query, variables, token);
  if (!r.data || r.errors) throw new Error(`GraphQL failed: ${JSON.stringify(r.errors)}`);
  return r.data;
}

const UPDATED = /* GraphQL */ `
  subscription ($id: ID!) {
    partyUpdated(partyId: $id) {
      reason
      party {
        round
        roundState
        members {
          characterName
          hasActed
        }
      }
    }
  }
`;
const STREAM = /* GraphQL */ `
  subscription ($id: ID!, $chapterId: ID) {
    partyChapterStream(partyId: $id, chapterId: $chapterId) {
      chapterId
      status
      index
      offset
      delta
      result {
        newChapter {
          id
          text
        }
      }
    }
  }
`;

interface Ev {
  chapterId: string;
  status: string;
  index: number;
  offset: number;
  delta: string;
  result: { newChapter: { id: string; text: string } } | null;
}
interface Update {
  reason: string;
  party: { round: number; roundState: string; members: Array<{ characterName: string; hasActed: boolean }> } | null;
}

/**
 * One player's connection, as a browser tab holds it: one socket carrying the party's live state and
 * its chapter stream. `drop()` kills the socket without a goodbye (a phone losing its network).
 */
function connect(token: string, id: string, chapterId: string | null = null) {
  const sockets: WebSocket[] = [];
  class Tracked extends WebSocket {
    constructor(...args: ConstructorParameters<typeof WebSocket>) {
      super(...args);
      sockets.push(this);
    }
  }
  const client: Client = createClient({
    url: `${t.url.replace(/^http/, 'ws')}/graphql`,
    webSocketImpl: Tracked,
    connectionParams: { authorization: `Bearer ${token}` },
    retryAttempts: 0,
  });
  const updates: Update[] = [];
  const events: Ev[] = [];
  const errors: unknown[] = [];
  let streamDone = false;
  client.subscribe<{ partyUpdated: Update }>(
    { query: UPDATED, variables: { id } },
    { next: (v) => (v.errors ? errors.push(v.errors) : updates.push(v.data!.partyUpdated)), error: (e) => void errors.push(e), complete: () => undefined },
  );
  client.subscribe<{ partyChapterStream: Ev }>(
    { query: STREAM, variables: { id, chapterId } },
    {
      next: (v) => (v.errors ? errors.push(v.errors) : events.push(v.data!.partyChapterStream)),
      error: (e) => ((streamDone = true), void errors.push(e)),
      complete: () => void (streamDone = true),
    },
  );
  return {
    updates,
    events,
    errors,
    streamDone: () => streamDone,
    text: () => apply('', events),
    drop: () => {
      for (const s of sockets) s.terminate();
    },
    dispose: async () => {
      await client.dispose();
    },
  };
}

/** Applies stream events as the API documents: text = text.slice(0, offset) + delta. */
function apply(text: string, events: Ev[]): string {
  for (const e of events) text = text.slice(0, e.offset) + e.delta;
  return text;
}

/** Every event appends exactly where the previous one ended: no gap, no repeat. */
function expectAppendsOnly(events: Ev[]) {
  let len = 0;
  for (const e of events) {
    expect(e.offset).toBe(len);
    len += e.delta.length;
  }
}

it.each([
  ['the chapter being written (no chapter id)', false],
  ["the chapter's id from the stream before the drop", true],
])("a member's socket drops mid-chapter; reconnecting to %s they get the whole chapter once and the party's state after", async (_title, byId) => {
  const gate = gatedStream();
  const previous = t.app.services.stories;
  useStoryAI(t, scriptedAI({ streamChapter: (i) => gate.stream(i) }));
  const conns: Array<ReturnType<typeof connect>> = [];
  try {
    const [host, tom, ada] = [await player('Mira'), await player('Tom'), await player('Ada')];
    const id = (
      await ok(`mutation($i: CreatePartyInput!) { createParty(input: $i) { id } }`, { i: { characterId: host.characterId, mode: 'live' } }, host.token)
    ).createParty.id as string;
    const code = (await ok(`mutation($id: ID!) { partyInvite(partyId: $id) { code } }`, { id }, host.token)).partyInvite.code as string;
    for (const p of [tom, ada])
      await ok(`mutation($c: String!, $ch: ID!) { joinParty(code: $c, characterId: $ch) { id } }`, { c: code, ch: p.characterId }, p.token);

    const ACT = `mutation($id: ID!, $a: String!) { submitPartyAction(partyId: $id, action: $a) { roundState } }`;
    await ok(ACT, { id, a: 'climbs the bell tower' }, host.token);
    await ok(ACT, { id, a: 'questions the innkeeper' }, tom.token);
    expect((await ok(ACT, { id, a: 'counts the coins' }, ada.token)).submitPartyAction.roundState).toBe('writing');

    const [h, tm, ad] = [connect(host.token, id), connect(tom.token, id), connect(ada.token, id)];
    conns.push(h, tm, ad);
    for (const c of [h, tm, ad]) await waitFor(() => c.updates.some((u) => u.reason === 'snapshot'), 'the snapshot');
    expect(tm.updates[0]!.party).toMatchObject({ round: 0, roundState: 'writing' });

    gate.release(3);
    await gate.yielded(3);
    await waitFor(() => tm.text() === gate.text(), "Tom's first three sentences");
    const chapterId = tm.events[0]!.chapterId;
    expect(tm.events.every((e) => e.status === 'generating' && e.chapterId === chapterId)).toBe(true);
    const seenBefore = tm.text();

    // Tom's phone loses its network: the socket dies without a goodbye, and the story goes on.
    tm.drop();
    await waitFor(() => tm.streamDone(), "Tom's client to notice the drop");
    gate.release(4);
    await gate.yielded(7);
    await waitFor(() => h.text() === gate.text() && ad.text() === gate.text(), 'the others to read on');
    // What was written meanwhile is saved.
    await waitFor(async () => {
      const row = await t.app.db.dataSource.getRepository(Chapter).findOneByOrFail({ id: chapterId });
      return row.text.length > seenBefore.length;
    }, 'the chapter saved past the drop');

    // Tom is back: the party's state first, then the chapter so far in one catch-up, then the rest.
    const back = connect(tom.token, id, byId ? chapterId : null);
    conns.push(back);
    await waitFor(() => back.updates.some((u) => u.reason === 'snapshot'), "Tom's new snapshot");
    expect(back.updates[0]!.party).toMatchObject({ round: 0, roundState: 'writing' });
    await waitFor(() => back.events.length > 0, "Tom's catch-up");
    expect(back.events[0]).toMatchObject({ chapterId, offset: 0, status: 'generating' });
    expect(back.events[0]!.delta.startsWith(seenBefore)).toBe(true);

    gate.release(Infinity);
    for (const c of [h, ad, back]) await waitFor(() => c.streamDone(), 'the stream to end', 10_000);
    await t.app.services.parties.idle();

    const stored = await t.app.db.dataSource.getRepository(Chapter).findOneByOrFail({ id: chapterId });
    expect(stored.status).toBe('complete');
    for (const c of [h, ad, back]) {
      expect(c.errors).toEqual([]);
      expectAppendsOnly(c.events);
      expect(c.text()).toBe(stored.text);
      const last = c.events.at(-1)!;
      expect(last.status).toBe('complete');
      expect(last.result!.newChapter).toEqual({ id: chapterId, text: stored.text });
    }
    // Before the drop plus after it: the whole chapter, its start exactly as Tom first read it.
    expect(stored.text.startsWith(seenBefore)).toBe(true);

    // And the party's state after the chapter, on the new socket as on the others'.
    for (const c of [h, ad, back]) {
      const after = await waitFor(() => c.updates.find((u) => u.reason === 'chapter_written'), 'chapter_written');
      expect(after.party).toMatchObject({ round: 1, roundState: 'collecting' });
      expect(after.party!.members.map((m) => [m.characterName, m.hasActed])).toEqual([
        ['Mira', false],
        ['Tom', false],
        ['Ada', false],
      ]);
    }
    const read = (await ok(`query($id: ID!) { party(id: $id) { round roundState story { totalChapters } } }`, { id }, tom.token)).party;
    expect(read).toEqual({ round: 1, roundState: 'collecting', story: { totalChapters: 1 } });
  } finally {
    gate.release(Infinity);
    await Promise.all(conns.map((c) => c.dispose()));
    t.app.services.stories = previous;
  }
});

it('a member kicked while the chapter is written stops reading it at once; the others read it to its end', async () => {
  const gate = gatedStream();
  const previous = t.app.services.stories;
  useStoryAI(t, scriptedAI({ streamChapter: (i) => gate.stream(i) }));
  const conns: Array<ReturnType<typeof connect>> = [];
  try {
    const [host, tom] = [await player('Mira'), await player('Tom')];
    const id = (
      await ok(`mutation($i: CreatePartyInput!) { createParty(input: $i) { id } }`, { i: { characterId: host.characterId, mode: 'live' } }, host.token)
    ).createParty.id as string;
    const code = (await ok(`mutation($id: ID!) { partyInvite(partyId: $id) { code } }`, { id }, host.token)).partyInvite.code as string;
    await ok(`mutation($c: String!, $ch: ID!) { joinParty(code: $c, characterId: $ch) { id } }`, { c: code, ch: tom.characterId }, tom.token);
    const ACT = `mutation($id: ID!, $a: String!) { submitPartyAction(partyId: $id, action: $a) { roundState } }`;
    await ok(ACT, { id, a: 'climbs the bell tower' }, host.token);
    await ok(ACT, { id, a: 'questions the innkeeper' }, tom.token);

    const [h, tm] = [connect(host.token, id), connect(tom.token, id)];
    conns.push(h, tm);
    gate.release(2);
    await gate.yielded(2);
    await waitFor(() => tm.text() === gate.text() && h.text() === gate.text(), 'the first sentences');
    const seen = tm.events.length;

    await ok(`mutation($id: ID!, $u: ID!) { kickPartyMember(partyId: $id, userId: $u) { id } }`, { id, u: tom.id }, host.token);
    await waitFor(() => tm.streamDone(), "Tom's chapter stream to end with his removal", 2000);
    expect(tm.errors).toEqual([]);
    await waitFor(() => tm.updates.at(-1)?.reason === 'removed', "Tom's removal");

    gate.release(Infinity);
    await waitFor(() => h.streamDone(), "the host's stream to end", 10_000);
    await t.app.services.parties.idle();
    // Tom read nothing written after he was removed; the host read the whole chapter.
    expect(tm.events).toHaveLength(seen);
    expect(h.events.at(-1)).toMatchObject({ status: 'complete' });
    expect(h.text().length).toBeGreaterThan(tm.text().length);
  } finally {
    gate.release(Infinity);
    await Promise.all(conns.map((c) => c.dispose()));
    t.app.services.stories = previous;
  }
});
