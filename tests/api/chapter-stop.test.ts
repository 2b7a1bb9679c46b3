import { createClient, type Client } from 'graphql-ws';
import WebSocket from 'ws';
import { StoryService } from '../../server/src/modules/stories/story.service';
import { gatedStream, makeCharacter, scriptedAI, useStoryAI } from '../support/story-fixtures';
import { signUp, startTestApp, type TestApp } from '../support/test-app';

/**
 * Stop (issue 19): the player stops the chapter being written. The take is dropped — never part of
 * the story, which stays exactly as it was — its readers are told it was stopped (not that it broke),
 * a caller waiting for it gets a CONFLICT saying so, and the same action can be sent again. It works
 * wherever the chapter is written: another instance notices at its next write or heartbeat.
 */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const STOP = 'mutation($c: ID!) { stopChapter(characterId: $c) }';
const STREAM = 'subscription($c: ID!, $ch: ID) { chapterStream(characterId: $c, chapterId: $ch) { status offset delta errorCode error errorReason } }';
const STORY = 'query($id: ID!) { character(id: $id) { stats storyline { totalChapters generatingChapterId latestTakes { take } chapters { id text } } } }';

type Ev = { status: string; errorCode: string | null; error: string | null; errorReason: string | null; delta: string };

function wsClient(token: string): Client {
  return createClient({
    url: t.url.replace('http', 'ws') + '/graphql',
    webSocketImpl: WebSocket,
    connectionParams: { authorization: `Bearer ${token}` },
    retryAttempts: 0,
  });
}

/** Collects a chapter stream's events until it ends. */
function follow(client: Client, variables: Record<string, unknown>) {
  const events: Ev[] = [];
  const done = new Promise<void>((resolve, reject) => {
    client.subscribe<{ chapterStream: Ev }>(
      { query: STREAM, variables },
      { next: (v) => v.data && events.push(v.data.chapterStream), error: reject, complete: () => resolve() },
    );
  });
  return { events, done };
}

async function story(token: string, id: string) {
  const r = await t.gql(STORY, { id }, token);
  expect(r.errors).toBeUndefined();
  return r.data!.character as {
    stats: Record<string, number>;
    storyline: {
      totalChapters: number;
      generatingChapterId: string | null;
      latestTakes: Array<{ take: number }>;
      chapters: Array<{ id: string; text: string }>;
    };
  };
}

async function stoppedRow(characterId: string) {
  const rows = (await t.app.db.dataSource.query(
    `SELECT status, text, stopped_at IS NOT NULL AS stopped FROM chapters WHERE character_id = $1 AND stopped_at IS NOT NULL`,
    [characterId],
  )) as Array<{ status: string; text: string; stopped: boolean }>;
  return rows;
}

it('a chapter stopped mid-stream is dropped: the story is as before, readers and the waiting caller are told, the action can be sent again', async () => {
  const gate = gatedStream();
  useStoryAI(t, scriptedAI({ streamChapter: (i) => gate.stream(i) }));
  const p = await signUp(t);
  const c = await makeCharacter(t, p.user.id);
  gate.release(Infinity);
  await t.rest('POST', '/api/stories/generate-chapter', { characterId: c.id, userChoice: '' }, p.accessToken);
  const before = await story(p.accessToken, c.id);

  const gate2 = gatedStream();
  useStoryAI(t, scriptedAI({ streamChapter: (i) => gate2.stream(i) }));
  const waiting = t.rest('POST', '/api/stories/generate-chapter', { characterId: c.id, userChoice: 'Open the sealed door' }, p.accessToken);
  gate2.release(2);
  await gate2.yielded(2);
  const ws = wsClient(p.accessToken);
  const reader = follow(ws, { c: c.id });
  // The reader has the text so far before the stop.
  for (let i = 0; i < 200 && reader.events.length === 0; i++) await new Promise((r) => setTimeout(r, 10));
  expect(reader.events[0]?.status).toBe('generating');

  const stop = await t.gql(STOP, { c: c.id }, p.accessToken);
  expect(stop.errors).toBeUndefined();
  expect(stop.data).toEqual({ stopChapter: true });
  await reader.done;
  await ws.dispose();
  expect(reader.events.at(-1)).toMatchObject({
    status: 'failed',
    errorCode: 'STOPPED',
    errorReason: 'stopped',
    error: 'The chapter was stopped before it was finished; nothing of it was kept.',
  });
  const answer = await waiting;
  expect(answer.status).toBe(409);
  expect(answer.body).toMatchObject({ code: 'CONFLICT', error: 'The chapter was stopped before it was finished; nothing of it was kept.' });

  // Nothing of it is in the story; the half text is gone from the row too.
  expect(await story(p.accessToken, c.id)).toEqual(before);
  expect(await stoppedRow(c.id)).toEqual([{ status: 'failed', text: '', stopped: true }]);
  // Nothing is running now: stopping again says so.
  expect((await t.rest('POST', '/api/stories/stop-chapter', { characterId: c.id }, p.accessToken)).body).toEqual({ error: null, stopped: false });

  // The same action again plays normally.
  useStoryAI(t, scriptedAI());
  const again = await t.rest('POST', '/api/stories/generate-chapter', { characterId: c.id, userChoice: 'Open the sealed door' }, p.accessToken);
  expect(again.status).toBe(200);
  expect((await story(p.accessToken, c.id)).storyline.totalChapters).toBe(2);
});

it('a stopped new take leaves the chosen take as it was', async () => {
  useStoryAI(t, scriptedAI());
  const p = await signUp(t);
  const c = await makeCharacter(t, p.user.id);
  await t.rest('POST', '/api/stories/generate-chapter', { characterId: c.id, userChoice: '' }, p.accessToken);
  await t.rest('POST', '/api/stories/generate-chapter', { characterId: c.id, userChoice: 'Climb the mast' }, p.accessToken);
  const before = await story(p.accessToken, c.id);
  const gate = gatedStream();
  useStoryAI(t, scriptedAI({ streamChapter: (i) => gate.stream(i) }));
  const started = await t.rest('POST', '/api/stories/start-regeneration', { characterId: c.id }, p.accessToken);
  expect(started.status).toBe(200);
  gate.release(1);
  await gate.yielded(1);
  expect((await t.rest('POST', '/api/stories/stop-chapter', { characterId: c.id }, p.accessToken)).body).toEqual({ error: null, stopped: true });
  for (let i = 0; i < 200 && (await story(p.accessToken, c.id)).storyline.generatingChapterId; i++) await new Promise((r) => setTimeout(r, 10));
  expect(await story(p.accessToken, c.id)).toEqual(before);
});

it('a chapter written on another instance stops at its next heartbeat, and its readers there are told it was stopped', async () => {
  const gate = gatedStream();
  // Instance A writes (a model gone silent after two chunks); instance B takes the stop.
  const a = useStoryAI(t, scriptedAI({ streamChapter: (i) => gate.stream(i) }), { heartbeatMs: 50 });
  const s = t.app.services;
  const b = new StoryService(s.dataSource, { config: s.config, ai: scriptedAI(), limiter: s.limiter }, { pollIntervalMs: 20 });
  const p = await signUp(t);
  const c = await makeCharacter(t, p.user.id);
  const started = await a.startChapter(p.user.id, { characterId: c.id, userChoice: '' }, 'next');
  gate.release(2);
  await gate.yielded(2);
  const onA = (async () => {
    const frames: Array<{ status: string; errorCode: string | null }> = [];
    for await (const e of await a.openStream(p.user.id, c.id, started.chapterId)) frames.push(e);
    return frames;
  })();
  expect(await b.stopChapter(p.user.id, c.id)).toBe(true);
  await expect(started.done).rejects.toMatchObject({ code: 'CONFLICT', details: { reason: 'stopped' } });
  expect((await onA).at(-1)).toMatchObject({ status: 'failed', errorCode: 'STOPPED' });
  // A reader arriving on B afterwards hears the same from the row.
  const late: Array<{ status: string; errorCode: string | null }> = [];
  for await (const e of await b.openStream(p.user.id, c.id, started.chapterId)) late.push(e);
  expect(late).toEqual([expect.objectContaining({ status: 'failed', errorCode: 'STOPPED' })]);
  expect((await story(p.accessToken, c.id)).storyline.totalChapters).toBe(0);
});

it("stopping someone else's chapter is NOT_FOUND and stops nothing", async () => {
  const gate = gatedStream();
  useStoryAI(t, scriptedAI({ streamChapter: (i) => gate.stream(i) }));
  const p = await signUp(t);
  const c = await makeCharacter(t, p.user.id);
  const running = t.rest('POST', '/api/stories/generate-chapter', { characterId: c.id, userChoice: '' }, p.accessToken);
  gate.release(1);
  await gate.yielded(1);
  const stranger = await signUp(t);
  const r = await t.gql(STOP, { c: c.id }, stranger.accessToken);
  expect(r.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
  expect((await t.rest('POST', '/api/stories/stop-chapter', { characterId: 'nope' }, p.accessToken)).status).toBe(404);
  gate.release(Infinity);
  expect((await running).status).toBe(200);
  expect(await stoppedRow(c.id)).toEqual([]);
});
