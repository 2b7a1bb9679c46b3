import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createBrowserRouter, RouterProvider } from 'react-router-dom';
import { memoLoader } from './apollo/apollo-loader';
import { AppProviders } from './AppProviders';
import { routes } from './router';
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

const container = document.getElementById('root');
if (!container) throw new Error('Missing #root element');

createRoot(container).render(
  <StrictMode>
    <AppProviders loadClient={loadClient}>
      <RouterProvider router={router} />
    </AppProviders>
  </StrictMode>,
);
