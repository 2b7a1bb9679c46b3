// `npm run bench`: the app (the built server, as `npm start` runs it) and, in the same run, a raw Node
// http server answering the very same bytes, both loaded with autocannon (50 connections); prints
// each ratio against its target, then 1,000 live-credits WebSocket subscribers and how fast a
// credits event reaches them, and the SQL statements a community page costs. Exits 1 when a target is missed.
//
// Embedded PGlite by default (a fresh data folder); with DATABASE_URL (and REDIS_URL) it runs on
// those instead. BENCH_SECONDS changes the duration of each load (default 8).
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { createClient } from 'graphql-ws';
import { signUp, startApp } from './app-process.mjs';
import { communityStatements } from './community-sql.mjs';
import WebSocket from 'ws';

const SECONDS = Number(process.env.BENCH_SECONDS || 8);
const CONNECTIONS = 50;
const SUBSCRIBERS = 1000;
const PLAYERS = 50; // 20 sockets each: sign-ups hash passwords (argon2id), so 1,000 players would take a minute

const FEATURED = JSON.stringify({ query: 'query Bench_featured { featuredWorlds(limit: 12) { id name description questions imageUrl genre } }' });
const COMMUNITY = JSON.stringify({
  query:
    'query Bench_community { communityWorlds(limit: 12, sort: "played") { total worlds { id name description questions imageUrl genre author playCount likeCount } } }',
});
const ME = JSON.stringify({ query: 'query Bench_me { me { id username } credits }' });

async function main() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'taleforge-bench-'));
  const app = await startApp(dataDir);
  let raw;
  try {
    console.log(
      `Taleforge bench: app ${app.url} (${process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite'}${process.env.REDIS_URL ? ' + Redis' : ''}), ${CONNECTIONS} connections, ${SECONDS} s per load, ${os.cpus().length} CPUs\n`,
    );
    const token = (await signUp(app.url, 'bench')).accessToken;
    await shareWorlds(app.url, 24);
    const featured = await capture(app.url, FEATURED);
    const community = await capture(app.url, COMMUNITY);
    if (!community.body.includes('"author"')) throw new Error(`unexpected community answer: ${community.body.slice(0, 200)}`);
    const me = await capture(app.url, ME, token);
    if (!featured.body.includes('"featuredWorlds"') || !me.body.includes('"credits"'))
      throw new Error(`unexpected answers: ${featured.body.slice(0, 200)} / ${me.body.slice(0, 200)}`);
    raw = await startRaw({ '/featured': featured, '/community': community, '/me': me });

    const results = [];
    const run = async (name, url, body, headers) => {
      await load(url, body, headers, 2); // warm-up
      const r = await load(url, body, headers, SECONDS);
      results.push({ name, ...r });
      return r;
    };
    const rawFeatured = await run('raw: same bytes as featuredWorlds', `${raw.url}/featured`, FEATURED, {});
    const appFeatured = await run('app: featuredWorlds (public, anonymous)', `${app.url}/graphql`, FEATURED, {});
    const rawCommunity = await run('raw: same bytes as communityWorlds', `${raw.url}/community`, COMMUNITY, {});
    const appCommunity = await run('app: communityWorlds (public, anonymous)', `${app.url}/graphql`, COMMUNITY, {});
    const rawMe = await run('raw: same bytes as me + credits', `${raw.url}/me`, ME, {});
    const appMe = await run('app: me + credits (authenticated)', `${app.url}/graphql`, ME, { authorization: `Bearer ${token}` });

    console.log('load'.padEnd(44), 'req/s'.padStart(9), 'p50 ms'.padStart(8), 'p99 ms'.padStart(8), 'non-2xx'.padStart(8));
    for (const r of results)
      console.log(r.name.padEnd(44), r.rps.toFixed(0).padStart(9), String(r.p50).padStart(8), String(r.p99).padStart(8), String(r.non2xx).padStart(8));

    const checks = [];
    const fRatio = appFeatured.rps / rawFeatured.rps;
    checks.push([`featuredWorlds ${fRatio.toFixed(2)} of raw (target ≥ 0.50)`, fRatio >= 0.5]);
    checks.push([`featuredWorlds p99 ${appFeatured.p99} ms (target ≤ 25 ms)`, appFeatured.p99 <= 25]);
    const cRatio = appCommunity.rps / rawCommunity.rps;
    checks.push([`communityWorlds ${cRatio.toFixed(2)} of raw (target ≥ 0.50)`, cRatio >= 0.5]);
    checks.push([`communityWorlds p99 ${appCommunity.p99} ms (target ≤ 25 ms)`, appCommunity.p99 <= 25]);
    const mRatio = appMe.rps / rawMe.rps;
    checks.push([`me + credits ${mRatio.toFixed(2)} of raw (target ≥ 0.15)`, mRatio >= 0.15]);
    for (const r of results) if (r.non2xx > 0 || r.errors > 0) checks.push([`${r.name}: ${r.non2xx} non-2xx, ${r.errors} errors (target 0)`, false]);

    const sql = await communityStatements();
    console.log(
      `\ncommunity page, signed in, page cache dropped: ${sql.perSize.map((s) => `${s.limit} worlds → ${s.statements} SQL statements`).join(', ')}; the same page again → ${sql.repeat}; REST ${sql.perSize.at(-1).limit} worlds → ${sql.rest}`,
    );
    const constant = sql.perSize.every((s) => s.statements === sql.perSize[0].statements);
    checks.push([
      `community page SQL statements constant in page size (${sql.perSize.map((s) => s.statements).join(' / ')}; target: equal, ≤ 2: the page with its creators, the reader's likes)`,
      constant && sql.perSize[0].statements <= 2,
    ]);
    checks.push([
      `community page again (cached): ${sql.repeat} statement (the reader's likes), REST page: ${sql.rest} (targets 1 and 1)`,
      sql.repeat === 1 && sql.rest === 1,
    ]);

    const ws = await subscribers(app.url);
    console.log(
      `\n${SUBSCRIBERS} WebSocket subscribers (${PLAYERS} players × ${SUBSCRIBERS / PLAYERS}): connected in ${ws.connectMs} ms; one credits event per player, ${ws.latencies.length} deliveries`,
    );
    console.log(
      `  delivery after the spending request was sent: p50 ${pct(ws.latencies, 50)} ms, p99 ${pct(ws.latencies, 99)} ms, max ${pct(ws.latencies, 100)} ms`,
    );
    checks.push([
      `credits event to ${SUBSCRIBERS} subscribers p99 ${pct(ws.latencies, 99)} ms (target ≤ 100 ms)`,
      ws.latencies.length === SUBSCRIBERS && pct(ws.latencies, 99) <= 100,
    ]);

    console.log('');
    for (const [text, ok] of checks) console.log(`${ok ? 'PASS' : 'FAIL'}  ${text}`);
    process.exitCode = checks.every(([, ok]) => ok) ? 0 : 1;
  } finally {
    raw?.server.close();
    await app.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/** Shared worlds from a few players, so the community list has a page to serve (and authors to name). */
async function shareWorlds(url, n) {
  const makers = await Promise.all(Array.from({ length: 4 }, () => signUp(url, 'maker')));
  for (let i = 0; i < n; i++) {
    const token = makers[i % makers.length].accessToken;
    const post = async (query) => {
      const res = await fetch(`${url}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify({ query }),
      });
      const json = await res.json();
      if (json.errors) throw new Error(`sharing a bench world failed: ${JSON.stringify(json.errors)}`);
      return json.data;
    };
    const { submitWorld } = await post(
      `mutation { submitWorld(input: { name: "Shared Bench World ${i}", description: "A river town of mills and markets where every bridge has a toll and a story.", questions: ["Who are you?"] }) { id } }`,
    );
    await post(`mutation { setWorldShared(id: "${submitWorld.id}", shared: true) { id } }`);
  }
}

/** The app's full answer (status, headers, body), for the raw server to repeat byte for byte. */
async function capture(url, body, token) {
  const res = await fetch(`${url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body,
  });
  const headers = {};
  for (const [k, v] of res.headers) if (!['date', 'connection', 'keep-alive', 'transfer-encoding'].includes(k)) headers[k] = v;
  return { status: res.status, headers, body: await res.text() };
}

/** A plain node:http server: reads the request body, answers the captured bytes. The baseline. */
function startRaw(routes) {
  const prepared = Object.fromEntries(Object.entries(routes).map(([p, r]) => [p, { ...r, buf: Buffer.from(r.body) }]));
  const server = http.createServer((req, res) => {
    const r = prepared[req.url];
    req.on('data', () => undefined);
    req.on('end', () => {
      if (!r) return res.writeHead(404).end();
      res.writeHead(r.status, r.headers);
      res.end(r.buf);
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ server, url: `http://127.0.0.1:${server.address().port}` })));
}

function load(url, body, headers, duration) {
  return new Promise((resolve, reject) => {
    autocannon({ url, method: 'POST', connections: CONNECTIONS, duration, body, headers: { 'content-type': 'application/json', ...headers } }, (err, r) => {
      if (err) return reject(err);
      resolve({ rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, non2xx: r.non2xx, errors: r.errors + r.timeouts });
    });
  });
}

/** 1,000 graphql-ws subscriptions to subscriptionChanged; then each player spends once. */
async function subscribers(url) {
  const wsUrl = `${url.replace(/^http/, 'ws')}/graphql`;
  const players = [];
  for (let i = 0; i < PLAYERS; i += 10) players.push(...(await Promise.all(Array.from({ length: Math.min(10, PLAYERS - i) }, () => signUp(url, 'ws')))));
  const perPlayer = SUBSCRIBERS / PLAYERS;
  const clients = [];
  const waiting = new Map(); // player id → { sentAt, expected, pending: Set<sink> }
  const latencies = [];
  const started = Date.now();
  await Promise.all(
    players.flatMap((p) =>
      Array.from({ length: perPlayer }, () => {
        const client = createClient({
          url: wsUrl,
          webSocketImpl: WebSocket,
          connectionParams: { authorization: `Bearer ${p.accessToken}` },
          retryAttempts: 0,
          lazy: false,
        });
        clients.push(client);
        return new Promise((ready, fail) => {
          let first = true;
          client.subscribe(
            { query: 'subscription { subscriptionChanged { credits } }' },
            {
              next: (v) => {
                const credits = v.data?.subscriptionChanged?.credits;
                if (first) {
                  first = false;
                  return ready();
                }
                const w = waiting.get(p.user.id);
                if (w && credits === w.expected) latencies.push(performance.now() - w.sentAt);
              },
              error: fail,
              complete: () => undefined,
            },
          );
        });
      }),
    ),
  );
  const connectMs = Date.now() - started;
  await new Promise((r) => setTimeout(r, 300)); // let every subscription reach the event stream
  for (const p of players) {
    const before = await (
      await fetch(`${url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${p.accessToken}` }, body: ME })
    ).json();
    waiting.set(p.user.id, { sentAt: performance.now(), expected: before.data.credits - 3 });
    const res = await fetch(`${url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${p.accessToken}` },
      body: JSON.stringify({
        query: 'mutation($input: GenerateCharacterInput!) { generateCharacter(input: $input) { username } }',
        variables: {
          input: {
            worldDescription: 'A city of canals and clockwork, ruled by guilds.',
            questions: ['Who are you?'],
            answers: ['A smuggler'],
            username: 'Vell',
          },
        },
      }),
    });
    const json = await res.json();
    if (json.errors) throw new Error(`spend failed: ${JSON.stringify(json.errors)}`);
  }
  const until = Date.now() + 3000;
  while (latencies.length < SUBSCRIBERS && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
  await Promise.all(clients.map((c) => c.dispose()));
  return { connectMs, latencies };
}

function pct(values, p) {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return Math.round(sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] * 10) / 10;
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
