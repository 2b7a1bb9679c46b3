import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { PromptReport, Usage } from '../ai/story-ai';

/** Operation names come from clients: only well-formed ones become labels, and only this many. */
const MAX_OPERATION_LABELS = 300;
const OPERATION_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,79}$/;

/**
 * Prometheus metrics of one app (its own registry, so several apps in one test process never share
 * counters). Other modules report through the small hook methods below; nothing else touches
 * prom-client. Served at GET /metrics.
 */
export class Metrics {
  readonly registry = new Registry();
  private readonly operationNames = new Set<string>();

  private readonly requestDuration = new RequestHistogram(
    'taleforge_request_duration_seconds',
    'Time to answer an HTTP request, by surface (graphql, rest, page) and operation (GraphQL operation name or REST route).',
    [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
    this.registry,
  );
  /** Cache hits since the last scrape: a number to add to, folded into the counter when it is read. */
  private unreportedHits = 0;
  private readonly responseCache = new Counter({
    name: 'taleforge_response_cache_total',
    help: 'Public GraphQL responses served from the response cache (hit) or computed and stored (miss).',
    labelNames: ['result'] as const,
    registers: [this.registry],
    collect: () => {
      if (this.unreportedHits === 0) return;
      this.responseCache.inc({ result: 'hit' }, this.unreportedHits);
      this.unreportedHits = 0;
    },
  });
  private readonly generationDuration = new Histogram({
    name: 'taleforge_generation_duration_seconds',
    help: 'Story AI calls, by kind (chapter, character, world_description, …) and outcome (ok, failed).',
    labelNames: ['kind', 'outcome'] as const,
    buckets: [0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 20, 30, 60, 120],
    registers: [this.registry],
  });
  private readonly tokens = new Counter({
    name: 'taleforge_ai_tokens_total',
    help: 'Tokens used by the story AI, by provider (openai, offline: estimated) and kind (prompt, completion, cached_prompt).',
    labelNames: ['provider', 'kind'] as const,
    registers: [this.registry],
  });
  private readonly creditsSpent = new Counter({
    name: 'taleforge_credits_spent_total',
    help: 'Credits spent by players (committed debits), by reason.',
    labelNames: ['reason'] as const,
    registers: [this.registry],
  });
  private readonly creditsGranted = new Counter({
    name: 'taleforge_credits_granted_total',
    help: 'Credits added to balances (committed grants and refunds), by reason.',
    labelNames: ['reason'] as const,
    registers: [this.registry],
  });
  private readonly promptTrims = new Counter({
    name: 'taleforge_prompt_trims_total',
    help: "Chapter prompts cut to fit the tier's context (the oldest verbatim lines, the summary or the character description), by provider.",
    labelNames: ['provider'] as const,
    registers: [this.registry],
  });
  private readonly promptSectionTokens = new Histogram({
    name: 'taleforge_prompt_section_tokens',
    help: 'Tokens each section of a chapter prompt took (rules, world, world_material, character, essentials, pinned_cards, summary, memories, cards, people, history, turn), by provider: what the storyteller remembered.',
    labelNames: ['provider', 'section'] as const,
    buckets: [16, 32, 64, 128, 256, 512, 1024, 2048, 4096, 8192, 16384],
    registers: [this.registry],
  });
  private readonly promptFill = new Histogram({
    name: 'taleforge_prompt_fill_ratio',
    help: "A chapter prompt's tokens over the room the tier's context leaves it (the context minus the answer's).",
    labelNames: ['provider'] as const,
    buckets: [0.25, 0.5, 0.75, 0.9, 0.95, 1, 1.05],
    registers: [this.registry],
  });
  private readonly promptOmissions = new Counter({
    name: 'taleforge_prompt_omissions_total',
    help: 'Parts of a story left out of chapter prompts (a card, a memory, an older chapter, a cut description), by the section they belong to.',
    labelNames: ['provider', 'section'] as const,
    registers: [this.registry],
  });
  private readonly rateLimited = new Counter({
    name: 'taleforge_rate_limited_total',
    help: 'Requests refused by the per-IP or per-player rate limits.',
    labelNames: ['scope'] as const,
    registers: [this.registry],
  });
  private readonly rejectedOperations = new Counter({
    name: 'taleforge_graphql_rejected_total',
    help: 'GraphQL documents refused by the depth, alias, cost, token or directive limits.',
    labelNames: ['limit'] as const,
    registers: [this.registry],
  });
  readonly wsConnections = new Gauge({
    name: 'taleforge_websocket_connections',
    help: 'Open graphql-ws connections on this instance.',
    registers: [this.registry],
  });

  constructor(options: { defaultMetrics?: boolean } = {}) {
    // Process metrics (CPU, memory, event-loop lag) once per registry; tests with many apps skip them.
    if (options.defaultMetrics !== false) collectDefaultMetrics({ register: this.registry, prefix: 'taleforge_' });
  }

  /** A GraphQL operation name as a bounded label (anonymous or unruly names collapse). */
  operationLabel(name: string | null | undefined): string {
    if (!name) return 'anonymous';
    if (!OPERATION_NAME.test(name)) return 'invalid';
    if (this.operationNames.has(name)) return name;
    if (this.operationNames.size >= MAX_OPERATION_LABELS) return 'other';
    this.operationNames.add(name);
    return name;
  }

  observeRequest(surface: 'graphql' | 'rest' | 'page' | 'ops', operation: string, status: number, seconds: number): void {
    this.requestDuration.observe(surface, operation, status, seconds);
  }

  /**
   * One series' timing, resolved now and observed later without a lookup: a cached answer keeps
   * its own, so a hit costs an array write (and a GraphQL hit no operation-name check).
   */
  requestMeter(surface: 'graphql' | 'rest', operation: string | null, status: number): (seconds: number) => void {
    const series = this.requestDuration.seriesFor(surface, surface === 'graphql' ? this.operationLabel(operation) : (operation ?? 'unmatched'), status);
    return (seconds) => this.requestDuration.add(series, seconds);
  }

  cache(result: 'hit' | 'miss'): void {
    // Hits are the cheapest requests there are: one addition each (prom-client's inc is ~10× that).
    if (result === 'hit') this.unreportedHits++;
    else this.responseCache.inc({ result });
  }

  /** Hook: one story AI call finished (see instrument-ai.ts). */
  observeGeneration(kind: string, outcome: 'ok' | 'failed', seconds: number): void {
    this.generationDuration.observe({ kind, outcome }, seconds);
  }

  /** Hook: the provider reported usage for one request (StoryAIOptions.onUsage). */
  recordUsage = (usage: Usage): void => {
    const provider = usage.provider;
    if (usage.promptTokens > 0) this.tokens.inc({ provider, kind: 'prompt' }, usage.promptTokens);
    if (usage.completionTokens > 0) this.tokens.inc({ provider, kind: 'completion' }, usage.completionTokens);
    if (usage.cachedPromptTokens > 0) this.tokens.inc({ provider, kind: 'cached_prompt' }, usage.cachedPromptTokens);
  };

  /** Hook: a chapter prompt was cut to fit the tier's context (StoryAIOptions.onTrim). */
  recordTrim = (provider: string): void => {
    this.promptTrims.inc({ provider });
  };

  /** Hook: what a committed chapter was written from (GenerationEngine). Section keys are the code's own: bounded labels. */
  observePrompt = (report: PromptReport): void => {
    const provider = report.provider;
    for (const s of report.sections) this.promptSectionTokens.observe({ provider, section: sectionLabel(s.key) }, s.tokens);
    const room = report.maxContextTokens - report.reservedTokens;
    if (room > 0) this.promptFill.observe({ provider }, report.promptTokens / room);
    for (const o of report.omitted) this.promptOmissions.inc({ provider, section: sectionLabel(o.section) });
  };

  /** Hook: a committed ledger row (see credit-metrics.ts). Negative deltas are spending. */
  recordCredits(delta: number, reason: string): void {
    if (delta < 0) this.creditsSpent.inc({ reason }, -delta);
    else if (delta > 0) this.creditsGranted.inc({ reason }, delta);
  }

  rateLimitedRequest(scope: 'ip' | 'user'): void {
    this.rateLimited.inc({ scope });
  }

  rejectedOperation(limit: string): void {
    this.rejectedOperations.inc({ limit });
  }

  render(): Promise<string> {
    return this.registry.metrics();
  }
}

interface Series {
  labels: Record<string, string>;
  /** Per bucket (the last one: above every bound), not cumulative. */
  counts: number[];
  sum: number;
  count: number;
}

/**
 * The request-duration histogram, observed by every request. prom-client's Histogram.observe turns
 * the bucket bound into a string key on every call (1.5–2 µs measured here, as much as a cached read's
 * whole answer costs); this keeps each series' counts in an array and writes prom-client's exposition
 * lines (the same names, labels and order) when /metrics is read. Registered like any prom-client
 * metric: the registry only calls `get()`.
 */
class RequestHistogram {
  readonly type = 'histogram';
  readonly aggregator = 'sum';
  private readonly series = new Map<string, Series>();

  constructor(
    readonly name: string,
    readonly help: string,
    private readonly bounds: number[],
    registry: Registry,
  ) {
    registry.registerMetric(this as unknown as Histogram);
  }

  observe(surface: string, operation: string, status: number, seconds: number): void {
    this.add(this.seriesFor(surface, operation, status), seconds);
  }

  seriesFor(surface: string, operation: string, status: number): Series {
    const key = `${surface}\n${status}\n${operation}`;
    let s = this.series.get(key);
    if (!s) {
      s = { labels: { surface, operation, status: String(status) }, counts: new Array<number>(this.bounds.length + 1).fill(0), sum: 0, count: 0 };
      this.series.set(key, s);
    }
    return s;
  }

  add(s: Series, seconds: number): void {
    let i = 0;
    while (i < this.bounds.length && seconds > this.bounds[i]) i++;
    s.counts[i]++;
    s.sum += seconds;
    s.count++;
  }

  get(): Promise<{
    name: string;
    help: string;
    type: string;
    aggregator: string;
    values: Array<{ labels: Record<string, string | number>; value: number; metricName: string }>;
  }> {
    const values = [];
    for (const s of this.series.values()) {
      let acc = 0;
      for (let i = 0; i < this.bounds.length; i++) {
        acc += s.counts[i];
        values.push({ labels: { le: this.bounds[i], ...s.labels }, value: acc, metricName: `${this.name}_bucket` });
      }
      values.push({ labels: { le: '+Inf', ...s.labels }, value: s.count, metricName: `${this.name}_bucket` });
      values.push({ labels: { ...s.labels }, value: s.sum, metricName: `${this.name}_sum` });
      values.push({ labels: { ...s.labels }, value: s.count, metricName: `${this.name}_count` });
    }
    return Promise.resolve({ name: this.name, help: this.help, type: this.type, aggregator: this.aggregator, values });
  }
}

function sectionLabel(key: string): string {
  return /^[a-z_]{1,24}$/.test(key) ? key : 'other';
}
