// `npm run bench:web`: builds if needed, starts the built app (`node server/dist/index.js`, a fresh
// data folder, a free port), runs Lighthouse 12 on Debian's chromium against / and /worlds (the default
// mobile config, then the desktop config), prints performance score, FCP, LCP, TBT, CLS and total
// transfer size per page, and exits 1 when a page's mobile or desktop performance is under 95.
//
// Env: CHROME_PATH (default /usr/bin/chromium), LH_RUNS (runs per page and config, the median score
// counts; default 1), LH_DESKTOP=0 skips the desktop pass, LH_REPORT_DIR writes each run's JSON report,
// BENCH_WEB_URL audits an app that is already running there instead of building and starting one.
// A run that Lighthouse itself fails to trace (NO_NAVSTART and the like) is repeated, at most twice.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse, { desktopConfig } from 'lighthouse';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SERVER = path.join(ROOT, 'server', 'dist', 'index.js');
const CHROME = process.env.CHROME_PATH || '/usr/bin/chromium';
const RUNS = Math.max(1, Number(process.env.LH_RUNS || 1));
const DESKTOP = process.env.LH_DESKTOP !== '0';
const REPORT_DIR = process.env.LH_REPORT_DIR;
const TARGET = 95;
const PAGES = [
  ['landing', '/'],
  ['worlds', '/worlds'],
];
const CHROME_FLAGS = [
  '--headless=new',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

function freePort() {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

function startApp(dataDir, port) {
  const env = {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    NODE_ENV: 'production',
    // A benchmark has no Stripe: the demo checkout is allowed on purpose.
    LOCAL_CHECKOUT_DEMO: 'true',
    LOG_LEVEL: process.env.LOG_LEVEL || 'warn',
    DATA_DIR: dataDir,
    PUBLIC_URL: `http://127.0.0.1:${port}`,
  };
  const proc = spawn(process.execPath, [SERVER], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let exited = false;
  const exit = new Promise((r) => proc.on('exit', () => ((exited = true), r())));
  const stop = async () => {
    if (exited) return;
    proc.kill('SIGTERM');
    const timer = setTimeout(() => proc.kill('SIGKILL'), 20_000);
    await exit;
    clearTimeout(timer);
  };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      stop();
      reject(new Error(`the app did not start within 120 s:\n${out}`));
    }, 120_000);
    const onData = (d) => {
      out += d;
      if (/running at http:\/\/[^:\s]+:\d+/.test(out)) {
        clearTimeout(timer);
        resolve({ url: `http://127.0.0.1:${port}`, stop });
      }
    };
    proc.stdout.on('data', onData);
    proc.stderr.on('data', onData);
    proc.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the app exited with ${code}:\n${out}`));
    });
  });
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor((s.length - 1) / 2)];
};

// Lighthouse's own "Something went wrong with recording the trace … Please run Lighthouse again"
// failures: the trace, not the page, is at fault, so the run is repeated (twice at most, and said so).
const TRACE_ERRORS = new Set(['NO_NAVSTART', 'NO_TRACING_STARTED', 'NO_RESOURCE_REQUEST', 'NO_FCP', 'NO_LCP']);
const TRACE_RETRIES = 2;

async function audit(chrome, url, formFactor, label) {
  const config = formFactor === 'desktop' ? desktopConfig : undefined;
  const runs = [];
  for (let i = 0, retries = 0; i < RUNS; i++) {
    const result = await lighthouse(url, { port: chrome.port, output: 'json', logLevel: 'error', onlyCategories: ['performance'] }, config);
    const lhr = result?.lhr;
    if (!lhr) throw new Error(`Lighthouse returned nothing for ${url}`);
    if (lhr.runtimeError && TRACE_ERRORS.has(lhr.runtimeError.code) && retries < TRACE_RETRIES) {
      retries++;
      console.log(`  ${label} ${formFactor}: Lighthouse ${lhr.runtimeError.code} (trace recording), running again`);
      i--;
      continue;
    }
    if (lhr.runtimeError) throw new Error(`Lighthouse error on ${url}: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
    if (REPORT_DIR) {
      fs.mkdirSync(REPORT_DIR, { recursive: true });
      fs.writeFileSync(path.join(REPORT_DIR, `${label}-${formFactor}-${i + 1}.json`), result.report);
    }
    const a = lhr.audits;
    runs.push({
      score: Math.round((lhr.categories.performance.score ?? 0) * 100),
      fcp: a['first-contentful-paint'].numericValue,
      lcp: a['largest-contentful-paint'].numericValue,
      tbt: a['total-blocking-time'].numericValue,
      cls: a['cumulative-layout-shift'].numericValue,
      bytes: a['total-byte-weight'].numericValue,
      warnings: lhr.runWarnings ?? [],
    });
  }
  // The run with the median score stands for the page (LH_RUNS=1: the only run).
  const m = median(runs.map((r) => r.score));
  return { ...runs.find((r) => r.score === m), scores: runs.map((r) => r.score) };
}

async function main() {
  const external = process.env.BENCH_WEB_URL?.replace(/\/$/, '');
  const build = external ? { status: 0 } : spawnSync(process.execPath, [path.join(ROOT, 'scripts', 'build.mjs')], { cwd: ROOT, stdio: 'inherit' });
  if (build.status !== 0) throw new Error(`build failed (exit ${build.status ?? build.signal})`);
  if (!external && !fs.existsSync(SERVER)) throw new Error('server/dist/index.js is missing after the build');
  if (!fs.existsSync(CHROME)) throw new Error(`no browser at ${CHROME} (set CHROME_PATH)`);

  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'taleforge-bench-web-'));
  let app;
  let chrome;
  try {
    app = external ? { url: external, stop: async () => {} } : await startApp(dataDir, await freePort());
    const version = spawnSync(CHROME, ['--version'], { encoding: 'utf8' }).stdout.trim();
    chrome = await chromeLauncher.launch({ chromePath: CHROME, chromeFlags: CHROME_FLAGS, logLevel: 'silent' });
    // Warm the server (first requests pay for JIT and the database's first queries), not the browser.
    for (const [, p] of PAGES) await (await fetch(app.url + p)).text();

    console.log(
      `\nLighthouse ${(await import('lighthouse/package.json', { with: { type: 'json' } })).default.version} on ${version || CHROME}, app ${app.url}, ${RUNS} run(s) per page and form factor\n`,
    );
    const rows = [];
    for (const formFactor of DESKTOP ? ['mobile', 'desktop'] : ['mobile']) {
      for (const [label, p] of PAGES) {
        const r = await audit(chrome, app.url + p, formFactor, label);
        rows.push({ page: `${label} (${p})`, formFactor, ...r });
      }
    }

    const header = ['page', 'form factor', 'perf', 'FCP', 'LCP', 'TBT', 'CLS', 'transfer'];
    const table = rows.map((r) => [
      r.page,
      r.formFactor,
      RUNS > 1 ? `${r.score} [${r.scores.join(',')}]` : String(r.score),
      `${(r.fcp / 1000).toFixed(2)} s`,
      `${(r.lcp / 1000).toFixed(2)} s`,
      `${Math.round(r.tbt)} ms`,
      r.cls.toFixed(3),
      `${(r.bytes / 1024).toFixed(1)} KB`,
    ]);
    const widths = header.map((h, i) => Math.max(h.length, ...table.map((row) => row[i].length)));
    const line = (cells) => cells.map((c, i) => (i < 2 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
    console.log(line(header));
    console.log(widths.map((w) => '-'.repeat(w)).join('  '));
    for (const row of table) console.log(line(row));
    for (const r of rows) for (const w of r.warnings) console.log(`  warning (${r.page}, ${r.formFactor}): ${w}`);

    const failed = rows.filter((r) => r.score < TARGET);
    console.log('');
    if (failed.length) {
      for (const r of failed) console.log(`✖ ${r.page} ${r.formFactor}: performance ${r.score} < ${TARGET}`);
      process.exitCode = 1;
    } else console.log(`✔ performance ≥ ${TARGET} on every page and form factor`);
  } finally {
    try {
      chrome?.kill();
    } catch {
      // already gone
    }
    await app?.stop().catch(() => {});
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(process.exitCode ?? 0),
  (e) => {
    console.error(`bench:web failed: ${e?.stack ?? e}`);
    process.exit(1);
  },
);
