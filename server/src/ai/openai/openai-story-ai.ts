/**
 * The production provider: the official `openai` SDK against OpenAI or any OpenAI-compatible server
 * (vLLM, Ollama, llama.cpp) via baseURL.
 *
 * - Structured outputs: every call sends response_format json_schema (strict) derived from the zod
 *   wire schemas, then re-validates the answer with the domain schemas. An invalid answer gets one
 *   repair request (the bad answer + the validation issues); if that fails too, one fresh attempt
 *   with its own repair; then GENERATION_FAILED. At most 4 generation requests per call.
 * - Transport: the SDK's own retries are off (maxRetries: 0) so the policy is ours and testable:
 *   429, 408, 5xx and connection errors are retried up to `maxRetries` times with exponential
 *   backoff, honouring Retry-After / retry-after-ms up to `maxRetryDelayMs` (a longer wait fails fast
 *   instead of holding the player's request). Timeouts are not retried: the player already waited.
 * - Timeouts: `timeoutMs` bounds each request; for streams it bounds the wait for the first chunk
 *   and every gap between chunks (a long chapter from a slow local model is fine while it flows).
 * - Cancellation: the caller's AbortSignal aborts the upstream HTTP request; so does abandoning the
 *   chapter iterator (its finally block aborts).
 * - Usage: every request's token usage (including cached prompt tokens) goes to `onUsage` and, for
 *   chapters, into the final event.
 */
import type OpenAI from 'openai';
import { openAI } from '../../common/lazy-modules';
import { sharp } from '../../common/lazy-modules';
import type { z } from 'zod';
import { AppError } from '../../common/app-error';
import { CHAPTER_TEXT_MAX } from '../../modules/shared/limits';
import type { Logger } from '../../common/logger';
import { IMAGE_HEIGHT, IMAGE_MAX_BYTES, IMAGE_WIDTH } from '../offline/image';
import { paintWorldImage } from '../offline/image-thread';
import { offlineStyles } from '../offline/styles';
import {
  chapterResultSchema,
  characterSchema,
  missionSchema,
  summarySchema,
  worldDescriptionSchema,
  worldQuestionsSchema,
  clampMaxLength,
  type CallOptions,
  type ChapterEvent,
  type ChapterInput,
  type CharacterInput,
  type CharacterResult,
  type MissionInput,
  type MissionResult,
  type StoryAI,
  type StoryAIOperation,
  type StyleSet,
  type StylesInput,
  type SummarizeInput,
  type SummaryResult,
  type Usage,
  type WorldDescriptionInput,
  type WorldDescriptionResult,
  type WorldImageInput,
  type WorldImageResult,
  type WorldQuestionsInput,
  type WorldQuestionsResult,
} from '../story-ai';
import { sanitizeStyles } from '../style-guard';
import { ChapterAnswerStream } from './chapter-answer';
import { parseModelJson, plainAngles, ThinkFilter } from './model-output';
import * as P from './prompts';
import { chapterFromWire, chapterRecordSchema, normaliseWire, recordFromWire, strictJsonSchema, wire, type ChapterRecord } from './wire-schemas';

type Msg = OpenAI.Chat.Completions.ChatCompletionMessageParam;

export interface OpenAIProviderOptions {
  apiKey: string;
  /** e.g. http://localhost:11434/v1 (Ollama) or http://localhost:8000/v1 (vLLM); unset → OpenAI. */
  baseUrl?: string;
  model: string;
  /** Streams: the longest wait for the first token and between two chunks. */
  timeoutMs: number;
  /**
   * A whole non-streamed call (characters, worlds, missions, summaries): a slow model writes a
   * character for many seconds without a gap to measure. Default: the larger of 120 s and timeoutMs.
   */
  callTimeoutMs?: number;
  /** Images API model; null disables it (procedural art). Default: gpt-image-1 on OpenAI, null elsewhere. */
  imageModel?: string | null;
  /** Transport retries after the first attempt (default 2). */
  maxRetries?: number;
  retryBaseDelayMs?: number;
  /** Longest backoff or Retry-After we are willing to wait (default 20 s). */
  maxRetryDelayMs?: number;
  onUsage?: (usage: Usage) => void;
  /**
   * How to ask for JSON. `auto` (default): strict json_schema first; a server that answers HTTP 400
   * to it gets json_object with the schema in the prompt, then plain instructions — remembered per
   * server and model for the life of the process. A fixed mode is used as is.
   */
  responseFormat?: ResponseFormatMode;
  /** Sampling of a chapter's prose (issue 30: per kind of call; structure is sampled cold). Unset: the server's defaults. */
  temperature?: number;
  topP?: number;
  presencePenalty?: number;
  frequencyPenalty?: number;
  /** Added to every call's max_tokens for reasoning models, which spend tokens thinking before they answer. */
  reasoningTokens?: number;
  /** Called when a chapter prompt had to be cut to fit the tier's context (metrics). */
  onTrim?: (provider: 'openai') => void;
  /** Where the server's own error texts and format fallbacks are reported. */
  log?: Pick<Logger, 'warn'>;
}

type ResponseFormatMode = 'auto' | 'json_schema' | 'json_object' | 'none';
/** How a call is sampled (see sampling()). */
type SamplingKind = 'prose' | 'retake' | 'creative' | 'structure';
/** What each call sends besides its messages: its sampling and its answer's length limit. */
interface CallShape {
  sampling: SamplingKind;
  maxTokens: number;
}
type WireMode = Exclude<ResponseFormatMode, 'auto'>;
const FALLBACK: Record<WireMode, WireMode | null> = { json_schema: 'json_object', json_object: 'none', none: null };

interface Deadline {
  /** The limit this deadline enforces (for the player's message). */
  ms: number;
  signal: AbortSignal;
  timedOut: () => boolean;
  /** Restarts the timer (streams: time between chunks). */
  touch: () => void;
  dispose: () => void;
}

function deadline(parent: AbortSignal | undefined, ms: number): Deadline {
  const ctl = new AbortController();
  let timedOut = false;
  let timer: NodeJS.Timeout | undefined;
  const arm = () => {
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => {
      timedOut = true;
      ctl.abort();
    }, ms);
  };
  const onParent = () => ctl.abort();
  if (parent?.aborted) ctl.abort();
  else parent?.addEventListener('abort', onParent, { once: true });
  arm();
  return {
    ms,
    signal: ctl.signal,
    timedOut: () => timedOut,
    touch: arm,
    dispose: () => {
      if (timer) clearTimeout(timer);
      parent?.removeEventListener('abort', onParent);
      if (!ctl.signal.aborted) ctl.abort();
    },
  };
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(cancelled());
    const t = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(t);
      reject(cancelled());
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

const cancelled = () => new AppError('GENERATION_FAILED', 'Generation was cancelled.', { reason: 'aborted' });

function retryAfterMs(headers: Headers | undefined): number | null {
  if (!headers) return null;
  const ms = headers.get('retry-after-ms');
  if (ms && Number.isFinite(Number(ms))) return Number(ms);
  const ra = headers.get('retry-after');
  if (!ra) return null;
  const secs = Number(ra);
  if (Number.isFinite(secs)) return secs * 1000;
  const date = Date.parse(ra);
  return Number.isFinite(date) ? Math.max(0, date - Date.now()) : null;
}

interface Classified {
  error: AppError;
  retryable: boolean;
  retryAfterMs: number | null;
}

export class OpenAIStoryAI implements StoryAI {
  readonly kind = 'openai' as const;
  readonly missionInChapter = true;
  private readonly client: OpenAI;
  private readonly imageModel: string | null;
  private readonly maxRetries: number;
  private readonly baseDelay: number;
  private readonly maxDelay: number;
  private readonly callTimeoutMs: number;

  constructor(private readonly opts: OpenAIProviderOptions) {
    this.callTimeoutMs = opts.callTimeoutMs ?? Math.max(120_000, opts.timeoutMs);
    // Our deadlines decide (per call, per chunk); the SDK's own limit only backs them up.
    this.client = new (openAI())({ apiKey: opts.apiKey, baseURL: opts.baseUrl, maxRetries: 0, timeout: Math.max(this.callTimeoutMs, opts.timeoutMs) + 1000 });
    this.imageModel = opts.imageModel !== undefined ? opts.imageModel : opts.baseUrl ? null : 'gpt-image-1';
    this.maxRetries = opts.maxRetries ?? 2;
    this.baseDelay = opts.retryBaseDelayMs ?? 500;
    this.maxDelay = opts.maxRetryDelayMs ?? 20_000;
  }

  // ------------------------------------------------------------------------------------------
  // Transport

  private classify(e: unknown, dl: Deadline, parent?: AbortSignal): Classified {
    if (e instanceof AppError) return { error: e, retryable: false, retryAfterMs: null };
    if (parent?.aborted) return { error: cancelled(), retryable: false, retryAfterMs: null };
    if (dl.timedOut() || e instanceof openAI().APIConnectionTimeoutError) {
      return {
        error: new AppError('GENERATION_FAILED', `The story AI did not answer within ${Math.round(dl.ms / 1000)} s.`, {
          reason: 'timeout',
          timeoutMs: dl.ms,
        }),
        retryable: false,
        retryAfterMs: null,
      };
    }
    if (e instanceof openAI().APIUserAbortError) return { error: cancelled(), retryable: false, retryAfterMs: null };
    if (e instanceof openAI().APIConnectionError) {
      return {
        error: new AppError('GENERATION_FAILED', `Could not reach the story AI at ${this.opts.baseUrl ?? 'api.openai.com'}.`, { reason: 'connection' }),
        retryable: true,
        retryAfterMs: null,
      };
    }
    if (e instanceof openAI().APIError && typeof e.status === 'number') {
      const status = e.status;
      // The server's own words (its error body) are what an operator needs to fix a misconfiguration.
      this.opts.log?.warn('story AI request failed', {
        status,
        model: this.opts.model,
        baseUrl: this.opts.baseUrl ?? 'api.openai.com',
        serverError: e.message.slice(0, 500),
      });
      const after = retryAfterMs(e.headers);
      const details: Record<string, unknown> = { reason: 'http', status, ...(status === 400 ? { serverMessage: e.message.slice(0, 300) } : {}) };
      if (after !== null) details.retryAfterSeconds = Math.ceil(after / 1000);
      if (status === 429)
        return {
          error: new AppError('GENERATION_FAILED', 'The story AI is rate-limited right now (HTTP 429). Please try again shortly.', details),
          retryable: true,
          retryAfterMs: after,
        };
      if (status >= 500 || status === 408)
        return { error: new AppError('GENERATION_FAILED', `The story AI failed (HTTP ${status}).`, details), retryable: true, retryAfterMs: after };
      if (status === 401 || status === 403)
        return {
          error: new AppError('GENERATION_FAILED', `The story AI rejected our credentials (HTTP ${status}); check OPENAI_API_KEY.`, details),
          retryable: false,
          retryAfterMs: null,
        };
      if (status === 404)
        return {
          error: new AppError(
            'GENERATION_FAILED',
            `The story AI does not know model "${this.opts.model}" or this endpoint (HTTP 404); check OPENAI_MODEL and OPENAI_BASE_URL.`,
            details,
          ),
          retryable: false,
          retryAfterMs: null,
        };
      return { error: new AppError('GENERATION_FAILED', `The story AI refused the request (HTTP ${status}).`, details), retryable: false, retryAfterMs: null };
    }
    const message = e instanceof Error ? e.message : String(e);
    return {
      error: new AppError('GENERATION_FAILED', `The story AI request failed: ${message.slice(0, 200)}`, { reason: 'unknown' }),
      retryable: false,
      retryAfterMs: null,
    };
  }

  private backoff(retry: number, after: number | null): number | null {
    if (after !== null) return after <= this.maxDelay ? after : null;
    // Deterministic jitter (no shared randomness needed): spreads synchronized retries a little.
    return Math.min(this.maxDelay, this.baseDelay * 2 ** retry + ((retry * 37) % 50));
  }

  /** Runs one request with timeout, cancellation and bounded retries on transient failures. */
  private async withRetry<T>(fn: (signal: AbortSignal) => Promise<T>, signal?: AbortSignal): Promise<T> {
    for (let retry = 0; ; retry++) {
      if (signal?.aborted) throw cancelled();
      const dl = deadline(signal, this.callTimeoutMs);
      try {
        return await fn(dl.signal);
      } catch (e) {
        const c = this.classify(e, dl, signal);
        const wait = c.retryable && retry < this.maxRetries ? this.backoff(retry, c.retryAfterMs) : null;
        if (wait === null) throw c.error;
        dl.dispose();
        await sleep(wait, signal);
      } finally {
        dl.dispose();
      }
    }
  }

  private recordUsage(operation: StoryAIOperation, u: OpenAI.Completions.CompletionUsage | null | undefined, started: number, attempt: number): Usage {
    const usage: Usage = {
      provider: 'openai',
      operation,
      model: this.opts.model,
      promptTokens: u?.prompt_tokens ?? 0,
      completionTokens: u?.completion_tokens ?? 0,
      totalTokens: u?.total_tokens ?? (u?.prompt_tokens ?? 0) + (u?.completion_tokens ?? 0),
      cachedPromptTokens: u?.prompt_tokens_details?.cached_tokens ?? 0,
      durationMs: performance.now() - started,
      attempt,
    };
    this.opts.onUsage?.(usage);
    return usage;
  }

  /** The JSON mode each server and model accepts, learned from its 400s (see responseFormat). */
  private static modes = new Map<string, WireMode>();
  private get modeKey(): string {
    return `${this.opts.baseUrl ?? 'api.openai.com'}|${this.opts.model}`;
  }
  private mode(): WireMode {
    const fixed = this.opts.responseFormat ?? 'auto';
    return fixed === 'auto' ? (OpenAIStoryAI.modes.get(this.modeKey) ?? 'json_schema') : fixed;
  }

  /**
   * After an HTTP 400 in a JSON mode the server may not support: the next mode, remembered (only
   * with responseFormat auto). True when the request should be sent again.
   */
  private downgrade(e: AppError, mode: WireMode): boolean {
    if ((this.opts.responseFormat ?? 'auto') !== 'auto' || e.details?.status !== 400) return false;
    const next = FALLBACK[mode];
    if (!next) return false;
    OpenAIStoryAI.modes.set(this.modeKey, next);
    this.opts.log?.warn(`the story AI refused response_format ${mode}; using ${next} from now on`, {
      model: this.opts.model,
      baseUrl: this.opts.baseUrl ?? 'api.openai.com',
    });
    return true;
  }

  /**
   * Sampling per kind of call: a chapter's prose as configured (OPENAI_TEMPERATURE, OPENAI_TOP_P,
   * OPENAI_PRESENCE_PENALTY, OPENAI_FREQUENCY_PENALTY; a new take a little warmer, to differ);
   * invented material (worlds, questions, characters, missions) warm; records, summaries and styles
   * cold, so structure stays structure.
   */
  private sampling(kind: SamplingKind): { temperature?: number; top_p?: number; presence_penalty?: number; frequency_penalty?: number } {
    if (kind === 'structure') return { temperature: 0.2 };
    if (kind === 'creative') return { temperature: 0.8 };
    const o = this.opts;
    const t = o.temperature ?? (kind === 'retake' ? 0.9 : undefined);
    return {
      ...(t !== undefined ? { temperature: kind === 'retake' ? Math.min(1.3, t + 0.15) : t } : {}),
      ...(o.topP !== undefined ? { top_p: o.topP } : {}),
      ...(o.presencePenalty !== undefined ? { presence_penalty: o.presencePenalty } : {}),
      ...(o.frequencyPenalty !== undefined ? { frequency_penalty: o.frequencyPenalty } : {}),
    };
  }

  /**
   * The answer's length limit as this server takes it: max_tokens, or max_completion_tokens for
   * models that refuse max_tokens (OpenAI's reasoning models) — learned from the 400, remembered per
   * server and model. Reasoning models get OPENAI_REASONING_TOKENS more.
   */
  private static tokenParams = new Map<string, 'max_tokens' | 'max_completion_tokens'>();
  private limit(tokens: number): { max_tokens: number } | { max_completion_tokens: number } {
    const n = tokens + (this.opts.reasoningTokens ?? 0);
    return OpenAIStoryAI.tokenParams.get(this.modeKey) === 'max_completion_tokens' ? { max_completion_tokens: n } : { max_tokens: n };
  }
  /** After an HTTP 400 that names max_completion_tokens: ask that way from now on. True when the request should be sent again. */
  private switchTokenParam(e: AppError): boolean {
    const msg = typeof e.details?.serverMessage === 'string' ? e.details.serverMessage : '';
    if (e.details?.status !== 400 || !/max_completion_tokens/.test(msg) || OpenAIStoryAI.tokenParams.get(this.modeKey) === 'max_completion_tokens')
      return false;
    OpenAIStoryAI.tokenParams.set(this.modeKey, 'max_completion_tokens');
    return true;
  }

  /** The schemas never change at runtime: derive each JSON schema once (it costs ~1 ms). */
  private static schemas = new Map<string, Record<string, unknown>>();
  private static schemaOf(name: keyof typeof wire): Record<string, unknown> {
    let schema = OpenAIStoryAI.schemas.get(name);
    if (!schema) OpenAIStoryAI.schemas.set(name, (schema = strictJsonSchema(wire[name])));
    return schema;
  }

  /** Messages and response_format for a JSON answer in the given mode. */
  private jsonRequest(
    name: keyof typeof wire,
    messages: Msg[],
    mode: WireMode,
  ): { messages: Msg[]; response_format?: OpenAI.ResponseFormatJSONSchema | OpenAI.ResponseFormatJSONObject } {
    const schema = OpenAIStoryAI.schemaOf(name);
    if (mode === 'json_schema') return { messages, response_format: { type: 'json_schema', json_schema: { name, strict: true, schema } } };
    // Without a schema the server enforces, the prompt carries it (json_object also needs "JSON" in
    // it), inside the last user message: a second system message, or two user messages in a row,
    // are refused by many open models' chat templates.
    const schemaNote = `Reply with one JSON object only — no code fence, no text before or after it — matching this JSON schema:\n${JSON.stringify(schema)}`;
    const last = messages[messages.length - 1];
    const withSchema: Msg[] =
      last?.role === 'user' && typeof last.content === 'string'
        ? [...messages.slice(0, -1), { role: 'user', content: `${last.content}\n\n${schemaNote}` }]
        : [...messages, { role: 'user', content: schemaNote }];
    return mode === 'json_object' ? { messages: withSchema, response_format: { type: 'json_object' } } : { messages: withSchema };
  }

  /** One non-streaming JSON completion; returns the raw content. */
  private async completeJson(
    operation: StoryAIOperation,
    name: keyof typeof wire,
    messages: Msg[],
    attempt: number,
    usageSink: Usage[],
    call: CallShape,
    signal?: AbortSignal,
  ): Promise<string> {
    const started = performance.now();
    let res: OpenAI.Chat.Completions.ChatCompletion;
    for (;;) {
      const mode = this.mode();
      try {
        res = await this.withRetry(
          (s) =>
            this.client.chat.completions.create(
              { model: this.opts.model, ...this.jsonRequest(name, messages, mode), ...this.sampling(call.sampling), ...this.limit(call.maxTokens) },
              { signal: s },
            ),
          signal,
        );
        break;
      } catch (e) {
        if (!(e instanceof AppError && (this.downgrade(e, mode) || this.switchTokenParam(e)))) throw e;
      }
    }
    usageSink.push(this.recordUsage(operation, res.usage, started, attempt));
    const msg = res.choices[0]?.message;
    if (msg?.refusal) return `{"refusal": ${JSON.stringify(msg.refusal)}}`;
    return msg?.content ?? '';
  }

  /**
   * Structured generation with validation, one repair per attempt, and one fresh attempt.
   * `convert` maps the wire shape to the result; `domain` validates the result.
   */
  private async structured<N extends keyof typeof wire, R>(
    operation: StoryAIOperation,
    name: N,
    messages: Msg[],
    convert: (w: z.infer<(typeof wire)[N]>) => unknown,
    domain: z.ZodType<R>,
    call: CallShape,
    signal?: AbortSignal,
    usageSink: Usage[] = [],
  ): Promise<R> {
    const schema: z.ZodType = wire[name];
    const check = (raw: string): { ok: true; value: R } | { ok: false; issues: string } => {
      let json: unknown;
      try {
        json = normaliseWire(name, parseModelJson(raw));
      } catch {
        return { ok: false, issues: 'the reply was not valid JSON' };
      }
      const w = schema.safeParse(json);
      if (!w.success) return { ok: false, issues: formatIssues(w.error.issues) };
      const d = domain.safeParse(convert(w.data as z.infer<(typeof wire)[N]>));
      if (!d.success) return { ok: false, issues: formatIssues(d.error.issues) };
      return { ok: true, value: d.data };
    };
    let attempt = 0;
    let lastIssues = '';
    for (let round = 0; round < 2; round++) {
      const raw = await this.completeJson(operation, name, messages, ++attempt, usageSink, call, signal);
      let r = check(raw);
      if (r.ok) return r.value;
      const repairMsgs: Msg[] = [
        ...messages,
        { role: 'assistant', content: raw.slice(0, 12000) },
        { role: 'user', content: `That reply does not match the required schema: ${r.issues}. Reply again with the complete, corrected JSON object only.` },
      ];
      const repaired = await this.completeJson(operation, name, repairMsgs, ++attempt, usageSink, call, signal);
      r = check(repaired);
      if (r.ok) return r.value;
      lastIssues = r.issues;
    }
    throw new AppError('GENERATION_FAILED', `The story AI kept returning an invalid ${operation} (${lastIssues.slice(0, 200)}).`, {
      reason: 'invalid_output',
      operation,
    });
  }

  // ------------------------------------------------------------------------------------------
  // StoryAI

  async generateWorldDescription(input: WorldDescriptionInput, opts?: CallOptions): Promise<WorldDescriptionResult> {
    const max = clampMaxLength(input.maxLength);
    const r = await this.structured(
      'worldDescription',
      'worldDescription',
      P.worldDescriptionMessages(input),
      (w: z.infer<typeof wire.worldDescription>) => w,
      worldDescriptionSchema,
      // ≈ 3.5 characters a token, and the JSON around it.
      { sampling: 'creative', maxTokens: Math.ceil(max / 3.5) + 80 },
      opts?.signal,
    );
    // The schema caps at 1200; the player's own max may be lower, and a sentence boundary reads better than a cut word.
    if (r.description.length <= max) return r;
    const cut = r.description.slice(0, max);
    const end = Math.max(cut.lastIndexOf('. '), cut.lastIndexOf('! '), cut.lastIndexOf('? '));
    return { description: end > max / 2 ? cut.slice(0, end + 1) : cut.trimEnd() };
  }

  generateWorldQuestions(input: WorldQuestionsInput, opts?: CallOptions): Promise<WorldQuestionsResult> {
    return this.structured(
      'worldQuestions',
      'worldQuestions',
      P.worldQuestionsMessages(input),
      (w: z.infer<typeof wire.worldQuestions>) => ({
        questions: w.questions.map((q) => (q.trim().endsWith('?') ? q.trim() : `${q.trim().replace(/[.!]+$/, '')}?`)),
      }),
      worldQuestionsSchema,
      { sampling: 'creative', maxTokens: 320 },
      opts?.signal,
    );
  }

  async generateCharacter(input: CharacterInput, opts?: CallOptions): Promise<CharacterResult> {
    const r = await this.structured(
      'character',
      'character',
      P.characterMessages(input),
      (w: z.infer<typeof wire.character>) => w,
      characterSchema,
      // A description of up to 3,000 characters and the lists: ≈ 1,200 tokens at most.
      { sampling: 'creative', maxTokens: 1400 },
      opts?.signal,
    );
    // The player chose the name; the model does not get to change it.
    return { ...r, username: input.username.trim().slice(0, 60) || r.username };
  }

  generateMission(input: MissionInput, opts?: CallOptions): Promise<MissionResult> {
    return this.structured(
      'mission',
      'mission',
      P.missionMessages(input),
      (w: z.infer<typeof wire.mission>) => w,
      missionSchema,
      { sampling: 'creative', maxTokens: 120 },
      opts?.signal,
    );
  }

  /** Styles degrade instead of failing: a bad or missing answer gives the offline palette for the setting. */
  async generateStyles(input: StylesInput, opts?: CallOptions): Promise<StyleSet> {
    try {
      const raw = await this.structured(
        'styles',
        'styles',
        P.stylesMessages(input),
        (w: z.infer<typeof wire.styles>) => w,
        wire.styles,
        { sampling: 'structure', maxTokens: 420 },
        opts?.signal,
      );
      return sanitizeStyles(raw);
    } catch (e) {
      if (opts?.signal?.aborted) throw cancelled();
      void e;
      return offlineStyles(input.settingDescription);
    }
  }

  summarize(input: SummarizeInput, opts?: CallOptions): Promise<SummaryResult> {
    // The summary's share of the prompt, and room for the JSON around it.
    const maxTokens = Math.ceil((input.maxTokens ?? 400) * 1.25) + 60;
    return this.structured(
      'summary',
      'summary',
      P.summaryMessages(input),
      (w: z.infer<typeof wire.summary>) => w,
      summarySchema,
      { sampling: 'structure', maxTokens },
      opts?.signal,
    );
  }

  async generateWorldImage(input: WorldImageInput, opts?: CallOptions): Promise<WorldImageResult> {
    if (this.imageModel) {
      try {
        const started = performance.now();
        const model = this.imageModel;
        const isDalle = model.startsWith('dall-e');
        const res = await this.withRetry(
          (s) =>
            this.client.images.generate(
              {
                model,
                prompt: P.imagePrompt(input),
                n: 1,
                size: isDalle ? '1792x1024' : '1536x1024',
                ...(isDalle ? { response_format: 'b64_json' as const } : {}),
              },
              { signal: s },
            ),
          opts?.signal,
        );
        this.recordUsage(
          'worldImage',
          res.usage ? { prompt_tokens: res.usage.input_tokens, completion_tokens: res.usage.output_tokens, total_tokens: res.usage.total_tokens } : null,
          started,
          1,
        );
        const b64 = res.data?.[0]?.b64_json;
        if (b64) {
          let quality = 84;
          const base = sharp(Buffer.from(b64, 'base64')).resize(IMAGE_WIDTH, IMAGE_HEIGHT, { fit: 'cover' });
          let bytes = await base.clone().jpeg({ quality, mozjpeg: true }).toBuffer();
          while (bytes.length > IMAGE_MAX_BYTES && quality > 40)
            bytes = await base
              .clone()
              .jpeg({ quality: (quality -= 12), mozjpeg: true })
              .toBuffer();
          return { mime: 'image/jpeg', bytes, width: IMAGE_WIDTH, height: IMAGE_HEIGHT, source: 'model' };
        }
      } catch (e) {
        if (opts?.signal?.aborted) throw cancelled();
        void e; // fall back to procedural art: a world always gets a picture
      }
    }
    const img = await paintWorldImage(input.worldDescription, input.seed ?? 0);
    return { mime: 'image/jpeg', bytes: img.bytes, width: img.width, height: img.height, source: 'procedural' };
  }

  /**
   * Streams the chapter as prose (chapter-answer.ts): the prose goes to the reader as it comes, the
   * next actions as soon as they are complete, then the chapter's record is validated — and, when it
   * is missing or off-schema, written again by a call of its own (json_schema, with the usual
   * fallbacks) that shares the chapter's prompt as its prefix. The prose is never rewritten. Transport
   * failures before the first word are retried like any request; after it they fail the chapter (we
   * cannot take back streamed text). A model that answers the old way (the whole chapter as one JSON
   * object) is understood too.
   */
  async *streamChapter(input: ChapterInput, opts?: CallOptions): AsyncIterable<ChapterEvent> {
    const prompt = P.chapterMessages(input, this.missionInChapter);
    const cut = prompt.report.omitted.filter((o) => o.reason.startsWith('cut to fit'));
    if (cut.length) {
      // Counted and logged: a story that keeps hitting this needs a larger tier or a shorter description.
      this.opts.onTrim?.('openai');
      this.opts.log?.warn("chapter prompt cut to fit the tier's context", {
        maxContextTokens: input.maxContextTokens,
        chapterNumber: input.chapterNumber,
        cut: cut.length,
      });
    }
    const usage: Usage[] = [];
    let answer = new ChapterAnswerStream();
    /** The prose the player has read so far (what the deltas carried). */
    let shown = '';
    let choicesShown: string[] | null = null;
    for (let retry = 0; ; retry++) {
      if (opts?.signal?.aborted) throw cancelled();
      const dl = deadline(opts?.signal, this.opts.timeoutMs);
      const started = performance.now();
      const think = new ThinkFilter();
      answer = new ChapterAnswerStream();
      const feed = (chunk: string, end = false) => {
        const a = answer.push(chunk);
        const b = end ? answer.end() : { prose: '', choices: null };
        const prose = plainAngles(a.prose + b.prose);
        const choices = a.choices ?? b.choices;
        shown += prose;
        return { prose, choices };
      };
      try {
        const stream = await this.client.chat.completions.create(
          {
            model: this.opts.model,
            messages: prompt.messages,
            ...this.sampling(input.differentFrom ? 'retake' : 'prose'),
            ...this.limit(prompt.maxTokens),
            stream: true,
            stream_options: { include_usage: true },
          },
          { signal: dl.signal },
        );
        let chunkUsage: OpenAI.Completions.CompletionUsage | null = null;
        for await (const chunk of stream) {
          // Any chunk shows the server is alive — also reasoning_content, which is never shown.
          dl.touch();
          if (chunk.usage) chunkUsage = chunk.usage;
          const delta = chunk.choices[0]?.delta?.content;
          if (!delta) continue;
          const { prose, choices } = feed(think.push(delta));
          if (prose) yield { type: 'delta', text: prose };
          if (choices) {
            choicesShown = choices.map(plainAngles);
            yield { type: 'choices', choices: choicesShown };
          }
        }
        // The SDK may end the iteration quietly when its signal aborts: that is a timeout or a
        // cancellation, never a complete chapter.
        if (dl.signal.aborted) throw new Error('stream aborted');
        const { prose, choices } = feed(think.flush(), true);
        if (prose) yield { type: 'delta', text: prose };
        if (choices) {
          choicesShown = choices.map(plainAngles);
          yield { type: 'choices', choices: choicesShown };
        }
        usage.push(this.recordUsage('chapter', chunkUsage, started, retry + 1));
        break;
      } catch (e) {
        const c = this.classify(e, dl, opts?.signal);
        if (!shown && c.error instanceof AppError && this.switchTokenParam(c.error)) {
          retry--; // not a failure of the server: the same request with the length limit it takes
          continue;
        }
        const wait = !shown && c.retryable && retry < this.maxRetries ? this.backoff(retry, c.retryAfterMs) : null;
        if (wait === null) throw c.error;
        dl.dispose();
        await sleep(wait, opts?.signal);
      } finally {
        // Also runs when the consumer stops iterating early: the upstream request is aborted.
        dl.dispose();
      }
    }

    let prose = shown.trim();
    let choices = choicesShown ?? answer.choices.map(plainAngles);
    let record = recordIn(answer.record);
    // The old way: the whole chapter as one JSON object (a model that ignores the format, or a server
    // that only speaks JSON). Its text becomes the prose; nothing of it was shown as prose.
    if (answer.mode === 'json' || prose.length < MIN_PROSE) {
      const whole = wholeChapterIn(answer.text);
      if (whole) {
        // Its text streamed when it came first (the reader has it); otherwise it goes out now.
        if (!prose) yield { type: 'delta', text: whole.text };
        if (prose.length < MIN_PROSE) prose = whole.text;
        if (choices.length < 3) {
          choices = whole.choices;
          yield { type: 'choices', choices };
        }
        record ??= whole;
      }
    }
    if (prose.length < MIN_PROSE) {
      throw new AppError('GENERATION_FAILED', 'The story AI wrote no chapter.', { reason: 'invalid_output', operation: 'chapter' });
    }
    if (prose.length > CHAPTER_TEXT_MAX) prose = cutAtParagraph(prose, CHAPTER_TEXT_MAX);
    if (choices.length < 3) choices = [];
    if (!record || choices.length === 0) {
      // The record (and the actions, when there were none) from a call of their own: the prose stays as written.
      const repaired = await this.structured(
        'chapter',
        choices.length ? 'record' : 'recordWithChoices',
        P.chapterRecordMessages(prompt.messages, prose, choices),
        (w: z.infer<(typeof wire)['record']> & { choices?: string[] }) => recordFromWire(w),
        chapterRecordSchema,
        { sampling: 'structure', maxTokens: RECORD_MAX_TOKENS },
        opts?.signal,
        usage,
      );
      record = repaired;
      if (choices.length === 0) {
        choices = repaired.choices ?? [];
        if (choices.length) yield { type: 'choices', choices };
      }
    }
    const result = chapterResultSchema.safeParse({ ...record, text: prose, choices });
    if (!result.success) {
      throw new AppError('GENERATION_FAILED', `The story AI kept returning an invalid chapter (${formatIssues(result.error.issues).slice(0, 200)}).`, {
        reason: 'invalid_output',
        operation: 'chapter',
      });
    }
    yield { type: 'final', result: result.data, usage, report: { provider: 'openai', model: this.opts.model, ...prompt.report } };
  }
}

/** A chapter shorter than this is no chapter (the schema's minimum). */
const MIN_PROSE = 200;
/** The record repair's answer: the record, and the actions when they were missing. */
const RECORD_MAX_TOKENS = 480;

/** The record of an answer, when it parses and validates; null otherwise (then it is written again). */
function recordIn(raw: string): ChapterRecord | null {
  if (!raw.trim()) return null;
  try {
    const w = wire.record.safeParse(normaliseWire('record', parseModelJson(raw)));
    if (!w.success) return null;
    const r = chapterRecordSchema.safeParse(recordFromWire(w.data));
    return r.success ? r.data : null;
  } catch {
    return null;
  }
}

/** An answer written the old way (one JSON object with the text), as a record with its text and actions. */
function wholeChapterIn(raw: string): (ChapterRecord & { text: string; choices: string[] }) | null {
  try {
    const w = wire.chapter.safeParse(normaliseWire('chapter', parseModelJson(raw)));
    if (!w.success) return null;
    const r = chapterResultSchema.safeParse(chapterFromWire(w.data));
    return r.success ? r.data : null;
  } catch {
    return null;
  }
}

function cutAtParagraph(text: string, max: number): string {
  const cut = text.slice(0, max);
  const para = cut.lastIndexOf('\n\n');
  if (para > max / 2) return cut.slice(0, para).trimEnd();
  const sentence = Math.max(cut.lastIndexOf('. '), cut.lastIndexOf('! '), cut.lastIndexOf('? '));
  return sentence > max / 2 ? cut.slice(0, sentence + 1) : cut.trimEnd();
}

function formatIssues(issues: ReadonlyArray<{ path: ReadonlyArray<PropertyKey>; message: string }>): string {
  return issues
    .slice(0, 6)
    .map((i) => `${i.path.map(String).join('.') || '(root)'}: ${i.message}`)
    .join('; ');
}
