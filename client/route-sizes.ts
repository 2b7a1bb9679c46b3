import { gzipSync } from 'node:zlib';
import type { Plugin } from 'vite';

/** Route → the modules whose chunks it needs before it can render (besides the entry). */
const ROUTES: Record<string, string[]> = {
  '/': ['features/landing/LandingPage.tsx'],
  '/auth': ['apollo/client.ts', 'components/layout/ApolloLayout.tsx', 'features/auth/AuthPage.tsx'],
  '/worlds': ['apollo/client.ts', 'components/layout/ApolloLayout.tsx', 'features/worlds/WorldsPage.tsx'],
  '/worlds/new': ['apollo/client.ts', 'components/layout/ApolloLayout.tsx', 'features/create-world/CreateWorldPage.tsx'],
  '/characters': ['apollo/client.ts', 'components/layout/ApolloLayout.tsx', 'features/characters/CharactersPage.tsx'],
  '/storychat/:id': ['apollo/client.ts', 'components/layout/ApolloLayout.tsx', 'features/story/StoryPage.tsx'],
  '/support': ['apollo/client.ts', 'components/layout/ApolloLayout.tsx', 'features/support/SupportPage.tsx'],
  '/subscription': ['apollo/client.ts', 'components/layout/ApolloLayout.tsx', 'features/subscription/SubscriptionPage.tsx'],
  '/profile': ['apollo/client.ts', 'components/layout/ApolloLayout.tsx', 'features/profile/ProfilePage.tsx'],
};

interface ChunkInfo {
  fileName: string;
  code: string;
  imports: string[];
  facadeModuleId: string | null;
  isEntry: boolean;
  name: string;
}

/**
 * After `vite build`, prints each route's initial JavaScript (the entry, plus the lazy chunks the
 * route needs before it can render, with everything they import statically) in bytes and gzip, and
 * writes the same figures to dist/route-sizes.json.
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
      const rows: Array<{ route: string; files: number; bytes: number; gzip: number }> = [];
      for (const [route, modules] of Object.entries(ROUTES)) {
        const seen = new Set<string>();
        closure(entry, seen);
        for (const m of modules) {
          const chunk = chunks.find((c) => c.facadeModuleId?.replace(/\\/g, '/').endsWith(`/src/${m}`));
          if (chunk) closure(chunk, seen);
        }
        let bytes = 0;
        let gzip = 0;
        for (const f of seen) {
          const code = byFile.get(f)!.code;
          bytes += Buffer.byteLength(code);
          gzip += gzipSync(code, { level: 9 }).length;
        }
        rows.push({ route, files: seen.size, bytes, gzip });
      }
      const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
      const lines = ['', 'Initial JavaScript per route (entry + lazy chunks needed to render):'];
      for (const r of rows) lines.push(`  ${r.route.padEnd(16)} ${String(r.files).padStart(2)} files  ${kb(r.bytes).padStart(10)}  gzip ${kb(r.gzip).padStart(9)}`);
      console.log(lines.join('\n'));
      this.emitFile({ type: 'asset', fileName: 'route-sizes.json', source: `${JSON.stringify(rows, null, 2)}\n` });
    },
  };
}
