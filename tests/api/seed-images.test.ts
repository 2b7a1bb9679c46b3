import { createApp, type App } from '../../server/src/app';
import { loadConfig } from '../../server/src/config/env';

/**
 * createApp seeds featured worlds with the storyteller's procedural art by default. Runs on a fresh
 * in-memory PGlite (the shared PostgreSQL of a DATABASE_URL run is already seeded, so there the
 * default could not be observed).
 */
const usePg = Boolean(process.env.DATABASE_URL);
(usePg ? describe.skip : describe)('default featured-world images', () => {
  let app: App;
  let url: string;
  beforeAll(async () => {
    const config = loadConfig({ ...process.env, NODE_ENV: 'test', LOG_LEVEL: 'silent', DATABASE_URL: '' }, { databaseInMemory: true });
    app = await createApp(config);
    url = `http://127.0.0.1:${await app.listen(0, '127.0.0.1')}`;
  }, 60_000);
  afterAll(() => app?.close());

  it('every seeded featured world has an image, served as a JPEG, and the same world always gets the same picture', async () => {
    const res = await fetch(`${url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ featuredWorlds(limit: 100) { id imageUrl } }' }),
    });
    const worlds = ((await res.json()) as { data: { featuredWorlds: Array<{ id: string; imageUrl: string | null }> } }).data.featuredWorlds;
    expect(worlds.length).toBeGreaterThanOrEqual(12);
    expect(worlds.every((w) => w.imageUrl !== null)).toBe(true);
    const img = await fetch(`${url}${worlds[0].imageUrl}`);
    expect(img.headers.get('content-type')).toBe('image/jpeg');
    const bytes = Buffer.from(await img.arrayBuffer());
    expect(bytes.subarray(0, 3)).toEqual(Buffer.from([0xff, 0xd8, 0xff]));
    const { proceduralSeedImage } = await import('../../server/src/modules/worlds/seed-images');
    const { FEATURED_WORLDS } = await import('../../server/src/db/seed-data');
    const again = await proceduralSeedImage(FEATURED_WORLDS.find((w) => w.id === worlds[0].id)!);
    expect(again.bytes.equals(bytes)).toBe(true);
    // Distinct worlds get distinct pictures.
    const hashes = await app.db.dataSource.query(`SELECT count(DISTINCT m.sha256)::int AS n FROM worlds w JOIN media m ON m.id = w.image_media_id WHERE w.featured`);
    expect(hashes[0].n).toBe(worlds.length);
  });
});
