/**
 * `npm run bench:ai`: latency of the story AI layer.
 *
 * - offline chapter: full streamChapter → final result, over varied random worlds/actions/levels;
 * - offline time to first streamed chunk;
 * - OpenAI provider overhead: our time to first delta minus the fake server's own time to first
 *   token (request received → first SSE event written). The fake OpenAI-compatible server listens
 *   on 127.0.0.1 in a worker thread, so its work does not share our event loop. What remains is our
 *   cost: prompt and schema building, the SDK's request and SSE parsing, the JSON text extractor.
 * - per server behaviour (what real servers do: think blocks with braces, reasoning_content, fences
 *   and preambles, a 400 to json_schema, off-schema fields, a slow model at 3 s to first token and
 *   20 tokens/s): time to the first text the player sees, and its overhead over the server's first
 *   token (a think block's own duration included: the model writes it before the answer).
 */
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { OfflineStoryAI } from './offline/offline-story-ai';
import { Rng } from './offline/prng';
import { randomCharacter, randomWorld, SAMPLE_ACTIONS } from './offline/test-worlds';
import { FakeOpenAIServer, splitInto } from './openai/fake-openai-server';
import { OpenAIStoryAI } from './openai/openai-story-ai';
import type { Script } from './openai/fake-openai-server';
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

/** A chapter's JSON as a model streams it: ~4 characters a token, so `tokensPerSecond` sets the gap. */
function streamed(content: string, tokensPerSecond: number, firstDelayMs: number, extra: Partial<Extract<Script, { kind: 'sse' }>> = {}): Script {
  const pieceChars = 12;
  return { kind: 'sse', pieces: splitInto(content, pieceChars), firstDelayMs, gapMs: Math.round((pieceChars / 4 / tokensPerSecond) * 1000), ...extra };
}

const SLOPPY_CHAPTER_JSON = JSON.stringify({
  ...(JSON.parse(BENCH_CHAPTER_JSON) as Record<string, unknown>),
  choices: ['Step onto the quay', 'step onto the quay', 'Call out', 'Stay', 'Swim', 'Sing'],
  statIncreases: [{ stat: 'Wisdom', amount: '2' }],
  missionCompleted: 'false',
});
const THINK = '<think>The player wants a harbour scene. JSON like {"text": "…"} with {choices}. Keep it short.</think>\n';

const BEHAVIOURS: Array<{ name: string; script: Script; rejectJsonSchema?: boolean; runs: number }> = [
  { name: 'well-behaved', script: streamed(BENCH_CHAPTER_JSON, 400, FIRST_TOKEN_DELAY_MS), runs: 30 },
  { name: 'think block with braces', script: streamed(THINK + BENCH_CHAPTER_JSON, 400, FIRST_TOKEN_DELAY_MS), runs: 30 },
  { name: 'reasoning_content first', script: streamed(BENCH_CHAPTER_JSON, 400, FIRST_TOKEN_DELAY_MS, { reasoning: ['Planning {', 'the scene}'] }), runs: 30 },
  { name: 'fence + preamble', script: streamed('Sure! Here it is:\n```json\n' + BENCH_CHAPTER_JSON + '\n```', 400, FIRST_TOKEN_DELAY_MS), runs: 30 },
  { name: '400 on json_schema (JSON mode only)', script: streamed(BENCH_CHAPTER_JSON, 400, FIRST_TOKEN_DELAY_MS), rejectJsonSchema: true, runs: 30 },
  { name: 'off-schema fields (repaired locally)', script: streamed(SLOPPY_CHAPTER_JSON, 400, FIRST_TOKEN_DELAY_MS), runs: 30 },
  { name: 'slow: 3 s to first token, 20 tokens/s', script: streamed(BENCH_CHAPTER_JSON, 20, 3000), runs: 5 },
];

async function benchBehaviours(rows: string[][]): Promise<void> {
  const worker = new Worker(__filename, { workerData: { firstDelayMs: FIRST_TOKEN_DELAY_MS } });
  const serverTtft: number[] = [];
  let notify: (() => void) | null = null;
  const baseUrl = await new Promise<string>((resolve, reject) => {
    worker.on('error', reject);
    worker.on('message', (m: { type: 'ready'; url: string } | { type: 'timing'; ttft: number } | { type: 'set' }) => {
      if (m.type === 'ready') resolve(m.url);
      else if (m.type === 'timing') serverTtft.push(m.ttft);
      notify?.();
    });
  });
  let model = 0;
  for (const b of BEHAVIOURS) {
    await new Promise<void>((r) => {
      notify = r;
      worker.postMessage({ type: 'set', script: b.script, rejectJsonSchema: Boolean(b.rejectJsonSchema) });
    });
    // A model of its own per behaviour: the JSON mode learned from a 400 is remembered per model.
    const ai = new OpenAIStoryAI({ apiKey: 'bench', baseUrl, model: `bench-${++model}`, timeoutMs: 10_000 });
    const visible: number[] = [];
    const overhead: number[] = [];
    for (let i = 0; i < b.runs; i++) {
      const before = serverTtft.length;
      const t0 = performance.now();
      let first = 0;
      for await (const ev of ai.streamChapter(inputs(1, 900 + i)[0] as ChapterInput)) if (ev.type === 'delta' && first === 0) first = performance.now() - t0;
      while (serverTtft.length <= before) await new Promise<void>((r) => (notify = r));
      visible.push(first);
      overhead.push(first - (serverTtft[serverTtft.length - 1] as number));
    }
    const slow = b.name.startsWith('slow');
    const p95 = pct(visible, 95);
    rows.push([
      `first visible text: ${b.name} (${b.runs} runs)`,
      `${pct(visible, 50).toFixed(1)} ms`,
      `${p95.toFixed(1)} ms (p95); overhead p50 ${pct(overhead, 50).toFixed(1)} ms`,
      slow ? (p95 < 3500 ? 'OK: p95 < 3.5 s' : 'MISSED: p95 < 3.5 s') : 'info',
    ]);
  }
  await worker.terminate();
}

async function main(): Promise<void> {
  const rows: string[][] = [];
  await benchOffline(rows);
  await benchOpenAI(rows);
  await benchBehaviours(rows);
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
  parentPort?.on('message', (m: { type: 'set'; script: Script; rejectJsonSchema: boolean }) => {
    server.fallback = m.script;
    server.rejectJsonSchema = m.rejectJsonSchema;
    parentPort?.postMessage({ type: 'set' });
  });
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
