import fs from 'node:fs';
import path from 'node:path';
import { Worker } from 'node:worker_threads';

/**
 * A worker thread running the module `name` next to `dir`: the compiled `.js` when the caller is
 * compiled (`npm start`), or from TypeScript sources (the test runner) the same module compiled on load
 * with swc (a dev dependency, like the test runner's own transform). `callerFile` is the caller's
 * `__filename`, whose extension tells which.
 */
export function spawnModuleWorker(callerFile: string, name: string): Worker {
  const ext = path.extname(callerFile);
  const entry = path.join(path.dirname(callerFile), `${name}${ext}`);
  if (ext === '.js') return new Worker(entry);
  if (!fs.existsSync(entry)) throw new Error(`worker module not found: ${entry}`);
  const swc = require.resolve('@swc/core');
  return new Worker(
    `const fs = require('node:fs');
     const { workerData } = require('node:worker_threads');
     const swc = require(workerData.swc);
     require.extensions['.ts'] = (module, filename) => module._compile(
       swc.transformSync(fs.readFileSync(filename, 'utf8'), {
         filename, jsc: { parser: { syntax: 'typescript' }, target: 'es2022' }, module: { type: 'commonjs' },
       }).code,
       filename,
     );
     require(workerData.entry);`,
    { eval: true, workerData: { swc, entry } },
  );
}
