import { gzipSync } from 'node:zlib';
import type { Plugin } from 'vite';

/**
 * Route → the modules whose chunks it needs before it can render, besides the entry: boot.tsx (React,
 * the router) and the route's page, plus off the landing page the app layout and the Apollo client.
 */
const APOLLO = ['apollo/client.ts', 'components/layout/ApolloLayout.tsx'];
const ROUTES: Record<string, string[]> = {
  '/': ['boot.tsx', 'features/landing/LandingPage.tsx'],
  '/auth': ['boot.tsx', ...APOLLO, 'features/auth/AuthPage.tsx'],
  '/reset-password': ['boot.tsx', ...APOLLO, 'features/auth/ResetPasswordPage.tsx'],
  '/worlds': ['boot.tsx', ...APOLLO, 'features/worlds/WorldsPage.tsx', 'features/worlds/prefetch.ts'],
  '/worlds/new': ['boot.tsx', ...APOLLO, 'features/create-world/CreateWorldPage.tsx'],
  '/characters': ['boot.tsx', ...APOLLO, 'features/characters/CharactersPage.tsx'],
  '/storychat/:id': ['boot.tsx', ...APOLLO, 'features/story/StoryPage.tsx'],
  '/support': ['boot.tsx', ...APOLLO, 'features/support/SupportPage.tsx'],
  '/subscription': ['boot.tsx', ...APOLLO, 'features/subscription/SubscriptionPage.tsx'],
  '/subscription/manage': ['boot.tsx', ...APOLLO, 'features/subscription/ManageSubscriptionPage.tsx'],
  '/profile': ['boot.tsx', ...APOLLO, 'features/profile/ProfilePage.tsx'],
  '/report/story/:id': ['boot.tsx', ...APOLLO, 'features/report/ReportPage.tsx'],
};

interface ChunkInfo {
  fileName: string;
  code: string;
  imports: string[];
  moduleIds: string[];
  isEntry: boolean;
  name: string;
  viteMetadata?: { importedCss: Set<string> };
}

/** What the server adds to index.html for a route (server/src/app.ts serveClient): its chunks and CSS. */
export interface RoutePreload {
  route: string;
  modulepreload: string[];
  stylesheet: string[];
}

/**
 * After `vite build`, prints each route's initial JavaScript (the entry, plus the lazy chunks the
 * route needs before it can render, with everything they import statically) in bytes and gzip, and
 * writes the same figures to dist/route-sizes.json. Also writes dist/route-preloads.json: per route,
 * the chunks and stylesheets beyond those index.html already loads, which the server announces in the
 * page's <head> so the browser fetches them alongside the entry instead of after it has run.
 */
export function routeSizes(): Plugin {
  return {
    name: 'taleforge-route-sizes',
    apply: 'build',
    generateBundle(_options, bundle) {
      const chunks = Object.values(bundle).filter((c): c is typeof c & ChunkInfo => c.type === 'chunk') as unknown as ChunkInfo[];
      const byFile = new Map(chunks.map((c) => [c.fileName, c]));
      const entry = chunks.find((c) => c.isEntry && c.name === 'main');
      if (!entry) return;
      const closure = (start: ChunkInfo, seen: Set<string>) => {
        const stack = [start];
        while (stack.length) {
          const c = stack.pop()!;
          if (seen.has(c.fileName)) continue;
          seen.add(c.fileName);
          for (const i of c.imports) {
            const next = byFile.get(i);
            if (next) stack.push(next);
          }
        }
      };
      // The chunk groups (vite.config.ts) place modules by hand; a static import cycle between chunks
      // would make module evaluation order depend on which chunk loads first. Refuse to ship one.
      const onPath: string[] = [];
      const done = new Set<string>();
      const visit = (c: ChunkInfo) => {
        if (done.has(c.fileName)) return;
        if (onPath.includes(c.fileName)) this.error(`chunk import cycle: ${[...onPath.slice(onPath.indexOf(c.fileName)), c.fileName].join(' → ')}`);
        onPath.push(c.fileName);
        for (const i of c.imports) if (byFile.has(i)) visit(byFile.get(i)!);
        onPath.pop();
        done.add(c.fileName);
      };
      chunks.forEach(visit);

      const css = (files: Iterable<string>) => new Set([...files].flatMap((f) => [...(byFile.get(f)?.viteMetadata?.importedCss ?? [])]));
      const inIndexHtml = new Set<string>();
      closure(entry, inIndexHtml);
      const indexCss = css(inIndexHtml);

      const rows: Array<{ route: string; files: number; bytes: number; gzip: number }> = [];
      const preloads: RoutePreload[] = [];
      for (const [route, modules] of Object.entries(ROUTES)) {
        const seen = new Set<string>();
        closure(entry, seen);
        for (const m of modules) {
          // The chunk holding the module (a page's own chunk, or a group chunk: see vite.config.ts).
          const chunk = chunks.find((c) => c.moduleIds.some((id) => id.replace(/\\/g, '/').endsWith(`/src/${m}`)));
          if (!chunk) this.error(`route-sizes: no chunk contains src/${m} (renamed? update ROUTES)`);
          closure(chunk, seen);
        }
        let bytes = 0;
        let gzip = 0;
        for (const f of seen) {
          const code = byFile.get(f)!.code;
          bytes += Buffer.byteLength(code);
          gzip += gzipSync(code, { level: 9 }).length;
        }
        rows.push({ route, files: seen.size, bytes, gzip });
        // Largest first: on HTTP/1.1 the first requests get the connections, and big files take longest.
        const js = [...seen].filter((f) => !inIndexHtml.has(f)).sort((a, b) => byFile.get(b)!.code.length - byFile.get(a)!.code.length);
        preloads.push({
          route,
          modulepreload: js.map((f) => `/${f}`),
          stylesheet: [...css(seen)].filter((f) => !indexCss.has(f)).map((f) => `/${f}`),
        });
      }
      const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
      const lines = ['', 'Initial JavaScript per route (entry + lazy chunks needed to render):'];
      for (const r of rows)
        lines.push(`  ${r.route.padEnd(16)} ${String(r.files).padStart(2)} files  ${kb(r.bytes).padStart(10)}  gzip ${kb(r.gzip).padStart(9)}`);
      console.log(lines.join('\n'));
      this.emitFile({ type: 'asset', fileName: 'route-sizes.json', source: `${JSON.stringify(rows, null, 2)}\n` });
      this.emitFile({ type: 'asset', fileName: 'route-preloads.json', source: `${JSON.stringify(preloads, null, 2)}\n` });
    },
  };
}
