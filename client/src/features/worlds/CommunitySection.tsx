import { useId, useState } from 'react';
import { useCommunitySection_communityWorldsQuery } from '../../gql/graphql';
import { PageLoader } from '../../components/layout/PageLoader';
import { COMMUNITY_PAGE_SIZE, COMMUNITY_SORTS, GENRES } from './community';
import { ResultsStatus } from './ResultsStatus';
import { WorldCard } from './WorldCard';
import { useSearchText } from './useSearchText';

/**
 * Community (issue 20): worlds players shared, for everyone, anonymous visitors too — search, genre,
 * sort and pages. Opening a card opens the same popup as featured worlds (the page's ?world= link).
 * The search goes out when typing pauses, so each keystroke is not a request.
 */
export function CommunitySection({ onOpen }: { onOpen: (id: string) => void }) {
  const ids = useId();
  const [genre, setGenre] = useState('');
  const [sort, setSort] = useState<string>('new');
  const [page, setPage] = useState(0);
  const { typed, setTyped, search } = useSearchText(() => setPage(0));
  const q = useCommunitySection_communityWorldsQuery({
    variables: { limit: COMMUNITY_PAGE_SIZE, offset: page * COMMUNITY_PAGE_SIZE, sort, search: search || null, genre: genre || null },
    // Counts change as people play: a revisit shows the cached page at once and refreshes it.
    fetchPolicy: 'cache-and-network',
  });
  // While another page or filter loads, the current cards stay (dimmed by aria-busy), so nothing jumps.
  const data = q.data ?? q.previousData;
  const total = data?.communityWorlds.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / COMMUNITY_PAGE_SIZE));
  const worlds = data?.communityWorlds.worlds ?? [];
  const filtered = search !== '' || genre !== '';

  return (
    <section className="worlds-section community-section" aria-labelledby={`${ids}-title`}>
      <div className="section-head">
        <h2 id={`${ids}-title`} className="section-title">
          Community Worlds
        </h2>
        <p className="muted community-lead">Shared by players. Play them, like them, remix them.</p>
      </div>
      <div className="community-filters" role="search">
        <div className="field">
          <label htmlFor={`${ids}-search`}>Search</label>
          <input
            id={`${ids}-search`}
            type="search"
            value={typed}
            maxLength={100}
            onChange={(e) => setTyped(e.target.value)}
            placeholder="Name or description"
          />
        </div>
        <div className="field">
          <label htmlFor={`${ids}-genre`}>Genre</label>
          <select
            id={`${ids}-genre`}
            value={genre}
            onChange={(e) => {
              setGenre(e.target.value);
              setPage(0);
            }}
          >
            <option value="">All genres</option>
            {GENRES.map((g) => (
              <option key={g.value} value={g.value}>
                {g.label}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor={`${ids}-sort`}>Sort by</label>
          <select
            id={`${ids}-sort`}
            value={sort}
            onChange={(e) => {
              setSort(e.target.value);
              setPage(0);
            }}
          >
            {COMMUNITY_SORTS.map((s) => (
              <option key={s.value} value={s.value}>
                {s.label}
              </option>
            ))}
          </select>
        </div>
      </div>
      <ResultsStatus active={filtered} count={q.loading ? null : total} noun="shared world" />
      {q.loading && !data ? (
        <PageLoader label="Loading community worlds…" />
      ) : q.error && !data ? (
        <p role="alert" className="muted">
          The community worlds could not be loaded. Please try again.
        </p>
      ) : worlds.length === 0 ? (
        <p className="muted empty-text">{filtered ? 'No shared worlds match.' : 'No shared worlds yet. Share one of yours from its popup.'}</p>
      ) : (
        <>
          <ul className="world-grid" aria-busy={q.loading}>
            {worlds.map((w) => (
              <li key={w.id}>
                <WorldCard world={w} onOpen={onOpen} signals={{ plays: w.playCount, likes: w.likeCount }} />
              </li>
            ))}
          </ul>
          {pages > 1 && (
            <nav className="community-pages" aria-label="Community pages">
              <button type="button" className="btn btn-ghost" disabled={page === 0} onClick={() => setPage((p) => p - 1)}>
                Previous
              </button>
              <span aria-live="polite">
                Page {page + 1} of {pages}
              </span>
              <button type="button" className="btn btn-ghost" disabled={page + 1 >= pages} onClick={() => setPage((p) => p + 1)}>
                Next
              </button>
            </nav>
          )}
        </>
      )}
    </section>
  );
}
