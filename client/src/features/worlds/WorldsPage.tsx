import { useCallback, useState } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { PageLoader } from '../../components/layout/PageLoader';
import {
  useWorldsPage_featuredWorldsQuery,
  useWorldsPage_myWorldsQuery,
  useWorldsPage_worldQuery,
  type GeneratedCharacterFieldsFragment,
  type WorldCardFieldsFragment,
} from '../../gql/graphql';
import { useAuth } from '../auth/auth-context';
import { Carousel } from './Carousel';
import { CharacterResult } from './CharacterResult';
import { WorldCard } from './WorldCard';
import { WorldPopup } from './WorldPopup';
import './worlds.css';

/** How many cards of the first list are in the first screenful (3 per row on wide screens). */
const PRIORITY_CARDS = 3;

export const MY_WORLDS_EMPTY = 'No worlds found. Create one, or see Featured Worlds below.';

export default function WorldsPage() {
  const { status } = useAuth();
  const signedIn = status === 'authenticated';
  const [params, setParams] = useSearchParams();
  const featured = useWorldsPage_featuredWorldsQuery();
  const mine = useWorldsPage_myWorldsQuery({ skip: !signedIn, fetchPolicy: 'cache-and-network' });
  const [result, setResult] = useState<{ character: GeneratedCharacterFieldsFragment; world: WorldCardFieldsFragment } | null>(null);

  const featuredWorlds = featured.data?.featuredWorlds ?? [];
  const myWorlds = signedIn ? (mine.data?.myWorlds ?? []) : [];
  const openId = params.get('world');
  const listed = openId ? (myWorlds.find((w) => w.id === openId) ?? featuredWorlds.find((w) => w.id === openId)) : undefined;
  const listsSettled = !featured.loading && (!signedIn || !mine.loading);
  // A linked world in neither list (a shared world, or lists still loading) is fetched on its own.
  const single = useWorldsPage_worldQuery({
    variables: { id: openId ?? '' },
    skip: !openId || !!listed || !listsSettled,
  });
  const open = listed ?? (openId && single.data?.world.id === openId ? single.data.world : undefined);


  const openWorld = (id: string) => setParams({ world: id });
  const close = useCallback(() => setParams({}, { replace: true }), [setParams]);

  if (result) {
    return (
      <CharacterResult
        character={result.character}
        world={result.world}
        onStartOver={() => {
          setResult(null);
          close();
        }}
      />
    );
  }

  return (
    <main className="page worlds-page">
      {signedIn && (
        <section className="worlds-section" aria-labelledby="my-worlds-title">
          <div className="section-head">
            <h1 id="my-worlds-title" className="section-title">
              My Worlds
            </h1>
            <Link className="btn btn-primary" to="/worlds/new">
              Create World
            </Link>
          </div>
          {mine.loading && !mine.data ? (
            <PageLoader label="Loading your worlds…" />
          ) : myWorlds.length === 0 ? (
            <p className="muted empty-text">{MY_WORLDS_EMPTY}</p>
          ) : (
            <Carousel
              items={myWorlds}
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
        {featured.loading && !featured.data ? (
          <PageLoader label="Loading worlds…" />
        ) : featured.error && !featured.data ? (
          <p role="alert" className="muted">
            The worlds could not be loaded. Please try again.
          </p>
        ) : (
          <ul className="world-grid">
            {featuredWorlds.map((w, i) => (
              <li key={w.id}>
                <WorldCard world={w} onOpen={openWorld} priority={!signedIn && i < PRIORITY_CARDS} />
              </li>
            ))}
          </ul>
        )}
      </section>

      {open && (
        <WorldPopup
          key={open.id}
          world={open}
          onClose={close}
          onGenerated={(character) => setResult({ character, world: open })}
          onShareFailed={() => void mine.refetch()}
        />
      )}
    </main>
  );
}
