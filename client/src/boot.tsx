import { startTransition, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createBrowserRouter, RouterProvider } from 'react-router-dom';
import { memoLoader } from './apollo/apollo-loader';
import { AppProviders } from './AppProviders';
import type { EarlyFeatured } from './features/worlds/early-featured';
import { needsApollo, pageFor } from './route-chunks';
import { preloadRoute, routes } from './router';

/**
 * Starts the app once React has loaded (main.tsx imports this chunk and has already started the first
 * route's chunks and, on /worlds, the featured-worlds request).
 */
export function boot(container: HTMLElement, early: EarlyFeatured | undefined): Promise<void> {
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

  const { pathname } = window.location;
  const beforeFirstRender: Array<Promise<unknown>> = [preloadRoute(pathname)];
  if (needsApollo(pageFor(pathname))) {
    const client = loadClient();
    beforeFirstRender.push(client);
    // The worlds page's featured query is answered before the first render — from the early request
    // when there is one (anonymous visitors) — so the page never sends the same query again.
    if (pageFor(pathname) === 'worlds') {
      beforeFirstRender.push(Promise.all([client, import('./features/worlds/prefetch')]).then(([c, { prefetchWorldsPage }]) => prefetchWorldsPage(c, early)));
    }
  }

  // The first render waits for the route's code: the page then commits in one go. Rendering earlier
  // would show the Suspense fallback, and React keeps a fallback on screen for at least 300 ms once
  // shown. Meanwhile index.html's own spinner shows. Failures are left to the boundaries, which report them.
  // As a transition, React renders in slices of a few milliseconds, yielding to the browser in between,
  // instead of blocking the main thread for the whole first render (a slow phone: a few hundred ms).
  return Promise.all(beforeFirstRender.map((p) => p.catch(() => {}))).then(() => {
    const root = createRoot(container);
    startTransition(() =>
      root.render(
        <StrictMode>
          <AppProviders loadClient={loadClient}>
            <RouterProvider router={router} />
          </AppProviders>
        </StrictMode>,
      ),
    );
  });
}
