import { toast } from 'react-toastify/unstyled';
import { errorCode } from '../../apollo/graphql-errors';
import { useStoryPublishPanel_publishMutation, useStoryPublishPanel_unpublishMutation, type StoryPublicationFieldsFragment } from '../../gql/graphql';
import { MESSAGES } from '../../lib/messages';
import { copyText } from '../worlds/WorldCommunity';

/**
 * Publish (issue 20): a read-only link to this story for anyone. Readers see a snapshot — the
 * chapters as they were when published, the character's name and the world, nothing else about the
 * player — so "Update" is how new chapters reach them. Unpublishing kills the link for good.
 */
export function StoryPublishPanel({
  characterId,
  publication,
  chapterCount,
  disabled,
  onChanged,
}: {
  characterId: string;
  publication: StoryPublicationFieldsFragment | null;
  chapterCount: number;
  disabled: boolean;
  onChanged: () => unknown;
}) {
  const [publish, { loading: publishing }] = useStoryPublishPanel_publishMutation();
  const [unpublish, { loading: unpublishing }] = useStoryPublishPanel_unpublishMutation();
  const busy = publishing || unpublishing;
  const url = publication ? `${window.location.origin}${publication.path}` : null;

  const onPublish = async () => {
    try {
      await publish({ variables: { characterId } });
      toast.success(publication ? MESSAGES.storyPublishUpdated : MESSAGES.storyPublished);
      await onChanged();
    } catch (err) {
      toast.error(errorCode(err) === 'CONTENT_REJECTED' ? MESSAGES.storyPublishRejected : MESSAGES.storyPublishFailed);
    }
  };
  const onUnpublish = async () => {
    if (!window.confirm(MESSAGES.storyUnpublishConfirm)) return;
    try {
      await unpublish({ variables: { characterId } });
      toast.success(MESSAGES.storyUnpublished);
      await onChanged();
    } catch {
      toast.error(MESSAGES.storyUnpublishFailed);
    }
  };

  return (
    <details className="story-panel memory-panel publish-panel" data-testid="story-publish" open>
      <summary>
        <h2>{publication ? 'Published' : 'Publish'}</h2>
      </summary>
      {!publication || !url ? (
        <>
          <p className="memory-help">
            Share a read-only link to this story. Readers see its chapters, your character&apos;s name and the world; nothing else about you.
          </p>
          <button
            type="button"
            className="story-button"
            onClick={() => void onPublish()}
            disabled={disabled || busy || chapterCount === 0}
            aria-busy={publishing}
          >
            Publish story
          </button>
        </>
      ) : (
        <>
          {publication.hidden && (
            <p className="memory-help" role="status">
              Hidden from readers while moderators review reports about it.
            </p>
          )}
          <label className="publish-link">
            <span>Link</span>
            <input type="url" readOnly value={url} onFocus={(e) => e.currentTarget.select()} />
          </label>
          <p className="memory-help">
            Readers see {publication.chapterCount} {publication.chapterCount === 1 ? 'chapter' : 'chapters'}
            {chapterCount !== publication.chapterCount ? `; the story now has ${chapterCount}.` : '.'}
          </p>
          <div className="publish-actions">
            <button type="button" className="story-button" onClick={() => void copyText(url)}>
              Copy link
            </button>
            <a className="story-button story-button-ghost" href={publication.path} target="_blank" rel="noopener">
              Open
            </a>
            <button
              type="button"
              className="story-button story-button-ghost"
              onClick={() => void onPublish()}
              disabled={disabled || busy}
              aria-busy={publishing}
            >
              Update to latest
            </button>
            <button type="button" className="story-button story-button-ghost" onClick={() => void onUnpublish()} disabled={busy}>
              Unpublish
            </button>
          </div>
        </>
      )}
    </details>
  );
}
