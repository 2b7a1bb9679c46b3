/**
 * A minimal OpenAI-compatible HTTP server on 127.0.0.1 for tests and the bench: chat completions
 * (JSON and SSE streaming), image generations and speech, driven by a queue of scripted responses. It records
 * every request (body and timings) so tests can assert what we send.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: Record<string, unknown>;
  receivedAt: number;
  /** performance.now() when the first body chunk (or SSE event) was written. */
  firstByteAt?: number;
  closedEarly: boolean;
}

export type Script =
  | { kind: 'json'; content: string; usage?: Usage; delayMs?: number; reasoning?: string }
  /** `reasoning`: reasoning_content chunks sent before the content (as reasoning servers do). */
  | { kind: 'sse'; pieces: string[]; usage?: Usage; firstDelayMs?: number; gapMs?: number; reasoning?: string[] }
  | { kind: 'status'; status: number; body?: unknown; headers?: Record<string, string> }
  | { kind: 'hang' }
  | { kind: 'image'; b64: string }
  | { kind: 'raw'; handler: (req: http.IncomingMessage, res: http.ServerResponse) => void };

interface Usage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
  prompt_tokens_details?: { cached_tokens: number };
}

const DEFAULT_USAGE: Usage = { prompt_tokens: 120, completion_tokens: 80, total_tokens: 200, prompt_tokens_details: { cached_tokens: 64 } };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export class FakeOpenAIServer {
  readonly requests: RecordedRequest[] = [];
  private readonly queue: Script[] = [];
  /** Used when the queue is empty. */
  fallback: Script | null = null;
  /** Answers each request by what it asks (after the queue, before the fallback): a story played end to end. */
  respond: ((body: Record<string, unknown>) => Script | null) | null = null;
  /**
   * Behave like a JSON-mode-only server (DeepSeek, GLM, many Qwen deployments, older vLLM and
   * llama.cpp builds): HTTP 400 to response_format json_schema, before any script is used.
   */
  rejectJsonSchema = false;
  /**
   * Answers POST /embeddings with one vector per input (the tests' stand-in for a model of meaning);
   * unset, /embeddings takes scripts like any request. `embedFails` answers 503 instead.
   */
  embed: ((text: string) => number[]) | null = null;
  embedFails = false;
  /**
   * Answers POST /audio/speech with these bytes as audio/mpeg (the tests' stand-in for a voice);
   * `speechFailsWith` answers that HTTP status instead. Unset, /audio/speech takes scripts.
   */
  speak: ((body: Record<string, unknown>) => Buffer) | null = null;
  speechFailsWith: number | null = null;
  /** Answers GET /models with these (a local server's list), when set. */
  models: string[] | null = null;
  /** Called when a response's first byte (or first SSE event) has been written (bench timings). */
  onFirstByte: ((rec: RecordedRequest) => void) | null = null;
  private server: http.Server;
  private sockets = new Set<import('node:net').Socket>();
  private port = 0;

  constructor() {
    this.server = http.createServer((req, res) => void this.handle(req, res));
    this.server.on('connection', (s) => {
      this.sockets.add(s);
      s.on('close', () => this.sockets.delete(s));
    });
  }

  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.address() as AddressInfo).port;
    return this.baseUrl;
  }
  get baseUrl(): string {
    return `http://127.0.0.1:${this.port}/v1`;
  }
  push(...scripts: Script[]): this {
    this.queue.push(...scripts);
    return this;
  }
  reset(): void {
    this.queue.length = 0;
    this.requests.length = 0;
    this.fallback = null;
    this.respond = null;
    this.rejectJsonSchema = false;
    this.embed = null;
    this.embedFails = false;
    this.speak = null;
    this.speechFailsWith = null;
    this.models = null;
  }
  async stop(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const receivedAt = performance.now();
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    let body: Record<string, unknown>;
    try {
      body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as Record<string, unknown>;
    } catch {
      body = {};
    }
    const rec: RecordedRequest = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body, receivedAt, closedEarly: false };
    this.requests.push(rec);
    res.on('close', () => {
      if (!res.writableFinished) rec.closedEarly = true;
    });
    const format = (body.response_format as { type?: string } | undefined)?.type;
    if (this.rejectJsonSchema && format === 'json_schema') {
      res.writeHead(400, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({ error: { message: "response_format type 'json_schema' is not supported by this model", type: 'invalid_request_error', code: null } }),
      );
      return;
    }
    if (this.models && req.method === 'GET' && rec.url.endsWith('/models')) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ object: 'list', data: this.models.map((id) => ({ id, object: 'model', owned_by: 'local' })) }));
      return;
    }
    if (this.embed && rec.url.endsWith('/embeddings')) {
      if (this.embedFails) {
        res.writeHead(503, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: 'fake embeddings down', type: 'server_error' } }));
        return;
      }
      const input = Array.isArray(body.input) ? (body.input as string[]) : [String(body.input)];
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          object: 'list',
          data: input.map((text, index) => ({ object: 'embedding', index, embedding: this.embed!(text) })),
          model: body.model,
          usage: { prompt_tokens: input.length * 8, total_tokens: input.length * 8 },
        }),
      );
      return;
    }
    if (this.speak && rec.url.endsWith('/audio/speech')) {
      if (this.speechFailsWith) {
        res
          .writeHead(this.speechFailsWith, { 'content-type': 'application/json' })
          .end(JSON.stringify({ error: { message: 'fake speech down (key sk-secret-leak)', type: 'server_error' } }));
        return;
      }
      const audio = this.speak(body);
      res.writeHead(200, { 'content-type': 'audio/mpeg', 'content-length': String(audio.length) }).end(audio);
      return;
    }
    const script = this.queue.shift() ?? this.respond?.(body) ?? this.fallback;
    if (!script) {
      res.writeHead(500, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: 'fake server: no script queued' } }));
      return;
    }
    const model = typeof body.model === 'string' ? body.model : 'fake';
    switch (script.kind) {
      case 'json': {
        if (script.delayMs) await sleep(script.delayMs);
        rec.firstByteAt = performance.now();
        this.onFirstByte?.(rec);
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({
            id: 'chatcmpl-fake',
            object: 'chat.completion',
            created: Math.floor(Date.now() / 1000),
            model,
            choices: [
              {
                index: 0,
                message: { role: 'assistant', content: script.content, refusal: null, ...(script.reasoning ? { reasoning_content: script.reasoning } : {}) },
                finish_reason: 'stop',
                logprobs: null,
              },
            ],
            usage: script.usage ?? DEFAULT_USAGE,
          }),
        );
        return;
      }
      case 'sse': {
        res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
        if (script.firstDelayMs) await sleep(script.firstDelayMs);
        const event = (choices: unknown[], usage: Usage | null = null) =>
          `data: ${JSON.stringify({ id: 'chatcmpl-fake', object: 'chat.completion.chunk', created: Math.floor(Date.now() / 1000), model, choices, usage })}\n\n`;
        for (const r of script.reasoning ?? []) {
          if (script.gapMs) await sleep(script.gapMs);
          res.write(event([{ index: 0, delta: { reasoning_content: r }, finish_reason: null }]));
        }
        for (let i = 0; i < script.pieces.length; i++) {
          if (res.destroyed) return;
          if (i > 0 && script.gapMs) await sleep(script.gapMs);
          res.write(
            event([{ index: 0, delta: i === 0 ? { role: 'assistant', content: script.pieces[i] } : { content: script.pieces[i] }, finish_reason: null }]),
          );
          if (i === 0) {
            rec.firstByteAt = performance.now();
            this.onFirstByte?.(rec);
          }
        }
        if (res.destroyed) return;
        res.write(event([{ index: 0, delta: {}, finish_reason: 'stop' }]));
        res.write(event([], script.usage ?? DEFAULT_USAGE));
        res.end('data: [DONE]\n\n');
        return;
      }
      case 'status':
        res.writeHead(script.status, { 'content-type': 'application/json', ...(script.headers ?? {}) });
        res.end(JSON.stringify(script.body ?? { error: { message: `fake status ${script.status}`, type: 'server_error' } }));
        return;
      case 'hang':
        return; // never answer; the client must time out
      case 'image':
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({
            created: Math.floor(Date.now() / 1000),
            data: [{ b64_json: script.b64 }],
            usage: { input_tokens: 50, output_tokens: 1000, total_tokens: 1050 },
          }),
        );
        return;
      case 'raw':
        script.handler(req, res);
        return;
      default: {
        const never: never = script;
        void never;
      }
    }
  }
}

/** Splits a string into n pieces at arbitrary points (tests: escapes split across SSE events). */
export function splitInto(s: string, size: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < s.length; i += size) out.push(s.slice(i, i + size));
  return out;
}

/** A chapter as a model answers it (chapter-answer.ts): the prose, the next actions, then the record. */
export function chapterAnswer(chapter: { text: string; choices: string[] } & Record<string, unknown>): string {
  const { text, choices, ...record } = chapter;
  const full = {
    statIncreases: [],
    newSetting: null,
    missionCompleted: false,
    newMission: null,
    cast: [],
    memories: [],
    itemsGained: [],
    itemsLost: [],
    healthRestored: 0,
    ...record,
  };
  return `${text}\n\n### NEXT\n${choices.map((c, i) => `${i + 1}. ${c}`).join('\n')}\n\n### RECORD\n${JSON.stringify(full)}`;
}
