// Shared by start/test: install what is missing and rebuild what is stale, using only Node built-ins
// (this runs before node_modules exists on a fresh clone).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

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
 * Installs when node_modules is missing or older than the lock file. `npm install`, not `npm ci`:
 * npm 11 writes lock files without the other platforms' optional binaries (@swc/core-darwin-*, …)
 * and `npm ci` then refuses the lock as out of sync; `npm install` keeps every locked version.
 */
export function ensureInstalled() {
  const marker = path.join(ROOT, 'node_modules', '.package-lock.json');
  if (mtime(marker) >= mtime(path.join(ROOT, 'package-lock.json')) && fs.existsSync(path.join(ROOT, 'node_modules', 'typescript'))) return;
  console.log('Installing dependencies (npm install)…');
  run('npm', ['install', '--no-audit', '--no-fund']);
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
  if (force || !stampFresh(clientStamp, ['client/src', 'client/index.html', 'client/graphiql.html', 'client/vite.config.ts', 'client/public', 'package-lock.json'])) {
    console.log('Building the client (vite)…');
    run('npm', ['run', 'build', '-w', 'client']);
    fs.writeFileSync(clientStamp, new Date().toISOString());
  }
}
