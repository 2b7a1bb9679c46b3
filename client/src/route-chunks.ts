/**
 * Which code-split chunks each route needs, and their loaders. Imported by the entry script (main.tsx),
 * which starts the first route's chunks before React itself has arrived, and by router.tsx, which
 * builds the lazy pages from the same loaders (one chunk per page). No React here: the entry must stay
 * a few KB so it runs, and starts every download, one round trip after the HTML.
 */
import type { ComponentType } from 'react';

export type ChunkLoader = () => Promise<{ default: ComponentType }>;

export const pageChunks = {
  landing: () => import('./features/landing/LandingPage'),
  auth: () => import('./features/auth/AuthPage'),
  worlds: () => import('./features/worlds/WorldsPage'),
  createWorld: () => import('./features/create-world/CreateWorldPage'),
  characters: () => import('./features/characters/CharactersPage'),
  story: () => import('./features/story/StoryPage'),
  support: () => import('./features/support/SupportPage'),
  subscription: () => import('./features/subscription/SubscriptionPage'),
  profile: () => import('./features/profile/ProfilePage'),
  report: () => import('./features/report/ReportPage'),
  resetPassword: () => import('./features/auth/ResetPasswordPage'),
  manageSubscription: () => import('./features/subscription/ManageSubscriptionPage'),
  party: () => import('./features/party/PartyPage'),
  joinParty: () => import('./features/party/JoinPartyPage'),
} satisfies Record<string, ChunkLoader>;

export type PageName = keyof typeof pageChunks;

/** Every page but the landing page sits under this layout (Apollo provider, nav, footer). */
export const loadApolloLayout: ChunkLoader = () => import('./components/layout/ApolloLayout');

/** The page a path renders (null: the catch-all redirect). */
export function pageFor(pathname: string): PageName | null {
  const path = pathname.replace(/\/+$/, '') || '/';
  if (path === '/') return 'landing';
  if (path === '/auth') return 'auth';
  if (path === '/reset-password') return 'resetPassword';
  if (path === '/worlds') return 'worlds';
  if (path === '/worlds/new') return 'createWorld';
  if (path === '/characters') return 'characters';
  if (/^\/storychat\/[^/]+$/.test(path)) return 'story';
  if (path === '/support') return 'support';
  if (path === '/subscription') return 'subscription';
  if (path === '/subscription/manage') return 'manageSubscription';
  if (path === '/profile') return 'profile';
  if (/^\/report\/story\/[^/]+$/.test(path)) return 'report';
  if (path === '/party/join') return 'joinParty';
  // /parties/{id}: the link in the "your turn" mail.
  if (/^\/part(y|ies)\/[^/]+$/.test(path)) return 'party';
  return null;
}

/** Whether a page sits under the Apollo layout (all but the landing page and the catch-all). */
export function needsApollo(page: PageName | null): boolean {
  return page !== null && page !== 'landing';
}
