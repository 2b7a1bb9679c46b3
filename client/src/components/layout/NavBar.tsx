import { useEffect, useId, useRef, useState } from 'react';
import { Link, NavLink, useLocation } from 'react-router-dom';
import { useAuth } from '../../features/auth/auth-context';
import { DEFAULT_SUBSCRIPTION, formatContextTokens } from '../../features/subscription/subscription-defaults';
import { CloseIcon, GearIcon, GemIcon, MenuIcon, UserIcon } from '../icons';
import { SettingsDialog } from './SettingsDialog';
import './nav.css';

/** Links that need a session point anonymous users at /auth, remembering where they meant to go. */
function useGuardedTarget() {
  const { status } = useAuth();
  return (path: string) =>
    status === 'authenticated' ? { to: path } : { to: '/auth', state: { from: { pathname: path, search: '', hash: '' } } };
}

function SubscriptionStatus({ onNavigate }: { onNavigate?: () => void }) {
  const s = DEFAULT_SUBSCRIPTION;
  return (
    <Link
      to="/subscription"
      className="nav-subscription"
      onClick={onNavigate}
      aria-label={`Subscription: ${s.tierName}, ${s.credits} credits, ${formatContextTokens(s.maxContextTokens)} context`}
    >
      <span className="nav-tier">{s.tierName}</span>
      <span className="nav-credits">
        <GemIcon className="gem" />
        {s.credits}
      </span>
      <span className="nav-context">{formatContextTokens(s.maxContextTokens)}</span>
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
        data-testid="nav-profile"
      >
        <UserIcon className="nav-profile-icon" />
        {signedIn && user && <span className="nav-username">{user.username}</span>}
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

  useEffect(() => setDrawerOpen(false), [location.pathname]);
  useEffect(() => {
    if (!drawerOpen) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') {
        setDrawerOpen(false);
        menuButton.current?.focus();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [drawerOpen]);

  const openSettings = () => {
    setDrawerOpen(false);
    setSettingsOpen(true);
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

      {drawerOpen && (
        <div className="drawer-root">
          <div className="drawer-overlay" onClick={() => setDrawerOpen(false)} aria-hidden="true" />
          <aside id={drawerId} className="drawer" role="dialog" aria-modal="true" aria-label="Menu">
            <button
              type="button"
              className="nav-icon-button drawer-close"
              aria-label="Close menu"
              onClick={() => setDrawerOpen(false)}
              autoFocus
            >
              <CloseIcon />
            </button>
            <nav className="drawer-items" aria-label="Mobile">
              <NavItems onNavigate={() => setDrawerOpen(false)} onOpenSettings={openSettings} />
            </nav>
          </aside>
        </div>
      )}

      {settingsOpen && <SettingsDialog onClose={() => setSettingsOpen(false)} />}
    </header>
  );
}
