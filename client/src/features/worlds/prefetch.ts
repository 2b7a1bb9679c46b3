import type { ApolloClient } from '@apollo/client';
import { WorldsPage_featuredWorldsDocument, type WorldsPage_featuredWorldsQuery } from '../../gql/graphql';
import type { EarlyFeatured } from './early-featured';

/**
 * Fills the worlds page's featured-worlds query while the page chunk is still loading (main.tsx calls
 * this on a first visit to /worlds): from the early request when there is one (anonymous visitors, see
 * early-featured.ts), else by sending the query now. Same document and variables as the page's hook,
 * so the page reads the cache or the in-flight request. Failures are left to the page's own query.
 */
export async function prefetchWorldsPage(client: ApolloClient, early?: EarlyFeatured): Promise<void> {
  const data = early ? await early : null;
  if (data) {
    client.writeQuery({ query: WorldsPage_featuredWorldsDocument, data: data as WorldsPage_featuredWorldsQuery });
    return;
  }
  await client.query({ query: WorldsPage_featuredWorldsDocument }).catch(() => {});
}
