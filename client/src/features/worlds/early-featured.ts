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
import { CARD_IMAGE_SIZES, firstScreenCards, worldImageSources } from './image-sources';

export const EARLY_FEATURED_QUERY =
  'query WorldsPage_featuredWorlds($limit: Int! = 50, $offset: Int! = 0) { featuredWorlds(limit: $limit, offset: $offset) { ...WorldCardFields __typename } } fragment WorldCardFields on World { id name description questions imageUrl genre author isOwn sharedGlobally __typename }';

export type EarlyFeatured = Promise<{ featuredWorlds: Array<{ imageUrl?: string | null }> } | null>;

export function fetchFeaturedEarly(): EarlyFeatured {
  return fetch('/graphql', {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/graphql-response+json, application/json' },
    body: JSON.stringify({ operationName: 'WorldsPage_featuredWorlds', query: EARLY_FEATURED_QUERY, variables: {} }),
  })
    .then((res) => (res.ok ? res.json() : null))
    .then((json: { data?: { featuredWorlds?: Array<{ imageUrl?: string | null }> }; errors?: unknown } | null) => {
      const data =
        json && !json.errors && Array.isArray(json.data?.featuredWorlds) ? (json.data as { featuredWorlds: Array<{ imageUrl?: string | null }> }) : null;
      if (data) {
        // The cards WorldsPage marks as priority (same estimate), with the candidates their <img> offers.
        for (const w of data.featuredWorlds.slice(0, firstScreenCards(window.innerWidth, window.innerHeight))) {
          if (!w.imageUrl) continue;
          const { src, srcSet, sizes } = worldImageSources(w.imageUrl, CARD_IMAGE_SIZES);
          const link = document.createElement('link');
          const attributes: Record<string, string | undefined> = {
            rel: 'preload',
            as: 'image',
            imagesizes: sizes,
            imagesrcset: srcSet,
            href: src,
            fetchpriority: 'high',
          };
          for (const [name, value] of Object.entries(attributes)) if (value) link.setAttribute(name, value);
          document.head.appendChild(link);
        }
      }
      return data;
    })
    .catch(() => null);
}
