import type { ApolloClient } from '@apollo/client';
import { createContext, use } from 'react';

/**
 * Apollo Client (with rxjs and the link chain) is loaded on demand, so the landing page — which needs
 * no GraphQL — never pays for it. Everything else sits under <ApolloBoundary> (apollo-boundary.tsx),
 * which suspends until the client is ready. The loader memoises one promise, as `use()` requires.
 * This module must stay free of runtime Apollo imports: it is part of the first page's bundle.
 */
export type ApolloLoader = () => Promise<ApolloClient>;

export const ApolloLoaderContext = createContext<ApolloLoader | null>(null);

export function useApolloLoader(): ApolloLoader {
  const loader = use(ApolloLoaderContext);
  if (!loader) throw new Error('Missing ApolloLoaderContext provider');
  return loader;
}

/**
 * Memoises an async factory: the first call starts it, later calls share the same promise. The
 * promise is marked fulfilled the way React's `use()` reads it, so once the client exists the boundary
 * renders at once instead of suspending for a tick (and showing its fallback).
 */
export function memoLoader(factory: () => Promise<ApolloClient>): ApolloLoader {
  let promise: (Promise<ApolloClient> & { status?: 'fulfilled'; value?: ApolloClient }) | null = null;
  return () => {
    if (!promise) {
      const p: Promise<ApolloClient> & { status?: 'fulfilled'; value?: ApolloClient } = factory();
      p.then(
        (client) => {
          p.status = 'fulfilled';
          p.value = client;
        },
        () => {}, // the rejection reaches whoever awaits the promise (the boundary's use())
      );
      promise = p;
    }
    return promise;
  };
}
