// `npm start`: install what is missing, build what is stale, then run the server (which migrates,
// seeds and serves everything on one port). Signals go to the server, which shuts down cleanly.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { ROOT, ensureBuilt, ensureInstalled } from './lib.mjs';

ensureInstalled();
ensureBuilt();

const child = spawn(process.execPath, [path.join(ROOT, 'server', 'dist', 'index.js')], { cwd: ROOT, stdio: 'inherit' });
// Ctrl-C reaches the whole process group; the server handles it, we just wait for it to finish.
for (const sig of ['SIGINT', 'SIGTERM']) {
  process.on(sig, () => {
    if (child.exitCode === null) child.kill(sig);
  });
}
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
