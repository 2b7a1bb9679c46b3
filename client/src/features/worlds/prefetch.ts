import type { ApolloClient } from '@apollo/client';
import { WorldsPage_featuredWorldsDocument, type WorldsPage_featuredWorldsQuery } from '../../gql/graphql';
import type { EarlyFeatured } from './early-featured';

/** A new task: lets the browser paint and handle input between two pieces of start-up work. */
const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/**
 * Fills the worlds page's featured-worlds query while the page chunk is still loading (boot.tsx calls
 * this on a first visit to /worlds, before the first render): from the early request when there is one
 * (anonymous visitors, see early-featured.ts), else by sending the query now. Same document and
 * variables as the page's hook, so the page reads the cache or the in-flight request. Failures are left
 * to the page's own query.
 */
export async function prefetchWorldsPage(client: ApolloClient, early?: EarlyFeatured): Promise<void> {
  const data = early ? await early : null;
  if (!data) {
    await client.query({ query: WorldsPage_featuredWorldsDocument }).catch(() => {});
    return;
  }
  client.writeQuery({ query: WorldsPage_featuredWorldsDocument, data: data as WorldsPage_featuredWorldsQuery });
  // Apollo analyses a document and computes its first result from the cache once, on first use. Reading
  // the answer back through the query path here, in a task of its own, keeps that work out of the
  // page's first render (on a slow phone the difference between one long task and two short ones).
  await nextTask();
  await client.query({ query: WorldsPage_featuredWorldsDocument, fetchPolicy: 'cache-only' }).catch(() => {});
}
