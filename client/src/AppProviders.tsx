import { lazy, Suspense, type ReactNode } from 'react';
import { ApolloLoaderContext, type ApolloLoader } from './apollo/apollo-loader';
import { AuthProvider } from './features/auth/AuthProvider';

// Loaded right after the first render: no page emits a toast before its own (lazy) chunk has loaded.
const AppToasts = lazy(() => import('./AppToasts'));

/** Everything above the router: the lazy Apollo client, the auth state and the toasts. */
export function AppProviders({ loadClient, children }: { loadClient: ApolloLoader; children: ReactNode }) {
  return (
    <ApolloLoaderContext value={loadClient}>
      <AuthProvider>{children}</AuthProvider>
      <Suspense fallback={null}>
        <AppToasts />
      </Suspense>
    </ApolloLoaderContext>
  );
}
