// The built server as `npm start` runs it (production mode, a fresh data folder), for the scripts that
// drive the real API: `npm run bench` and `npm run lint:story`.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { SERVER_NODE_FLAGS } from '../scripts/lib.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SERVER = path.join(ROOT, 'server', 'dist', 'index.js');

/** Starts the app on a free port; resolves with its URL, its process id and a stop(). `env` adds to the defaults. */
export function startApp(dataDir, env = {}) {
  if (!fs.existsSync(SERVER)) throw new Error('server/dist is missing: run `npm run build` first');
  const full = {
    ...process.env,
    PORT: '0',
    HOST: '127.0.0.1',
    NODE_ENV: 'production',
    // No Stripe here: the demo checkout is allowed on purpose.
    LOCAL_CHECKOUT_DEMO: 'true',
    LOG_LEVEL: process.env.LOG_LEVEL || 'warn',
    DATA_DIR: dataDir,
    // The limits stay on (their cost is part of a benchmark's figure), set high enough not to trip.
    RATE_LIMIT_PER_IP: '1000000000',
    RATE_LIMIT_PER_USER: '1000000000',
    SIGNUP_CREDITS: '100',
    // With REDIS_URL: counters of this run only, never a deployment's or the tests' windows.
    RATE_LIMIT_KEY_PREFIX: `taleforge:rl:bench:${Date.now().toString(36)}:`,
    AUTH_RATE_LIMIT_PER_IP: '100000',
    ...env,
  };
  const proc = spawn(process.execPath, [...SERVER_NODE_FLAGS, SERVER], { env: full, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  const exited = new Promise((r) => proc.on('exit', r));
  return new Promise((resolve, reject) => {
    const onData = (d) => {
      out += d;
      const m = /running at http:\/\/localhost:(\d+)/.exec(out);
      if (m) resolve({ url: `http://127.0.0.1:${m[1]}`, pid: proc.pid, stop: async () => (proc.kill('SIGTERM'), exited) });
    };
    proc.stdout.on('data', onData);
    proc.stderr.on('data', onData);
    proc.on('exit', (code) => reject(new Error(`the app exited with ${code}:\n${out}`)));
  });
}

/** A new player (GraphQL signUp); resolves with { accessToken, user: { id } }. */
export async function signUp(url, prefix) {
  const tag = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;
  const res = await fetch(`${url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      query: 'mutation($input: SignUpInput!) { signUp(input: $input) { accessToken user { id } } }',
      variables: { input: { email: `${prefix}.${tag}@example.com`, username: `${prefix} ${tag}`, password: `correct horse ${tag}` } },
    }),
  });
  const json = await res.json();
  if (!json.data) throw new Error(`sign-up failed: ${JSON.stringify(json.errors)}`);
  return json.data.signUp;
}
