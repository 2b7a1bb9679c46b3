import type { ApolloClient } from '@apollo/client';
import { AuthProvider_meDocument, type AuthProvider_meQuery } from '../../gql/graphql';

/**
 * The start-up session check (`me`). Kept in its own module and imported dynamically by AuthProvider:
 * importing the generated module statically would drag Apollo's hooks into the first page's bundle.
 */
export async function fetchMe(client: ApolloClient): Promise<AuthProvider_meQuery['me']> {
  const result = await client.query({ query: AuthProvider_meDocument, fetchPolicy: 'network-only' });
  if (result.error) throw result.error;
  return result.data?.me ?? null;
}
