import type http from 'node:http';
import { HeaderMap, type ApolloServer, type BaseContext } from '@apollo/server';
import type express from 'express';

/** What the front hands the lane: a POST /graphql whose JSON body it has already read and parsed. */
export type GraphQLLane = (req: http.IncomingMessage, res: http.ServerResponse, body: object) => Promise<void>;

/**
 * POST /graphql with a JSON body, answered by Apollo Server directly from the front, without express:
 * the same security headers and CORS middlewares, then Apollo's own `executeHTTPGraphQLRequest` (the
 * call every Apollo integration makes: CSRF prevention, persisted queries, limits, error masking,
 * status codes all stay Apollo's). express only added routing, a second body parser and a content
 * negotiation Apollo repeats, which together cost about as much as running the query. Other /graphql
 * requests (GET, odd content types, large bodies) still go through express to the same Apollo server.
 */
export function createGraphQLLane<C extends BaseContext>(o: {
  apollo: ApolloServer<C>;
  /** The middlewares express runs before Apollo on /graphql (security headers, CORS), in order. */
  before: express.RequestHandler[];
  context: (req: http.IncomingMessage) => Promise<C>;
}): GraphQLLane {
  const run = async (req: http.IncomingMessage, res: http.ServerResponse, body: object): Promise<void> => {
    const headers = new HeaderMap();
    for (const [name, value] of Object.entries(req.headers)) {
      if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
    }
    const url = req.url ?? '/graphql';
    const q = url.indexOf('?');
    const result = await o.apollo.executeHTTPGraphQLRequest({
      httpGraphQLRequest: { method: 'POST', headers, search: q === -1 ? '' : url.slice(q + 1), body },
      context: () => o.context(req),
    });
    for (const [name, value] of result.headers) res.setHeader(name, value);
    res.statusCode = result.status ?? 200;
    if (result.body.kind === 'complete') {
      res.end(result.body.string);
      return;
    }
    for await (const chunk of result.body.asyncIterator) res.write(chunk);
    res.end();
  };
  return (req, res, body) =>
    new Promise<void>((resolve, reject) => {
      let i = 0;
      const next = (err?: unknown) => {
        if (err) return reject(err instanceof Error ? err : new Error(String(err)));
        const middleware = o.before[i++];
        if (middleware) {
          try {
            // Both only read headers and set them: plain node objects are all they touch.
            void middleware(req as express.Request, res as express.Response, next);
          } catch (e) {
            reject(e instanceof Error ? e : new Error(String(e)));
          }
          return;
        }
        run(req, res, body).then(resolve, reject);
      };
      next();
    });
}
