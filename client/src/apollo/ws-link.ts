import { GraphQLWsLink } from '@apollo/client/link/subscriptions';
import { createClient } from 'graphql-ws';
import type { TokenManager } from './token-manager';
import { subscribeSession } from './session-store';

/** graphql-ws on the same path as HTTP; the token is sent lazily in connectionParams. */
export function createWsLink(url: string, tokens: TokenManager): GraphQLWsLink {
  const client = createClient({
    url,
    lazy: true,
    retryAttempts: 5,
    connectionParams: async () => {
      const token = await tokens.getAccessToken().catch(() => null);
      return token ? { authorization: `Bearer ${token}` } : {};
    },
  });
  // A socket authenticates once, at connect time: reconnect when a different user signs in or out.
  let userId: string | null | undefined;
  subscribeSession((session) => {
    const next = session?.user.id ?? null;
    if (userId !== undefined && next !== userId) client.terminate();
    userId = next;
  });
  return new GraphQLWsLink(client);
}
