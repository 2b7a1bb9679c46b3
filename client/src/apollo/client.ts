import { ApolloClient, ApolloLink, HttpLink, InMemoryCache } from '@apollo/client';
import { OperationTypeNode } from 'graphql';
import { from, mergeMap } from 'rxjs';
import { createAuthLink } from './auth-link';
import { createRefreshRequest } from './refresh-request';
import { createTokenManager, type TokenManager } from './token-manager';

export const GRAPHQL_PATH = '/graphql';

export interface AppClientOptions {
  /** Called after a failed refresh cleared the session (navigate to /auth). */
  onAuthFailure: () => void;
  uri?: string;
  fetch?: typeof fetch;
  /** Transport for subscriptions (tests script it); graphql-ws by default. */
  subscriptionLink?: ApolloLink;
}

function wsUrl(path: string): string {
  const { protocol, host } = window.location;
  return `${protocol === 'https:' ? 'wss:' : 'ws:'}//${host}${path}`;
}

/**
 * Subscriptions go over graphql-ws. The WS code is loaded on the first subscription only, so it never
 * weighs on the first page.
 */
function lazyWsLink(tokens: TokenManager): ApolloLink {
  let link: Promise<ApolloLink> | null = null;
  const load = () => (link ??= import('./ws-link').then(({ createWsLink }) => createWsLink(wsUrl(GRAPHQL_PATH), tokens)));
  return new ApolloLink((operation, forward) => from(load()).pipe(mergeMap((ws) => ws.request(operation, forward))));
}

export function createAppClient(options: AppClientOptions): { client: ApolloClient; tokens: TokenManager } {
  const uri = options.uri ?? GRAPHQL_PATH;
  const fetchImpl: typeof fetch = options.fetch ?? ((...args) => fetch(...args));
  const tokens = createTokenManager({
    refresh: createRefreshRequest(uri, fetchImpl),
    onAuthFailure: options.onAuthFailure,
  });
  // content-type application/json satisfies Apollo Server's CSRF prevention (STACK.md §10).
  const http = new HttpLink({ uri, fetch: fetchImpl, headers: { 'content-type': 'application/json' } });
  const isSubscription = (op: ApolloLink.Operation) => op.operationType === OperationTypeNode.SUBSCRIPTION;
  const transport = ApolloLink.split(isSubscription, options.subscriptionLink ?? lazyWsLink(tokens), http);

  const client = new ApolloClient({
    link: ApolloLink.from([createAuthLink(tokens), transport]),
    cache: new InMemoryCache({
      typePolicies: {
        // Singletons without an id: a newer answer replaces fields, never the whole object blindly.
        SubscriptionStatus: { merge: true },
        UserSettings: { merge: true },
        UserCharacterProfile: { merge: true },
        // Read by two queries of the story page (its own, and the dice's: stakes/stakes.graphql),
        // each asking for other fields: merged, so neither answer drops what the other asked for.
        StoryMemory: { merge: true },
      },
    }),
  });
  return { client, tokens };
}
