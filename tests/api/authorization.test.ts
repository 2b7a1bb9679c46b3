import { signUp, startTestApp, type TestApp } from '../support/test-app';
import { characterPayload, countRows, pngBytes, submitWorldMultipart, validWorldFields } from './domain-helpers';

/**
 * A second player tries every read and write on the first player's worlds and characters. Each is
 * refused with NOT_FOUND (the same answer as for an id that does not exist) and changes nothing.
 */
let t: TestApp;
let owner: Awaited<ReturnType<typeof signUp>>;
let stranger: Awaited<ReturnType<typeof signUp>>;
let worldId: string;
let characterId: string;

beforeAll(async () => {
  t = await startTestApp();
  owner = await signUp(t);
  stranger = await signUp(t);
  const s = await submitWorldMultipart(t, owner.accessToken, validWorldFields('Private Isle'), { bytes: await pngBytes(), name: 'a.png', type: 'image/png' });
  worldId = s.body.world.id;
  const c = await t.rest('POST', '/api/profile/insert-characters', characterPayload(worldId, 'Owner Hero'), owner.accessToken);
  characterId = c.body.id;
});
afterAll(() => t.close());

async function snapshot() {
  const ds = t.app.db.dataSource;
  return {
    world: (await ds.query('SELECT name, description, shared_globally, image_media_id FROM worlds WHERE id = $1', [worldId]))[0],
    character: (await ds.query('SELECT name, world_id, description FROM characters WHERE id = $1', [characterId]))[0],
    strangerCharacters: await countRows(t, 'characters', 'user_id = $1', [stranger.user.id]),
  };
}

describe("a stranger cannot read, change or delete another player's things", () => {
  it('REST: every attempt is 404 NOT_FOUND and nothing changes', async () => {
    const before = await snapshot();
    const tok = stranger.accessToken;
    const attempts = [
      await t.rest('GET', `/api/worlds/image/${worldId}`, undefined, tok),
      await t.rest('PUT', `/api/worlds/share/${worldId}`, { shared_globally: true }, tok),
      await t.rest('PUT', `/api/worlds/share/${worldId}`, { shared_globally: false }, tok),
      await t.rest('DELETE', `/api/profile/characters/${characterId}`, undefined, tok),
      await t.rest('POST', '/api/profile/insert-characters', characterPayload(worldId, 'Squatter'), tok),
    ];
    for (const r of attempts) {
      expect(r.status).toBe(404);
      expect(r.body.code).toBe('NOT_FOUND');
    }
    // The answer for someone else's id is exactly the answer for an id that does not exist.
    const ghost = await t.rest('PUT', `/api/worlds/share/00000000-0000-4000-8000-00000000dead`, { shared_globally: true }, tok);
    expect(ghost.body).toEqual(attempts[1].body);
    const mine = await t.rest('GET', '/api/worlds/my-worlds', undefined, tok);
    expect(mine.body).toEqual([]);
    const chars = await t.rest('GET', '/api/profile/fetch-saved-characters', undefined, tok);
    expect(chars.body).toEqual([]);
    expect(await snapshot()).toEqual(before);
  });

  it('GraphQL: every attempt is NOT_FOUND and nothing changes', async () => {
    const before = await snapshot();
    const tok = stranger.accessToken;
    const ops: Array<[string, Record<string, unknown>]> = [
      [`query($id: ID!) { world(id: $id) { id } }`, { id: worldId }],
      [`mutation($id: ID!) { setWorldShared(id: $id, shared: true) { id } }`, { id: worldId }],
      [`query($id: ID!) { character(id: $id) { id } }`, { id: characterId }],
      [`mutation($id: ID!) { deleteCharacter(id: $id) }`, { id: characterId }],
      [
        `mutation($input: SaveCharacterInput!) { saveCharacter(input: $input) { id } }`,
        {
          input: {
            name: 'Squatter',
            worldId,
            stats: { strength: 1 },
            description: 'x',
            traits: [],
            strengths: [],
            weaknesses: [],
            special: { name: 'n', description: 'd' },
          },
        },
      ],
    ];
    for (const [q, v] of ops) {
      const r = await t.gql(q, v, tok);
      expect(r.errors?.[0].extensions?.code).toBe('NOT_FOUND');
    }
    expect(await snapshot()).toEqual(before);
  });

  it('anonymous callers cannot see a private world either', async () => {
    expect((await t.rest('GET', `/api/worlds/image/${worldId}`)).status).toBe(404);
    expect((await t.gql(`query($id: ID!) { world(id: $id) { id } }`, { id: worldId })).errors?.[0].extensions?.code).toBe('NOT_FOUND');
  });

  it('a character in a world its owner later made private does not reveal that world', async () => {
    // The owner shares the world; the stranger spawns a character into it; the owner unshares.
    await t.rest('PUT', `/api/worlds/share/${worldId}`, { shared_globally: true }, owner.accessToken);
    const c = await t.rest('POST', '/api/profile/insert-characters', characterPayload(worldId, 'Visitor'), stranger.accessToken);
    expect(c.status).toBe(201);
    await t.rest('PUT', `/api/worlds/share/${worldId}`, { shared_globally: false }, owner.accessToken);
    const list = await t.rest('GET', '/api/profile/fetch-saved-characters', undefined, stranger.accessToken);
    expect(list.body[0]).toMatchObject({ name: 'Visitor', world_name: null });
    const g = await t.gql(`{ myCharacters { name worldName world { id description } } }`, {}, stranger.accessToken);
    expect(g.data!.myCharacters[0]).toEqual({ name: 'Visitor', worldName: null, world: null });
    // The owner still sees their own world's name on their own character.
    const own = await t.gql(`{ myCharacters { worldName } }`, {}, owner.accessToken);
    expect(own.data!.myCharacters[0].worldName).toBe('Private Isle');
  });

  it('the owner can do all of it', async () => {
    const tok = owner.accessToken;
    expect((await t.rest('GET', `/api/worlds/image/${worldId}`, undefined, tok)).body.success).toBe(true);
    expect((await t.gql(`query($id: ID!) { character(id: $id) { name } }`, { id: characterId }, tok)).data!.character.name).toBe('Owner Hero');
  });
});
