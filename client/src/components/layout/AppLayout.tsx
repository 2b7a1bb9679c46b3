import { Suspense } from 'react';
import { Outlet, ScrollRestoration, useLocation } from 'react-router-dom';
import { useAuth } from '../../features/auth/auth-context';
import { LiveSubscriptionStatus } from '../../features/subscription/subscription-status';
import { Footer } from './Footer';
import { NavBar } from './NavBar';
import { PageLoader } from './PageLoader';
import { showsFooter, showsNav } from './visibility';

export function AppLayout() {
  const { pathname } = useLocation();
  const { status, user } = useAuth();
  return (
    <div className="app-shell">
      <a className="skip-link" href="#main-content">
        Skip to content
      </a>
      {status === 'authenticated' && <LiveSubscriptionStatus key={user?.id} />}
      {showsNav(pathname) && <NavBar />}
      <div id="main-content" className="app-main" tabIndex={-1}>
        <Suspense fallback={<PageLoader />}>
          <Outlet />
        </Suspense>
      </div>
      {showsFooter(pathname) && <Footer />}
      <ScrollRestoration />
    </div>
  );
}
