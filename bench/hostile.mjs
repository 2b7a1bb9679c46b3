// `npm run bench:hostile`: what the security probe's overload attempts cost the built server now.
// Starts `node server/dist/index.js` (fresh embedded data folder, a free port), then for each attack
// prints how it was answered, its time, and /healthz latency while it ran (an event-loop stall shows
// there first):
//   - 4 parallel anonymous 7.8 MB `updateMissionHistory` bodies (issue 16, finding 5);
//   - 4 parallel copies of the 1.2 KB "15 aliases × myCharacters × storyline(limit: 200)" query
//     from a signed-in player (finding 4).
// Figures only: it fails nothing. Env: LOG_LEVEL (default warn).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SERVER = path.join(ROOT, 'server', 'dist', 'index.js');

function start() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'taleforge-hostile-'));
  const proc = spawn(process.execPath, [SERVER], {
    env: {
      ...process.env,
      PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      NODE_ENV: 'development',
      LOG_LEVEL: process.env.LOG_LEVEL || 'warn',
      RATE_LIMIT_PER_IP: '0',
      RATE_LIMIT_PER_USER: '0',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  return new Promise((resolve, reject) => {
    const onData = (d) => {
      out += d;
      const m = /running at http:\/\/localhost:(\d+)/.exec(out);
      if (m) resolve({ proc, dataDir, url: `http://127.0.0.1:${m[1]}` });
    };
    proc.stdout.on('data', onData);
    proc.stderr.on('data', onData);
    proc.on('exit', (code) => reject(new Error(`server exited with ${code}:\n${out}`)));
  });
}

/** Runs `attack` while probing /healthz every 20 ms; returns the attack's answers and the worst probe. */
async function underAttack(url, attack) {
  let worst = 0;
  let probing = true;
  const probes = (async () => {
    while (probing) {
      const t0 = performance.now();
      await fetch(`${url}/healthz`).then((r) => r.arrayBuffer());
      worst = Math.max(worst, performance.now() - t0);
      await new Promise((r) => setTimeout(r, 20));
    }
  })();
  const t0 = performance.now();
  const answers = await attack();
  const ms = performance.now() - t0;
  probing = false;
  await probes;
  return { answers, ms, worst };
}

const gql = (url, body, token) =>
  fetch(`${url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body,
  }).then(async (r) => ({ status: r.status, bytes: (await r.arrayBuffer()).byteLength }));

const { proc, dataDir, url } = await start();
try {
  const big = JSON.stringify({
    query: 'mutation($c: ID!, $m: [MissionHistoryEntryInput!]!) { updateMissionHistory(characterId: $c, missionHistory: $m) { id } }',
    variables: {
      c: '00000000-0000-4000-8000-000000000000',
      m: Array.from({ length: 24_000 }, (_, i) => ({ objective: `o${i} ${'x'.repeat(280)}`, status: 'active' })),
    },
  });
  const a = await underAttack(url, () => Promise.all([0, 1, 2, 3].map(() => gql(url, big))));
  console.log(
    `4 × anonymous ${(big.length / 1e6).toFixed(1)} MB bodies: statuses ${a.answers.map((x) => x.status).join(',')}, ${a.ms.toFixed(0)} ms, worst /healthz ${a.worst.toFixed(0)} ms`,
  );

  const email = `hostile.${Date.now()}@example.com`;
  const up = await fetch(`${url}/api/auth/v1/signup`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: 'a long hostile bench pass', data: { username: 'Hostile' } }),
  }).then((r) => r.json());
  const aliases = Array.from({ length: 15 }, (_, i) => `a${i}: myCharacters { storyline(limit: 200) { chapters { text choices index } } }`).join('\n');
  const amplify = JSON.stringify({ query: `query Amplify {\n${aliases}\n}` });
  const b = await underAttack(url, () => Promise.all([0, 1, 2, 3].map(() => gql(url, amplify, up.access_token))));
  console.log(
    `4 × the ${amplify.length} B amplification query: statuses ${b.answers.map((x) => x.status).join(',')}, answers ${b.answers.map((x) => x.bytes).join(',')} B, ${b.ms.toFixed(0)} ms, worst /healthz ${b.worst.toFixed(0)} ms`,
  );
} finally {
  proc.kill('SIGTERM');
  await new Promise((r) => proc.once('exit', r));
  fs.rmSync(dataDir, { recursive: true, force: true });
}
