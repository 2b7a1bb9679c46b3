import fc from 'fast-check';
import { signUp, startTestApp, type TestApp } from '../support/test-app';
import { AETHERMOOR, WORLD_DESCRIPTION, characterPayload, jpegBytes, pngBytes, submitWorldMultipart, validWorldFields } from './domain-helpers';

/**
 * Every field of every operation of this step, tried with empty, oversized, wrong-type and hostile
 * values (property-based): each gets a coded 4xx — never a 500 — and writes nothing.
 */
let t: TestApp;
let me: Awaited<ReturnType<typeof signUp>>;
beforeAll(async () => {
  // Hundreds of requests from one address and one player: the front door's general rate limit is
  // not what this file tests (each test file's process.env is its own under jest).
  process.env.RATE_LIMIT_PER_IP = '1000000';
  process.env.RATE_LIMIT_PER_USER = '1000000';
  t = await startTestApp({ generationRateLimit: { perUserPerWindow: 100_000, windowSeconds: 60 } });
  me = await signUp(t);
  await t.rest('POST', '/api/profile/', { skills: 'Sailing', personalityTraits: 'Bold', freeTime: 'Fishing' }, me.accessToken);
  await t.rest('POST', '/api/profile/save-settings', { immersiveUI: true, readingLevel: 5 }, me.accessToken);
});
afterAll(() => t.close());

/** Everything this player could have written, plus orphaned media (which no player owns). */
async function footprint() {
  const rows = await t.app.db.dataSource.query(
    `SELECT
       (SELECT count(*)::int FROM worlds WHERE owner_id = $1) AS worlds,
       (SELECT count(*)::int FROM characters WHERE user_id = $1) AS characters,
       (SELECT count(*)::int FROM credit_transactions WHERE user_id = $1) AS ledger,
       (SELECT credits FROM subscriptions WHERE user_id = $1) AS credits,
       (SELECT count(*)::int FROM support_messages WHERE user_id = $1) AS support,
       (SELECT row_to_json(p)::text FROM (SELECT skills, personality_traits, free_time, past_times FROM user_character_profiles WHERE user_id = $1) p) AS profile,
       (SELECT row_to_json(s)::text FROM (SELECT immersive_ui, reading_level FROM user_settings WHERE user_id = $1) s) AS settings,
       (SELECT count(*)::int FROM media m WHERE NOT EXISTS (SELECT 1 FROM worlds w WHERE w.image_media_id = m.id)) AS orphan_media`,
    [me.user.id],
  );
  return rows[0];
}

const SQL = ["'; DROP TABLE worlds; --", "1' OR '1'='1", 'Robert"); DELETE FROM characters;--'];
const HTML = ['<script>alert(1)</script>', '<img src=x onerror=alert(1)>', '</textarea><b>x</b>', '<!-- x -->'];
const wrongTypes = fc.constantFrom<unknown>(42, -1.5, true, false, { a: 1 }, [1, 2], ['a', { b: 2 }]);
const hostileText = fc.oneof(fc.constantFrom(...HTML), fc.constant('bad\u0000byte'), fc.constant('bell\u0007'));
const blank = fc.constantFrom('', '   ', '\n\t ');
const oversized = (max: number) => fc.integer({ min: max + 1, max: max + 5000 }).map((n) => 'x'.repeat(n));
/** Names also refuse SQL-ish punctuation; prose fields keep SQL as inert text (see the round-trip test). */
const badName = (max: number) => fc.oneof(blank, oversized(max), wrongTypes, hostileText, fc.constantFrom(...SQL.slice(0, 1), 'a;b', '{x}'));
const badRequiredText = (max: number) => fc.oneof(blank, fc.constant(null), oversized(max), wrongTypes, hostileText);
const badOptionalText = (max: number) => fc.oneof(oversized(max), wrongTypes, hostileText);
const badList = (itemMax: number) =>
  fc.oneof(
    fc.constantFrom<unknown>('not a list', 42, { 0: 'a' }),
    fc.array(fc.constantFrom<unknown>(1, true, {}, null), { minLength: 1, maxLength: 3 }),
    oversized(itemMax).map((s) => [s]),
    hostileText.map((s) => [s]),
    fc.constant(Array.from({ length: 11 }, () => 'Q?')),
  );

type Call = (value: unknown) => Promise<{ status: number; code?: string }>;

async function expectRefusedWritesNothing(name: string, arb: fc.Arbitrary<unknown>, call: Call, runs = 20) {
  const before = await footprint();
  await fc.assert(
    fc.asyncProperty(arb, async (value) => {
      const r = await call(value);
      if (r.status < 400 || r.status >= 500 || !r.code) {
        throw new Error(`${name} with ${JSON.stringify(value)?.slice(0, 80)} answered ${r.status} ${r.code ?? ''}`);
      }
    }),
    { numRuns: runs },
  );
  expect(await footprint()).toEqual(before);
}

const rest = (method: string, path: string) => async (body: unknown) => {
  const r = await t.rest(method, path, body, me.accessToken);
  return { status: r.status, code: r.body?.code };
};

describe('REST: bad values in every field are refused with a code and write nothing', () => {
  const world = { worldName: 'Skyreach', worldDescription: WORLD_DESCRIPTION, questions: ['Who are you?'] };
  it.each([
    ['worldName', badName(120)],
    ['worldDescription', badRequiredText(1200)],
    ['questions', fc.oneof(badList(300), fc.constant(['', 'second?']), fc.constant([]))],
    ['image', fc.constantFrom<unknown>('data:text/plain;base64,aGVsbG8=', 'data:image/png;base64,aGVsbG8=', 'not a data url', 42)],
  ])('submit-world %s', async (field, arb) => {
    await expectRefusedWritesNothing(`submit-world ${field}`, arb, (v) => rest('POST', '/api/worlds/submit-world')({ ...world, [field]: v }));
  });

  it('share shared_globally', async () => {
    await expectRefusedWritesNothing('share', fc.oneof(fc.constantFrom<unknown>('true', 1, 0, null, 'yes'), fc.constant(undefined)), (v) =>
      rest('PUT', `/api/worlds/share/${AETHERMOOR}`)({ shared_globally: v }),
    );
  });

  it.each([
    ['generate-description', 'worldDescription', badOptionalText(1200)],
    ['generate-description', 'maxLength', fc.oneof(fc.constantFrom<unknown>('300', 0, -5, 49, 10.5, true, {}), fc.constant([300]))],
    ['generate-questions', 'worldDescription', badRequiredText(1200)],
    ['generate-image', 'worldDescription', badRequiredText(1200)],
  ])('%s %s', async (path, field, arb) => {
    await expectRefusedWritesNothing(`${path} ${field}`, arb, (v) => rest('POST', `/api/worlds/${path}`)({ worldDescription: 'sky pirates', [field]: v }));
  });

  it.each([
    ['worldDescription', fc.oneof(blank, oversized(1200), hostileText)],
    ['username', fc.oneof(blank, oversized(60), hostileText, fc.constantFrom(...SQL))],
    [
      'answers',
      fc.oneof(
        fc.constantFrom('not json', '{"a":1}', '"text"', '[1,2]', '[null]'),
        oversized(1000).map((s) => JSON.stringify([s])),
        hostileText.map((s) => JSON.stringify([s])),
      ),
    ],
    [
      'questions',
      fc.oneof(
        fc.constantFrom('[', '42', '[{}]'),
        hostileText.map((s) => JSON.stringify([s])),
        fc.constant(JSON.stringify(Array(11).fill('Q?'))),
      ),
    ],
  ])('characters/generate %s (charges nothing)', async (field, arb) => {
    await expectRefusedWritesNothing(
      `generate ${field}`,
      arb,
      async (v) => {
        const q = new URLSearchParams({ worldDescription: 'A sky world.', questions: '["Why?"]', answers: '["Gold"]', username: 'Mira', [field]: String(v) });
        const r = await t.rest('GET', `/api/characters/generate?${q}`, undefined, me.accessToken);
        return { status: r.status, code: r.body?.code };
      },
      12,
    );
  });

  it.each([
    ['name', badName(60)],
    ['world_id', fc.constantFrom<unknown>(null, '', 'not-a-uuid', 42, "' OR 1=1 --", '00000000-0000-4000-8000-000000000000')],
    [
      'stats',
      fc.oneof(
        fc.constantFrom<unknown>('strong', 42, [1, 2], { strength: 'ten' }, { strength: 1e9 }, { '<b>': 1 }, { strength: -1 }, { s: 1.5 }),
        fc.constant(Object.fromEntries(Array.from({ length: 13 }, (_, i) => [`s${i}`, 1]))),
      ),
    ],
    ['description', badRequiredText(4000)],
    ['traits', badList(200)],
    ['strengths', badList(200)],
    ['weaknesses', badList(200)],
    [
      'special',
      fc.constantFrom<unknown>(
        'Windstep',
        42,
        [1],
        { name: '<script>x</script>', description: 'd' },
        { name: 'n', description: 'x'.repeat(1001) },
        { name: 5, description: 'd' },
      ),
    ],
  ])('insert-characters %s', async (field, arb) => {
    await expectRefusedWritesNothing(`insert-characters ${field}`, arb, (v) =>
      rest('POST', '/api/profile/insert-characters')({ ...characterPayload(AETHERMOOR), [field]: v }),
    );
  });

  it('delete-character with hostile ids', async () => {
    await expectRefusedWritesNothing(
      'delete',
      fc.constantFrom("1' OR '1'='1", '%', '..', 'x'.repeat(500), AETHERMOOR),
      async (v) => {
        const r = await t.rest('DELETE', `/api/profile/characters/${encodeURIComponent(String(v))}`, undefined, me.accessToken);
        return { status: r.status, code: r.body?.code };
      },
      5,
    );
  });

  const profile = { skills: 'Sailing', personalityTraits: 'Bold', freeTime: 'Fishing', pastTimes: 'Chess' };
  it.each([
    ['skills', badRequiredText(2000)],
    ['personalityTraits', badRequiredText(2000)],
    ['freeTime', badRequiredText(2000)],
    ['pastTimes', badOptionalText(2000)],
  ])('profile %s', async (field, arb) => {
    await expectRefusedWritesNothing(`profile ${field}`, arb, (v) => rest('POST', '/api/profile/')({ ...profile, skills: 'Changed', [field]: v }));
  });

  it.each([
    ['immersiveUI', fc.constantFrom<unknown>('true', 1, 'on', [], {})],
    ['readingLevel', fc.constantFrom<unknown>(0, 13, -1, 8.5, '8', true, 1e9)],
  ])('save-settings %s', async (field, arb) => {
    await expectRefusedWritesNothing(`settings ${field}`, arb, (v) => rest('POST', '/api/profile/save-settings')({ immersiveUI: false, [field]: v }));
  });

  it.each([
    ['type', fc.constantFrom<unknown>('', 'complaint', 'BUG', 42, null, "bug' OR 1=1", '<b>bug</b>')],
    ['message', badRequiredText(5000)],
  ])('support %s', async (field, arb) => {
    await expectRefusedWritesNothing(`support ${field}`, arb, (v) => rest('POST', '/api/support/insert')({ type: 'bug', message: 'Broken', [field]: v }));
  });

  it('non-object JSON bodies are refused', async () => {
    for (const path of [
      '/api/support/insert',
      '/api/profile/',
      '/api/profile/save-settings',
      '/api/profile/insert-characters',
      '/api/worlds/generate-questions',
    ]) {
      for (const b of ['[]', '"text"', '42', '{"a":']) {
        const r = await t.rest('POST', path, b, me.accessToken, { 'content-type': 'application/json' });
        expect(r.status).toBe(400);
        expect(r.body.code).toBe('BAD_USER_INPUT');
      }
    }
  });
});

describe('uploads: sniffed from the bytes, capped at 5 MB, re-encoded', () => {
  const upload = async (bytes: Buffer, name: string, type?: string) => submitWorldMultipart(t, me.accessToken, validWorldFields(), { bytes, name, type });

  it('a 10 MB upload → 413 PAYLOAD_TOO_LARGE; a PNG renamed to .exe, a non-image, a fake PNG, an empty file → 400; nothing written', async () => {
    const before = await footprint();
    const big = Buffer.concat([await pngBytes(), Buffer.alloc(10 * 1024 * 1024, 7)]);
    const tooBig = await upload(big, 'huge.png', 'image/png');
    expect(tooBig.status).toBe(413);
    expect(tooBig.body.code).toBe('PAYLOAD_TOO_LARGE');
    const cases: Array<[Buffer, string, string | undefined]> = [
      [await pngBytes(), 'picture.exe', 'application/x-msdownload'],
      [await pngBytes(), 'picture.exe', undefined],
      [Buffer.from('MZ\x90\x00 this is a program'), 'picture.png', 'image/png'],
      [Buffer.from('just some text, honestly'), 'notes.png', 'image/png'],
      [Buffer.concat([(await pngBytes()).subarray(0, 8), Buffer.alloc(200, 1)]), 'broken.png', 'image/png'],
      [Buffer.from('GIF89a\x01\x00\x01\x00'), 'anim.gif', 'image/gif'],
      [Buffer.alloc(0), 'empty.jpg', 'image/jpeg'],
    ];
    for (const [bytes, name, type] of cases) {
      const r = await upload(bytes, name, type);
      expect([r.status, r.body.code, name]).toEqual([400, 'BAD_USER_INPUT', name]);
    }
    expect(await footprint()).toEqual(before);
  });

  it('a second file field or an unexpected field name is refused', async () => {
    const before = await footprint();
    const form = new FormData();
    for (const [k, v] of Object.entries(validWorldFields())) form.append(k, v);
    form.append('avatar', new Blob([new Uint8Array(await jpegBytes())], { type: 'image/jpeg' }), 'a.jpg');
    const res = await fetch(`${t.url}/api/worlds/submit-world`, { method: 'POST', headers: { authorization: `Bearer ${me.accessToken}` }, body: form });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { code: string }).code).toBe('BAD_USER_INPUT');
    expect(await footprint()).toEqual(before);
  });

  it('GraphQL: a data URL that is not an image, or over 5 MB, is refused', async () => {
    const before = await footprint();
    const q = `mutation($image: String) { submitWorld(input: { name: "Skyreach", description: "A sky world.", questions: ["Q?"], image: $image }) { id } }`;
    for (const image of [
      'data:image/png;base64,aGVsbG8=',
      'javascript:alert(1)',
      `data:image/png;base64,${Buffer.alloc(5 * 1024 * 1024 + 10).toString('base64')}`,
    ]) {
      const r = await t.gql(q, { image }, me.accessToken);
      expect(['BAD_USER_INPUT', 'PAYLOAD_TOO_LARGE']).toContain(r.errors?.[0].extensions?.code);
    }
    expect(await footprint()).toEqual(before);
  });
});

describe('GraphQL: wrong types and hostile values are coded errors', () => {
  it.each([
    [`mutation($v: String!) { submitWorld(input: { name: $v, description: "A sky world.", questions: ["Q?"] }) { id } }`, badName(120)],
    [`mutation($v: String!) { submitWorld(input: { name: "Skyreach", description: $v, questions: ["Q?"] }) { id } }`, badRequiredText(1200)],
    // (GraphQL itself coerces a lone string to a one-item list, so only list-shaped values are bad here.)
    [
      `mutation($v: [String!]!) { submitWorld(input: { name: "Skyreach", description: "A sky world.", questions: $v }) { id } }`,
      fc.oneof(
        fc.constant([]),
        fc.constant(['', 'Second?']),
        fc.constant([1, 2]),
        oversized(300).map((s) => [s]),
        hostileText.map((s) => [s]),
        fc.constant(Array(11).fill('Q?')),
      ),
    ],
    [`mutation($v: String!) { submitSupportMessage(type: "bug", message: $v) }`, badRequiredText(5000)],
    [`mutation($v: Int) { saveSettings(input: { readingLevel: $v }) { readingLevel } }`, fc.constantFrom<unknown>(0, 13, '8', 1.5, true)],
    [`mutation($v: String!) { saveCharacterProfile(input: { skills: $v, personalityTraits: "Bold", freeTime: "Fishing" }) { skills } }`, badRequiredText(2000)],
    [
      `mutation($v: JSONObject!) { saveCharacter(input: { name: "Mira", worldId: "${AETHERMOOR}", stats: $v, description: "d", traits: [], strengths: [], weaknesses: [], special: { name: "n", description: "d" } }) { id } }`,
      fc.constantFrom<unknown>('x', 1, [1], { a: 'b' }, { a: 1e6 }),
    ],
  ])('%s', async (query, arb) => {
    const before = await footprint();
    await fc.assert(
      fc.asyncProperty(arb, async (v) => {
        const r = await t.gql(query, { v }, me.accessToken);
        const code = r.errors?.[0].extensions?.code;
        if (!code || code === 'INTERNAL') throw new Error(`answered ${JSON.stringify(r.errors ?? r.data)?.slice(0, 200)}`);
        expect(r.status).toBeLessThan(500);
      }),
      { numRuns: 15 },
    );
    expect(await footprint()).toEqual(before);
  });
});

describe('SQL in prose fields is just text', () => {
  it('a world description and a support message with SQL are stored verbatim and the tables stay intact', async () => {
    const description = `A city of bridges. ${SQL[0]} ${SQL[1]}`;
    const s = await t.rest('POST', '/api/worlds/submit-world', { worldName: 'Bridgeport', worldDescription: description, questions: [SQL[2]] }, me.accessToken);
    expect(s.status).toBe(201);
    const w = await t.gql(`query($id: ID!) { world(id: $id) { description questions } }`, { id: s.body.world.id }, me.accessToken);
    expect(w.data!.world).toEqual({ description, questions: [SQL[2]] });
    const m = await t.rest('POST', '/api/support/insert', { type: 'bug', message: SQL.join(' ') }, me.accessToken);
    expect(m.status).toBe(201);
    expect((await t.rest('GET', '/api/worlds/fetch-world-cards')).body.length).toBeGreaterThanOrEqual(12);
  });
});
