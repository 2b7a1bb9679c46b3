import 'reflect-metadata';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { ApolloServer } from '@apollo/server';
import { ApolloServerPluginCacheControlDisabled } from '@apollo/server/plugin/disabled';
import { expressMiddleware } from '@as-integrations/express5';
import compression from 'compression';
import express from 'express';
import proxyaddr from 'proxy-addr';
import { WebSocketServer } from 'ws';
import { AppError } from './common/app-error';
import { acceptedEncodings, requestMeta, restErrorHandler, sendError, toAppError } from './common/http';
import { createLogger, type Logger } from './common/logger';
import type { Config } from './config/env';
import { migrate, openDatabase, type Database, type OpenDatabaseOptions } from './db/data-source';
import { seed, type SeedOptions } from './db/seed';
import { bearerToken, buildContext, contextFor, type GraphQLContext } from './graphql/context';
import { formatError, retryAfterPlugin } from './graphql/errors';
import { graphqlBodyParser } from './ops/graphql-body';
import { buildGraphQLSchema } from './graphql/schema';
import { responseBudgetPlugin } from './graphql/response-budget';
import { authRestRouter } from './modules/auth/auth.rest';
import { billingRestRouter } from './modules/billing/billing.rest';
import { localCheckoutRouter } from './modules/billing/local-checkout.page';
import { charactersRestRouter } from './modules/characters/character.rest';
import { profileRestRouter } from './modules/profile/profile.rest';
import { storiesRestRouter } from './modules/stories/story.rest';
import { supportRestRouter } from './modules/support/support.rest';
import { worldsRestRouter } from './modules/worlds/world.rest';
import { seedImageFor } from './modules/worlds/seed-images';
import { serveMedia } from './modules/media/media.http';
import { communityRestRouter, readPublishedStory } from './modules/community/community.rest';
import { accountRestRouter } from './modules/account/account.rest';
import { partiesRestRouter } from './modules/parties/party.rest';
import { createWsAuth } from './realtime/ws-auth';
import { serveGraphQLOverWs } from './realtime/ws-server';
import { createOps, Metrics, trustProxySetting } from './ops';
import { createGraphQLLane } from './ops/graphql-lane';
import { httpDrainer } from './ops/http-drain';
import { edgeVariablesPlugin } from './ops/graphql-limits';
import { createServices, type Services } from './services';

export interface AppOptions extends OpenDatabaseOptions {
  /** Skip seeding (tests that start from an already seeded template). */
  seed?: boolean;
  seedImages?: SeedOptions['imageFor'];
}

export interface App {
  config: Config;
  db: Database;
  services: Services;
  httpServer: http.Server;
  logger: Logger;
  /** Starts listening; resolves with the bound port (0 → a free one). */
  listen(port?: number, host?: string): Promise<number>;
  /** Drains HTTP and WebSocket traffic, then closes the database. Safe to call twice. */
  close(): Promise<void>;
}

/** Builds the whole product in-process: database (migrated and seeded), services, GraphQL, REST, client. */
export async function createApp(config: Config, options: AppOptions = {}): Promise<App> {
  const logger = createLogger(config);
  const db = await openDatabase(config, options);
  let services: Services | undefined;
  try {
    await migrate(db);
    services = await createServices(config, db.dataSource, { metrics: new Metrics({ defaultMetrics: config.nodeEnv !== 'test' }) });
    if (options.seed !== false) {
      await seed(db.dataSource, services.media, { imageFor: options.seedImages ?? seedImageFor(config) });
    }
    // Charges left pending by a process that died mid-generation. The embedded database has one
    // process, so at boot nothing can still be generating: refund them all now. On PostgreSQL other
    // instances may be mid-generation: only those older than CHARGE_RECONCILE_SECONDS (the sweep
    // catches the rest later).
    const refunded = await services.credits.reconcilePending(config.databaseUrl ? config.chargeReconcileSeconds * 1000 : 0);
    if (refunded > 0) logger.warn('refunded charges whose generation never finished (the last process stopped mid-generation)', { refunded });
    if (!config.databaseUrl) {
      const failed = await services.stories.failOrphanedChapters();
      if (failed > 0) logger.warn('chapters left generating by the last process marked failed (the player can play again)', { failed });
    }
    return await assemble(config, db, services, logger);
  } catch (e) {
    await services?.realtime.close().catch(() => undefined);
    await db.close().catch(() => undefined);
    throw e;
  }
}

async function assemble(config: Config, db: Database, services: Services, logger: Logger): Promise<App> {
  const logError = (e: unknown) => logger.error('unhandled error', { err: e });
  const app = express();
  app.disable('x-powered-by');
  // No ETags on dynamic answers: computing one hashes every response body, and API clients revalidate
  // nothing (media and the client's files set their own validators).
  app.set('etag', false);
  // Behind a reverse proxy the client address is in X-Forwarded-For; TRUST_PROXY says which hops may set it.
  app.set('trust proxy', trustProxySetting(config.ops.trustProxy));
  const ops = createOps(config, services, logger);
  // The front (request ids, rate limits, the public response cache) answers before express when it can.
  const httpServer = http.createServer(ops.front(app));
  httpServer.keepAliveTimeout = config.ops.keepAliveTimeoutMs;
  // A request's headers may take as long as Node allows, but never less than an idle connection lives.
  httpServer.headersTimeout = Math.max(httpServer.headersTimeout, config.ops.keepAliveTimeoutMs + 1_000);
  const drainer = httpDrainer(httpServer);

  const schema = await buildGraphQLSchema(services.realtime.pubSub);
  const wsAuth = createWsAuth(services, config.wsAuthRecheckSeconds);
  const wsGuard = ops.wsGuard(app);
  const wsHooks = wsGuard.wrap(wsAuth);
  const wsServer = new WebSocketServer({ server: httpServer, path: '/graphql', ...ops.wsServerOptions, verifyClient: wsGuard.verifyClient });
  // graphql-ws's useServer, with writes batched per tick (realtime/ws-server.ts).
  const wsCleanup = serveGraphQLOverWs<Record<PropertyKey, never>>(
    {
      schema,
      // The same depth/alias/cost/token limits as HTTP.
      parse: ops.graphql.parse,
      validate: ops.graphql.validate,
      onConnect: wsHooks.onConnect,
      onSubscribe: wsHooks.onSubscribe,
      onClose: wsHooks.onClose,
      // Subscription results get the same error shape as HTTP: coded AppErrors, masked internals.
      onNext: (_ctx, _id, _payload, _args, result) =>
        result.errors ? { ...result, errors: result.errors.map((e) => formatError(e.toJSON(), e, logError)) } : undefined,
      // onSubscribe (just before) verified the connection's token: its user is the operation's.
      context: (ctx): GraphQLContext => {
        const req = ctx.extra.request;
        return contextFor(services, wsAuth.user(ctx), {
          ip: req.socket.remoteAddress,
          userAgent: req.headers['user-agent'],
        });
      },
    },
    wsServer,
    { isProd: config.nodeEnv === 'production', logger },
  );

  const apollo = new ApolloServer<GraphQLContext>({
    schema,
    introspection: true,
    csrfPrevention: true,
    validationRules: ops.graphql.validationRules,
    parseOptions: ops.graphql.parseOptions,
    persistedQueries: ops.persistedQueries,
    // One operation per HTTP request: a batch would multiply every limit above by its length.
    allowBatchedHttpRequests: false,
    // Shutdown is ours (index.ts): Apollo's own handler would re-raise the signal mid-drain.
    stopOnTerminationSignals: false,
    formatError: (formatted, error) => formatError(formatted, error, logError),
    plugins: [
      retryAfterPlugin,
      responseBudgetPlugin,
      edgeVariablesPlugin,
      // No @cacheControl hints anywhere (public answers are cached by ops/response-cache.ts): skip the per-field bookkeeping.
      ApolloServerPluginCacheControlDisabled(),
      { serverWillStart: async () => ({ drainServer: async () => wsCleanup.dispose() }) },
    ],
  });
  await apollo.start();
  const trust = app.get('trust proxy fn') as (addr: string, i: number) => boolean;
  ops.useGraphQLLane(
    createGraphQLLane({
      apollo,
      // What express runs before Apollo on /graphql (below), in the same order.
      before: [ops.headers.all, ops.cors],
      context: (req) => {
        const ua = req.headers['user-agent'];
        return buildContext(services, req.headers.authorization, {
          ip: proxyaddr(req as Parameters<typeof proxyaddr>[0], trust),
          userAgent: typeof ua === 'string' ? ua : undefined,
          origin: typeof req.headers.origin === 'string' ? req.headers.origin : undefined,
        });
      },
    }),
  );

  app.use(ops.router); // /healthz, /readyz, /metrics
  app.use((req, res, next) => {
    const h = req.path === '/graphiql' ? ops.headers.graphiql : req.path.startsWith('/checkout/') ? ops.headers.checkout : ops.headers.all;
    h(req, res, next);
  });
  app.use(['/graphql', '/api'], ops.cors);

  app.use(
    '/graphql',
    ...graphqlBodyParser({
      limitBytes: config.graphqlBodyLimitBytes,
      uploadLimitBytes: config.graphqlUploadBodyLimitBytes,
      signedIn: (authorization) => {
        const token = bearerToken(authorization);
        return token !== undefined && services.auth.verifyAccessToken(token) !== null;
      },
    }),
    ops.labelOperation,
    expressMiddleware(apollo, {
      context: async ({ req }) => buildContext(services, req.headers.authorization, requestMeta(req)),
    }),
  );
  app.use('/graphql', graphqlBodyErrorHandler(logError));

  app.use('/api/auth/v1', authRestRouter(services, config.bodyLimitBytes, logError));
  app.use('/api/worlds', worldsRestRouter(services, logger));
  app.use('/api/characters', charactersRestRouter(services));
  app.use('/api/profile', profileRestRouter(services));
  app.use('/api/support', supportRestRouter(services));
  app.use('/api/stories', storiesRestRouter(services));
  app.use('/api/community', communityRestRouter(services));
  app.use('/api/account', accountRestRouter(services));
  app.use('/api/parties', partiesRestRouter(services));
  // Before any JSON parser: the payment webhook verifies its signature over the raw body.
  app.use('/api/subscription', billingRestRouter(services, config.bodyLimitBytes));
  app.use('/api', (_req, res) => sendError(res, new AppError('NOT_FOUND', 'No such API path')));
  app.use('/api', restErrorHandler(logError));

  app.get('/media/:id', serveMedia(services.media));
  app.get('/read/:id', readPublishedStory(services));

  app.use('/checkout/local', localCheckoutRouter(services));
  serveClient(app, config.clientDistDir);
  app.use(restErrorHandler(logError));

  services.billing.start();
  services.parties.start();
  let closing: Promise<void> | undefined;
  return {
    config,
    db,
    services,
    httpServer,
    logger,
    listen: (port = config.port, host = config.host) =>
      new Promise((resolve, reject) => {
        httpServer.once('error', reject);
        httpServer.listen(port, host, () => {
          httpServer.off('error', reject);
          const addr = httpServer.address();
          resolve(typeof addr === 'object' && addr ? addr.port : port);
        });
      }),
    close: () =>
      (closing ??= (async () => {
        ops.startDraining(); // /readyz → 503 at once
        // In-flight chapters get SHUTDOWN_GRACE_MS to commit while HTTP drains; new ones are refused.
        const stories = services.stories.close(config.ops.shutdownGraceMs);
        for (const client of wsServer.clients) client.close(1001, 'Server shutting down');
        // HTTP drains first, while Apollo still answers what is in flight (ops/http-drain.ts); then
        // Apollo stops (its drain hook disposes of the WebSocket server).
        await drainer.drain(config.ops.shutdownGraceMs);
        await apollo.stop();
        await new Promise<void>((r) => wsServer.close(() => r()));
        if (httpServer.listening) await new Promise<void>((r) => httpServer.close(() => r()));
        await services.billing.stop();
        await stories; // past the grace, chapters still running end as failed takes (retry-able), never half chapters
        await services.parties.stop(); // the rounds of those chapters settle (charges refunded, rounds reopened)
        await ops.close();
        await services.realtime.close();
        await db.close();
      })()),
  };
}

/** Malformed or oversized /graphql bodies answer in GraphQL's error shape with our codes. */
function graphqlBodyErrorHandler(log: (e: unknown) => void): express.ErrorRequestHandler {
  return (err, _req, res, next) => {
    if (res.headersSent) return next(err);
    const e = toAppError(err);
    if (!e) log(err);
    const status = e?.code === 'PAYLOAD_TOO_LARGE' ? 413 : e ? 400 : 500;
    res.status(status).json({
      errors: [{ message: e?.message ?? 'Internal server error', extensions: { code: e?.code ?? 'INTERNAL' } }],
    });
  };
}

/**
 * The built client: static assets, the bundled GraphiQL at /graphiql, and index.html for app routes.
 *
 * Scripts and styles are served from the build's precompressed copies when the browser takes them
 * (Brotli, else gzip: client/vite.config.ts writes `x.js.br` and `x.js.gz` next to `x.js`), so they
 * cost no CPU per request and Brotli's best level saves ~12% over on-the-fly gzip. index.html gets, per
 * route, <link>s for the chunks and stylesheets the route needs (dist/route-preloads.json, written by
 * the build), so the browser fetches them all alongside the entry script instead of after it has run.
 */
function serveClient(app: express.Express, dist: string): void {
  const index = path.join(dist, 'index.html');
  const graphiql = path.join(dist, 'graphiql.html');
  const preloads = path.join(dist, 'route-preloads.json');
  const assets = path.join(dist, 'assets');
  // Everything else (index.html, anything without a precompressed copy) is gzipped on the fly. API
  // responses are not compressed here: they are small, and the hot public ones are answered before
  // express (server/src/ops/front.ts).
  app.use(compression());
  app.get('/graphiql', (_req, res) => {
    // dotfiles: 'allow' — the path is ours, and an install under a dot folder (~/.cache/…) is common.
    if (fs.existsSync(graphiql)) res.sendFile(graphiql, { dotfiles: 'allow' });
    else res.status(503).type('text').send('GraphiQL is not built: run `npm run build`.');
  });

  const PRECOMPRESSED: Array<[encoding: string, suffix: string]> = [
    ['br', '.br'],
    ['gzip', '.gz'],
  ];
  app.use('/assets', (req, res, next) => {
    if ((req.method !== 'GET' && req.method !== 'HEAD') || !/^\/[\w.-]+\.(js|css)$/.test(req.path)) return next();
    const accepted = acceptedEncodings(req.headers['accept-encoding']);
    res.vary('Accept-Encoding');
    for (const [encoding, suffix] of PRECOMPRESSED) {
      if (!accepted.has(encoding) || !fs.existsSync(path.join(assets, req.path + suffix))) continue;
      // express.static below serves the compressed file; it keeps a Content-Type that is already set.
      res.type(path.extname(req.path));
      res.setHeader('Content-Encoding', encoding);
      req.url = req.path + suffix;
      break;
    }
    next();
  });
  app.use(
    express.static(dist, {
      index: false,
      setHeaders: (res, file) => {
        // Vite fingerprints everything under assets/, so those never change.
        if (file.includes(`${path.sep}assets${path.sep}`)) res.setHeader('Cache-Control', 'public, max-age=31536000, immutable');
      },
    }),
  );

  // index.html with each route's <link>s, rebuilt when the build changes (`npm start` rebuilds in place).
  let pages: { stamp: string; byRoute: Array<{ pattern: RegExp; html: string }>; fallback: string } | undefined;
  const pageFor = (reqPath: string): string => {
    const stamp = [index, preloads].map((f) => (fs.existsSync(f) ? fs.statSync(f).mtimeMs : 0)).join(':');
    if (pages?.stamp !== stamp) {
      const html = fs.readFileSync(index, 'utf8');
      const routes: Array<{ route: string; modulepreload: string[]; stylesheet: string[] }> = fs.existsSync(preloads)
        ? JSON.parse(fs.readFileSync(preloads, 'utf8'))
        : [];
      const byRoute = routes.map((r) => {
        const links = [
          ...r.stylesheet.map((href) => `<link rel="stylesheet" crossorigin href="${href}">`),
          ...r.modulepreload.map((href) => `<link rel="modulepreload" crossorigin href="${href}">`),
        ];
        const pattern = new RegExp(`^${r.route.replace(/:[^/]+/g, '[^/]+')}/?$`);
        return { pattern, html: html.replace(/\n?(\s*)<\/head>/, (head, indent: string) => `\n${indent}  ${links.join(`\n${indent}  `)}${head}`) };
      });
      pages = { stamp, byRoute, fallback: html };
    }
    return pages.byRoute.find((r) => r.pattern.test(reqPath))?.html ?? pages.fallback;
  };
  app.get(/.*/, (req, res, next) => {
    if (req.path.startsWith('/graphql') || req.path.startsWith('/api/') || req.path.startsWith('/media/')) return next();
    if (!fs.existsSync(index)) {
      res.status(503).type('text').send('The client is not built: run `npm start` (it builds it) or `npm run build`.');
      return;
    }
    res.setHeader('Cache-Control', 'no-cache');
    res.type('html').send(pageFor(req.path));
  });
}
