import { lazy, startTransition, Suspense, useCallback, useEffect, useState, type ReactNode } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { PageLoader } from '../../components/layout/PageLoader';
import {
  useWorldsPage_featuredSearchQuery,
  useWorldsPage_featuredWorldsQuery,
  useWorldsPage_myWorldsQuery,
  useWorldsPage_worldQuery,
  type GeneratedCharacterFieldsFragment,
  type WorldCardFieldsFragment,
} from '../../gql/graphql';
import { useAuth } from '../auth/auth-context';
import { Carousel } from './Carousel';
import { CommunitySection } from './CommunitySection';
import { firstScreenCards } from './image-sources';
import { WorldCard } from './WorldCard';
import { ResultsStatus } from './ResultsStatus';
import { useSearchText } from './useSearchText';
import './worlds.css';

// The popup and the generated character (with their forms, toasts and dialogs) are not part of the
// first paint: they load when a world is about to be opened (pointer or focus on a card) or opened.
const loadWorldPopup = () => import('./WorldPopup');
const loadCharacterResult = () => import('./CharacterResult');
const WorldPopup = lazy(() => loadWorldPopup().then((m) => ({ default: m.WorldPopup })));
const CharacterResult = lazy(() => loadCharacterResult().then((m) => ({ default: m.CharacterResult })));
const preloadPopup = () => void loadWorldPopup().catch(() => {}); // a failure shows when it is opened

export const MY_WORLDS_EMPTY = 'No worlds found. Create one, or see Featured Worlds below.';

interface MyWorlds {
  list: readonly WorldCardFieldsFragment[];
  /** Nothing to show yet (first load). */
  loading: boolean;
  /** No request in flight (a linked world missing from the lists is then fetched on its own). */
  settled: boolean;
  refetch: () => void;
}

/**
 * The worlds screen (SPEC §2). Anonymous visitors see Featured Worlds only, and their page creates no
 * query for My Worlds at all (every query costs Apollo some work on the first render).
 */
export default function WorldsPage() {
  const { status } = useAuth();
  // A stored session still being confirmed (after a reload) already shows the signed-in layout, My
  // Worlds loading: were the anonymous page shown meanwhile, My Worlds would push Featured down the
  // moment the session is confirmed, under the pointer of a player already clicking a card.
  return status === 'authenticated' || status === 'loading' ? <SignedInWorldsPage confirmed={status === 'authenticated'} /> : <WorldsView myWorlds={null} />;
}

function SignedInWorldsPage({ confirmed }: { confirmed: boolean }) {
  const mine = useWorldsPage_myWorldsQuery({ fetchPolicy: 'cache-and-network', skip: !confirmed });
  return (
    <WorldsView
      myWorlds={{
        list: mine.data?.myWorlds ?? [],
        loading: !confirmed || (mine.loading && !mine.data),
        settled: confirmed && !mine.loading,
        refetch: () => void mine.refetch(),
      }}
    />
  );
}

function WorldsView({ myWorlds }: { myWorlds: MyWorlds | null }) {
  const signedIn = myWorlds !== null;
  const [params, setParams] = useSearchParams();
  const featured = useWorldsPage_featuredWorldsQuery();
  // Cards in the first screenful load their images at once, with high priority (as early-featured.ts
  // preloads them); the rest lazily.
  const [priorityCards] = useState(() => firstScreenCards(window.innerWidth, window.innerHeight));
  const [result, setResult] = useState<{ character: GeneratedCharacterFieldsFragment; world: WorldCardFieldsFragment; answers: string[] } | null>(null);

  const featuredWorlds = featured.data?.featuredWorlds ?? [];
  const { typed, setTyped, search } = useSearchText();
  const found = useWorldsPage_featuredSearchQuery({ variables: { search }, skip: search === '' });
  // While the next search loads, the last results stay (dimmed by aria-busy), as in Community.
  const foundWorlds = (found.data ?? found.previousData)?.featuredWorlds;
  // The cards of the first screenful render first (the last of their rows reaches below the fold, so
  // the rest of the page stays out of view); the others follow in a low-priority render right after,
  // so the first paint does less work and cards below the fold do not fetch images ahead of visible ones.
  const [showAll, setShowAll] = useState(false);
  useEffect(() => startTransition(() => setShowAll(true)), []);
  const shownWorlds = showAll ? featuredWorlds : featuredWorlds.slice(0, priorityCards);
  const openId = params.get('world');
  const listed = openId
    ? (myWorlds?.list.find((w) => w.id === openId) ?? featuredWorlds.find((w) => w.id === openId) ?? foundWorlds?.find((w) => w.id === openId))
    : undefined;
  const listsSettled = !featured.loading && (myWorlds?.settled ?? true);

  // Open: the generated character comes next, so its chunk loads while the player fills the form in.
  useEffect(() => {
    if (openId) void loadCharacterResult().catch(() => {});
  }, [openId]);

  const openWorld = (id: string) => setParams({ world: id });
  const close = useCallback(() => setParams({}, { replace: true }), [setParams]);
  const popup = (world: WorldCardFieldsFragment) => (
    <Suspense fallback={null}>
      <WorldPopup
        key={world.id}
        world={world}
        onClose={close}
        onGenerated={(character, answers) => setResult({ character, world, answers })}
        onShareFailed={() => myWorlds?.refetch()}
      />
    </Suspense>
  );

  if (result) {
    return (
      <Suspense fallback={<PageLoader />}>
        <CharacterResult
          character={result.character}
          world={result.world}
          answers={result.answers}
          onStartOver={() => {
            setResult(null);
            close();
          }}
        />
      </Suspense>
    );
  }

  return (
    <main className="page worlds-page" onPointerOver={preloadPopup} onFocus={preloadPopup}>
      {myWorlds && (
        <section className="worlds-section" aria-labelledby="my-worlds-title">
          <div className="section-head">
            <h1 id="my-worlds-title" className="section-title">
              My Worlds
            </h1>
            <Link className="btn btn-primary" to="/worlds/new">
              Create World
            </Link>
          </div>
          {myWorlds.loading ? (
            <PageLoader label="Loading your worlds…" />
          ) : myWorlds.list.length === 0 ? (
            <p className="muted empty-text">{MY_WORLDS_EMPTY}</p>
          ) : (
            <Carousel
              items={myWorlds.list}
              label="My Worlds carousel"
              itemKey={(w) => w.id}
              itemLabel={(w) => w.name}
              renderItem={(w) => <WorldCard world={w} onOpen={openWorld} priority />}
            />
          )}
        </section>
      )}

      <section className="worlds-section" aria-labelledby="featured-title">
        {signedIn ? (
          <h2 id="featured-title" className="section-title">
            Featured Worlds
          </h2>
        ) : (
          <h1 id="featured-title" className="section-title">
            Featured Worlds
          </h1>
        )}
        <div className="community-filters featured-filters" role="search" aria-label="Search featured worlds">
          <div className="field">
            <label htmlFor="featured-search">Search</label>
            <input
              id="featured-search"
              type="search"
              value={typed}
              maxLength={100}
              onChange={(e) => setTyped(e.target.value)}
              placeholder="Name or description"
            />
          </div>
        </div>
        <ResultsStatus active={search !== ''} count={foundWorlds?.length ?? null} noun="featured world" />
        {search !== '' ? (
          found.error && !foundWorlds ? (
            <p role="alert" className="muted">
              The worlds could not be searched. Please try again.
            </p>
          ) : !foundWorlds ? (
            <PageLoader label="Searching worlds…" />
          ) : foundWorlds.length === 0 ? (
            <p className="muted empty-text">No featured worlds match.</p>
          ) : (
            <ul className="world-grid" aria-busy={found.loading}>
              {foundWorlds.map((w) => (
                <li key={w.id}>
                  <WorldCard world={w} onOpen={openWorld} />
                </li>
              ))}
            </ul>
          )
        ) : featured.loading && !featured.data ? (
          <PageLoader label="Loading worlds…" />
        ) : featured.error && !featured.data ? (
          <p role="alert" className="muted">
            The worlds could not be loaded. Please try again.
          </p>
        ) : (
          <ul className="world-grid">
            {shownWorlds.map((w, i) => (
              <li key={w.id}>
                <WorldCard world={w} onOpen={openWorld} priority={!signedIn && i < priorityCards} />
              </li>
            ))}
          </ul>
        )}
      </section>

      <CommunitySection onOpen={openWorld} />

      {listed ? popup(listed) : openId && listsSettled && <LinkedWorld id={openId} render={popup} />}
    </main>
  );
}

/** A linked world (?world=id) in neither list, e.g. a world someone shared: fetched on its own. */
function LinkedWorld({ id, render }: { id: string; render: (world: WorldCardFieldsFragment) => ReactNode }) {
  const single = useWorldsPage_worldQuery({ variables: { id } });
  return single.data?.world.id === id ? render(single.data.world) : null;
}
