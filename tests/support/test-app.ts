import fs from 'node:fs';
import path from 'node:path';
import { FakeOpenAIServer } from '../../server/src/ai/openai/fake-openai-server';
import { createApp, type App } from '../../server/src/app';
import { loadConfig, type Config } from '../../server/src/config/env';
import { templateFile } from './template';

export interface GqlResult<T = Record<string, unknown>> {
  status: number;
  data?: T;
  errors?: Array<{ message: string; extensions?: { code?: string; [k: string]: unknown } }>;
}

export interface TestApp {
  app: App;
  url: string;
  gql<T = Record<string, any>>(query: string, variables?: Record<string, unknown>, token?: string): Promise<GqlResult<T>>;
  rest(
    method: string,
    path: string,
    body?: unknown,
    token?: string,
    headers?: Record<string, string>,
  ): Promise<{ status: number; body: any; headers: Headers }>;
  close(): Promise<void>;
}

/**
 * The whole product in-process on a free port, on the test file's own database: on PGlite an
 * in-memory copy of the migrated, seeded template the global setup made; with DATABASE_URL the
 * file's own PostgreSQL database, copied from the run's template (tests/support/database-environment.js).
 * Apps a file starts share its database, as instances of one deployment do.
 */
let appCounter = 0;

export async function startTestApp(overrides: Partial<Config> = {}): Promise<TestApp> {
  const config = loadConfig(
    { ...process.env, NODE_ENV: 'test', LOG_LEVEL: process.env.LOG_LEVEL ?? 'silent' },
    {
      databaseInMemory: true,
      authRateLimit: { perIpPerWindow: 100_000, perEmailPerWindow: 1000, perAccountFailuresPerWindow: 100_000, windowSeconds: 60 },
      ...overrides,
    },
  );
  // Every request of a test file comes from 127.0.0.1: the shared per-IP/per-player limits would trip.
  // Tests of the limits themselves pass `ops` with the limits they exercise.
  if (!overrides.ops) config.ops.rateLimit = { ...config.ops.rateLimit, perIp: 0, perUser: 0 };
  // With REDIS_URL, limiter windows live in Redis: each test app counts in its own key space, so
  // earlier runs and other files never use up a test's budget.
  config.ops.rateLimitKeyPrefix = `taleforge:rl:test:${process.pid}:${++appCounter}:${Date.now().toString(36)}:`;
  const usePg = Boolean(config.databaseUrl);
  const app = await createApp(config, {
    seed: false,
    pgliteLoadDataDir: usePg ? undefined : new Blob([fs.readFileSync(templateFile())]),
  });
  const port = await app.listen(0, '127.0.0.1');
  return clientFor(app, `http://127.0.0.1:${port}`);
}

/**
 * A test app whose story AI is the OpenAI provider pointed at a fake server this call starts;
 * `openai` overrides the provider's settings (model, timeouts). Close both after the tests.
 */
export async function startWithFakeModel(
  openai: Partial<Config['openai']> = {},
  extra: { embeddingsModel?: string } = {},
): Promise<{ t: TestApp; fake: FakeOpenAIServer }> {
  const fake = new FakeOpenAIServer();
  const baseUrl = await fake.start();
  const base = loadConfig({ NODE_ENV: 'test' });
  const t = await startTestApp({
    openai: { ...base.openai, apiKey: 'sk-test', baseUrl, ...openai },
    // The memory bank's embeddings from the same server, when a model is named.
    ...(extra.embeddingsModel ? { embeddings: { model: extra.embeddingsModel, baseUrl, apiKey: 'sk-test', timeoutMs: 2000 } } : {}),
  });
  return { t, fake };
}

/** GraphQL and REST helpers against an app already listening at `url`. */
export function clientFor(app: App, url: string): TestApp {
  return {
    app,
    url,
    async gql(query, variables, token) {
      const res = await fetch(`${url}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
        body: JSON.stringify({ query, variables }),
      });
      const json = (await res.json()) as GqlResult<any>;
      return { status: res.status, data: json.data ?? undefined, errors: json.errors };
    },
    async rest(method, path, body, token, headers = {}) {
      const res = await fetch(`${url}${path}`, {
        method,
        headers: {
          ...(body !== undefined && typeof body !== 'string' ? { 'content-type': 'application/json' } : {}),
          ...(token ? { authorization: `Bearer ${token}` } : {}),
          ...headers,
        },
        body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
      });
      const text = await res.text();
      let parsed: unknown = text;
      try {
        parsed = text ? JSON.parse(text) : null;
      } catch {
        /* not JSON */
      }
      return { status: res.status, body: parsed, headers: res.headers };
    },
    close: () => app.close(),
  };
}

/** The community settings with every reporter's report weighing 1 (tests of hiding by reports with new accounts). */
export const EVERY_REPORTER_TRUSTED: Config['community'] = {
  ...loadConfig({ NODE_ENV: 'test' }).community,
  trustedReporter: { minAccountAgeHours: 0, minChapters: 0 },
};

let counter = 0;
/** A unique, valid identity per call, so tests never collide on shared PostgreSQL. */
export function newIdentity(prefix = 'player') {
  counter++;
  const tag = `${Date.now().toString(36)}${process.pid.toString(36)}${counter}`;
  return { email: `${prefix}.${tag}@example.com`, username: `${prefix} ${counter}`, password: `correct horse ${tag}` };
}

/** The session selection of the web client, one fragment for every sign-in path (its source file). */
const AUTH_SESSION_FIELDS = fs.readFileSync(path.join(__dirname, '..', '..', 'client', 'src', 'apollo', 'auth-session.graphql'), 'utf8');

export const SIGN_UP = /* GraphQL */ `
  mutation SignUp($input: SignUpInput!) {
    signUp(input: $input) {
      ...AuthSessionFields
    }
  }
  ${AUTH_SESSION_FIELDS}
`;

export async function signUp(t: TestApp, identity = newIdentity()) {
  const r = await t.gql<{ signUp: { accessToken: string; refreshToken: string; user: { id: string } } }>(SIGN_UP, { input: identity });
  if (!r.data) throw new Error(`sign-up failed: ${JSON.stringify(r.errors)}`);
  return { ...identity, ...r.data.signUp };
}
