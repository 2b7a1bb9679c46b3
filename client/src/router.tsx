import { lazy, Suspense, type ComponentType } from 'react';
import { Outlet, type RouteObject } from 'react-router-dom';
import { PageLoader } from './components/layout/PageLoader';
import { CatchAllRedirect, ProtectedRoute } from './features/auth/ProtectedRoute';
import { loadApolloLayout, needsApollo, pageChunks, pageFor, type ChunkLoader, type PageName } from './route-chunks';

interface LazyComponent {
  Component: ComponentType;
  /** Starts loading the chunk (once); resolves when the component can render without suspending. */
  preload: () => Promise<void>;
}

/**
 * A code-split component (React.lazy) that renders without suspending once its chunk has loaded —
 * React.lazy alone suspends on its first render even then. The first route's chunks are loaded before
 * the first render (boot.tsx), so the page commits at once instead of after a Suspense fallback,
 * which React keeps on screen for at least 300 ms.
 */
function lazyComponent(load: ChunkLoader): LazyComponent {
  let loaded: ComponentType | undefined;
  let promise: Promise<void> | undefined;
  const preload = () =>
    (promise ??= load().then(
      (m) => {
        loaded = m.default;
      },
      (e: unknown) => {
        promise = undefined; // a failed load (network) is tried again by the next caller
        throw e;
      },
    ));
  const Lazy = lazy(() => preload().then(() => ({ default: loaded! })));
  function Component() {
    const Loaded = loaded;
    return Loaded ? <Loaded /> : <Lazy />;
  }
  return { Component, preload };
}

// Route-level code splitting: each page is its own chunk, so the landing page loads only its own code.
const pages = Object.fromEntries(Object.entries(pageChunks).map(([name, load]) => [name, lazyComponent(load)])) as Record<PageName, LazyComponent>;
const apolloLayout = lazyComponent(loadApolloLayout);

const LandingPage = pages.landing.Component;
const AuthPage = pages.auth.Component;
const WorldsPage = pages.worlds.Component;
const CreateWorldPage = pages.createWorld.Component;
const CharactersPage = pages.characters.Component;
const StoryPage = pages.story.Component;
const SupportPage = pages.support.Component;
const SubscriptionPage = pages.subscription.Component;
const ProfilePage = pages.profile.Component;
const ReportPage = pages.report.Component;
const ResetPasswordPage = pages.resetPassword.Component;
const ManageSubscriptionPage = pages.manageSubscription.Component;
const PartyPage = pages.party.Component;
const JoinPartyPage = pages.joinParty.Component;

/**
 * Loads the chunks the first route needs (its page and, off the landing page, the app layout) all at
 * once, instead of one after the other as React meets each lazy component. Settles when they are in,
 * so the first render does not suspend (rejections are left to the lazy components, which retry and
 * report them).
 */
export function preloadRoute(pathname: string): Promise<void> {
  const page = pageFor(pathname);
  return Promise.all([page && pages[page].preload(), needsApollo(page) && apolloLayout.preload()]).then(
    () => {},
    () => {},
  );
}

function LandingLayout() {
  return (
    <Suspense fallback={<PageLoader />}>
      <Outlet />
    </Suspense>
  );
}

const ApolloLayout = apolloLayout.Component;

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
      { path: '/reset-password', element: <ResetPasswordPage /> },
      { path: '/worlds', element: <WorldsPage /> },
      {
        element: <ProtectedRoute />,
        children: [
          { path: '/worlds/new', element: <CreateWorldPage /> },
          { path: '/characters', element: <CharactersPage /> },
          { path: '/storychat/:id', element: <StoryPage /> },
          { path: '/support', element: <SupportPage /> },
          { path: '/subscription', element: <SubscriptionPage /> },
          { path: '/subscription/manage', element: <ManageSubscriptionPage /> },
          { path: '/profile', element: <ProfilePage /> },
          { path: '/report/story/:id', element: <ReportPage /> },
          { path: '/party/join', element: <JoinPartyPage /> },
          { path: '/party/:id', element: <PartyPage /> },
          // The server's "your turn" mail links to /parties/{id}.
          { path: '/parties/:id', element: <PartyPage /> },
        ],
      },
    ],
  },
  { path: '*', element: <CatchAllRedirect /> },
];
