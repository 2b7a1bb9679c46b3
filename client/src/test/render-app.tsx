import { act, render, type RenderResult } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { memoLoader } from '../apollo/apollo-loader';
import { createAppClient } from '../apollo/client';
import { clearSession, toSession, writeSession } from '../apollo/session-store';
import { AppProviders } from '../AppProviders';
import { routes } from '../router';
import { createFakeServer, sessionPayload, type Handler } from './fake-graphql-server';

export const ME = {
  id: 'user-1',
  email: 'aria@example.com',
  username: 'aria',
  createdAt: '2025-01-02T03:04:05.000Z',
};

/** The real app (routes, providers, Apollo client, auth link) against a scripted /graphql. */
export async function renderApp(
  path: string,
  handlers: Record<string, Handler> = {},
  { signedIn = false, expiresIn = 3600 }: { signedIn?: boolean; expiresIn?: number } = {},
): Promise<RenderResult & { router: ReturnType<typeof createMemoryRouter>; calls: ReturnType<typeof createFakeServer>['calls'] }> {
  clearSession();
  if (signedIn) writeSession(toSession(sessionPayload(1, expiresIn)));
  const server = createFakeServer({
    AuthProvider_me: () => ({ data: { me: ME } }),
    ProfilePage_me: () => ({ data: { me: ME } }),
    WorldsPage_featuredWorlds: () => ({ data: { featuredWorlds: [] } }),
    ...handlers,
  });
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  const loadClient = memoLoader(async () =>
    createAppClient({
      uri: 'http://test/graphql',
      fetch: server.fetch,
      onAuthFailure: () => void router.navigate('/auth', { replace: true }),
    }).client,
  );
  // Rendering suspends on lazy chunks and the lazily created Apollo client: let React settle in act.
  let result!: RenderResult;
  await act(async () => {
    result = render(
      <AppProviders loadClient={loadClient}>
        <RouterProvider router={router} />
      </AppProviders>,
    );
  });
  return Object.assign(result, { router, calls: server.calls });
}
