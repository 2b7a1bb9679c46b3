// `npm test`: every suite (server units, API, client, browser) in one jest run; exits non-zero on
// any failure. Extra arguments go to jest (e.g. `npm test -- --selectProjects api`).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { ROOT, ensureBuilt, ensureInstalled } from './lib.mjs';

ensureInstalled();
ensureBuilt();

const args = process.argv.slice(2);
const wantsBrowser = !args.includes('--selectProjects') || args.includes('e2e');
if (wantsBrowser) ensureChromium();

// --forceExit: every suite closes its apps in afterAll, but a failed test can leave background load
// running (a fault test's request loops); that must fail the run, never hang CI until its time limit.
const r = spawnSync(
  process.execPath,
  ['--experimental-vm-modules', '--no-warnings', path.join(ROOT, 'node_modules', 'jest', 'bin', 'jest.js'), '--forceExit', ...args],
  {
    cwd: ROOT,
    stdio: 'inherit',
    env: { ...process.env, NODE_ENV: 'test' },
  },
);
process.exit(r.status ?? 1);

/** The browser test drives Debian's chromium (Playwright cannot download browsers here). */
function ensureChromium() {
  const bin = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
  if (fs.existsSync(bin)) return;
  if (typeof process.getuid === 'function' && process.getuid() === 0) {
    console.log('Installing Debian chromium for the browser test (apt-get)…');
    const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
    for (const cmd of [
      ['apt-get', ['update', '-qq']],
      ['apt-get', ['install', '-y', '-qq', 'chromium']],
    ]) {
      const r = spawnSync(cmd[0], cmd[1], { stdio: 'inherit', env });
      if (r.status !== 0) fail(`${cmd[0]} ${cmd[1].join(' ')} failed`);
    }
    if (fs.existsSync(bin)) return;
  }
  fail(`The browser test needs Chromium at ${bin}. Install it (as root: apt-get install -y chromium) or set CHROMIUM_PATH.`);
}

function fail(msg) {
  console.error(`\n✖ ${msg}`);
  process.exit(1);
}
