import { useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { toast } from 'react-toastify/unstyled';
import { errorCode } from '../../apollo/graphql-errors';
import { GemIcon } from '../../components/icons';
import {
  useWorldCommunity_remixWorldMutation,
  useWorldCommunity_setWorldLikedMutation,
  useWorldCommunity_worldQuery,
  WorldsPage_myWorldsDocument,
  type WorldCardFieldsFragment,
} from '../../gql/graphql';
import { WORLD_CREATION_COST } from '../../lib/constants';
import { MESSAGES } from '../../lib/messages';
import { ReportForm } from '../report/ReportForm';
import { countLabel } from './community';

/** The world's public link: opens its popup for anyone while it is featured or shared. */
function worldLink(id: string): string {
  return `${window.location.origin}/worlds?world=${encodeURIComponent(id)}`;
}

export async function copyText(text: string): Promise<void> {
  try {
    await navigator.clipboard.writeText(text);
    toast.success(MESSAGES.linkCopied);
  } catch {
    toast.error(MESSAGES.linkCopyFailed);
  }
}

/** Plays and likes read fresh for the open world (lists may show cached counts), with the viewer's like. */
function useWorldSignals(id: string) {
  return useWorldCommunity_worldQuery({ variables: { id }, fetchPolicy: 'cache-and-network' }).data?.world;
}

/** Under the description: plays, likes, the remix credit, and to its owner why it is hidden. */
export function WorldSignals({ world }: { world: WorldCardFieldsFragment }) {
  const info = useWorldSignals(world.id);
  if (!info) return null;
  return (
    <>
      <p className="world-popup-signals">
        <span>{countLabel(info.playCount, 'play', 'plays')}</span>
        <span>{countLabel(info.likeCount, 'like', 'likes')}</span>
        {info.remixedFrom && (
          <span>
            Remix of <Link to={`/worlds?world=${info.remixedFrom.id}`}>{info.remixedFrom.name}</Link>
            {info.remixedFrom.author && <> by {info.remixedFrom.author}</>}
          </span>
        )}
      </p>
      {info.hiddenPendingReview && (
        <p className="world-popup-notice" role="status">
          Hidden from other players while moderators review reports about it.
        </p>
      )}
    </>
  );
}

/**
 * The community actions of the world popup (issue 20): Like, Remix, Copy link and Report.
 * Anonymous visitors can copy the link only.
 */
export function WorldCommunityActions({ world, signedIn }: { world: WorldCardFieldsFragment; signedIn: boolean }) {
  const navigate = useNavigate();
  const [reporting, setReporting] = useState(false);
  const [setLiked, { loading: liking }] = useWorldCommunity_setWorldLikedMutation();
  const [remix, { loading: remixing }] = useWorldCommunity_remixWorldMutation({ refetchQueries: [WorldsPage_myWorldsDocument] });
  const info = useWorldSignals(world.id);
  const isPublic = world.sharedGlobally || !world.isOwn;

  const toggleLike = async () => {
    if (!info) return;
    const liked = !info.likedByMe;
    try {
      await setLiked({
        variables: { id: world.id, liked },
        optimisticResponse: { setWorldLiked: { __typename: 'World', id: world.id, likedByMe: liked, likeCount: info.likeCount + (liked ? 1 : -1) } } as never,
      });
    } catch {
      toast.error(MESSAGES.likeFailed);
    }
  };

  const onRemix = async () => {
    try {
      const { data } = await remix({ variables: { id: world.id } });
      if (!data) return;
      toast.success(MESSAGES.remixDone);
      void navigate(`/worlds?world=${data.remixWorld.id}`);
    } catch (err) {
      toast.error(errorCode(err) === 'INSUFFICIENT_CREDITS' ? MESSAGES.notEnoughCreditsForRemix : MESSAGES.remixFailed);
    }
  };

  return (
    <div className="world-community">
      {signedIn && (
        <div className="world-popup-secondary">
          {!world.isOwn && info && (
            <button type="button" className="btn btn-ghost" onClick={toggleLike} disabled={liking} aria-pressed={info.likedByMe}>
              {info.likedByMe ? 'Liked' : 'Like'}
            </button>
          )}
          <button type="button" className="btn btn-ghost" onClick={onRemix} disabled={remixing} aria-busy={remixing}>
            <GemIcon /> Remix ({WORLD_CREATION_COST} gems)
          </button>
          {isPublic && (
            <button type="button" className="btn btn-ghost" onClick={() => void copyText(worldLink(world.id))}>
              Copy link
            </button>
          )}
          {!world.isOwn && !reporting && (
            <button type="button" className="btn btn-ghost" onClick={() => setReporting(true)}>
              Report
            </button>
          )}
        </div>
      )}
      {!signedIn && isPublic && (
        <div className="world-popup-secondary">
          <button type="button" className="btn btn-ghost" onClick={() => void copyText(worldLink(world.id))}>
            Copy link
          </button>
        </div>
      )}
      {reporting && <ReportForm targetKind="world" targetId={world.id} onDone={() => setReporting(false)} />}
    </div>
  );
}
