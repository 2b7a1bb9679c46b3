import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createBrowserRouter, RouterProvider } from 'react-router-dom';
import { memoLoader } from './apollo/apollo-loader';
import { AppProviders } from './AppProviders';
import { readSession } from './apollo/session-store';
import { fetchFeaturedEarly } from './features/worlds/early-featured';
import { preloadRoute, routes } from './router';
import './styles/global.css';

const router = createBrowserRouter(routes);

const loadClient = memoLoader(() =>
  import('./apollo/client').then(
    ({ createAppClient }) =>
      createAppClient({
        // A refresh failed (expiring token or after a 401): the session is gone, sign in again (SPEC §8).
        onAuthFailure: () => {
          const { pathname, search, hash } = router.state.location;
          if (pathname === '/auth') return;
          void router.navigate('/auth', { replace: true, state: { from: { pathname, search, hash } } });
        },
      }).client,
  ),
);

// Fetch the first route's chunks (and, off the landing page, the Apollo client) in parallel right away.
if (preloadRoute(window.location.pathname).needsApollo) {
  const client = loadClient();
  // The worlds page's first query goes out with the page chunk rather than after it (anonymous
  // visitors: even before the Apollo client has loaded).
  if (window.location.pathname.replace(/\/+$/, '') === '/worlds') {
    const early = readSession() ? undefined : fetchFeaturedEarly();
    void Promise.all([client, import('./features/worlds/prefetch')]).then(([c, { prefetchWorldsPage }]) => prefetchWorldsPage(c, early), () => {});
  }
}

const container = document.getElementById('root');
if (!container) throw new Error('Missing #root element');

createRoot(container).render(
  <StrictMode>
    <AppProviders loadClient={loadClient}>
      <RouterProvider router={router} />
    </AppProviders>
  </StrictMode>,
);
