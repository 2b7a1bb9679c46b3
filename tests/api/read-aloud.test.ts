import { FakeOpenAIServer } from '../../server/src/ai/openai/fake-openai-server';
import { loadConfig } from '../../server/src/config/env';
import { makeCharacter } from '../support/story-fixtures';
import { signUp, startTestApp, type GqlResult, type TestApp } from '../support/test-app';

/**
 * Read-aloud's server voice (issue "The player's screen", item 5) against a fake OpenAI-compatible
 * `/audio/speech` on 127.0.0.1 that logs what it receives: a chapter is read once and cached per
 * chapter, voice and text (a second request never reaches the speech server and costs nothing); the
 * first reading costs 1 credit, refunded when the speech server fails; only the story's owner gets it;
 * without a key the server voice is not offered and asking for it is a coded error.
 */
jest.setTimeout(60_000);

const INFO = '{ readAloud { serverVoiceAvailable voices creditsPerChapter } }';
const READ =
  'mutation($c: ID!, $ch: ID!, $v: String) { readChapterAloud(characterId: $c, chapterId: $ch, voice: $v) { chapterId voice url mimeType byteLength cached creditsCharged } }';
const CREDITS = '{ credits creditLedger(limit: 10) { delta reason } }';

/** Bytes that differ per request's voice and text, so a test can tell which reading it got. */
const audioFor = (body: Record<string, unknown>) => Buffer.from(`ID3 fake mp3 | ${String(body.voice)} | ${String(body.input).slice(0, 40)}`);

let t: TestApp;
let keyless: TestApp;
const fake = new FakeOpenAIServer();
const base = loadConfig({ NODE_ENV: 'test' });

beforeAll(async () => {
  const baseUrl = await fake.start();
  // The story itself is written by the offline storyteller; only speech goes to the fake server.
  t = await startTestApp({ tts: { model: 'fake-tts', baseUrl, apiKey: 'sk-test', voices: ['alloy', 'nova'], timeoutMs: 5000 } });
  keyless = await startTestApp({ tts: { ...base.tts, apiKey: undefined } });
});
afterAll(async () => {
  await t.close();
  await keyless.close();
  await fake.stop();
});
beforeEach(() => {
  fake.reset();
  fake.speak = audioFor;
});

const speechCalls = () => fake.requests.filter((r) => r.url.endsWith('/audio/speech'));
const code = (r: GqlResult) => r.errors?.[0]?.extensions?.code;

async function story(app: TestApp, chapters = 1) {
  const p = await signUp(app);
  const c = await makeCharacter(app, p.user.id);
  const list: Array<{ id: string; text: string }> = [];
  for (let i = 0; i < chapters; i++) {
    const r = await app.rest('POST', '/api/stories/generate-chapter', { characterId: c.id, userChoice: i === 0 ? '' : `Action number ${i}` }, p.accessToken);
    expect(r.status).toBe(200);
    list.push(r.body.newChapter as { id: string; text: string });
  }
  return { token: p.accessToken, characterId: c.id, chapters: list };
}

/** GET of the audio with the player's token, as raw bytes (the helper's rest() reads text). */
async function getAudio(app: TestApp, path: string, token?: string, headers: Record<string, string> = {}) {
  const res = await fetch(`${app.url}${path}`, { headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers } });
  return { status: res.status, headers: res.headers, bytes: Buffer.from(await res.arrayBuffer()) };
}

async function balance(app: TestApp, token: string) {
  const r = await app.gql<{ credits: number; creditLedger: Array<{ delta: number; reason: string }> }>(CREDITS, {}, token);
  return r.data!;
}

it('says what is offered: the server voices and their price with a key; nothing without one, and asking then is a coded error', async () => {
  expect((await t.gql(INFO)).data!.readAloud).toEqual({ serverVoiceAvailable: true, voices: ['alloy', 'nova'], creditsPerChapter: 1 });
  expect((await keyless.gql(INFO)).data!.readAloud).toEqual({ serverVoiceAvailable: false, voices: [], creditsPerChapter: 1 });

  const s = await story(keyless);
  const before = await balance(keyless, s.token);
  const r = await keyless.gql(READ, { c: s.characterId, ch: s.chapters[0]!.id }, s.token);
  expect(code(r)).toBe('SERVICE_UNAVAILABLE');
  expect(r.errors![0]!.message).toMatch(/no speech key is configured/);
  const rest = await keyless.rest('GET', `/api/stories/${s.characterId}/chapters/1/audio`, undefined, s.token);
  expect(rest.status).toBe(503);
  expect(rest.body).toMatchObject({ code: 'SERVICE_UNAVAILABLE', reason: 'tts_not_configured' });
  expect((await balance(keyless, s.token)).credits).toBe(before.credits);
  expect(speechCalls()).toHaveLength(0);
});

it('reads a chapter once: 1 credit and one speech call, then the same audio from the cache for free (GraphQL and REST)', async () => {
  const s = await story(t);
  const chapter = s.chapters[0]!;
  const start = (await balance(t, s.token)).credits;

  const first = await t.gql(READ, { c: s.characterId, ch: chapter.id, v: 'nova' }, s.token);
  expect(first.errors).toBeUndefined();
  const expected = audioFor({ voice: 'nova', input: chapter.text });
  expect(first.data!.readChapterAloud).toEqual({
    chapterId: chapter.id,
    voice: 'nova',
    url: `/api/stories/${s.characterId}/chapters/${chapter.id}/audio?voice=nova`,
    mimeType: 'audio/mpeg',
    byteLength: expected.length,
    cached: false,
    creditsCharged: 1,
  });
  // What the speech server received: the model, the voice, the chapter's whole text, MP3.
  expect(speechCalls()).toHaveLength(1);
  expect(speechCalls()[0]!.body).toEqual({ model: 'fake-tts', voice: 'nova', input: chapter.text, response_format: 'mp3' });
  expect(speechCalls()[0]!.headers.authorization).toBe('Bearer sk-test');
  const charged = await balance(t, s.token);
  expect(charged.credits).toBe(start - 1);
  expect(charged.creditLedger[0]).toEqual({ delta: -1, reason: 'chapter_audio' });

  // The URL the mutation gave, with the player's token: the same bytes, from the cache.
  const got = await getAudio(t, first.data!.readChapterAloud.url, s.token);
  expect(got.status).toBe(200);
  expect(got.headers.get('content-type')).toBe('audio/mpeg');
  expect(got.headers.get('x-audio-cached')).toBe('true');
  expect(got.headers.get('x-credits-charged')).toBe('0');
  expect(got.bytes.equals(expected)).toBe(true);
  // By the chapter's number too, and again by GraphQL: still one call, still one credit.
  const byNumber = await getAudio(t, `/api/stories/${s.characterId}/chapters/1/audio?voice=nova`, s.token);
  expect(byNumber.bytes.equals(expected)).toBe(true);
  const again = await t.gql(READ, { c: s.characterId, ch: chapter.id, v: 'nova' }, s.token);
  expect(again.data!.readChapterAloud).toMatchObject({ cached: true, creditsCharged: 0 });
  // A browser asking whether its copy is still good gets 304.
  expect((await getAudio(t, first.data!.readChapterAloud.url, s.token, { 'if-none-match': got.headers.get('etag')! })).status).toBe(304);
  expect(speechCalls()).toHaveLength(1);
  expect((await balance(t, s.token)).credits).toBe(start - 1);

  // Another voice is another reading.
  const alloy = await getAudio(t, `/api/stories/${s.characterId}/chapters/${chapter.id}/audio?voice=alloy`, s.token);
  expect(alloy.headers.get('x-audio-cached')).toBe('false');
  expect(alloy.bytes.equals(audioFor({ voice: 'alloy', input: chapter.text }))).toBe(true);
  expect(speechCalls()).toHaveLength(2);
  expect((await balance(t, s.token)).credits).toBe(start - 2);
});

it('two requests at once for the same chapter make one speech call and one charge', async () => {
  const s = await story(t);
  const start = (await balance(t, s.token)).credits;
  const [a, b] = await Promise.all([
    t.gql(READ, { c: s.characterId, ch: s.chapters[0]!.id }, s.token),
    getAudio(t, `/api/stories/${s.characterId}/chapters/1/audio`, s.token),
  ]);
  expect(a.errors).toBeUndefined();
  expect(b.status).toBe(200);
  expect(speechCalls()).toHaveLength(1);
  expect((await balance(t, s.token)).credits).toBe(start - 1);
});

it('an edited or regenerated chapter is read again, and the stale audio is gone', async () => {
  const s = await story(t, 2);
  const latest = s.chapters[1]!;
  await t.gql(READ, { c: s.characterId, ch: latest.id }, s.token);
  expect(speechCalls()).toHaveLength(1);

  const rewritten = 'The lighthouse keeper lit the lamp at dusk, and the ships came home one by one through the fog.';
  const edit = await t.gql(
    'mutation($c: ID!, $ch: ID!, $input: ChapterEditInput!) { editChapter(characterId: $c, chapterId: $ch, input: $input) { id text } }',
    { c: s.characterId, ch: latest.id, input: { text: rewritten } },
    s.token,
  );
  expect(edit.errors).toBeUndefined();
  // The old reading goes with the old text at once (its MP3 too), not when the chapter is next read.
  const stale = (await t.app.db.dataSource.query(`SELECT count(*)::int AS n FROM chapter_audio WHERE chapter_id = $1`, [latest.id])) as Array<{ n: number }>;
  expect(stale[0]!.n).toBe(0);
  const afterEdit = await getAudio(t, `/api/stories/${s.characterId}/chapters/2/audio`, s.token);
  expect(afterEdit.headers.get('x-audio-cached')).toBe('false');
  expect(afterEdit.bytes.equals(audioFor({ voice: 'alloy', input: rewritten }))).toBe(true);
  expect(speechCalls()[1]!.body.input).toBe(rewritten);
  // Only the reading of the text as it is now is kept (its media with it).
  const rows = (await t.app.db.dataSource.query(
    `SELECT a.text_sha256, (SELECT count(*) FROM media m WHERE m.id = a.media_id)::int AS media FROM chapter_audio a WHERE a.chapter_id = $1`,
    [latest.id],
  )) as Array<{ media: number }>;
  expect(rows).toEqual([expect.objectContaining({ media: 1 })]);

  // A regenerated chapter is a new take: chapter 2 is read from its own text.
  const regen = await t.rest('POST', '/api/stories/regenerate-chapter', { characterId: s.characterId }, s.token);
  expect(regen.status).toBe(200);
  const newTake = regen.body.newChapter as { id: string; text: string };
  const afterRegen = await getAudio(t, `/api/stories/${s.characterId}/chapters/2/audio`, s.token);
  expect(afterRegen.headers.get('x-audio-cached')).toBe('false');
  expect(speechCalls()[2]!.body.input).toBe(newTake.text);

  // Undo removes the chapter, its reading and the reading's media.
  const mediaBefore = Number(((await t.app.db.dataSource.query(`SELECT count(*)::int AS n FROM media`)) as Array<{ n: number }>)[0]!.n);
  expect((await t.rest('POST', '/api/stories/undo-chapter', { characterId: s.characterId }, s.token)).status).toBe(200);
  const left = (await t.app.db.dataSource.query(`SELECT count(*)::int AS n FROM chapter_audio WHERE chapter_id = $1`, [newTake.id])) as Array<{ n: number }>;
  expect(left[0]!.n).toBe(0);
  const mediaAfter = Number(((await t.app.db.dataSource.query(`SELECT count(*)::int AS n FROM media`)) as Array<{ n: number }>)[0]!.n);
  expect(mediaAfter).toBeLessThan(mediaBefore);
});

it('when the speech server fails: a coded error, the credit refunded, nothing cached, and its words not passed on', async () => {
  const s = await story(t);
  const start = (await balance(t, s.token)).credits;
  fake.speechFailsWith = 500;
  const r = await t.gql(READ, { c: s.characterId, ch: s.chapters[0]!.id }, s.token);
  expect(code(r)).toBe('GENERATION_FAILED');
  expect(r.errors![0]!.message).toBe('The server voice could not read this chapter; your credit was refunded.');
  expect(JSON.stringify(r.errors)).not.toContain('sk-secret-leak');
  expect(speechCalls().length).toBeGreaterThanOrEqual(1);
  const after = await balance(t, s.token);
  expect(after.credits).toBe(start);
  expect(after.creditLedger.slice(0, 2)).toEqual([
    { delta: 1, reason: 'refund' },
    { delta: -1, reason: 'chapter_audio' },
  ]);
  const rest = await t.rest('GET', `/api/stories/${s.characterId}/chapters/1/audio`, undefined, s.token);
  expect(rest.status).toBe(502);
  expect(rest.body.code).toBe('GENERATION_FAILED');

  // Back up: read (and charged) now, since nothing was cached.
  fake.speechFailsWith = null;
  const calls = speechCalls().length;
  const ok = await t.gql(READ, { c: s.characterId, ch: s.chapters[0]!.id }, s.token);
  expect(ok.data!.readChapterAloud).toMatchObject({ cached: false, creditsCharged: 1 });
  expect(speechCalls()).toHaveLength(calls + 1);
  expect((await balance(t, s.token)).credits).toBe(start - 1);
});

it("another player's chapter answers NOT_FOUND (cached or not), and signed-out callers UNAUTHENTICATED; no call, no charge", async () => {
  const owner = await story(t);
  const other = await signUp(t);
  const otherStart = (await balance(t, other.accessToken)).credits;
  const r = await t.gql(READ, { c: owner.characterId, ch: owner.chapters[0]!.id }, other.accessToken);
  expect(code(r)).toBe('NOT_FOUND');
  expect(speechCalls()).toHaveLength(0);
  // Even once the owner's reading is cached.
  await t.gql(READ, { c: owner.characterId, ch: owner.chapters[0]!.id }, owner.token);
  const path = `/api/stories/${owner.characterId}/chapters/${owner.chapters[0]!.id}/audio`;
  const rest = await t.rest('GET', path, undefined, other.accessToken);
  expect(rest.status).toBe(404);
  expect(rest.body.code).toBe('NOT_FOUND');
  // A character of their own does not unlock someone else's chapter id.
  const own = await makeCharacter(t, other.user.id);
  expect((await t.rest('GET', `/api/stories/${own.id}/chapters/${owner.chapters[0]!.id}/audio`, undefined, other.accessToken)).status).toBe(404);
  expect((await t.rest('GET', path)).body.code).toBe('UNAUTHENTICATED');
  expect(code(await t.gql(READ, { c: owner.characterId, ch: owner.chapters[0]!.id }))).toBe('UNAUTHENTICATED');
  expect(speechCalls()).toHaveLength(1);
  expect((await balance(t, other.accessToken)).credits).toBe(otherStart);
});

it('refuses an unknown voice and a player without credits before any call', async () => {
  const s = await story(t);
  const bad = await t.gql(READ, { c: s.characterId, ch: s.chapters[0]!.id, v: 'darth' }, s.token);
  expect(code(bad)).toBe('BAD_USER_INPUT');
  expect(bad.errors![0]!.extensions).toMatchObject({ field: 'voice' });
  expect((await t.rest('GET', `/api/stories/${s.characterId}/chapters/9/audio`, undefined, s.token)).body.code).toBe('NOT_FOUND');
  expect((await t.rest('GET', `/api/stories/${s.characterId}/chapters/0/audio`, undefined, s.token)).body.code).toBe('NOT_FOUND');

  await t.app.db.dataSource.query(`UPDATE subscriptions SET credits = 0 WHERE user_id = (SELECT user_id FROM characters WHERE id = $1)`, [s.characterId]);
  const poor = await t.gql(READ, { c: s.characterId, ch: s.chapters[0]!.id }, s.token);
  expect(code(poor)).toBe('INSUFFICIENT_CREDITS');
  expect(speechCalls()).toHaveLength(0);
});

it('keeps the read-aloud settings with the account, and refuses bad ones with a coded error', async () => {
  const p = await signUp(t);
  const SAVE =
    'mutation($i: SettingsInput!) { saveSettings(input: $i) { immersiveUi readAloudEngine readAloudVoice readAloudServerVoice readAloudRate readAloudAuto } }';
  const defaults = await t.gql('{ settings { readAloudEngine readAloudVoice readAloudServerVoice readAloudRate readAloudAuto } }', {}, p.accessToken);
  expect(defaults.data!.settings).toEqual({ readAloudEngine: 'browser', readAloudVoice: '', readAloudServerVoice: '', readAloudRate: 1, readAloudAuto: false });
  const saved = await t.gql(
    SAVE,
    { i: { readAloudEngine: 'server', readAloudVoice: 'Google UK English Female', readAloudServerVoice: 'nova', readAloudRate: 1.5, readAloudAuto: true } },
    p.accessToken,
  );
  expect(saved.data!.saveSettings).toEqual({
    immersiveUi: false,
    readAloudEngine: 'server',
    readAloudVoice: 'Google UK English Female',
    readAloudServerVoice: 'nova',
    readAloudRate: 1.5,
    readAloudAuto: true,
  });
  for (const [input, field] of [
    [{ readAloudRate: 3 }, 'readAloudRate'],
    [{ readAloudEngine: 'robot' }, 'readAloudEngine'],
    [{ readAloudServerVoice: 'darth' }, 'readAloudServerVoice'],
  ] as const) {
    const r = await t.gql(SAVE, { i: input }, p.accessToken);
    expect(code(r)).toBe('BAD_USER_INPUT');
    expect(r.errors![0]!.extensions).toMatchObject({ field });
  }
  // The REST twin of the settings carries them too.
  expect((await t.rest('GET', '/api/profile/fetch-settings', undefined, p.accessToken)).body).toMatchObject({ readAloudEngine: 'server', readAloudRate: 1.5 });
});
