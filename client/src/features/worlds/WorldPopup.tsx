import { useEffect, useId, useRef, useState } from 'react';
import { Link } from 'react-router-dom';
import { CloseIcon } from '../../components/icons';
import { useAuth } from '../auth/auth-context';
import type { WorldsPage_featuredWorldsQuery } from '../../gql/graphql';
import { WorldImage } from './WorldImage';

type World = WorldsPage_featuredWorldsQuery['featuredWorlds'][number];

/**
 * Minimal world popup (SPEC §2): image, name, description; collapsed → Spawn; expanded → username and
 * one textarea per question. Generation itself arrives with the full client.
 */
export function WorldPopup({ world, onClose }: { world: World; onClose: () => void }) {
  const { status } = useAuth();
  const [expanded, setExpanded] = useState(false);
  const ids = useId();
  const closeButton = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    closeButton.current?.focus();
    const onKey = (e: KeyboardEvent) => e.key === 'Escape' && onClose();
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [onClose]);

  return (
    <div className="modal-root">
      {/* The overlay closes the popup only while it is collapsed (SPEC §2). */}
      <div className="modal-overlay" aria-hidden="true" onClick={() => !expanded && onClose()} />
      <div className="modal world-popup" role="dialog" aria-modal="true" aria-labelledby={`${ids}-name`}>
        <button ref={closeButton} type="button" className="nav-icon-button modal-close" aria-label="Close" onClick={onClose}>
          <CloseIcon />
        </button>
        <WorldImage src={world.imageUrl} name={world.name} className="world-popup-image" />
        <div className="world-popup-body">
          <h2 id={`${ids}-name`}>{world.name}</h2>
          <p className="world-popup-description">{world.description}</p>
          {status !== 'authenticated' ? (
            <Link className="btn btn-primary" to="/auth" state={{ from: { pathname: '/worlds', search: `?world=${world.id}`, hash: '' } }}>
              Login to Spawn
            </Link>
          ) : !expanded ? (
            <div className="world-popup-actions">
              <button type="button" className="btn btn-primary" onClick={() => setExpanded(true)}>
                Spawn
              </button>
              <button type="button" className="btn btn-ghost" disabled title="Coming soon">
                Spawn from Profile (3 gems)
              </button>
            </div>
          ) : (
            <form className="world-spawn-form" onSubmit={(e) => e.preventDefault()}>
              <label htmlFor={`${ids}-username`}>Username</label>
              <textarea id={`${ids}-username`} rows={1} />
              {world.questions.map((q, i) => (
                <div key={i} className="field">
                  <label htmlFor={`${ids}-q${i}`}>{q}</label>
                  <textarea id={`${ids}-q${i}`} rows={2} />
                </div>
              ))}
              <button type="submit" className="btn btn-primary" disabled title="Coming soon">
                Generate Character (3 gems)
              </button>
            </form>
          )}
        </div>
      </div>
    </div>
  );
}
