import { signUp, startTestApp, type TestApp } from '../support/test-app';
import { AETHERMOOR, WORLD_DESCRIPTION, balanceOf, countRows, jpegBytes, pngBytes, submitWorldMultipart, validWorldFields, webpBytes } from './domain-helpers';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const CARD_FIELDS = ['id', 'name', 'description', 'questions', 'shared_globally'];
const WORLD_FIELDS = 'id name description questions imageUrl genre featured sharedGlobally isOwn author createdAt';

describe('worlds over REST (SPEC §7 paths and fields)', () => {
  it('GET /api/worlds/fetch-world-cards is public and answers world cards', async () => {
    const r = await t.rest('GET', '/api/worlds/fetch-world-cards');
    expect(r.status).toBe(200);
    expect(r.body.length).toBeGreaterThanOrEqual(12);
    for (const card of r.body) for (const f of CARD_FIELDS) expect(card).toHaveProperty(f);
    expect(r.body.find((w: { id: string }) => w.id === AETHERMOOR).name).toBe('Aethermoor');
    const page = await t.rest('GET', '/api/worlds/fetch-world-cards?limit=3&offset=1&genre=cyberpunk');
    expect(page.status).toBe(200);
    expect(page.body.every((w: { genre: string }) => w.genre === 'cyberpunk')).toBe(true);
    expect((await t.rest('GET', '/api/worlds/fetch-world-cards?limit=abc')).status).toBe(400);
  });

  it('the create-wizard flow: generate description, questions, image; submit multipart; my worlds; share; image', async () => {
    const me = await signUp(t);
    const token = me.accessToken;

    const d = await t.rest('POST', '/api/worlds/generate-description', { worldDescription: 'sky pirates on floating islands', maxLength: 300 }, token);
    expect(d.status).toBe(200);
    expect(typeof d.body.description).toBe('string');
    expect(d.body.description.length).toBeGreaterThan(40);
    expect(d.body.description.length).toBeLessThanOrEqual(300);
    const capped = await t.rest('POST', '/api/worlds/generate-description', { worldDescription: 'a haunted lighthouse', maxLength: 99999 }, token);
    expect(capped.body.description.length).toBeLessThanOrEqual(1200);
    const short = await t.rest('POST', '/api/worlds/generate-description', { worldDescription: 'a haunted lighthouse', maxLength: 80 }, token);
    expect(short.body.description.length).toBeLessThanOrEqual(80);

    const q = await t.rest('POST', '/api/worlds/generate-questions', { worldDescription: WORLD_DESCRIPTION }, token);
    expect(q.status).toBe(200);
    expect(q.body.questions.length).toBeGreaterThanOrEqual(3);
    expect(q.body.questions.every((s: string) => typeof s === 'string' && s.endsWith('?'))).toBe(true);

    const img = await t.rest('POST', '/api/worlds/generate-image', { worldDescription: WORLD_DESCRIPTION }, token);
    expect(img.status).toBe(200);
    expect(img.body.success).toBe(true);
    expect(img.body.imageData).toMatch(/^data:image\/jpeg;base64,\/9j\//);

    // The SPEC's client converts the data URL to a JPEG file and submits it as the optional image.
    const jpeg = Buffer.from(img.body.imageData.split(',')[1], 'base64');
    const before = await balanceOf(t, me.user.id);
    const s = await submitWorldMultipart(t, token, validWorldFields('Skyreach'), { bytes: jpeg, name: 'world.jpeg', type: 'image/jpeg' });
    expect(s.status).toBe(201);
    expect(s.body.success).toBe(true);
    expect(s.body.world).toMatchObject({ name: 'Skyreach', shared_globally: false, questions: ['Which island were you born on?', 'What do you steal first?'] });
    expect(s.body.world.genre).toBe('pirate');
    expect(await balanceOf(t, me.user.id)).toBe(before - 3);
    const worldId = s.body.world.id as string;

    const mine = await t.rest('GET', '/api/worlds/my-worlds', undefined, token);
    expect(mine.status).toBe(200);
    expect(mine.body.map((w: { id: string }) => w.id)).toEqual([worldId]);
    for (const f of CARD_FIELDS) expect(mine.body[0]).toHaveProperty(f);

    const image = await t.rest('GET', `/api/worlds/image/${worldId}`, undefined, token);
    expect(image.status).toBe(200);
    expect(image.body).toEqual({ success: true, publicURL: expect.stringMatching(/^\/media\/[0-9a-f-]{36}$/) });
    const media = await fetch(`${t.url}${image.body.publicURL}`);
    expect(media.status).toBe(200);
    expect(media.headers.get('content-type')).toBe('image/jpeg');
    expect(media.headers.get('cache-control')).toContain('max-age');
    const etag = media.headers.get('etag')!;
    expect((await fetch(`${t.url}${image.body.publicURL}`, { headers: { 'if-none-match': etag } })).status).toBe(304);

    // Private until shared: an anonymous caller cannot see its image; after sharing they can.
    expect((await t.rest('GET', `/api/worlds/image/${worldId}`)).status).toBe(404);
    const share = await t.rest('PUT', `/api/worlds/share/${worldId}`, { shared_globally: true }, token);
    expect(share.status).toBe(200);
    expect(share.body).toMatchObject({ success: true, shared_globally: true });
    expect((await t.rest('GET', `/api/worlds/image/${worldId}`)).body.success).toBe(true);
    const unshare = await t.rest('PUT', `/api/worlds/share/${worldId}`, { shared_globally: false }, token);
    expect(unshare.body.shared_globally).toBe(false);
    expect((await t.rest('GET', `/api/worlds/image/${worldId}`)).status).toBe(404);
  });

  it('accepts PNG and WebP uploads by their bytes and stores a re-encoded image', async () => {
    const me = await signUp(t);
    for (const [bytes, mime] of [
      [await pngBytes(40, 30), 'image/png'],
      [await webpBytes(40, 30), 'image/webp'],
      [await jpegBytes(40, 30), 'image/jpeg'],
    ] as const) {
      // A generic declared type is fine: the bytes decide.
      const s = await submitWorldMultipart(t, me.accessToken, validWorldFields(), { bytes, name: 'picture', type: 'application/octet-stream' });
      expect(s.status).toBe(201);
      const row = (
        await t.app.db.dataSource.query('SELECT m.mime, m.bytes FROM worlds w JOIN media m ON m.id = w.image_media_id WHERE w.id = $1', [s.body.world.id])
      )[0];
      expect(row.mime).toBe(mime);
      expect(Buffer.compare(row.bytes, bytes)).not.toBe(0); // re-encoded, not the uploaded bytes
    }
  });

  it('a world without an image is fine; GET image answers success false', async () => {
    const me = await signUp(t);
    const s = await submitWorldMultipart(t, me.accessToken, validWorldFields());
    expect(s.status).toBe(201);
    expect(s.body.world.image_url).toBeNull();
    expect((await t.rest('GET', `/api/worlds/image/${s.body.world.id}`, undefined, me.accessToken)).body).toEqual({ success: false, publicURL: null });
  });

  it('my-worlds and every write need a token (401); featured reads do not', async () => {
    expect((await t.rest('GET', '/api/worlds/my-worlds')).status).toBe(401);
    expect((await t.rest('PUT', `/api/worlds/share/${AETHERMOOR}`, { shared_globally: false })).status).toBe(401);
    expect((await t.rest('POST', '/api/worlds/generate-description', { worldDescription: 'x' })).status).toBe(401);
    expect((await t.rest('POST', '/api/worlds/generate-questions', { worldDescription: 'x' })).status).toBe(401);
    expect((await t.rest('POST', '/api/worlds/generate-image', { worldDescription: 'x' })).status).toBe(401);
    const before = await countRows(t, 'worlds');
    const s = await submitWorldMultipart(t, undefined, validWorldFields(), { bytes: await pngBytes(), name: 'a.png', type: 'image/png' });
    expect(s.status).toBe(401);
    expect(s.body.code).toBe('UNAUTHENTICATED');
    expect(await countRows(t, 'worlds')).toBe(before);
    expect((await t.rest('GET', `/api/worlds/image/${AETHERMOOR}`)).status).toBe(200);
  });

  it('my-worlds answers an empty list when reading fails (SPEC §7), and logs it', async () => {
    const me = await signUp(t);
    await submitWorldMultipart(t, me.accessToken, validWorldFields());
    const spy = jest.spyOn(t.app.services.worlds, 'mine').mockRejectedValueOnce(new Error('connection reset'));
    try {
      const r = await t.rest('GET', '/api/worlds/my-worlds', undefined, me.accessToken);
      expect(r.status).toBe(200);
      expect(r.body).toEqual([]);
    } finally {
      spy.mockRestore();
    }
    expect((await t.rest('GET', '/api/worlds/my-worlds', undefined, me.accessToken)).body).toHaveLength(1);
  });

  it('a featured world cannot be shared or unshared by a player (NOT_FOUND), and stays as it was', async () => {
    const me = await signUp(t);
    const r = await t.rest('PUT', `/api/worlds/share/${AETHERMOOR}`, { shared_globally: false }, me.accessToken);
    expect(r.status).toBe(404);
    expect((await t.app.db.dataSource.query('SELECT shared_globally FROM worlds WHERE id = $1', [AETHERMOOR]))[0].shared_globally).toBe(true);
  });

  it('submit costs 3 credits: with fewer, 403 INSUFFICIENT_CREDITS and nothing written', async () => {
    const me = await signUp(t);
    await t.app.db.dataSource.query('UPDATE subscriptions SET credits = 2 WHERE user_id = $1', [me.user.id]);
    const worlds = await countRows(t, 'worlds', 'owner_id = $1', [me.user.id]);
    const media = await countRows(t, 'media');
    const s = await submitWorldMultipart(t, me.accessToken, validWorldFields(), { bytes: await pngBytes(), name: 'a.png', type: 'image/png' });
    expect(s.status).toBe(403);
    expect(s.body.code).toBe('INSUFFICIENT_CREDITS');
    expect(await countRows(t, 'worlds', 'owner_id = $1', [me.user.id])).toBe(worlds);
    expect(await countRows(t, 'media')).toBe(media);
    expect(await balanceOf(t, me.user.id)).toBe(2);
  });

  it('a failure after the debit leaves no charge: debit, image and world commit together', async () => {
    const me = await signUp(t);
    const before = await balanceOf(t, me.user.id);
    const ledger = await countRows(t, 'credit_transactions', 'user_id = $1', [me.user.id]);
    const spy = jest.spyOn(t.app.services.media, 'store').mockRejectedValueOnce(new Error('disk on fire'));
    try {
      const s = await submitWorldMultipart(t, me.accessToken, validWorldFields(), { bytes: await pngBytes(), name: 'a.png', type: 'image/png' });
      expect(s.status).toBe(500);
      expect(s.body.error).toBe('Internal server error');
    } finally {
      spy.mockRestore();
    }
    expect(await balanceOf(t, me.user.id)).toBe(before);
    expect(await countRows(t, 'credit_transactions', 'user_id = $1', [me.user.id])).toBe(ledger);
    expect(await countRows(t, 'worlds', 'owner_id = $1', [me.user.id])).toBe(0);
  });
});

describe('worlds over GraphQL (same services)', () => {
  it('myWorlds, world(id), setWorldShared, generate*, submitWorld with a data-URL image', async () => {
    const me = await signUp(t);
    const token = me.accessToken;
    const d = await t.gql(`mutation { generateWorldDescription(worldDescription: "clockwork city of brass", maxLength: 250) }`, {}, token);
    expect(d.errors).toBeUndefined();
    expect(d.data!.generateWorldDescription.length).toBeLessThanOrEqual(250);
    const q = await t.gql(`mutation($d: String!) { generateWorldQuestions(worldDescription: $d) }`, { d: WORLD_DESCRIPTION }, token);
    expect(q.data!.generateWorldQuestions.length).toBeGreaterThanOrEqual(3);
    const img = await t.gql(`mutation($d: String!) { generateWorldImage(worldDescription: $d) }`, { d: WORLD_DESCRIPTION }, token);
    expect(img.data!.generateWorldImage).toMatch(/^data:image\/jpeg;base64,/);

    const s = await t.gql(
      `mutation($input: SubmitWorldInput!) { submitWorld(input: $input) { ${WORLD_FIELDS} } }`,
      { input: { name: 'Brasswick', description: WORLD_DESCRIPTION, questions: ['Who are you?', ' ', 'Why here?'], image: img.data!.generateWorldImage } },
      token,
    );
    expect(s.errors).toBeUndefined();
    const w = s.data!.submitWorld;
    expect(w).toMatchObject({
      name: 'Brasswick',
      questions: ['Who are you?', 'Why here?'],
      featured: false,
      sharedGlobally: false,
      isOwn: true,
      author: me.username,
    });
    expect(w.imageUrl).toMatch(/^\/media\//);

    const mine = await t.gql(`{ myWorlds { id isOwn } }`, {}, token);
    expect(mine.data!.myWorlds).toEqual([{ id: w.id, isOwn: true }]);
    const one = await t.gql(`query($id: ID!) { world(id: $id) { id name } }`, { id: w.id }, token);
    expect(one.data!.world).toEqual({ id: w.id, name: 'Brasswick' });
    const shared = await t.gql(`mutation($id: ID!) { setWorldShared(id: $id, shared: true) { sharedGlobally } }`, { id: w.id }, token);
    expect(shared.data!.setWorldShared.sharedGlobally).toBe(true);
    // Shared worlds are readable by anyone, including anonymous callers.
    const anon = await t.gql(`query($id: ID!) { world(id: $id) { name isOwn author } }`, { id: w.id });
    expect(anon.data!.world).toEqual({ name: 'Brasswick', isOwn: false, author: me.username });
    const featured = await t.gql(`query($id: ID!) { world(id: $id) { name author isOwn } }`, { id: AETHERMOOR });
    expect(featured.data!.world).toEqual({ name: 'Aethermoor', author: null, isOwn: false });
  });

  it('anonymous callers get UNAUTHENTICATED on everything but public reads', async () => {
    for (const op of [
      `{ myWorlds { id } }`,
      `mutation { generateWorldDescription(worldDescription: "x") }`,
      `mutation { generateWorldQuestions(worldDescription: "x") }`,
      `mutation { generateWorldImage(worldDescription: "x") }`,
      `mutation { setWorldShared(id: "${AETHERMOOR}", shared: false) { id } }`,
      `mutation { submitWorld(input: { name: "A", description: "B", questions: ["Q?"] }) { id } }`,
    ]) {
      const r = await t.gql(op);
      expect(r.errors?.[0].extensions?.code).toBe('UNAUTHENTICATED');
    }
  });

  it('submitWorld short of credits → INSUFFICIENT_CREDITS', async () => {
    const me = await signUp(t);
    await t.app.db.dataSource.query('UPDATE subscriptions SET credits = 0 WHERE user_id = $1', [me.user.id]);
    const r = await t.gql(`mutation { submitWorld(input: { name: "Broke", description: "A world.", questions: ["Q?"] }) { id } }`, {}, me.accessToken);
    expect(r.errors?.[0].extensions?.code).toBe('INSUFFICIENT_CREDITS');
    expect(await countRows(t, 'worlds', 'owner_id = $1', [me.user.id])).toBe(0);
  });
});
