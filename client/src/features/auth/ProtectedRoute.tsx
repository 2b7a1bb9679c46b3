import { Navigate, Outlet, useLocation } from 'react-router-dom';
import { PageLoader } from '../../components/layout/PageLoader';
import { useAuth } from './auth-context';
import type { AuthRedirectState } from './redirect';

/** Sends anonymous users to /auth, remembering where they were going (SPEC §2). */
export function ProtectedRoute() {
  const { status } = useAuth();
  const location = useLocation();
  if (status === 'loading') return <PageLoader label="Checking your session…" />;
  if (status !== 'authenticated') {
    const state: AuthRedirectState = {
      from: { pathname: location.pathname, search: location.search, hash: location.hash },
    };
    return <Navigate to="/auth" replace state={state} />;
  }
  return <Outlet />;
}

/** Any unknown path: /worlds when signed in, otherwise the landing page. */
export function CatchAllRedirect() {
  const { status } = useAuth();
  if (status === 'loading') return <PageLoader />;
  return <Navigate to={status === 'authenticated' ? '/worlds' : '/'} replace />;
}
