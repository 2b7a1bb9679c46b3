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
 *   and lead-ins, the old one-JSON answer, an off-schema record on a JSON-mode-only server, prose
 *   only, a slow model at 3 s to first token and 20 tokens/s): time to the first text the player
 *   sees, its overhead over the server's first token (a think block's own duration included: the
 *   model writes it before the answer), and how long after the prose ends the next actions come —
 *   in the chapter's own answer (one call) or from a second call sharing its prompt (two calls).
 */
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { OfflineStoryAI } from './offline/offline-story-ai';
import { Rng } from './offline/prng';
import { randomCharacter, randomWorld, SAMPLE_ACTIONS } from './offline/test-worlds';
import { chapterAnswer, FakeOpenAIServer, splitInto } from './openai/fake-openai-server';
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

/** An answer as a model streams it: ~4 characters a token, so `tokensPerSecond` sets the gap. */
function streamed(content: string, tokensPerSecond: number, firstDelayMs: number, extra: Partial<Extract<Script, { kind: 'sse' }>> = {}): Script {
  const pieceChars = 12;
  return { kind: 'sse', pieces: splitInto(content, pieceChars), firstDelayMs, gapMs: Math.round((pieceChars / 4 / tokensPerSecond) * 1000), ...extra };
}

/** A whole answer returned at once after the time a model takes to write it (a structured call). */
function written(content: string, tokensPerSecond: number, firstDelayMs: number): Script {
  return { kind: 'json', content, delayMs: firstDelayMs + Math.round((content.length / 4 / tokensPerSecond) * 1000) };
}

const BENCH_CHAPTER = JSON.parse(BENCH_CHAPTER_JSON) as { text: string; choices: string[] };
const BENCH_RECORD = {
  cast: [{ name: 'Maren Holt', role: 'harbourmaster', description: 'A broad woman with a ledger under her arm.', status: 'on the quay' }],
  memories: [
    { kind: 'event', text: 'The boat reached the harbour at dusk.' },
    { kind: 'place', text: 'The rope is tied at the third bollard.' },
  ],
};
/** The answer a chapter call asks for: prose, the next actions, the record. */
const ANSWER = chapterAnswer({ ...BENCH_CHAPTER, ...BENCH_RECORD });
/** The same answer with a record that does not validate (it is written again by a call of its own). */
const ANSWER_BAD_RECORD = `${ANSWER.slice(0, ANSWER.indexOf('### RECORD'))}### RECORD\n{"statIncreases": "some", "cast": [{"name": 7}]`;
/** A record call's answer: the record, and the actions when the chapter's answer had none. */
const RECORD_JSON = JSON.stringify({ statIncreases: [], newSetting: null, missionCompleted: false, newMission: null, ...BENCH_RECORD });
const RECORD_WITH_CHOICES_JSON = JSON.stringify({ choices: BENCH_CHAPTER.choices, ...JSON.parse(RECORD_JSON) });
const THINK = '<think>The player wants a harbour scene. JSON like {"text": "…"} with {choices}. Keep it short.</think>\n';
const SLOW_TPS = 20;
const SLOW_FIRST_MS = 3000;
/** A record call on slow hardware: the chapter's prompt is cached, only the prose and the ask are read. */
const SLOW_RECORD_FIRST_MS = 500;

interface Behaviour {
  name: string;
  /** The chapter call's answer. */
  script: Script;
  /** A record call's answer (when the chapter's record is missing or off-schema). */
  record?: Script;
  rejectJsonSchema?: boolean;
  runs: number;
  slow?: boolean;
}

const BEHAVIOURS: Behaviour[] = [
  { name: 'prose, actions, record in one answer', script: streamed(ANSWER, 400, FIRST_TOKEN_DELAY_MS), runs: 30 },
  { name: 'think block with braces', script: streamed(THINK + ANSWER, 400, FIRST_TOKEN_DELAY_MS), runs: 30 },
  { name: 'reasoning_content first', script: streamed(ANSWER, 400, FIRST_TOKEN_DELAY_MS, { reasoning: ['Planning {', 'the scene}'] }), runs: 30 },
  { name: 'fence + lead-in', script: streamed('Sure! Here is the next chapter:\n```\n' + ANSWER + '\n```', 400, FIRST_TOKEN_DELAY_MS), runs: 30 },
  { name: 'the old way: one JSON object', script: streamed(BENCH_CHAPTER_JSON, 400, FIRST_TOKEN_DELAY_MS), runs: 30 },
  {
    name: 'off-schema record, JSON mode only (repair call)',
    script: streamed(ANSWER_BAD_RECORD, 400, FIRST_TOKEN_DELAY_MS),
    record: written(RECORD_JSON, 400, FIRST_TOKEN_DELAY_MS),
    rejectJsonSchema: true,
    runs: 30,
  },
  {
    name: 'prose only (actions and record from a second call)',
    script: streamed(BENCH_CHAPTER.text, 400, FIRST_TOKEN_DELAY_MS),
    record: written(RECORD_WITH_CHOICES_JSON, 400, FIRST_TOKEN_DELAY_MS),
    runs: 30,
  },
  {
    name: `slow, one call: ${SLOW_FIRST_MS / 1000} s to first token, ${SLOW_TPS} tokens/s`,
    script: streamed(ANSWER, SLOW_TPS, SLOW_FIRST_MS),
    runs: 3,
    slow: true,
  },
  {
    name: `slow, prose only (two calls): ${SLOW_FIRST_MS / 1000} s to first token, ${SLOW_TPS} tokens/s`,
    script: streamed(BENCH_CHAPTER.text, SLOW_TPS, SLOW_FIRST_MS),
    record: written(RECORD_WITH_CHOICES_JSON, SLOW_TPS, SLOW_RECORD_FIRST_MS),
    runs: 3,
    slow: true,
  },
];

/**
 * Per server behaviour: the first text the player sees (and its overhead over the server's first
 * token), and how long after the prose ends the next actions are there — the first of them, and all
 * three. The prose ends at the last text event; the actions count when a 'choices' event carries them.
 */
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
      worker.postMessage({ type: 'set', script: b.script, record: b.record ?? null, rejectJsonSchema: Boolean(b.rejectJsonSchema) });
    });
    // A model of its own per behaviour: the JSON mode learned from a 400 is remembered per model.
    const ai = new OpenAIStoryAI({ apiKey: 'bench', baseUrl, model: `bench-${++model}`, timeoutMs: 30_000 });
    const visible: number[] = [];
    const overhead: number[] = [];
    const firstChoice: number[] = [];
    const allChoices: number[] = [];
    for (let i = 0; i < b.runs; i++) {
      const before = serverTtft.length;
      const t0 = performance.now();
      let first = 0;
      let proseEnd = 0;
      let one = NaN;
      let three = NaN;
      for await (const ev of ai.streamChapter(inputs(1, 900 + i)[0] as ChapterInput)) {
        const at = performance.now() - t0;
        if (ev.type === 'delta') {
          if (first === 0) first = at;
          proseEnd = at;
        } else if (ev.type === 'choices') {
          if (Number.isNaN(one) && ev.choices.length >= 1) one = at - proseEnd;
          if (Number.isNaN(three) && ev.choices.length >= 3) three = at - proseEnd;
        }
      }
      while (serverTtft.length <= before) await new Promise<void>((r) => (notify = r));
      visible.push(first);
      overhead.push(first - (serverTtft[before] as number));
      firstChoice.push(one);
      allChoices.push(three);
    }
    const p95 = pct(visible, 95);
    const over = pct(overhead, 95);
    const all = pct(allChoices, 95);
    rows.push([
      `${b.name} (${b.runs} runs): first text`,
      `${pct(visible, 50).toFixed(1)} ms`,
      `${p95.toFixed(1)} ms (p95); over the server's first token p95 ${over.toFixed(1)} ms`,
      over <= 500 ? 'OK: ≤ first token + 0.5 s' : 'MISSED: ≤ first token + 0.5 s',
    ]);
    rows.push([
      `${b.name}: actions after the prose ends, first / all 3`,
      `${pct(firstChoice, 50).toFixed(0)} / ${pct(allChoices, 50).toFixed(0)} ms`,
      `${pct(firstChoice, 95).toFixed(0)} / ${all.toFixed(0)} ms (p95)`,
      b.slow ? (all <= 1500 ? `OK: all ≤ 1.5 s at ${SLOW_TPS} tokens/s` : `MISSED: all ≤ 1.5 s at ${SLOW_TPS} tokens/s`) : 'info',
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
  let record: Script | null = null;
  // A record call (its last message asks for the record alone) gets the record's script.
  server.respond = (body) => {
    const messages = body.messages as Array<{ content?: unknown }> | undefined;
    const last = messages?.[messages.length - 1]?.content;
    return record && typeof last === 'string' && last.startsWith('Now write only the record') ? record : null;
  };
  parentPort?.on('message', (m: { type: 'set'; script: Script; record: Script | null; rejectJsonSchema: boolean }) => {
    server.fallback = m.script;
    record = m.record;
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
