import { startTestApp, type TestApp } from '../support/test-app';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const Q = `query($limit: Int, $offset: Int, $search: String, $genre: String) {
  featuredWorlds(limit: $limit, offset: $offset, search: $search, genre: $genre) { id name description questions genre imageUrl featured }
}`;

describe('featuredWorlds (public)', () => {
  it('answers without a token with at least 12 worlds, each with a name, description and 3–5 questions', async () => {
    const r = await t.gql(`{ featuredWorlds { id name description questions } }`);
    expect(r.errors).toBeUndefined();
    const worlds = r.data!.featuredWorlds as Array<{ name: string; description: string; questions: string[] }>;
    expect(worlds.length).toBeGreaterThanOrEqual(12);
    for (const w of worlds) {
      expect(w.name.trim()).not.toBe('');
      expect(w.description.length).toBeGreaterThan(100);
      expect(w.description.length).toBeLessThanOrEqual(1200);
      expect(w.questions.length).toBeGreaterThanOrEqual(3);
      expect(w.questions.length).toBeLessThanOrEqual(5);
    }
  });

  it('includes the four landing-page worlds under their fixed ids', async () => {
    const r = await t.gql(Q, { limit: 100 });
    const byId = new Map((r.data!.featuredWorlds as Array<{ id: string; name: string }>).map((w) => [w.id, w.name]));
    expect(byId.get('00000000-0000-4000-a000-000000000001')).toBe('Aethermoor');
    expect(byId.get('00000000-0000-4000-a000-000000000002')).toBe('Neon Requiem');
    expect(byId.get('00000000-0000-4000-a000-000000000003')).toBe('The Drowned Expanse');
    expect(byId.get('00000000-0000-4000-a000-000000000004')).toBe('Hollowmere');
  });

  it('paginates with limit/offset without overlap', async () => {
    const all = (await t.gql(Q, { limit: 100 })).data!.featuredWorlds.map((w: { id: string }) => w.id);
    const p1 = (await t.gql(Q, { limit: 5, offset: 0 })).data!.featuredWorlds.map((w: { id: string }) => w.id);
    const p2 = (await t.gql(Q, { limit: 5, offset: 5 })).data!.featuredWorlds.map((w: { id: string }) => w.id);
    expect(p1).toEqual(all.slice(0, 5));
    expect(p2).toEqual(all.slice(5, 10));
  });

  it('filters by text and by genre for third parties', async () => {
    const cyber = (await t.gql(Q, { genre: 'cyberpunk' })).data!.featuredWorlds;
    expect(cyber.length).toBeGreaterThanOrEqual(1);
    expect(cyber.every((w: { genre: string }) => w.genre === 'cyberpunk')).toBe(true);
    const text = (await t.gql(Q, { search: 'aethermoor' })).data!.featuredWorlds;
    expect(text.map((w: { name: string }) => w.name)).toContain('Aethermoor');
  });

  it('refuses out-of-range pages with BAD_USER_INPUT', async () => {
    for (const v of [{ limit: 0 }, { limit: 101 }, { offset: -1 }]) {
      const r = await t.gql(Q, v);
      expect(r.errors?.[0].extensions?.code).toBe('BAD_USER_INPUT');
    }
  });
});
