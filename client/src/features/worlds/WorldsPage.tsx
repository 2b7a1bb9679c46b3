import { useCallback } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { useWorldsPage_featuredWorldsQuery } from '../../gql/graphql';
import { PageLoader } from '../../components/layout/PageLoader';
import { useAuth } from '../auth/auth-context';
import { WorldImage } from './WorldImage';
import { WorldPopup } from './WorldPopup';
import './worlds.css';

export default function WorldsPage() {
  const { status } = useAuth();
  const [params, setParams] = useSearchParams();
  const { data, loading, error } = useWorldsPage_featuredWorldsQuery();
  const worlds = data?.featuredWorlds ?? [];
  const openId = params.get('world');
  const open = openId ? worlds.find((w) => w.id === openId) : undefined;

  const openWorld = (id: string) => setParams({ world: id });
  const close = useCallback(() => setParams({}, { replace: true }), [setParams]);

  return (
    <main className="page worlds-page">
      {status === 'authenticated' && (
        <section className="worlds-section" aria-labelledby="my-worlds-title">
          <div className="section-head">
            <h1 id="my-worlds-title" className="section-title">
              My Worlds
            </h1>
            <Link className="btn btn-primary" to="/worlds/new">
              Create World
            </Link>
          </div>
          <p className="muted">No worlds found. Create one, or see Featured Worlds below.</p>
        </section>
      )}

      <section className="worlds-section" aria-labelledby="featured-title">
        {status === 'authenticated' ? (
          <h2 id="featured-title" className="section-title">
            Featured Worlds
          </h2>
        ) : (
          <h1 id="featured-title" className="section-title">
            Featured Worlds
          </h1>
        )}
        {loading && !data ? (
          <PageLoader label="Loading worlds…" />
        ) : error && !data ? (
          <p role="alert" className="muted">
            The worlds could not be loaded. Please try again.
          </p>
        ) : (
          <ul className="world-grid">
            {worlds.map((w) => (
              <li key={w.id}>
                <button type="button" className="world-card" onClick={() => openWorld(w.id)}>
                  <WorldImage src={w.imageUrl} name={w.name} className="world-card-image" />
                  <span className="world-card-body">
                    {w.genre && <span className="world-card-genre">{w.genre}</span>}
                    <span className="world-card-name">{w.name}</span>
                    <span className="world-card-description">{w.description}</span>
                  </span>
                </button>
              </li>
            ))}
          </ul>
        )}
      </section>

      {open && <WorldPopup key={open.id} world={open} onClose={close} />}
    </main>
  );
}
