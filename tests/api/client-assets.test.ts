import fs from 'node:fs';
import os from 'node:os';
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

  it('serves scripts Brotli-compressed when the browser takes it (gzip otherwise), from the build', async () => {
    const html = await (await fetch(`${t.url}/`)).text();
    const src = /<script[^>]+src="([^"]+\.js)"/.exec(html)![1];
    const plain = await fetch(`${t.url}${src}`, { headers: { 'accept-encoding': 'identity' } });
    const body = await plain.text();
    for (const [accept, encoding] of [
      ['gzip, deflate, br, zstd', 'br'],
      ['gzip', 'gzip'],
      ['br;q=0, gzip', 'gzip'],
    ]) {
      // fetch decodes the body; the headers say what travelled.
      const res = await fetch(`${t.url}${src}`, { headers: { 'accept-encoding': accept } });
      expect([accept, res.headers.get('content-encoding')]).toEqual([accept, encoding]);
      expect(res.headers.get('content-type')).toMatch(/^text\/javascript/);
      expect(res.headers.get('vary')).toMatch(/Accept-Encoding/i);
      expect(res.headers.get('cache-control')).toContain('immutable');
      expect(await res.text()).toBe(body);
    }
  });

  it("announces each route's chunks and stylesheets in its HTML, so they load alongside the entry", async () => {
    const html = await (await fetch(`${t.url}/worlds`)).text();
    const preloads = [...html.matchAll(/<link rel="modulepreload" crossorigin href="([^"]+)">/g)].map((m) => m[1]);
    const styles = [...html.matchAll(/<link rel="stylesheet" crossorigin href="([^"]+)">/g)].map((m) => m[1]);
    expect(preloads.some((href) => /\/assets\/WorldsPage-[\w-]+\.js$/.test(href))).toBe(true);
    expect(styles.length).toBeGreaterThan(1); // the global one and the app layout's
    for (const href of [...preloads, ...styles]) expect((await fetch(`${t.url}${href}`)).status).toBe(200);
    // Other routes get their own list; paths no route matches get the plain page.
    expect(await (await fetch(`${t.url}/`)).text()).not.toContain('WorldsPage-');
    expect(await (await fetch(`${t.url}/storychat/some-id`)).text()).toMatch(/StoryPage-[\w-]+\.js/);
    expect(await (await fetch(`${t.url}/no-such-page`)).text()).not.toContain('rel="modulepreload"');
  });

  it('serves the playground, the pages and the assets from an install under a dot folder (a clone in ~/.cache/…)', async () => {
    const home = fs.mkdtempSync(path.join(os.tmpdir(), 'taleforge-dot-'));
    const dist = path.join(home, '.cache', 'taleforge', 'client', 'dist');
    fs.cpSync(path.dirname(DIST), dist, { recursive: true });
    const dotted = await startTestApp({ clientDistDir: dist });
    try {
      const playground = await fetch(`${dotted.url}/graphiql`);
      expect(playground.status).toBe(200);
      expect(await playground.text()).toContain('<div id="graphiql"');
      const html = await (await fetch(`${dotted.url}/worlds`)).text();
      const src = /<script[^>]+src="([^"]+\.js)"/.exec(html)![1];
      expect((await fetch(`${dotted.url}${src}`)).status).toBe(200);
    } finally {
      await dotted.close();
      fs.rmSync(home, { recursive: true, force: true });
    }
  });
});
