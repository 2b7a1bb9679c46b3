import { lazy, Suspense, useEffect, useState, type ReactNode } from 'react';
import { ApolloLoaderContext, type ApolloLoader } from './apollo/apollo-loader';
import { AuthProvider } from './features/auth/AuthProvider';

// Loaded once the page has loaded, so it never competes with the first route's chunks: no page emits a
// toast before then, and react-toastify queues any toast raised before its container mounts.
const AppToasts = lazy(() => import('./AppToasts'));

function useAfterLoad(): boolean {
  const [ready, setReady] = useState(false);
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const go = () => (timer = setTimeout(() => setReady(true), 0));
    if (document.readyState === 'complete') go();
    else window.addEventListener('load', go, { once: true });
    return () => {
      window.removeEventListener('load', go);
      clearTimeout(timer);
    };
  }, []);
  return ready;
}

/** Everything above the router: the lazy Apollo client, the auth state and the toasts. */
export function AppProviders({ loadClient, children }: { loadClient: ApolloLoader; children: ReactNode }) {
  const toastsReady = useAfterLoad();
  return (
    <ApolloLoaderContext value={loadClient}>
      <AuthProvider>{children}</AuthProvider>
      {toastsReady && (
        <Suspense fallback={null}>
          <AppToasts />
        </Suspense>
      )}
    </ApolloLoaderContext>
  );
}
