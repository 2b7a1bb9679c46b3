import react from '@vitejs/plugin-react';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import { defineConfig, type Plugin } from 'vite';
import { routeSizes } from './route-sizes';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));
const API = process.env.TALEFORGE_API_URL ?? 'http://localhost:4000';

// Chunk groups (see build.rolldownOptions.output.codeSplitting below). Each module lives in one chunk.
const src = (file: string) => new RegExp(`[\\\\/]client[\\\\/]src[\\\\/]${file.replace(/\//g, '[\\\\/]')}$`);
/** What every route renders through: the router, boot.tsx and the providers above the pages. */
const SHELL = [
  /node_modules[\\/](react-router|react-router-dom|cookie|set-cookie-parser)[\\/]/,
  src('boot.tsx'),
  src('router.tsx'),
  src('AppProviders.tsx'),
  src('features/auth/(AuthProvider.tsx|auth-context.ts|ProtectedRoute.tsx)'),
  src('apollo/apollo-loader.ts'),
  src('components/layout/PageLoader.tsx'),
];
/**
 * What the pages under the Apollo layout share: Apollo Client, the generated documents, the layout
 * (nav, footer, dialogs), the small shared modules, and the world card styles (a kilobyte: a
 * stylesheet of their own would cost /worlds one more request).
 */
const APOLLO = [
  /node_modules[\\/](@apollo[\\/]client|graphql|rxjs|optimism|@wry[\\/][^\\/]+|tslib)[\\/]/,
  src('gql/.+'),
  src('apollo/.+'),
  src('components/.+'),
  src('lib/.+'),
  src('features/subscription/subscription-(status|defaults).ts'),
  src('features/characters/(selected-character.ts|CharacterSheet.tsx|character-sheet.css)'),
  src('features/worlds/(prefetch.ts|worlds.css|world-image.css)'),
];
/**
 * Kept out of the groups: what the entry imports (a group holding it would become a static import of
 * the entry), and what loads on demand only (WebSocket subscriptions, the settings dialog).
 */
const UNGROUPED = [src('apollo/(ws-link|session-store).ts'), src('components/layout/SettingsDialog.tsx')];

/**
 * Writes `x.js.br` and `x.js.gz` (best compression) next to every script and stylesheet of the build:
 * the server sends them as they are (serveClient in server/src/app.ts) instead of gzipping each
 * response at a middling level.
 */
function precompress(): Plugin {
  const br = promisify(brotliCompress);
  const gz = promisify(gzip);
  return {
    name: 'taleforge-precompress',
    apply: 'build',
    async writeBundle(options, bundle) {
      const dir = options.dir ?? here('dist');
      const files = Object.keys(bundle).filter((f) => /\.(js|css)$/.test(f));
      await Promise.all(
        files.map(async (f) => {
          const out = bundle[f];
          const code = Buffer.from(out.type === 'chunk' ? out.code : out.source);
          if (code.length < 1024) return; // too small to gain anything
          const file = path.join(dir, f);
          await writeFile(`${file}.br`, await br(code, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: code.length } }));
          await writeFile(`${file}.gz`, await gz(code, { level: 9 }));
        }),
      );
    },
  };
}

/** In dev, serve the playground page at /graphiql like the server does in production. */
function graphiqlDevRoute(): Plugin {
  return {
    name: 'taleforge-graphiql-dev-route',
    configureServer(server) {
      server.middlewares.use((req, _res, next) => {
        if (req.url === '/graphiql' || req.url?.startsWith('/graphiql?')) req.url = req.url.replace('/graphiql', '/graphiql.html');
        next();
      });
    },
  };
}

export default defineConfig({
  root: here('.'),
  plugins: [react(), graphiqlDevRoute(), routeSizes(), precompress()],
  build: {
    outDir: here('dist'),
    emptyOutDir: true,
    target: 'es2022',
    // No inline scripts or styles may be needed at runtime (a CSP will forbid them).
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
    rolldownOptions: {
      // The app. The GraphQL playground (/graphiql) is built on its own (vite.graphiql.config.ts), so
      // its large libraries never shape the app's chunks.
      input: { main: here('index.html') },
      output: {
        // Few, larger chunks: the server speaks HTTP/1.1 (six connections per origin, each one request
        // at a time), so on a slow phone network every extra chunk costs about a round trip. Left to
        // itself rolldown splits out a chunk per set of importers (two dozen files for /worlds, and it
        // named the one holding React after Vite's preload helper); with these groups /worlds needs six.
        // The entry (main.tsx) imports no group chunk, so it stays a few KB and runs one round trip
        // after the HTML.
        codeSplitting: {
          includeDependenciesRecursively: false,
          groups: [
            // React on its own: every page needs it, and it changes only on upgrades (long cache life).
            { name: 'react', test: /node_modules[\\/](react|react-dom|scheduler)[\\/]/, priority: 3 },
            { name: 'shell', test: (id) => SHELL.some((re) => re.test(id)), priority: 2 },
            { name: 'apollo', test: (id) => APOLLO.some((re) => re.test(id)) && !UNGROUPED.some((re) => re.test(id)), priority: 1 },
          ],
        },
      },
    },
  },
  server: {
    proxy: {
      '/graphql': { target: API, changeOrigin: true, ws: true },
      '/api': { target: API, changeOrigin: true },
      '/media': { target: API, changeOrigin: true },
    },
  },
});
