import { lazy, Suspense } from 'react';
import { Outlet, type RouteObject } from 'react-router-dom';
import { PageLoader } from './components/layout/PageLoader';
import { CatchAllRedirect, ProtectedRoute } from './features/auth/ProtectedRoute';

// Route-level code splitting: each page is its own chunk, so the landing page loads only its own code.
const pages = {
  landing: () => import('./features/landing/LandingPage'),
  auth: () => import('./features/auth/AuthPage'),
  worlds: () => import('./features/worlds/WorldsPage'),
  createWorld: () => import('./features/create-world/CreateWorldPage'),
  characters: () => import('./features/characters/CharactersPage'),
  story: () => import('./features/story/StoryPage'),
  support: () => import('./features/support/SupportPage'),
  subscription: () => import('./features/subscription/SubscriptionPage'),
  profile: () => import('./features/profile/ProfilePage'),
};
const loadApolloLayout = () => import('./components/layout/ApolloLayout');

const LandingPage = lazy(pages.landing);
const AuthPage = lazy(pages.auth);
const WorldsPage = lazy(pages.worlds);
const CreateWorldPage = lazy(pages.createWorld);
const CharactersPage = lazy(pages.characters);
const StoryPage = lazy(pages.story);
const SupportPage = lazy(pages.support);
const SubscriptionPage = lazy(pages.subscription);
const ProfilePage = lazy(pages.profile);

/** The page chunk a path renders (null: the catch-all redirect). */
function pageFor(pathname: string): (() => Promise<unknown>) | null {
  const path = pathname.replace(/\/+$/, '') || '/';
  if (path === '/') return pages.landing;
  if (path === '/auth') return pages.auth;
  if (path === '/worlds') return pages.worlds;
  if (path === '/worlds/new') return pages.createWorld;
  if (path === '/characters') return pages.characters;
  if (/^\/storychat\/[^/]+$/.test(path)) return pages.story;
  if (path === '/support') return pages.support;
  if (path === '/subscription') return pages.subscription;
  if (path === '/profile') return pages.profile;
  return null;
}

/**
 * Starts loading, all at once, the chunks the first route needs (its page and, off the landing page,
 * the app layout), instead of one after the other as React meets each lazy component. Returns whether
 * the route sits under the Apollo layout (so the caller can start loading the client too).
 */
export function preloadRoute(pathname: string): { needsApollo: boolean } {
  const page = pageFor(pathname);
  const landing = page === pages.landing;
  const swallow = () => {}; // a failed preload is retried (and reported) by the lazy component itself
  page?.().catch(swallow);
  if (page && !landing) loadApolloLayout().catch(swallow);
  return { needsApollo: !!page && !landing };
}

function LandingLayout() {
  return (
    <Suspense fallback={<PageLoader />}>
      <Outlet />
    </Suspense>
  );
}

const ApolloLayout = lazy(loadApolloLayout);

function AppShell() {
  return (
    <Suspense fallback={<PageLoader />}>
      <ApolloLayout />
    </Suspense>
  );
}

/** The whole route table of SPEC §2. */
export const routes: RouteObject[] = [
  // The landing page needs no GraphQL: it stays outside the Apollo boundary (and its bundle).
  { element: <LandingLayout />, children: [{ path: '/', element: <LandingPage /> }] },
  {
    element: <AppShell />,
    children: [
      { path: '/auth', element: <AuthPage /> },
      { path: '/worlds', element: <WorldsPage /> },
      {
        element: <ProtectedRoute />,
        children: [
          { path: '/worlds/new', element: <CreateWorldPage /> },
          { path: '/characters', element: <CharactersPage /> },
          { path: '/storychat/:id', element: <StoryPage /> },
          { path: '/support', element: <SupportPage /> },
          { path: '/subscription', element: <SubscriptionPage /> },
          { path: '/profile', element: <ProfilePage /> },
        ],
      },
    ],
  },
  { path: '*', element: <CatchAllRedirect /> },
];
