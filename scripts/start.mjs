// `npm start`: install what is missing, build what is stale, then run the server (which migrates,
// seeds and serves everything on one port). Signals go to the server, which shuts down cleanly.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { ROOT, SERVER_NODE_FLAGS, ensureBuilt, ensureInstalled } from './lib.mjs';

ensureInstalled();
ensureBuilt();

const child = spawn(process.execPath, [...SERVER_NODE_FLAGS, path.join(ROOT, 'server', 'dist', 'index.js')], { cwd: ROOT, stdio: 'inherit' });
// Signals sent to this wrapper alone (a supervisor's SIGTERM, `kill -INT`) are passed on to the server.
// A terminal's Ctrl-C reaches the whole process group, so the server also gets it directly (and npm
// forwards it once more): the server treats signals within a second of each other as one.
for (const sig of ['SIGINT', 'SIGTERM']) {
  process.on(sig, () => {
    if (child.exitCode === null) child.kill(sig);
  });
}
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
