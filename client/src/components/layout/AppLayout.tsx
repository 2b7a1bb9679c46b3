import { Suspense } from 'react';
import { Outlet, ScrollRestoration, useLocation } from 'react-router-dom';
import { Footer } from './Footer';
import { NavBar } from './NavBar';
import { PageLoader } from './PageLoader';
import { showsFooter, showsNav } from './visibility';

export function AppLayout() {
  const { pathname } = useLocation();
  return (
    <div className="app-shell">
      <a className="skip-link" href="#main-content">
        Skip to content
      </a>
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
