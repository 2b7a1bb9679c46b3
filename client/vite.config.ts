import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';
import { routeSizes } from './route-sizes';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));
const API = process.env.TALEFORGE_API_URL ?? 'http://localhost:4000';

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
  plugins: [react(), graphiqlDevRoute(), routeSizes()],
  build: {
    outDir: here('dist'),
    emptyOutDir: true,
    target: 'es2022',
    // No inline scripts or styles may be needed at runtime (a CSP will forbid them).
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
    rolldownOptions: {
      // Two pages: the app, and the GraphQL playground (served at /graphiql), bundled separately.
      input: { main: here('index.html'), graphiql: here('graphiql.html') },
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
