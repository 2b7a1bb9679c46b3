import 'reflect-metadata';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { ApolloServer } from '@apollo/server';
import { ApolloServerPluginDrainHttpServer } from '@apollo/server/plugin/drainHttpServer';
import { expressMiddleware } from '@as-integrations/express5';
import express from 'express';
import { useServer } from 'graphql-ws/use/ws';
import { WebSocketServer } from 'ws';
import { AppError } from './common/app-error';
import { requestMeta, restErrorHandler, sendError, toAppError } from './common/http';
import { createLogger, type Logger } from './common/logger';
import type { Config } from './config/env';
import { migrate, openDatabase, type Database, type OpenDatabaseOptions } from './db/data-source';
import { seed, type SeedOptions } from './db/seed';
import { buildContext, type GraphQLContext } from './graphql/context';
import { formatError } from './graphql/errors';
import { buildGraphQLSchema } from './graphql/schema';
import { authRestRouter } from './modules/auth/auth.rest';
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
  try {
    await migrate(db);
    const services = await createServices(config, db.dataSource);
    if (options.seed !== false) await seed(db.dataSource, services.media, { imageFor: options.seedImages });
    return await assemble(config, db, services, logger);
  } catch (e) {
    await db.close().catch(() => undefined);
    throw e;
  }
}

async function assemble(config: Config, db: Database, services: Services, logger: Logger): Promise<App> {
  const logError = (e: unknown) => logger.error('unhandled error', { err: e });
  const app = express();
  app.disable('x-powered-by');
  // Behind our own reverse proxy the client address is in X-Forwarded-For; trust only loopback hops.
  app.set('trust proxy', 'loopback');
  const httpServer = http.createServer(app);

  const schema = await buildGraphQLSchema();
  const wsServer = new WebSocketServer({ server: httpServer, path: '/graphql' });
  const wsCleanup = useServer<Record<string, unknown>>(
    {
      schema,
      context: async (ctx): Promise<GraphQLContext> => {
        const req = ctx.extra.request;
        return buildContext(services, ctx.connectionParams?.authorization, {
          ip: req.socket.remoteAddress,
          userAgent: req.headers['user-agent'],
        });
      },
    },
    wsServer,
  );

  const apollo = new ApolloServer<GraphQLContext>({
    schema,
    introspection: true,
    csrfPrevention: true,
    // Shutdown is ours (index.ts): Apollo's own handler would re-raise the signal mid-drain.
    stopOnTerminationSignals: false,
    formatError: (formatted, error) => formatError(formatted, error, logError),
    plugins: [
      ApolloServerPluginDrainHttpServer({ httpServer }),
      { serverWillStart: async () => ({ drainServer: async () => wsCleanup.dispose() }) },
    ],
  });
  await apollo.start();

  app.use(
    '/graphql',
    express.json({ limit: config.bodyLimitBytes }),
    expressMiddleware(apollo, {
      context: async ({ req }) => buildContext(services, req.headers.authorization, requestMeta(req)),
    }),
  );
  app.use('/graphql', graphqlBodyErrorHandler(logError));

  app.use('/api/auth/v1', authRestRouter(services, config.bodyLimitBytes, logError));
  app.use('/api', (_req, res) => sendError(res, new AppError('NOT_FOUND', 'No such API path')));
  app.use('/api', restErrorHandler(logError));

  app.get('/media/:id', async (req, res) => {
    const id = req.params.id;
    const media = /^[0-9a-f-]{36}$/i.test(id) ? await services.media.get(id) : null;
    if (!media) return sendError(res, AppError.notFound('Image'));
    const etag = `"${media.sha256}"`;
    // Media rows never change content under an id, so caches may keep them for a year.
    res.setHeader('Cache-Control', 'public, max-age=31536000, immutable');
    res.setHeader('ETag', etag);
    if (req.headers['if-none-match'] === etag) return res.status(304).end();
    res.type(media.mime).send(media.bytes);
  });

  serveClient(app, config.clientDistDir);
  app.use(restErrorHandler(logError));

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
        for (const client of wsServer.clients) client.close(1001, 'Server shutting down');
        await apollo.stop(); // drains HTTP (and stops the WS server through the plugin)
        await new Promise<void>((r) => wsServer.close(() => r()));
        if (httpServer.listening) await new Promise<void>((r) => httpServer.close(() => r()));
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

/** The built client: static assets, the bundled GraphiQL at /graphiql, and index.html for app routes. */
function serveClient(app: express.Express, dist: string): void {
  const index = path.join(dist, 'index.html');
  const graphiql = path.join(dist, 'graphiql.html');
  app.get('/graphiql', (_req, res) => {
    if (fs.existsSync(graphiql)) res.sendFile(graphiql);
    else res.status(503).type('text').send('GraphiQL is not built: run `npm run build`.');
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
  app.get(/.*/, (req, res, next) => {
    if (req.path.startsWith('/graphql') || req.path.startsWith('/api/') || req.path.startsWith('/media/')) return next();
    if (!fs.existsSync(index)) {
      res.status(503).type('text').send('The client is not built: run `npm start` (it builds it) or `npm run build`.');
      return;
    }
    res.setHeader('Cache-Control', 'no-cache');
    res.sendFile(index);
  });
}
