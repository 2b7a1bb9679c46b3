import { FEATURED_WORLDS } from '../../server/src/db/seed-data';
import { signUp, startTestApp, type TestApp } from '../support/test-app';
import { WORLD_DESCRIPTION } from './domain-helpers';

/**
 * Issue 36, finding 11: on a PostgreSQL that earlier runs (and earlier test files) had filled, a
 * community search for "Ember" no longer showed the test's own world on the first page. Every test
 * file now starts from the seeded template alone — on PGlite a copy of the template file, on
 * PostgreSQL a database of its own copied from the run's template — whatever ran before, in this
 * run or any other, and whatever runs beside it on other workers. `.ci/run` runs the PostgreSQL
 * pass twice in a row on the same server to show it.
 */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const count = async (sql: string) => ((await t.app.db.dataSource.query(sql)) as Array<{ n: number }>)[0]!.n;

it('a test file starts from the seeded template only: no accounts, no stories, only the featured worlds', async () => {
  expect(await count('SELECT count(*)::int AS n FROM users')).toBe(0);
  expect(await count('SELECT count(*)::int AS n FROM characters')).toBe(0);
  expect(await count('SELECT count(*)::int AS n FROM worlds WHERE NOT featured')).toBe(0);
  expect(await count('SELECT count(*)::int AS n FROM worlds WHERE featured')).toBe(FEATURED_WORLDS.length);
  // What a player sees: an empty community, however many worlds other files share.
  const community = await t.gql('{ communityWorlds(limit: 50) { total worlds { id } } }');
  expect(community.data!.communityWorlds).toEqual({ total: 0, worlds: [] });
});

it("a world this file shares is the community's only one: a search finds it on the first page", async () => {
  const p = await signUp(t);
  const w = await t.rest(
    'POST',
    '/api/worlds/submit-world',
    { worldName: 'Ember Reach', worldDescription: WORLD_DESCRIPTION, questions: '["Who are you?"]' },
    p.accessToken,
  );
  expect(w.status).toBe(201);
  expect((await t.rest('PUT', `/api/worlds/share/${w.body.world.id}`, { shared_globally: true }, p.accessToken)).status).toBe(200);
  const listed = await t.rest('GET', `/api/worlds/community?search=${encodeURIComponent('Ember')}`);
  expect(listed.body.worlds.map((x: { id: string }) => x.id)).toEqual([w.body.world.id]);
});
