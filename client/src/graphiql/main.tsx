/**
 * GraphQL playground served by the server at /graphiql: GraphiQL 4 bundled locally (works offline),
 * HTTP for queries and mutations, graphql-ws on the same path for subscriptions. This entry is a
 * separate Vite page, so none of it reaches the app bundle.
 */
import { GraphiQL } from 'graphiql';
import 'graphiql/style.css';
import { createClient } from 'graphql-ws';
import type { ComponentProps } from 'react';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import './graphiql.css';

type Fetcher = ComponentProps<typeof GraphiQL>['fetcher'];

const httpUrl = new URL('/graphql', window.location.href).toString();
const wsUrl = httpUrl.replace(/^http/, 'ws');

/** Bearer token from the Headers tab (`{"authorization": "Bearer …"}`), reused for the socket. */
function authorizationFrom(headers: Record<string, unknown> | undefined): string | undefined {
  const value = headers?.authorization ?? headers?.Authorization;
  return typeof value === 'string' ? value : undefined;
}

let ws: { client: ReturnType<typeof createClient>; auth: string | undefined } | null = null;
function wsClient(auth: string | undefined) {
  if (ws && ws.auth === auth) return ws.client;
  void ws?.client.dispose();
  const client = createClient({ url: wsUrl, lazy: true, connectionParams: auth ? { authorization: auth } : {} });
  ws = { client, auth };
  return client;
}

const fetcher: Fetcher = (params, options) => {
  const headers = (options?.headers ?? {}) as Record<string, string>;
  const isSubscription =
    options?.documentAST?.definitions.some(
      (d) => d.kind === 'OperationDefinition' && d.operation === 'subscription' && (!params.operationName || d.name?.value === params.operationName),
    ) ?? /^\s*subscription\b/.test(params.query);

  if (isSubscription) {
    return wsClient(authorizationFrom(headers)).iterate({
      query: params.query,
      variables: params.variables ?? undefined,
      operationName: params.operationName ?? undefined,
    }) as unknown as ReturnType<Fetcher>; // wire-format results; GraphiQL only reads them as JSON
  }
  return fetch(httpUrl, {
    method: 'POST',
    headers: {
      accept: 'application/graphql-response+json, application/json',
      // Apollo Server's CSRF prevention accepts JSON bodies and this header (STACK.md §10).
      'content-type': 'application/json',
      'apollo-require-preflight': 'true',
      ...headers,
    },
    body: JSON.stringify(params),
    credentials: 'same-origin',
  }).then((response) => response.json());
};

const DEFAULT_QUERY = `# Welcome to the Taleforge GraphQL playground.
# Public featured worlds need no token. For your own data, sign in with the
# signIn mutation and put {"authorization": "Bearer <accessToken>"} in Headers.

query FeaturedWorlds {
  featuredWorlds(limit: 4) {
    id
    name
    genre
    description
  }
}
`;

const root = document.getElementById('graphiql');
if (!root) throw new Error('Missing #graphiql element');
root.textContent = '';
createRoot(root).render(
  <StrictMode>
    <GraphiQL fetcher={fetcher} defaultQuery={DEFAULT_QUERY} defaultEditorToolsVisibility />
  </StrictMode>,
);
