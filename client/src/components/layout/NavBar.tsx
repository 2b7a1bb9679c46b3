import { lazy, Suspense, useEffect, useId, useRef, useState } from 'react';
import { createPortal } from 'react-dom';
import { Link, NavLink, useLocation } from 'react-router-dom';
import { useAuth } from '../../features/auth/auth-context';
import { formatContextTokens } from '../../features/subscription/subscription-defaults';
import { useSubscriptionStatus } from '../../features/subscription/subscription-status';
import { CloseIcon, GearIcon, GemIcon, MenuIcon, UserIcon } from '../icons';
import { trapTab } from '../ui/Modal';
import './nav.css';

// Only signed-in players open it, and only on demand: not part of the first paint.
const SettingsDialog = lazy(() => import('./SettingsDialog').then((m) => ({ default: m.SettingsDialog })));

/** Links that need a session point anonymous users at /auth, remembering where they meant to go. */
function useGuardedTarget() {
  const { status } = useAuth();
  return (path: string) => (status === 'authenticated' ? { to: path } : { to: '/auth', state: { from: { pathname: path, search: '', hash: '' } } });
}

function SubscriptionStatus({ onNavigate }: { onNavigate?: () => void }) {
  const { view: s } = useSubscriptionStatus();
  return (
    <Link to="/subscription" className="nav-subscription" onClick={onNavigate}>
      {/* The accessible name is the visible text plus hidden words: "Subscription: Free, 7 credits, 2k context". */}
      <span className="visually-hidden">Subscription: </span>
      <span className="nav-tier">{s.tierName}</span>
      <span className="visually-hidden">, </span>
      <span className="nav-credits" data-testid="nav-credits">
        <GemIcon className="gem" />
        {s.credits}
      </span>
      <span className="visually-hidden"> credits, </span>
      <span className="nav-context">{formatContextTokens(s.maxContextTokens)}</span>
      <span className="visually-hidden"> context</span>
    </Link>
  );
}

function NavItems({ onNavigate, onOpenSettings }: { onNavigate?: () => void; onOpenSettings: () => void }) {
  const { status, user } = useAuth();
  const guarded = useGuardedTarget();
  const signedIn = status === 'authenticated';
  const characters = guarded('/characters');
  const profile = guarded('/profile');
  return (
    <>
      <NavLink to="/worlds" className="nav-link" onClick={onNavigate} end>
        Worlds
      </NavLink>
      <NavLink to={characters.to} state={characters.state} className="nav-link" onClick={onNavigate}>
        Characters
      </NavLink>
      {signedIn && <SubscriptionStatus onNavigate={onNavigate} />}
      {signedIn && (
        <button type="button" className="nav-icon-button" onClick={onOpenSettings} aria-label="Settings">
          <GearIcon />
        </button>
      )}
      <NavLink
        to={profile.to}
        state={profile.state}
        className="nav-profile"
        onClick={onNavigate}
        aria-label={signedIn && user ? `Profile (${user.username})` : 'Profile (sign in)'}
        title={signedIn && user ? `Signed in as ${user.username}` : 'Sign in'}
        data-testid="nav-profile"
      >
        {/* SPEC §2: a profile icon. The username lives in the name only: visible text would have to
            appear in the accessible name, and "Profile (name)" keeps the name out of it for axe. */}
        <UserIcon className="nav-profile-icon" />
      </NavLink>
    </>
  );
}

export function NavBar() {
  const [drawerOpen, setDrawerOpen] = useState(false);
  const [settingsOpen, setSettingsOpen] = useState(false);
  const { status } = useAuth();
  const location = useLocation();
  const drawerId = useId();
  const menuButton = useRef<HTMLButtonElement>(null);
  const drawer = useRef<HTMLElement>(null);

  // A new page closes the drawer: adjusted while rendering (React's pattern for state that follows
  // a prop), so the closed drawer is what the new page first paints.
  const [drawerPath, setDrawerPath] = useState(location.pathname);
  if (drawerPath !== location.pathname) {
    setDrawerPath(location.pathname);
    setDrawerOpen(false);
  }
  /** Closed without going anywhere: focus goes back to the button that opened it. */
  const closeDrawer = () => {
    setDrawerOpen(false);
    menuButton.current?.focus();
  };
  useEffect(() => {
    if (!drawerOpen) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') {
        setDrawerOpen(false);
        menuButton.current?.focus();
      } else trapTab(e, drawer.current);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [drawerOpen]);

  /** Settings opened from the drawer: the drawer (and the opener in it) is gone when Settings closes. */
  const settingsFromDrawer = useRef(false);
  const openSettings = () => {
    settingsFromDrawer.current = drawerOpen;
    setDrawerOpen(false);
    setSettingsOpen(true);
  };
  const closeSettings = () => {
    setSettingsOpen(false);
    if (settingsFromDrawer.current) menuButton.current?.focus();
  };

  return (
    <header className="site-header" data-auth-state={status}>
      <nav className="nav" aria-label="Main">
        <Link to="/" className="nav-brand">
          <span className="nav-brand-mark" aria-hidden="true">
            ✦
          </span>
          Taleforge
        </Link>
        <div className="nav-items">
          <NavItems onOpenSettings={openSettings} />
        </div>
        <button
          ref={menuButton}
          type="button"
          className="nav-icon-button nav-menu-button"
          aria-label="Open menu"
          aria-expanded={drawerOpen}
          aria-controls={drawerId}
          onClick={() => setDrawerOpen(true)}
        >
          <MenuIcon />
        </button>
      </nav>

      {/* At the end of body, like every overlay: the header's backdrop-filter would otherwise be the
          containing block of this fixed layer (390×64 instead of the viewport). */}
      {drawerOpen &&
        createPortal(
          <div className="drawer-root">
            <div className="drawer-overlay" onClick={closeDrawer} aria-hidden="true" />
            <aside ref={drawer} id={drawerId} className="drawer" role="dialog" aria-modal="true" aria-label="Menu">
              <button type="button" className="nav-icon-button drawer-close" aria-label="Close menu" onClick={closeDrawer} autoFocus>
                <CloseIcon />
              </button>
              <nav className="drawer-items" aria-label="Mobile">
                <NavItems onNavigate={() => setDrawerOpen(false)} onOpenSettings={openSettings} />
              </nav>
            </aside>
          </div>,
          document.body,
        )}

      {settingsOpen && (
        <Suspense fallback={null}>
          <SettingsDialog onClose={closeSettings} />
        </Suspense>
      )}
    </header>
  );
}
