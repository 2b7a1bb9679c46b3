import { signUp, startTestApp, type TestApp } from '../support/test-app';

/**
 * No N+1: the number of SQL statements a page costs does not grow with the page's size. Counted at
 * TypeORM's logger, which every statement of every query runner passes through.
 */
let t: TestApp;
let counting = false;
let statements = 0;
const insertedFeatured: string[] = [];

beforeAll(async () => {
  t = await startTestApp();
  const logger = t.app.db.dataSource.logger;
  const original = logger.logQuery.bind(logger);
  logger.logQuery = (query, parameters, runner) => {
    if (counting) statements++;
    return original(query, parameters, runner);
  };
});
afterAll(async () => {
  if (insertedFeatured.length) await t.app.db.dataSource.query(`DELETE FROM worlds WHERE id = ANY($1::uuid[])`, [insertedFeatured]);
  await t.close();
});

async function count(run: () => Promise<unknown>): Promise<number> {
  statements = 0;
  counting = true;
  try {
    await run();
  } finally {
    counting = false;
  }
  return statements;
}

const DESCRIPTION =
  'A quiet valley of terraced vineyards and windmills, where every harvest festival brings travelling players, ' +
  'old rivalries and a lantern procession that nobody remembers starting.';

async function insertWorld(ownerId: string | null, name: string, featured: boolean): Promise<string> {
  const rows = await t.app.db.dataSource.query(
    `INSERT INTO worlds (owner_id, name, description, questions, featured, shared_globally, genre)
     VALUES ($1, $2, $3, $4::jsonb, $5, true, 'mythic') RETURNING id`,
    [ownerId, name, DESCRIPTION, JSON.stringify(['Who are you?', 'Why did you come?', 'What do you seek?']), featured],
  );
  return rows[0].id;
}

describe('query counts stay constant with page size', () => {
  it('featuredWorlds: a page of 50 costs what a page of 2 costs (author, imageUrl, isOwn included)', async () => {
    // Featured worlds with owners, so the author loader has real work on every page measured.
    const owners = await Promise.all(Array.from({ length: 4 }, () => signUp(t)));
    for (let i = 0; i < 45; i++) insertedFeatured.push(await insertWorld(owners[i % 4].user.id, `Vinevale ${i}`, true));
    const all = (await t.gql(`{ featuredWorlds(limit: 100) { id } }`)).data!.featuredWorlds.map((w: { id: string }) => w.id) as string[];
    const first = all.indexOf(insertedFeatured[0]);
    const q = `query($limit: Int!, $offset: Int!) { featuredWorlds(limit: $limit, offset: $offset) { id name imageUrl author isOwn } }`;
    const small = await count(() => t.gql(q, { limit: 2, offset: first }));
    let page: any;
    const large = await count(async () => (page = await t.gql(q, { limit: 50, offset: Math.max(0, all.length - 50) })));
    expect(page.data.featuredWorlds).toHaveLength(50);
    expect(page.data.featuredWorlds.filter((w: { author: string | null }) => w.author !== null).length).toBeGreaterThanOrEqual(40);
    expect(large).toBe(small);
    expect(large).toBeLessThanOrEqual(3);
    // REST answers from the same single query.
    expect(await count(() => t.rest('GET', '/api/worlds/fetch-world-cards?limit=50'))).toBe(1);
  });

  it('communityWorlds: a page of 40 costs what a page of 2 costs (author, likedByMe, counts included); REST is one statement', async () => {
    const owners = await Promise.all(Array.from({ length: 4 }, () => signUp(t)));
    const viewer = await signUp(t);
    const word = `Commonvale${Date.now().toString(36)}`;
    for (let i = 0; i < 40; i++) await insertWorld(owners[i % 4].user.id, `${word} ${i}`, false);
    const q = `query($limit: Int!) { communityWorlds(limit: $limit, search: "${word}", sort: "liked") { total worlds { id name author playCount likeCount likedByMe isOwn imageUrl } } }`;
    // Signed in: past the anonymous response cache; the service's page cache is dropped before each count.
    const measure = async (limit: number) => {
      t.app.services.worlds.forgetPublicLists();
      let page: any;
      const n = await count(async () => (page = await t.gql(q, { limit }, viewer.accessToken)));
      return { n, page };
    };
    await t.gql('{ me { id } }', {}, viewer.accessToken); // the session check is cached from here on
    const small = await measure(2);
    const large = await measure(40);
    expect(large.page.data.communityWorlds.total).toBe(40);
    expect(large.page.data.communityWorlds.worlds).toHaveLength(40);
    expect(large.page.data.communityWorlds.worlds.every((w: { author: string | null }) => w.author !== null)).toBe(true);
    expect(large.n).toBe(small.n);
    expect(large.n).toBeLessThanOrEqual(2); // the page (with its creators), the viewer's likes
    t.app.services.worlds.forgetPublicLists();
    expect(await count(() => t.rest('GET', `/api/worlds/community?search=${word}&limit=40`))).toBe(1);
    // A second reader of the same page is served from the page cache: no statement at all.
    expect(await count(() => t.rest('GET', `/api/worlds/community?search=${word}&limit=40`))).toBe(0);
  });

  it('myCharacters / fetch-saved-characters: 50 characters in 50 worlds cost what 3 do', async () => {
    const few = await signUp(t);
    const many = await signUp(t);
    const worldOwner = await signUp(t);
    const worlds: string[] = [];
    for (let i = 0; i < 50; i++) worlds.push(await insertWorld(worldOwner.user.id, `Hamlet ${i}`, false));
    const addCharacters = async (userId: string, n: number) => {
      for (let i = 0; i < n; i++) {
        await t.app.db.dataSource.query(`INSERT INTO characters (user_id, world_id, name, description) VALUES ($1, $2, $3, 'A wanderer.')`, [
          userId,
          worlds[i],
          `Hero ${i}`,
        ]);
      }
    };
    await addCharacters(few.user.id, 3);
    await addCharacters(many.user.id, 50);
    const q = `{ myCharacters { id name worldName world { id name imageUrl author isOwn } } }`;
    const small = await count(() => t.gql(q, {}, few.accessToken));
    let page: any;
    const large = await count(async () => (page = await t.gql(q, {}, many.accessToken)));
    expect(page.data.myCharacters).toHaveLength(50);
    expect(
      page.data.myCharacters.every(
        (c: { worldName: string; world: { author: string } }) => c.worldName.startsWith('Hamlet') && c.world.author === worldOwner.username,
      ),
    ).toBe(true);
    expect(large).toBe(small);
    expect(large).toBeLessThanOrEqual(4);
    const restSmall = await count(() => t.rest('GET', '/api/profile/fetch-saved-characters', undefined, few.accessToken));
    const restLarge = await count(() => t.rest('GET', '/api/profile/fetch-saved-characters', undefined, many.accessToken));
    expect(restLarge).toBe(restSmall);
  });
});
