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

/** Memoises an async factory: the first call starts it, later calls share the same promise. */
export function memoLoader(factory: () => Promise<ApolloClient>): ApolloLoader {
  let promise: Promise<ApolloClient> | null = null;
  return () => (promise ??= factory());
}
