import fs from 'node:fs';
import path from 'node:path';
import { startTestApp, type TestApp } from '../support/test-app';

/** The built client as a browser gets it: gzip for scripts, immutable caching for fingerprinted assets. */
const DIST = path.resolve(__dirname, '..', '..', 'client', 'dist', 'index.html');
const built = fs.existsSync(DIST);
if (!built) process.stderr.write('client-assets.test: client/dist is not built (npm test builds it); skipping\n');

(built ? describe : describe.skip)('client assets', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('serves the entry script gzip-compressed with a year of immutable caching, and index.html uncached', async () => {
    const index = await fetch(`${t.url}/worlds`, { headers: { 'accept-encoding': 'gzip' } });
    expect(index.status).toBe(200);
    expect(index.headers.get('cache-control')).toBe('no-cache');
    const html = await index.text();
    const src = /<script[^>]+src="([^"]+\.js)"/.exec(html)?.[1];
    expect(src).toBeDefined();
    const js = await fetch(`${t.url}${src}`, { headers: { 'accept-encoding': 'gzip' } });
    expect(js.status).toBe(200);
    expect(js.headers.get('content-encoding')).toBe('gzip');
    expect(js.headers.get('cache-control')).toContain('immutable');
    expect((await js.text()).length).toBeGreaterThan(1000);
  });
});
