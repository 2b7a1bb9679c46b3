/**
 * First visit to /worlds by an anonymous visitor: the featured-worlds query goes out as soon as the
 * entry script runs — before the Apollo client chunk has even arrived — and the first cards' images are
 * preloaded from its answer, so the largest paint does not wait for JavaScript → query → image in turn.
 * prefetch.ts later writes the answer into Apollo's cache, where the page's own query finds it.
 *
 * Part of the entry bundle: no Apollo, no generated module. The query text must select exactly what
 * WorldsPage_featuredWorlds selects (with __typename, as Apollo's cache adds it); early-featured.test.ts
 * checks it against the generated document.
 */
export const EARLY_FEATURED_QUERY =
  'query WorldsPage_featuredWorlds($limit: Int! = 50, $offset: Int! = 0) { featuredWorlds(limit: $limit, offset: $offset) { ...WorldCardFields __typename } } fragment WorldCardFields on World { id name description questions imageUrl genre author isOwn sharedGlobally __typename }';

/** How many card images to preload (the first row on wide screens). */
const PRELOAD_IMAGES = 3;

export type EarlyFeatured = Promise<{ featuredWorlds: Array<{ imageUrl?: string | null }> } | null>;

export function fetchFeaturedEarly(): EarlyFeatured {
  return fetch('/graphql', {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/graphql-response+json, application/json' },
    body: JSON.stringify({ operationName: 'WorldsPage_featuredWorlds', query: EARLY_FEATURED_QUERY, variables: {} }),
  })
    .then((res) => (res.ok ? res.json() : null))
    .then((json: { data?: { featuredWorlds?: Array<{ imageUrl?: string | null }> }; errors?: unknown } | null) => {
      const data = json && !json.errors && Array.isArray(json.data?.featuredWorlds) ? (json.data as { featuredWorlds: Array<{ imageUrl?: string | null }> }) : null;
      if (data) {
        for (const w of data.featuredWorlds.slice(0, PRELOAD_IMAGES)) {
          if (!w.imageUrl) continue;
          const link = document.createElement('link');
          link.rel = 'preload';
          link.as = 'image';
          link.href = w.imageUrl;
          link.fetchPriority = 'high';
          document.head.appendChild(link);
        }
      }
      return data;
    })
    .catch(() => null);
}
