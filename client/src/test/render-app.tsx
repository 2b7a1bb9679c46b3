import { act, render, type RenderResult } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { memoLoader } from '../apollo/apollo-loader';
import { createAppClient } from '../apollo/client';
import { clearSession, toSession, writeSession } from '../apollo/session-store';
import { AppProviders } from '../AppProviders';
import { routes } from '../router';
import { createFakeServer, sessionPayload, type Handler } from './fake-graphql-server';
import { createFakeSubscriptions } from './fake-subscriptions';
import { EMPTY_COMMUNITY, NO_SERVER_VOICE, stakesCharacter, userSettings, worldSignals } from './fixtures';

export const FREE_STATUS = {
  tier: { id: 'free', name: 'Free' },
  credits: 10,
  maxContextTokens: 2000,
  active: true,
  endDate: null,
  status: 'active',
  cancelAtPeriodEnd: false,
};

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
): Promise<
  RenderResult & {
    router: ReturnType<typeof createMemoryRouter>;
    calls: ReturnType<typeof createFakeServer>['calls'];
    subscriptions: ReturnType<typeof createFakeSubscriptions>;
  }
> {
  clearSession();
  if (signedIn) writeSession(toSession(sessionPayload(1, expiresIn)));
  const server = createFakeServer({
    AuthProvider_me: () => ({ data: { me: ME } }),
    ProfilePage_me: () => ({ data: { me: ME } }),
    WorldsPage_featuredWorlds: () => ({ data: { featuredWorlds: [] } }),
    WorldsPage_myWorlds: () => ({ data: { myWorlds: [] } }),
    CommunitySection_communityWorlds: () => ({ data: { communityWorlds: EMPTY_COMMUNITY } }),
    TwoStepVerification_factors: () => ({ data: { mfaFactors: [] } }),
    WorldCommunity_world: (call) => ({ data: { world: worldSignals(String(call.variables.id)) } }),
    SubscriptionStatus_subscriptionStatus: () => ({ data: { subscriptionStatus: FREE_STATUS } }),
    SettingsDialog_settings: () => ({ data: { settings: userSettings(), readAloud: NO_SERVER_VOICE } }),
    ReadAloud_prefs: () => ({ data: { settings: userSettings(), readAloud: NO_SERVER_VOICE } }),
    StoryPage_settings: () => ({ data: { settings: { immersiveUi: false, readingLevel: 8 } } }),
    CharactersPage_myCharacters: () => ({ data: { myCharacters: [] } }),
    PartiesList_myParties: () => ({ data: { myParties: [] } }),
    CreatePartyDialog_chapterCredits: () => ({ data: { partyChapterCredits: 1 } }),
    ChapterStakes_character: () => ({ data: { character: stakesCharacter() } }),
    ...handlers,
  });
  const subscriptions = createFakeSubscriptions();
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  const loadClient = memoLoader(
    async () =>
      createAppClient({
        uri: 'http://test/graphql',
        fetch: server.fetch,
        subscriptionLink: subscriptions.link,
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
  return Object.assign(result, { router, calls: server.calls, subscriptions });
}
