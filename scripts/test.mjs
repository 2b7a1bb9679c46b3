// `npm test`: every suite (server units, API, client, browser) in one jest run on parallel workers;
// exits non-zero on any failure. Extra arguments go to jest (e.g. `npm test -- --selectProjects api`).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ROOT, ensureBuilt, ensureInstalled } from './lib.mjs';

ensureInstalled();
ensureBuilt();

const args = process.argv.slice(2);
const wantsBrowser = !args.includes('--selectProjects') || args.includes('e2e');
if (wantsBrowser) ensureChromium();

// Parallel workers: most suites wait on I/O (servers they start, PGlite's thread, the browser, a
// page's animations), so two more workers than cores keep both cores busy (on 2 cores, quiet: 341 s
// with 4 workers, 362 s with 3); capped, since each worker holds apps, databases and browser pages.
// Suites never collide: ports are chosen by the OS, data folders are temporary, every test file has its
// own database (tests/support/database-environment.js) and its own rate-limit keys in Redis.
const workers = Math.min(os.availableParallelism() + 2, 4);
const chooses = args.some((a) => /^(-i|--runInBand|-w|--maxWorkers)(=|$)/.test(a));
const withWorkers = chooses ? [] : [`--maxWorkers=${workers}`];

// Suites that restart the machine's PostgreSQL and Redis (they run only when DATABASE_URL and
// REDIS_URL point at them) would cut every other worker's connections: they run alone, afterwards.
const EXCLUSIVE = ['tests/api/faults.test.ts'];
const onServices = Boolean(process.env.DATABASE_URL && process.env.REDIS_URL);
const wantsApi = !args.includes('--selectProjects') || args.includes('api');
const namesFiles = args.some((a) => !a.startsWith('-') && /[/.]/.test(a));
const runs =
  onServices && wantsApi && !namesFiles
    ? [
        [...args, ...withWorkers, `--testPathIgnorePatterns=${EXCLUSIVE.map(escape).join('|')}`],
        [...EXCLUSIVE, '--runInBand', '--selectProjects', 'api'],
      ]
    : [[...args, ...withWorkers]];

let status = 0;
for (const run of runs) {
  // --forceExit: every suite closes its apps in afterAll, but a failed test can leave background load
  // running (a fault test's request loops); that must fail the run, never hang CI until its time limit.
  const r = spawnSync(
    process.execPath,
    ['--experimental-vm-modules', '--no-warnings', path.join(ROOT, 'node_modules', 'jest', 'bin', 'jest.js'), '--forceExit', ...run],
    {
      cwd: ROOT,
      stdio: 'inherit',
      env: { ...process.env, NODE_ENV: 'test' },
    },
  );
  if (r.status !== 0) status = r.status ?? 1;
}
process.exit(status);

function escape(s) {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

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
