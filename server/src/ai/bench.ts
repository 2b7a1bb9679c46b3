/**
 * `npm run bench:ai`: latency of the story AI layer.
 *
 * - offline chapter: full streamChapter → final result, over varied random worlds/actions/levels;
 * - offline time to first streamed chunk;
 * - OpenAI provider overhead: our time to first delta minus the fake server's own time to first
 *   token (request received → first SSE event written). The fake OpenAI-compatible server listens
 *   on 127.0.0.1 in a worker thread, so its work does not share our event loop. What remains is our
 *   cost: prompt and schema building, the SDK's request and SSE parsing, the JSON text extractor.
 */
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { OfflineStoryAI } from './offline/offline-story-ai';
import { Rng } from './offline/prng';
import { randomCharacter, randomWorld, SAMPLE_ACTIONS } from './offline/test-worlds';
import { FakeOpenAIServer, splitInto } from './openai/fake-openai-server';
import { OpenAIStoryAI } from './openai/openai-story-ai';
import type { ChapterInput } from './story-ai';

const FIRST_TOKEN_DELAY_MS = 25;
const BENCH_CHAPTER_JSON = JSON.stringify({
  text: `${'The lantern light swayed over the water as the boat slid into the harbour, and every face on the quay turned to watch. '.repeat(6)}\n\n${'Nobody spoke until the rope was tied. '.repeat(4)}`,
  choices: ['Step onto the quay', 'Call out to the harbourmaster', 'Stay in the boat'],
  statIncreases: [],
  newSetting: null,
  missionCompleted: false,
  newMission: null,
});

function pct(values: number[], p: number): number {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))] as number;
}

function inputs(n: number, seed: number): ChapterInput[] {
  const rng = new Rng(seed);
  return Array.from({ length: n }, (_, i) => {
    const w = randomWorld(rng);
    return {
      worldDescription: w.description,
      character: randomCharacter(rng),
      mission: `Recover the lost charter from ${w.names[1]}`,
      setting: null,
      summary: i % 2 ? 'Earlier, the hero crossed the river and met an old friend.' : '',
      recentChapters: i % 2 ? [{ text: 'The rain stopped. The gate creaked open and a stranger stepped through.', playerChoice: 'Wait by the gate' }] : [],
      chapterNumber: 1 + (i % 30),
      action: rng.pick(SAMPLE_ACTIONS),
      readingLevel: 1 + (i % 12),
      seed: i,
      maxContextTokens: 4000,
    };
  });
}

async function benchOffline(rows: string[][]): Promise<void> {
  const offline = new OfflineStoryAI();
  // Warm up JIT and caches so we measure steady state, as a running server would see it.
  for (const input of inputs(200, 1)) for await (const ev of offline.streamChapter(input)) void ev;

  const chapterMs: number[] = [];
  const firstChunkMs: number[] = [];
  for (const input of inputs(2000, 2)) {
    const t0 = performance.now();
    let first = 0;
    for await (const ev of offline.streamChapter(input)) if (ev.type === 'delta' && first === 0) first = performance.now() - t0;
    chapterMs.push(performance.now() - t0);
    firstChunkMs.push(first);
  }
  const p99Chapter = pct(chapterMs, 99);
  const p99First = pct(firstChunkMs, 99);
  rows.push([
    'offline chapter, full (2000 runs)',
    `${pct(chapterMs, 50).toFixed(3)} ms`,
    `${p99Chapter.toFixed(3)} ms`,
    p99Chapter < 20 ? 'OK: p99 < 20 ms' : 'MISSED: p99 < 20 ms',
  ]);
  rows.push([
    'offline time to first chunk',
    `${pct(firstChunkMs, 50).toFixed(3)} ms`,
    `${p99First.toFixed(3)} ms`,
    p99First < 10 ? 'OK: p99 < 10 ms' : 'MISSED: p99 < 10 ms',
  ]);

  const imgMs: number[] = [];
  for (let i = 0; i < 5; i++) {
    const t0 = performance.now();
    await offline.generateWorldImage({ worldDescription: inputs(1, 100 + i)[0]?.worldDescription ?? '', seed: i });
    imgMs.push(performance.now() - t0);
  }
  rows.push(['offline world image 1024×576 (5 runs)', `${pct(imgMs, 50).toFixed(1)} ms`, `${Math.max(...imgMs).toFixed(1)} ms (max)`, 'info']);
}

async function benchOpenAI(rows: string[][]): Promise<void> {
  const worker = new Worker(__filename, { workerData: { firstDelayMs: FIRST_TOKEN_DELAY_MS } });
  const serverTtft: number[] = [];
  let notify: (() => void) | null = null;
  const baseUrl = await new Promise<string>((resolve, reject) => {
    worker.on('error', reject);
    worker.on('message', (m: { type: 'ready'; url: string } | { type: 'timing'; ttft: number }) => {
      if (m.type === 'ready') resolve(m.url);
      else {
        serverTtft.push(m.ttft);
        notify?.();
      }
    });
  });
  const ai = new OpenAIStoryAI({ apiKey: 'bench', baseUrl, model: 'bench-model', timeoutMs: 10_000 });
  const overhead: number[] = [];
  const clientTtft: number[] = [];
  const warmup = 10;
  const runs = 200;
  for (let i = 0; i < warmup + runs; i++) {
    const input = inputs(1, 500 + i)[0] as ChapterInput;
    const t0 = performance.now();
    let first = 0;
    for await (const ev of ai.streamChapter(input)) if (ev.type === 'delta' && first === 0) first = performance.now();
    while (serverTtft.length <= i) await new Promise<void>((r) => (notify = r));
    if (i < warmup) continue; // connection pool, JIT
    clientTtft.push(first - t0);
    overhead.push(first - t0 - (serverTtft[i] as number));
  }
  await worker.terminate();
  const p50 = pct(overhead, 50);
  const p99 = pct(overhead, 99);
  rows.push([
    `openai provider TTFT (fake server ${FIRST_TOKEN_DELAY_MS} ms)`,
    `${pct(clientTtft, 50).toFixed(2)} ms`,
    `${pct(clientTtft, 99).toFixed(2)} ms`,
    'info',
  ]);
  rows.push([
    'openai provider overhead over server TTFT',
    `${p50.toFixed(2)} ms`,
    `${p99.toFixed(2)} ms`,
    p50 < 5 ? `OK: p50 < 5 ms${p99 < 5 ? ', p99 too' : ''}` : 'MISSED: p50 < 5 ms',
  ]);
}

async function main(): Promise<void> {
  const rows: string[][] = [];
  await benchOffline(rows);
  await benchOpenAI(rows);
  const head = ['measure', 'p50', 'p99', 'target'];
  const widths = head.map((h, c) => Math.max(h.length, ...rows.map((r) => r[c]?.length ?? 0)));
  const line = (r: string[]) => `| ${r.map((v, i) => v.padEnd(widths[i] ?? 0)).join(' | ')} |`;
  console.log(line(head));
  console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
  for (const r of rows) console.log(line(r));
  console.log(
    `\nnode ${process.version}, ${process.platform}/${process.arch}, load average ${(await import('node:os'))
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  );
}

/** Worker side: the fake OpenAI-compatible server, reporting its own time to first token. */
async function fakeServerWorker(): Promise<void> {
  const { firstDelayMs } = workerData as { firstDelayMs: number };
  const server = new FakeOpenAIServer();
  const url = await server.start();
  server.fallback = { kind: 'sse', pieces: splitInto(BENCH_CHAPTER_JSON, 24), firstDelayMs };
  server.onFirstByte = (rec) => parentPort?.postMessage({ type: 'timing', ttft: (rec.firstByteAt ?? rec.receivedAt) - rec.receivedAt });
  parentPort?.postMessage({ type: 'ready', url });
}

if (isMainThread) {
  main().catch((e: unknown) => {
    console.error(e);
    process.exit(1);
  });
} else {
  void fakeServerWorker();
}
