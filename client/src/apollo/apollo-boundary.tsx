import { ApolloProvider } from '@apollo/client/react';
import { use, type ReactNode } from 'react';
import { Outlet } from 'react-router-dom';
import { useApolloLoader } from './apollo-loader';

/** Suspends until the lazily loaded Apollo client exists, then provides it. */
export function ApolloBoundary({ children }: { children?: ReactNode }) {
  const client = use(useApolloLoader()());
  return <ApolloProvider client={client}>{children ?? <Outlet />}</ApolloProvider>;
}
