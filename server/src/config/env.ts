import path from 'node:path';

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
  authRateLimit: { perIpPerWindow: number; perEmailPerWindow: number; windowSeconds: number };
  /** Credits granted to every new account on the Free tier. */
  signupCredits: number;
  openai: { apiKey?: string; baseUrl?: string; model: string; timeoutMs: number };
  stripe: { secretKey?: string; webhookSecret?: string; apiHost?: string; apiPort?: number; apiProtocol?: 'http' | 'https' };
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
}

export class ConfigError extends Error {
  constructor(public readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

type Env = Record<string, string | undefined>;

const REPO_ROOT = path.resolve(__dirname, '..', '..', '..');

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

  const nodeEnvRaw = str('NODE_ENV') ?? 'development';
  const nodeEnv = (['development', 'production', 'test'].includes(nodeEnvRaw) ? nodeEnvRaw : 'development') as Config['nodeEnv'];
  const port = int('PORT', 4000, 0, 65535);
  const jwtSecret = str('JWT_SECRET');
  if (jwtSecret !== undefined && jwtSecret.length < 32) problems.push('JWT_SECRET must be at least 32 characters');

  const logLevelRaw = str('LOG_LEVEL') ?? (nodeEnv === 'test' ? 'silent' : 'info');
  const logLevels = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];
  if (!logLevels.includes(logLevelRaw)) problems.push(`LOG_LEVEL must be one of ${logLevels.join(', ')}`);

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

  const config: Config = {
    nodeEnv,
    host: str('HOST') ?? '0.0.0.0',
    port,
    dataDir: path.resolve(str('DATA_DIR') ?? path.join(REPO_ROOT, 'data')),
    databaseUrl: url('DATABASE_URL', ['postgres:', 'postgresql:']),
    databaseInMemory: false,
    redisUrl: url('REDIS_URL', ['redis:', 'rediss:']),
    jwtSecret,
    accessTokenTtlSeconds: int('ACCESS_TOKEN_TTL_SECONDS', 3600, 60, 24 * 3600),
    refreshTokenTtlSeconds: int('REFRESH_TOKEN_TTL_SECONDS', 30 * 24 * 3600, 3600, 365 * 24 * 3600),
    publicUrl: (url('PUBLIC_URL', ['http:', 'https:']) ?? `http://localhost:${port}`).replace(/\/$/, ''),
    clientDistDir: path.resolve(str('CLIENT_DIST_DIR') ?? path.join(REPO_ROOT, 'client', 'dist')),
    bodyLimitBytes: int('BODY_LIMIT_BYTES', 1024 * 1024, 1024, 50 * 1024 * 1024),
    authRateLimit: {
      perIpPerWindow: int('AUTH_RATE_LIMIT_PER_IP', 30, 1, 1_000_000),
      perEmailPerWindow: int('AUTH_RATE_LIMIT_PER_EMAIL', 10, 1, 1_000_000),
      windowSeconds: int('AUTH_RATE_LIMIT_WINDOW_SECONDS', 600, 1, 86_400),
    },
    signupCredits: int('SIGNUP_CREDITS', 10, 0, 1_000_000),
    openai: {
      apiKey: str('OPENAI_API_KEY'),
      baseUrl: url('OPENAI_BASE_URL', ['http:', 'https:']),
      model: str('OPENAI_MODEL') ?? 'gpt-4o-mini',
      timeoutMs: int('OPENAI_TIMEOUT_MS', 60_000, 1000, 600_000),
    },
    stripe: {
      secretKey: str('STRIPE_SECRET_KEY'),
      webhookSecret: str('STRIPE_WEBHOOK_SECRET'),
      ...stripeApi,
    },
    logLevel: logLevelRaw as Config['logLevel'],
    ...overrides,
  };
  if (problems.length > 0) throw new ConfigError(problems);
  return config;
}
