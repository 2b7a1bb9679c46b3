import { Suspense } from 'react';
import { Outlet, ScrollRestoration, useLocation, type Location } from 'react-router-dom';
import { useAuth } from '../../features/auth/auth-context';
import { LiveSubscriptionStatus } from '../../features/subscription/subscription-status';
import { Footer } from './Footer';
import { NavBar } from './NavBar';
import { PageLoader } from './PageLoader';
import { showsFooter, showsNav } from './visibility';

/**
 * Where ScrollRestoration keeps a page's scroll. A page loaded by its address (typed, a link from
 * elsewhere, a reload) has no history key of its own: React Router calls every such entry "default",
 * so /characters opened that way was put back at the scroll /worlds had been left at. Those are kept
 * by path instead; pages reached inside the app keep their entry's own key (Back returns there).
 */
function scrollKey(location: Location): string {
  return location.key === 'default' ? location.pathname + location.search : location.key;
}

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
      <ScrollRestoration getKey={scrollKey} />
    </div>
  );
}
