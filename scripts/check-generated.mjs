// CI check: schema.graphql and the client's limits and style defaults must match the code, and
// client/src/gql must match schema + operations.
// Regenerates both; fails (leaving the fresh files for you to commit) when either was stale.
import fs from 'node:fs';
import path from 'node:path';
import { ROOT, ensureBuilt, ensureInstalled, run } from './lib.mjs';

ensureInstalled();
ensureBuilt();
const files = ['schema.graphql', 'client/src/lib/limits.generated.ts', 'client/src/lib/styles.generated.ts', 'client/src/gql/graphql.ts'].map((f) =>
  path.join(ROOT, f),
);
const before = files.map((f) => (fs.existsSync(f) ? fs.readFileSync(f, 'utf8') : null));
run(process.execPath, [path.join(ROOT, 'server', 'dist', 'graphql', 'emit-schema.js')]);
run('npm', ['run', 'codegen', '--silent']);
const stale = files.filter((f, i) => fs.readFileSync(f, 'utf8') !== before[i]);
if (stale.length) {
  console.error(`✖ Stale generated files (regenerated now; commit them): ${stale.map((f) => path.relative(ROOT, f)).join(', ')}`);
  process.exit(1);
}
console.log('✔ schema.graphql, client/src/lib/{limits,styles}.generated.ts and client/src/gql are up to date.');
