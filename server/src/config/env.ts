import fs from 'node:fs';
import path from 'node:path';
import { parseEnv } from 'node:util';

/**
 * The only place that reads process.env. Every variable is validated here at boot so a bad value
 * fails fast with a message naming the variable, instead of surfacing later as a confusing error.
 */
export interface Config {
  nodeEnv: 'development' | 'production' | 'test';
  host: string;
  port: number;
  /** Where PGlite keeps its files (and the lock file) when DATABASE_URL is not set. */
  dataDir: string;
  /** PostgreSQL connection string; undefined → embedded PGlite under dataDir. */
  databaseUrl?: string;
  /** When true (tests), PGlite runs in memory: nothing is written under dataDir. */
  databaseInMemory: boolean;
  /**
   * Where PGlite runs: on a worker thread of its own (default; its statements never stall the event
   * loop) or on the app's thread (less CPU per statement: no thread hand-offs; for one-core hosts).
   */
  pgliteThread: 'worker' | 'main';
  /**
   * The featured worlds' pictures when a database is seeded: the offline storyteller's procedural art
   * (default, ~0.2 s each, on the painter thread), or a flat picture in the world's colour (tests: seeding then takes
   * milliseconds; the art itself is tested where it is drawn and in one boot test).
   */
  seedImages: 'procedural' | 'placeholder';
  redisUrl?: string;
  /** HS256 secret for access tokens; undefined → generated once and kept in the database. */
  jwtSecret?: string;
  accessTokenTtlSeconds: number;
  refreshTokenTtlSeconds: number;
  /** Public base URL of the app, used in links we hand out (checkout return URLs). */
  publicUrl: string;
  /** Built client (index.html, assets). */
  clientDistDir: string;
  bodyLimitBytes: number;
  /**
   * Largest /graphql body for any caller: small, because a body is parsed and its variables coerced
   * before the operation runs (large anonymous bodies stalled the event loop).
   */
  graphqlBodyLimitBytes: number;
  /** Signed-in players' image uploads over /graphql (submitWorld, importCharacterCard: ≤ 5 MB as a data URL). */
  graphqlUploadBodyLimitBytes: number;
  /** Free generations (descriptions, questions, images) per user and window; they cost compute or API money. */
  generationRateLimit: { perUserPerWindow: number; windowSeconds: number };
  /**
   * Sign-in and sign-up attempts: per client IP (any account), per account from one IP, and failed
   * sign-ins per account from all IPs together; past that last budget only addresses the account has
   * signed in from before may try (a guessing campaign cannot lock the owner out of a known device,
   * and a few wrong passwords from many addresses lock out no one).
   */
  authRateLimit: { perIpPerWindow: number; perEmailPerWindow: number; perAccountFailuresPerWindow: number; windowSeconds: number };
  /** Credits granted to every new account on the Free tier. */
  signupCredits: number;
  openai: {
    apiKey?: string;
    baseUrl?: string;
    model: string;
    timeoutMs: number;
    callTimeoutMs: number;
    /** Sampling of a chapter's prose (other calls are sampled per kind: see openai-story-ai.ts sampling()). */
    temperature?: number;
    topP?: number;
    presencePenalty?: number;
    frequencyPenalty?: number;
    /** Added to every call's max_tokens for a reasoning model (it thinks before it answers). */
    reasoningTokens: number;
    responseFormat: 'auto' | 'json_schema' | 'json_object' | 'none';
    /** How prompts are counted against a tier's context: a BPE vocabulary, or the chars/4 estimate. */
    tokenizer: 'o200k_base' | 'cl100k_base' | 'estimate';
    /** OPENAI_MODEL was set (a local server's own first model is used otherwise). */
    modelNamed: boolean;
  };
  /** MODEL_SERVER: 'auto' (the first local server found) or a server's URL; unset: boot only says what it found. */
  modelServer?: string;
  /** Loopback ports looked at for a local model server (Ollama, LM Studio, llama.cpp, KoboldCpp). */
  modelServerPorts: number[];
  /** TIER_MODELS: the model a tier's stories are written with (tier id → model); others use OPENAI_MODEL. */
  tierModels: Record<string, string>;
  /**
   * The memory bank's embeddings (an OpenAI-compatible /embeddings): off unless a model is named.
   * The server and key default to the story AI's (OPENAI_BASE_URL, OPENAI_API_KEY).
   */
  embeddings: { model?: string; baseUrl?: string; apiKey?: string; timeoutMs: number };
  /**
   * Read-aloud's server voice (an OpenAI-compatible `/audio/speech`): offered only when a key is
   * configured (TTS_API_KEY, else OPENAI_API_KEY; a local speech server takes any key) and TTS_MODEL
   * is not `off`. The server defaults to the story AI's (OPENAI_BASE_URL).
   */
  tts: { model: string; baseUrl?: string; apiKey?: string; voices: string[]; timeoutMs: number };
  stripe: { secretKey?: string; webhookSecret?: string; apiHost?: string; apiPort?: number; apiProtocol?: 'http' | 'https' };
  /** How often each instance grants due Free-tier and local-checkout renewals (0 = only lazily on reads). */
  billingSweepSeconds: number;
  /**
   * The embedded checkout's payments are fake: in production it would give paid tiers away. It runs
   * there only when LOCAL_CHECKOUT_DEMO=true says the deployment is a demo (boot warns loudly).
   */
  localCheckoutDemo: boolean;
  /**
   * A charge whose generation has not reported back after this long is refunded (its process died).
   * Longer than any generation can take: OPENAI_TIMEOUT_MS per call, a few calls with retries.
   */
  chargeReconcileSeconds: number;
  /** How often an open WebSocket re-checks its access token (expired or revoked → closed with 4401). */
  wsAuthRecheckSeconds: number;
  /**
   * How long an instance may reuse a session check / a player's balance without reading the database
   * again (0 = never). Sign-out, refresh-token reuse and every credit change invalidate at once on
   * every instance (Redis); the TTL bounds staleness only while such a broadcast cannot arrive.
   */
  sessionCacheSeconds: number;
  creditsCacheSeconds: number;
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  /** Production hardening (server/src/ops): limits, headers, caching, shutdown. */
  ops: OpsConfig;
  mail: {
    /** smtp:// or smtps:// (user and password in the URL); unset: mails go to the outbox folder. */
    smtpUrl?: string;
    /** The From of every mail. */
    from: string;
    /** Where mails are written without SMTP (the embedded default): one .eml file each. */
    outboxDir: string;
    /** Sign-up mails a confirmation link, and sign-in waits for it (off by default: the embedded demo needs no mail). */
    requireEmailConfirmation: boolean;
  };
  /**
   * Mails one address may receive per hour and per day, of every kind together, whoever asks. Past it
   * mail to the address is dropped silently (the requests answer as always); the owner asking from an
   * address they signed in from before has an allowance of the same size that strangers cannot spend.
   */
  mailBudget: { perAddressPerHour: number; perAddressPerDay: number };
  community: {
    /** The weight of open reports (distinct players) that hides a shared world or published story pending review. */
    reportThreshold: number;
    /**
     * A report weighs 1 toward hiding from an account at least this old that has played at least this
     * many chapters (it could not have been made for the report); reports of newer accounts weigh
     * `newAccountReportWeight`. Featured worlds are never hidden by reports.
     */
    trustedReporter: { minAccountAgeHours: number; minChapters: number };
    newAccountReportWeight: number;
    /** Told by mail whenever reports hide something (the review queue is `npm run admin -- reports`). */
    operatorEmail?: string;
    /** OpenAI moderation model used for shared content when an API key is set. */
    moderationModel: string;
  };
  /** Party play (issue 34): timers, invites and what a party chapter costs. */
  party: {
    /** Credits one party chapter costs its payer (the acting player, or the host with hostPays); 0 = free. */
    chapterCredits: number;
    /** Live: seconds a round stays open after its first action (a party may set its own). */
    roundSeconds: number;
    /** By post: seconds a member has for their turn before it is skipped (a party may set its own). */
    turnSeconds: number;
    /** Hours an invite code works. */
    inviteHours: number;
    /** How often each instance closes due live rounds and skips missed turns (0 = never: tests drive it). */
    sweepSeconds: number;
  };
}

export interface OpsConfig {
  /** Browser origins allowed for CORS and WebSocket upgrades, besides PUBLIC_URL's own origin. */
  corsOrigins: string[];
  /** express "trust proxy": which hops may set X-Forwarded-For (the client IP used by rate limits). */
  trustProxy: string;
  /** Requests per window per client IP and per signed-in player on /graphql, /api and WebSockets (0 = off). */
  rateLimit: { perIp: number; perUser: number; windowSeconds: number };
  /** Prefix of the rate-limit keys in Redis: deployments (or test runs) sharing one Redis keep apart. */
  rateLimitKeyPrefix: string;
  graphqlLimits: { maxDepth: number; maxAliases: number; maxCost: number; maxTokens: number; maxDirectives: number };
  /** An answer whose large texts pass this many bytes is cut off with PAYLOAD_TOO_LARGE (graphql/response-budget.ts). */
  graphqlMaxResponseBytes: number;
  /** Lifetime of cached public responses (featured worlds); writes to worlds invalidate sooner. 0 = no cache. */
  responseCacheSeconds: number;
  /** How long shutdown lets in-flight chapters finish before they are stopped (left for a retry). */
  shutdownGraceMs: number;
  /**
   * How long an idle keep-alive connection stays open. Above the proxy's own idle limit (nginx keeps
   * upstream connections 60 s), so the proxy, never this server, closes them: otherwise a request sent
   * on a connection the server is closing at that moment fails with a reset (Node's default is 5 s).
   */
  keepAliveTimeoutMs: number;
  /** When set, GET /metrics requires `Authorization: Bearer <token>`. */
  metricsToken?: string;
}

export class ConfigError extends Error {
  constructor(public readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

type Env = Record<string, string | undefined>;

const REPO_ROOT = path.resolve(__dirname, '..', '..', '..');

/**
 * KEY=value lines of a `.env` file (the format of `.env.example`), or nothing when there is none:
 * people keep their keys in one, as with every other Node app.
 */
export function readDotEnv(file = path.join(REPO_ROOT, '.env')): Env {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw e;
  }
  return parseEnv(text);
}

/** The server's configuration at boot: the environment, over the `.env` file when there is one. */
export function loadBootConfig(dotEnvFile?: string): Config {
  return loadConfig({ ...readDotEnv(dotEnvFile), ...process.env });
}

export function loadConfig(env: Env = process.env, overrides: Partial<Config> = {}): Config {
  const problems: string[] = [];
  const str = (name: string): string | undefined => {
    const v = env[name];
    return v === undefined || v.trim() === '' ? undefined : v.trim();
  };
  const int = (name: string, def: number, min: number, max: number): number => {
    const raw = str(name);
    if (raw === undefined) return def;
    const n = Number(raw);
    if (!Number.isInteger(n) || n < min || n > max) {
      problems.push(`${name} must be an integer between ${min} and ${max} (got "${raw}")`);
      return def;
    }
    return n;
  };
  const bool = (name: string, def: boolean): boolean => {
    const raw = str(name)?.toLowerCase();
    if (raw === undefined) return def;
    if (['true', '1', 'yes', 'on'].includes(raw)) return true;
    if (['false', '0', 'no', 'off'].includes(raw)) return false;
    problems.push(`${name} must be true or false (got "${raw}")`);
    return def;
  };
  const fraction = (name: string, min: number, max: number): number | undefined => {
    const raw = str(name);
    if (raw === undefined) return undefined;
    const n = Number(raw);
    if (!Number.isFinite(n) || n < min || n > max) {
      problems.push(`${name} must be a number from ${min} to ${max} (got "${raw}")`);
      return undefined;
    }
    return n;
  };
  const oneOf = <T extends string>(name: string, values: readonly T[], def: T): T => {
    const raw = str(name)?.toLowerCase();
    if (raw === undefined) return def;
    if ((values as readonly string[]).includes(raw)) return raw as T;
    problems.push(`${name} must be one of ${values.join(', ')} (got "${raw}")`);
    return def;
  };
  const url = (name: string, protocols: string[]): string | undefined => {
    const raw = str(name);
    if (raw === undefined) return undefined;
    try {
      const u = new URL(raw);
      if (!protocols.includes(u.protocol)) {
        problems.push(`${name} must use ${protocols.join(' or ')} (got "${u.protocol}")`);
      }
    } catch {
      problems.push(`${name} is not a valid URL`);
    }
    return raw;
  };

  // Ollama, LM Studio, llama.cpp's server, KoboldCpp: where players' own model servers listen by default.
  const DEFAULT_MODEL_SERVER_PORTS = [11434, 1234, 8080, 5001];
  const modelServer = (): string | undefined => {
    const raw = str('MODEL_SERVER');
    if (raw === undefined || raw === 'auto') return raw;
    return url('MODEL_SERVER', ['http:', 'https:']);
  };

  const ports = (name: string, fallback: number[]): number[] => {
    const raw = str(name);
    if (raw === undefined) return fallback;
    const list = raw.split(',').map((p) => Number(p.trim()));
    if (list.length === 0 || list.some((p) => !Number.isInteger(p) || p < 1 || p > 65535)) {
      problems.push(`${name} must be a comma-separated list of ports (got "${raw}")`);
      return fallback;
    }
    return list;
  };

  // TIER_MODELS=free=llama3.2:3b,legend=qwen2.5:32b (model names may hold colons; tier ids may not).
  const tierModels = (): Record<string, string> => {
    const raw = str('TIER_MODELS');
    const out: Record<string, string> = {};
    if (raw === undefined) return out;
    for (const pair of raw.split(',')) {
      const m = /^\s*([a-z0-9_-]+)\s*=\s*(\S+)\s*$/i.exec(pair);
      if (!m) {
        problems.push(`TIER_MODELS must be tier=model pairs separated by commas, e.g. free=llama3.2:3b,legend=qwen2.5:32b (got "${pair.trim()}")`);
        continue;
      }
      out[m[1]!.toLowerCase()] = m[2]!;
    }
    return out;
  };

  // OpenAI's voices; a local speech server (Kokoro, LocalAI…) names its own in TTS_VOICES.
  const DEFAULT_TTS_VOICES = ['alloy', 'ash', 'coral', 'echo', 'fable', 'nova', 'onyx', 'sage', 'shimmer'];
  const tts = (): Config['tts'] => {
    const model = str('TTS_MODEL') ?? 'gpt-4o-mini-tts';
    const apiKey = str('TTS_API_KEY') ?? str('OPENAI_API_KEY');
    const raw = str('TTS_VOICES');
    const voices =
      raw === undefined
        ? DEFAULT_TTS_VOICES
        : [
            ...new Set(
              raw
                .split(',')
                .map((v) => v.trim())
                .filter(Boolean),
            ),
          ];
    if (voices.length === 0 || voices.some((v) => !/^[A-Za-z0-9_.:-]{1,64}$/.test(v))) {
      problems.push(`TTS_VOICES must be a comma-separated list of voice names (letters, digits, _ . : -; got "${raw}")`);
    }
    return {
      model,
      // OPENAI_BASE_URL is checked with the story AI's settings.
      baseUrl: url('TTS_BASE_URL', ['http:', 'https:']) ?? str('OPENAI_BASE_URL'),
      // `off` turns the server voice off even with a key (the browser's voice still reads).
      apiKey: model.toLowerCase() === 'off' ? undefined : apiKey,
      voices,
      timeoutMs: int('TTS_TIMEOUT_MS', 60_000, 1000, 600_000),
    };
  };

  const emailAddress = (name: string): string | undefined => {
    const raw = str(name);
    if (raw === undefined) return undefined;
    if (!/^[^\s@<>]+@[^\s@<>]+\.[^\s@<>]+$/.test(raw)) problems.push(`${name} must be an email address (got "${raw}")`);
    return raw.toLowerCase();
  };

  /** A comma-separated list of origins (scheme://host[:port]), each normalised by URL. */
  const origins = (name: string): string[] => {
    const raw = str(name);
    if (raw === undefined) return [];
    const out: string[] = [];
    for (const item of raw
      .split(',')
      .map((x) => x.trim())
      .filter(Boolean)) {
      try {
        const u = new URL(item);
        if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new Error('scheme');
        out.push(u.origin);
      } catch {
        problems.push(`${name} must be a comma-separated list of http(s) origins (bad entry "${item}")`);
      }
    }
    return out;
  };

  const nodeEnvRaw = str('NODE_ENV') ?? 'development';
  const nodeEnv = (['development', 'production', 'test'].includes(nodeEnvRaw) ? nodeEnvRaw : 'development') as Config['nodeEnv'];
  const port = int('PORT', 4000, 0, 65535);
  const jwtSecret = str('JWT_SECRET');
  if (jwtSecret !== undefined && jwtSecret.length < 32) problems.push('JWT_SECRET must be at least 32 characters');

  const logLevelRaw = str('LOG_LEVEL') ?? (nodeEnv === 'test' ? 'silent' : 'info');
  const logLevels = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];
  if (!logLevels.includes(logLevelRaw)) problems.push(`LOG_LEVEL must be one of ${logLevels.join(', ')}`);

  const pgliteThread = str('PGLITE_THREAD') ?? 'worker';
  if (pgliteThread !== 'worker' && pgliteThread !== 'main') problems.push('PGLITE_THREAD must be worker or main');

  const seedImages = oneOf('SEED_IMAGES', ['procedural', 'placeholder'] as const, 'procedural');

  const stripeApiBase = url('STRIPE_API_BASE', ['http:', 'https:']);
  let stripeApi: Pick<Config['stripe'], 'apiHost' | 'apiPort' | 'apiProtocol'> = {};
  if (stripeApiBase && problems.length === 0) {
    const u = new URL(stripeApiBase);
    stripeApi = {
      apiHost: u.hostname,
      apiPort: u.port ? Number(u.port) : undefined,
      apiProtocol: u.protocol === 'http:' ? 'http' : 'https',
    };
  }

  const stripeSecretKey = str('STRIPE_SECRET_KEY');
  const stripeWebhookSecret = str('STRIPE_WEBHOOK_SECRET');
  // Without the webhook secret no payment could ever be confirmed: fail at boot, not after a charge.
  if (stripeSecretKey && !stripeWebhookSecret) problems.push('STRIPE_WEBHOOK_SECRET is required when STRIPE_SECRET_KEY is set');
  const localCheckoutDemo = bool('LOCAL_CHECKOUT_DEMO', false);
  // Without Stripe the local checkout serves: its test payments grant real tiers and credits, which in
  // production means free paid tiers for anyone. Refuse to boot unless a demo is explicitly wanted.
  if (nodeEnv === 'production' && !stripeSecretKey && !localCheckoutDemo) {
    problems.push(
      'NODE_ENV=production needs STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET: without them the local test checkout would give paid tiers away. Set LOCAL_CHECKOUT_DEMO=true only for a demo whose payments are fake.',
    );
  }

  const config: Config = {
    nodeEnv,
    host: str('HOST') ?? '0.0.0.0',
    port,
    dataDir: path.resolve(str('DATA_DIR') ?? path.join(REPO_ROOT, 'data')),
    databaseUrl: url('DATABASE_URL', ['postgres:', 'postgresql:']),
    databaseInMemory: false,
    pgliteThread: pgliteThread === 'main' ? 'main' : 'worker',
    seedImages,
    redisUrl: url('REDIS_URL', ['redis:', 'rediss:']),
    jwtSecret,
    accessTokenTtlSeconds: int('ACCESS_TOKEN_TTL_SECONDS', 3600, 60, 24 * 3600),
    refreshTokenTtlSeconds: int('REFRESH_TOKEN_TTL_SECONDS', 30 * 24 * 3600, 3600, 365 * 24 * 3600),
    publicUrl: (url('PUBLIC_URL', ['http:', 'https:']) ?? `http://localhost:${port}`).replace(/\/$/, ''),
    clientDistDir: path.resolve(str('CLIENT_DIST_DIR') ?? path.join(REPO_ROOT, 'client', 'dist')),
    bodyLimitBytes: int('BODY_LIMIT_BYTES', 1024 * 1024, 1024, 50 * 1024 * 1024),
    graphqlBodyLimitBytes: int('GRAPHQL_BODY_LIMIT_BYTES', 256 * 1024, 1024, 50 * 1024 * 1024),
    graphqlUploadBodyLimitBytes: int('GRAPHQL_UPLOAD_BODY_LIMIT_BYTES', 8 * 1024 * 1024, 1024, 50 * 1024 * 1024),
    generationRateLimit: {
      perUserPerWindow: int('GENERATION_RATE_LIMIT_PER_USER', 30, 1, 1_000_000),
      windowSeconds: int('GENERATION_RATE_LIMIT_WINDOW_SECONDS', 60, 1, 86_400),
    },
    authRateLimit: {
      perIpPerWindow: int('AUTH_RATE_LIMIT_PER_IP', 30, 1, 1_000_000),
      perEmailPerWindow: int('AUTH_RATE_LIMIT_PER_EMAIL', 10, 1, 1_000_000),
      perAccountFailuresPerWindow: int('AUTH_RATE_LIMIT_ACCOUNT_FAILURES', 100, 1, 1_000_000),
      windowSeconds: int('AUTH_RATE_LIMIT_WINDOW_SECONDS', 600, 1, 86_400),
    },
    signupCredits: int('SIGNUP_CREDITS', 10, 0, 1_000_000),
    mail: {
      smtpUrl: url('SMTP_URL', ['smtp:', 'smtps:']),
      from: str('MAIL_FROM') ?? 'Taleforge <no-reply@taleforge.local>',
      outboxDir: path.resolve(str('DATA_DIR') ?? path.join(REPO_ROOT, 'data'), 'outbox'),
      requireEmailConfirmation: bool('REQUIRE_EMAIL_CONFIRMATION', false),
    },
    mailBudget: {
      perAddressPerHour: int('MAIL_PER_ADDRESS_PER_HOUR', 6, 1, 10_000),
      perAddressPerDay: int('MAIL_PER_ADDRESS_PER_DAY', 24, 1, 100_000),
    },
    community: {
      reportThreshold: int('REPORT_HIDE_THRESHOLD', 3, 1, 1000),
      trustedReporter: {
        minAccountAgeHours: int('REPORT_TRUSTED_ACCOUNT_AGE_HOURS', 72, 0, 24 * 365),
        minChapters: int('REPORT_TRUSTED_MIN_CHAPTERS', 3, 0, 10_000),
      },
      newAccountReportWeight: fraction('REPORT_NEW_ACCOUNT_WEIGHT', 0, 1) ?? 0,
      operatorEmail: emailAddress('OPERATOR_EMAIL'),
      moderationModel: str('OPENAI_MODERATION_MODEL') ?? 'omni-moderation-latest',
    },
    party: {
      chapterCredits: int('PARTY_CHAPTER_CREDITS', 1, 0, 1000),
      roundSeconds: int('PARTY_ROUND_SECONDS', 300, 5, 7 * 86_400),
      turnSeconds: int('PARTY_TURN_SECONDS', 86_400, 60, 30 * 86_400),
      inviteHours: int('PARTY_INVITE_HOURS', 48, 1, 30 * 24),
      sweepSeconds: int('PARTY_SWEEP_SECONDS', 15, 0, 3600),
    },
    openai: {
      apiKey: str('OPENAI_API_KEY'),
      baseUrl: url('OPENAI_BASE_URL', ['http:', 'https:']),
      model: str('OPENAI_MODEL') ?? 'gpt-4o-mini',
      timeoutMs: int('OPENAI_TIMEOUT_MS', 60_000, 1000, 600_000),
      callTimeoutMs: int('OPENAI_CALL_TIMEOUT_MS', 180_000, 1000, 1_800_000),
      temperature: fraction('OPENAI_TEMPERATURE', 0, 2),
      topP: fraction('OPENAI_TOP_P', 0, 1),
      presencePenalty: fraction('OPENAI_PRESENCE_PENALTY', -2, 2),
      frequencyPenalty: fraction('OPENAI_FREQUENCY_PENALTY', -2, 2),
      reasoningTokens: int('OPENAI_REASONING_TOKENS', 0, 0, 100_000),
      responseFormat: oneOf('OPENAI_RESPONSE_FORMAT', ['auto', 'json_schema', 'json_object', 'none'] as const, 'auto'),
      tokenizer: oneOf('OPENAI_TOKENIZER', ['o200k_base', 'cl100k_base', 'estimate'] as const, 'o200k_base'),
      modelNamed: str('OPENAI_MODEL') !== undefined,
    },
    modelServer: modelServer(),
    modelServerPorts: ports('MODEL_SERVER_PORTS', DEFAULT_MODEL_SERVER_PORTS),
    tierModels: tierModels(),
    embeddings: {
      model: str('EMBEDDINGS_MODEL'),
      // OPENAI_BASE_URL is checked with the story AI's settings.
      baseUrl: url('EMBEDDINGS_BASE_URL', ['http:', 'https:']) ?? str('OPENAI_BASE_URL'),
      apiKey: str('EMBEDDINGS_API_KEY') ?? str('OPENAI_API_KEY'),
      timeoutMs: int('EMBEDDINGS_TIMEOUT_MS', 2000, 100, 60_000),
    },
    tts: tts(),
    stripe: {
      secretKey: stripeSecretKey,
      webhookSecret: stripeWebhookSecret,
      ...stripeApi,
    },
    billingSweepSeconds: int('BILLING_SWEEP_SECONDS', 300, 0, 86_400),
    localCheckoutDemo,
    chargeReconcileSeconds: int('CHARGE_RECONCILE_SECONDS', 600, 1, 86_400),
    wsAuthRecheckSeconds: int('WS_AUTH_RECHECK_SECONDS', 60, 1, 3600),
    sessionCacheSeconds: int('SESSION_CACHE_SECONDS', 10, 0, 300),
    creditsCacheSeconds: int('CREDITS_CACHE_SECONDS', 10, 0, 300),
    logLevel: logLevelRaw as Config['logLevel'],
    ops: {
      corsOrigins: origins('CORS_ORIGINS'),
      trustProxy: str('TRUST_PROXY') ?? 'loopback',
      rateLimit: {
        perIp: int('RATE_LIMIT_PER_IP', 600, 0, 1_000_000_000),
        perUser: int('RATE_LIMIT_PER_USER', 600, 0, 1_000_000_000),
        windowSeconds: int('RATE_LIMIT_WINDOW_SECONDS', 60, 1, 86_400),
      },
      rateLimitKeyPrefix: str('RATE_LIMIT_KEY_PREFIX') ?? 'taleforge:rl:',
      graphqlLimits: {
        maxDepth: int('GRAPHQL_MAX_DEPTH', 8, 2, 100),
        maxAliases: int('GRAPHQL_MAX_ALIASES', 15, 0, 1000),
        maxCost: int('GRAPHQL_MAX_COST', 5000, 10, 1_000_000),
        maxTokens: int('GRAPHQL_MAX_TOKENS', 2000, 100, 100_000),
        maxDirectives: int('GRAPHQL_MAX_DIRECTIVES', 50, 0, 1000),
      },
      graphqlMaxResponseBytes: int('GRAPHQL_MAX_RESPONSE_BYTES', 8 * 1024 * 1024, 64 * 1024, 512 * 1024 * 1024),
      responseCacheSeconds: int('RESPONSE_CACHE_SECONDS', 30, 0, 86_400),
      shutdownGraceMs: int('SHUTDOWN_GRACE_MS', 10_000, 0, 600_000),
      keepAliveTimeoutMs: int('HTTP_KEEP_ALIVE_TIMEOUT_MS', 65_000, 1_000, 600_000),
      metricsToken: str('METRICS_TOKEN'),
    },
    ...overrides,
  };
  if (config.embeddings.model && !config.embeddings.baseUrl && !config.embeddings.apiKey) {
    problems.push('EMBEDDINGS_MODEL needs a server: EMBEDDINGS_BASE_URL (or OPENAI_BASE_URL), or an API key for OpenAI (EMBEDDINGS_API_KEY or OPENAI_API_KEY)');
  }
  if (problems.length > 0) throw new ConfigError(problems);
  return config;
}
