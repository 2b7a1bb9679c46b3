import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

/**
 * The GraphQL playground page (served at /graphiql): built after the app (client/package.json) into the
 * same dist/, on its own so that its large libraries (graphiql, codemirror, all of graphql) never
 * shape the app's chunks (vite.config.ts).
 */
export default defineConfig({
  root: here('.'),
  plugins: [react()],
  build: {
    outDir: here('dist'),
    emptyOutDir: false,
    target: 'es2022',
    // No inline scripts or styles may be needed at runtime (a CSP will forbid them).
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
    chunkSizeWarningLimit: 1024,
    rolldownOptions: { input: { graphiql: here('graphiql.html') } },
  },
});
