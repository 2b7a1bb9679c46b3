// Shared by start/test: install what is missing and rebuild what is stale, using only Node built-ins
// (this runs before node_modules exists on a fresh clone).
import { spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/**
 * Node flags for the server process. On Node 22 the request scope (AsyncLocalStorage: the request id
 * on every log line) otherwise runs on async hooks, which call into every promise: ~30 µs of a signed-in
 * GraphQL read's ~160 µs (bench, 2026-11-27). `--experimental-async-context-frame` gives Node 22 the
 * implementation Node 24 uses by default (and what its image runs); Node 24 needs nothing.
 */
export const SERVER_NODE_FLAGS = process.versions.node.split('.')[0] === '22' ? ['--experimental-async-context-frame'] : [];

export function run(cmd, args, opts = {}) {
  const r = spawnSync(cmd, args, { cwd: ROOT, stdio: 'inherit', ...opts });
  if (r.status !== 0) {
    console.error(`\n✖ ${cmd} ${args.join(' ')} failed (exit ${r.status ?? r.signal})`);
    process.exit(r.status || 1);
  }
}

function mtime(p) {
  try {
    return fs.statSync(p).mtimeMs;
  } catch {
    return 0;
  }
}

/** Newest modification time of any file under the given paths (skipping node_modules and dist). */
export function newest(...paths) {
  let max = 0;
  const walk = (p) => {
    let st;
    try {
      st = fs.statSync(p);
    } catch {
      return;
    }
    if (st.isDirectory()) {
      for (const e of fs.readdirSync(p)) if (e !== 'node_modules' && e !== 'dist') walk(path.join(p, e));
    } else max = Math.max(max, st.mtimeMs);
  };
  for (const p of paths) walk(path.join(ROOT, p));
  return max;
}

/**
 * Installs when the manifests or the lock file changed since the last install (or never ran).
 * A fresh checkout gets `npm ci`: exactly the locked tree (the lock file carries every platform's
 * optional binaries, so npm ci accepts it anywhere). An existing tree whose manifests changed (a
 * developer added a package) gets `npm install`, which also updates the lock file.
 */
export function ensureInstalled() {
  const stamp = path.join(ROOT, 'node_modules', '.taleforge-install');
  const want = manifestHash();
  if (fs.existsSync(stamp) && fs.readFileSync(stamp, 'utf8') === want) return;
  const fresh = !fs.existsSync(path.join(ROOT, 'node_modules'));
  console.log(`Installing dependencies (${fresh ? 'npm ci' : 'npm install'})…`);
  run('npm', [fresh ? 'ci' : 'install', '--no-audit', '--no-fund']);
  // Hash again: npm install may have normalised the lock file itself.
  fs.writeFileSync(stamp, manifestHash());
}

/** What the installed tree depends on: the manifests and the lock file. */
function manifestHash() {
  const h = crypto.createHash('sha256');
  for (const f of ['package.json', 'package-lock.json', 'server/package.json', 'client/package.json']) {
    const p = path.join(ROOT, f);
    h.update(f).update(fs.existsSync(p) ? fs.readFileSync(p) : '');
  }
  return h.digest('hex');
}

function stampFresh(stamp, sources) {
  return mtime(stamp) > 0 && mtime(stamp) >= newest(...sources);
}

/** tsc for the server, vite for the client — each only when its sources changed since the last build. */
export function ensureBuilt({ force = false } = {}) {
  const serverStamp = path.join(ROOT, 'server', 'dist', '.build-stamp');
  if (force || !stampFresh(serverStamp, ['server/src', 'server/tsconfig.json', 'tsconfig.base.json', 'package-lock.json'])) {
    console.log('Building the server (tsc)…');
    run(process.execPath, [path.join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'server/tsconfig.json']);
    fs.writeFileSync(serverStamp, new Date().toISOString());
  }
  const clientStamp = path.join(ROOT, 'client', 'dist', '.build-stamp');
  if (
    force ||
    !stampFresh(clientStamp, ['client/src', 'client/index.html', 'client/graphiql.html', 'client/vite.config.ts', 'client/public', 'package-lock.json'])
  ) {
    console.log('Building the client (vite)…');
    run('npm', ['run', 'build', '-w', 'client']);
    fs.writeFileSync(clientStamp, new Date().toISOString());
  }
}
