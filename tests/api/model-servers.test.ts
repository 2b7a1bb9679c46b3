import { splitInto, type FakeOpenAIServer, type Script } from '../../server/src/ai/openai/fake-openai-server';
import { makeCharacter } from '../support/story-fixtures';
import { signUp, startWithFakeModel, type TestApp } from '../support/test-app';

/**
 * The whole app against servers that behave like real ones (reasoning models, JSON-mode-only
 * deployments, local models that fence and drift, slow and stalling hardware, rate limits): every
 * behaviour ends in a stored chapter (the prose, never the wrapping) and a charged character, or in a
 * clear error with the story untouched and the credits refunded. The provider suites test each
 * behaviour in detail; this holds the app's path to them, on PGlite and on PostgreSQL.
 */
const prose =
  'You push the heavy door open and step into the drowned archive. Water drips from the vaulted ceiling, and somewhere below the tide breathes like a sleeping animal. You follow the lanterns to the reading room, where the queen waits with folded hands. "You came," she says. "Then the key is still within reach."';
const chapter = {
  text: prose,
  choices: ['Descend into the stacks', 'Ask about the warning', 'Wait for low tide'],
  statIncreases: [{ stat: 'wisdom', amount: 1 }],
  newSetting: null,
  missionCompleted: false,
  newMission: 'Find the key to the sea gate',
  cast: [{ name: 'Queen Maelis', role: 'queen', description: 'She bargains with the tide.', status: 'waiting' }],
};
const character = {
  username: 'Vell',
  stats: { strength: 12, agility: 9, endurance: 10, intellect: 14, wisdom: 11, charisma: 8 },
  description:
    'A smuggler of the clockwork canals who knows every lock keeper by name and owes half of them money, and who will not say where the other half went.',
  traits: ['Brave', 'Curious', 'Stubborn'],
  strengths: ['Picks any lock', 'Reads old maps'],
  weaknesses: ['Proud'],
  special: { name: 'Quiet Oars', description: 'Moves a boat without a sound.' },
};
const THINK = '<think>They want JSON like {"text": "..."} — plan: { scene, choices }. Braces {} everywhere.</think>\n';
const GENERATE_CHAPTER = 'mutation($input: GenerateChapterInput!) { generateChapter(input: $input) { newChapter { id index text } } }';
const GENERATE_CHARACTER = 'mutation($input: GenerateCharacterInput!) { generateCharacter(input: $input) { username stats } }';
const CHARACTER_INPUT = {
  worldDescription: 'A city of canals and clockwork, ruled by guilds.',
  questions: ['Who are you?'],
  answers: ['A smuggler'],
  username: 'Vell',
};

const sse = (raw: string, extra: Partial<Extract<Script, { kind: 'sse' }>> = {}): Script => ({ kind: 'sse', pieces: splitInto(raw, 16), ...extra });
const sloppy = {
  ...chapter,
  statIncreases: { Wisdom: '1' },
  choices: [...chapter.choices, 'Swim', 'Sing', 'Wait for low tide'],
  text: `${prose} Her smile said: hearts <3.`,
};

/** Each behaviour: the scripts the server answers a chapter with, and the stored text expected. */
const CHAPTERS: Array<[string, Script[], string]> = [
  ['a think block with braces before the JSON', [sse(THINK + JSON.stringify(chapter))], prose],
  ['reasoning_content before the content', [sse(JSON.stringify(chapter), { reasoning: ['Planning {', 'the scene}'] })], prose],
  ['a preamble and a ```json fence', [sse('Sure! Here is the chapter {as asked}:\n```json\n' + JSON.stringify(chapter, null, 2) + '\n```\nEnjoy!')], prose],
  ['off-schema fields (a stat in capitals as a string, six choices, "<3" in the prose)', [sse(JSON.stringify(sloppy))], `${prose} Her smile said: hearts ‹3.`],
  ['a slow model (a token every 20 ms)', [sse(JSON.stringify(chapter), { firstDelayMs: 200, gapMs: 20 })], prose],
  [
    'a rate limit with a short Retry-After (1 s), then the chapter',
    [{ kind: 'status', status: 429, headers: { 'retry-after': '1' } }, sse(JSON.stringify(chapter))],
    prose,
  ],
];

describe('the app against real-world model servers', () => {
  let fake: FakeOpenAIServer;
  let t: TestApp;
  beforeAll(async () => {
    ({ t, fake } = await startWithFakeModel({ model: `servers-${Date.now()}`, timeoutMs: 1500, callTimeoutMs: 3000 }));
  });
  beforeEach(() => fake.reset());
  afterAll(async () => {
    await t?.close();
    await fake?.stop();
  });

  it.each(CHAPTERS)('%s: the chapter is stored as prose, with its mission and cast', async (_name, scripts, expected) => {
    const p = await signUp(t);
    const c = await makeCharacter(t, p.user.id);
    fake.push(...scripts);
    const r = await t.gql(GENERATE_CHAPTER, { input: { characterId: c.id } }, p.accessToken);
    expect(r.errors).toBeUndefined();
    expect(r.data!.generateChapter.newChapter.text).toBe(expected);
    const [stored] = (await t.app.db.dataSource.query(`SELECT text, status FROM chapters WHERE character_id = $1 AND is_selected`, [c.id])) as Array<{
      text: string;
      status: string;
    }>;
    expect(stored).toEqual({ text: expected, status: 'complete' });
    const missions = (await t.app.db.dataSource.query(`SELECT objective FROM missions WHERE character_id = $1`, [c.id])) as unknown[];
    expect(missions).toEqual([{ objective: 'Find the key to the sea gate' }]);
    const cards = (await t.app.db.dataSource.query(`SELECT name FROM story_cards WHERE character_id = $1`, [c.id])) as unknown[];
    expect(cards).toEqual([{ name: 'Queen Maelis' }]);
  });

  it('a stream that stalls: a clear, coded error (timed out), the story untouched', async () => {
    const p = await signUp(t);
    const c = await makeCharacter(t, p.user.id);
    fake.push(sse(JSON.stringify(chapter), { gapMs: 5000 }));
    const r = await t.gql(GENERATE_CHAPTER, { input: { characterId: c.id } }, p.accessToken);
    expect(r.errors![0]!.message).toBe('Failed to generate story chapter. Please try again.');
    expect(r.errors![0]!.extensions).toMatchObject({ code: 'GENERATION_FAILED', reason: 'timeout' });
    const rows = (await t.app.db.dataSource.query(`SELECT status FROM chapters WHERE character_id = $1`, [c.id])) as Array<{ status: string }>;
    expect(rows.every((x) => x.status === 'failed')).toBe(true);
    expect(await t.app.db.dataSource.query(`SELECT 1 FROM story_cards WHERE character_id = $1`, [c.id])).toEqual([]);
  });

  it('a rate limit with a long Retry-After: fails at once, saying when to try again', async () => {
    const p = await signUp(t);
    const c = await makeCharacter(t, p.user.id);
    fake.push({ kind: 'status', status: 429, headers: { 'retry-after': '30' } });
    const r = await t.rest('POST', '/api/stories/generate-chapter', { characterId: c.id, userChoice: '' }, p.accessToken);
    expect(r.status).toBe(502);
    expect(r.body).toMatchObject({ code: 'GENERATION_FAILED', reason: 'busy', retryAfterSeconds: 30 });
    expect(fake.requests).toHaveLength(1);
  });

  it('characters: a think block is skipped (charged once); a stalled call is refunded', async () => {
    const p = await signUp(t);
    fake.push({ kind: 'json', content: THINK + JSON.stringify(character) });
    const ok = await t.gql(GENERATE_CHARACTER, { input: CHARACTER_INPUT }, p.accessToken);
    expect(ok.errors).toBeUndefined();
    expect(ok.data!.generateCharacter.stats.intellect).toBe(14);
    expect((await t.gql('{ credits }', {}, p.accessToken)).data!.credits).toBe(7);
    fake.push({ kind: 'hang' });
    const failed = await t.gql(GENERATE_CHARACTER, { input: CHARACTER_INPUT }, p.accessToken);
    expect(failed.errors![0]!.extensions!.code).toBe('GENERATION_FAILED');
    expect((await t.gql('{ credits }', {}, p.accessToken)).data!.credits).toBe(7);
  });

  it('a server that refuses json_schema (HTTP 400): chapters need no JSON mode, and characters go on in json_object mode, remembered', async () => {
    fake.rejectJsonSchema = true;
    const p = await signUp(t);
    const c = await makeCharacter(t, p.user.id);
    fake.push(sse(JSON.stringify(chapter)), { kind: 'json', content: JSON.stringify(character) });
    const r = await t.gql(GENERATE_CHAPTER, { input: { characterId: c.id } }, p.accessToken);
    expect(r.data!.generateChapter.newChapter.text).toBe(prose);
    expect((await t.gql(GENERATE_CHARACTER, { input: CHARACTER_INPUT }, p.accessToken)).errors).toBeUndefined();
    const formats = fake.requests.map((x) => (x.body.response_format as { type?: string } | undefined)?.type);
    // The chapter is asked for as prose (no response_format); the character meets the 400 once, then json_object.
    expect(formats).toEqual([undefined, 'json_schema', 'json_object']);
    fake.push({ kind: 'json', content: JSON.stringify(character) });
    expect((await t.gql(GENERATE_CHARACTER, { input: CHARACTER_INPUT }, p.accessToken)).errors).toBeUndefined();
    expect(fake.requests.map((x) => (x.body.response_format as { type?: string } | undefined)?.type).at(-1)).toBe('json_object');
  });
});
