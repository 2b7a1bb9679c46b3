import { lazy, Suspense, useEffect, useState, type ReactNode } from 'react';
import { ApolloLoaderContext, type ApolloLoader } from './apollo/apollo-loader';
import { AuthProvider } from './features/auth/AuthProvider';

// Loaded once the page has loaded and then gone idle, so it never competes with the first route's
// chunks, data or images: no page emits a toast before then, and react-toastify queues any toast raised
// before its container mounts.
const AppToasts = lazy(() => import('./AppToasts'));

function useAfterLoadAndIdle(): boolean {
  const [ready, setReady] = useState(false);
  useEffect(() => {
    let cancel = () => {};
    const idle = () => {
      if (typeof window.requestIdleCallback === 'function') {
        const id = window.requestIdleCallback(() => setReady(true), { timeout: 3000 });
        cancel = () => window.cancelIdleCallback(id);
      } else {
        const id = setTimeout(() => setReady(true), 0);
        cancel = () => clearTimeout(id);
      }
    };
    if (document.readyState === 'complete') idle();
    else window.addEventListener('load', idle, { once: true });
    return () => {
      window.removeEventListener('load', idle);
      cancel();
    };
  }, []);
  return ready;
}

/** Everything above the router: the lazy Apollo client, the auth state and the toasts. */
export function AppProviders({ loadClient, children }: { loadClient: ApolloLoader; children: ReactNode }) {
  const toastsReady = useAfterLoadAndIdle();
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
