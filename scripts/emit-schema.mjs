// `npm run schema:emit`: rebuild the server if needed, then print the schema from code to schema.graphql.
import path from 'node:path';
import { ROOT, ensureBuilt, run } from './lib.mjs';

ensureBuilt();
run(process.execPath, [path.join(ROOT, 'server', 'dist', 'graphql', 'emit-schema.js')]);
