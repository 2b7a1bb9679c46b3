import { Fragment } from 'react';
import type { StoryChapterFieldsFragment } from '../../gql/graphql';
import type { LiveChapter } from './useChapterStream';

function PlayerChoice({ text }: { text: string }) {
  return (
    <p className="player-choice">
      <span className="visually-hidden">You chose: </span>
      {text}
    </p>
  );
}

/** The story so far (each chapter after the choice that led to it), then the chapter being written. */
export function ChapterList({ chapters, live }: { chapters: StoryChapterFieldsFragment[]; live: LiveChapter | null }) {
  return (
    <div className="chapters">
      {chapters.map((chapter, i) => {
        const isCurrent = i === chapters.length - 1 && !live;
        return (
          <Fragment key={chapter.id}>
            {chapter.playerChoice && <PlayerChoice text={chapter.playerChoice} />}
            <article className={`chapter ${isCurrent ? 'is-current' : ''}`} aria-label={`Chapter ${chapter.index + 1}`} data-testid="chapter">
              <div className="chapter-text">{chapter.text}</div>
            </article>
            {!isCurrent && <hr className="chapter-divider" />}
          </Fragment>
        );
      })}

      {live && (
        <>
          {live.action && <PlayerChoice text={live.action} />}
          <article className="chapter is-current is-streaming" aria-busy="true" aria-label="Chapter being written" data-testid="live-chapter">
            {live.first && (
              <p className="story-status" role="status">
                Generating initial story...
              </p>
            )}
            {!live.first && !live.text && (
              <p className="story-status" role="status">
                The story continues…
              </p>
            )}
            <div className="chapter-text">
              {live.text}
              <span className="caret" aria-hidden="true" />
            </div>
          </article>
        </>
      )}
    </div>
  );
}
