import { lazy, Suspense } from 'react';
import { Outlet, type RouteObject } from 'react-router-dom';
import { PageLoader } from './components/layout/PageLoader';
import { CatchAllRedirect, ProtectedRoute } from './features/auth/ProtectedRoute';

// Route-level code splitting: each page is its own chunk, so the landing page loads only its own code.
const LandingPage = lazy(() => import('./features/landing/LandingPage'));
const AuthPage = lazy(() => import('./features/auth/AuthPage'));
const WorldsPage = lazy(() => import('./features/worlds/WorldsPage'));
const CreateWorldPage = lazy(() => import('./features/create-world/CreateWorldPage'));
const CharactersPage = lazy(() => import('./features/characters/CharactersPage'));
const StoryPage = lazy(() => import('./features/story/StoryPage'));
const SupportPage = lazy(() => import('./features/support/SupportPage'));
const SubscriptionPage = lazy(() => import('./features/subscription/SubscriptionPage'));
const ProfilePage = lazy(() => import('./features/profile/ProfilePage'));

function LandingLayout() {
  return (
    <Suspense fallback={<PageLoader />}>
      <Outlet />
    </Suspense>
  );
}

const ApolloLayout = lazy(() => import('./components/layout/ApolloLayout'));

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
