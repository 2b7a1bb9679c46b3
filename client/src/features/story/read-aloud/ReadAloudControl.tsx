import type { ReadAloud, ReadableChapter } from './useReadAloud';
import './read-aloud.css';

/**
 * A chapter's "Read aloud" control: one button that reads, pauses and resumes (it stays the same
 * button, so keyboard focus stays on it), and Stop while the chapter is being read.
 */
export function ReadAloudControl({ chapter, number, readAloud }: { chapter: ReadableChapter; number: number; readAloud: ReadAloud }) {
  const { reading } = readAloud;
  const mine = reading?.chapterId === chapter.id ? reading : null;
  const label = !mine ? 'Read aloud' : mine.status === 'loading' ? 'Preparing…' : mine.status === 'paused' ? 'Resume' : 'Pause';
  const onMain = () => {
    if (!mine) readAloud.play(chapter);
    else if (mine.status === 'playing') readAloud.pause();
    else if (mine.status === 'paused') readAloud.resume();
  };
  return (
    <div className="read-aloud" role="group" aria-label={`Read chapter ${number} aloud`}>
      <button
        type="button"
        className="read-aloud-button"
        onClick={onMain}
        disabled={mine?.status === 'loading'}
        aria-busy={mine?.status === 'loading'}
        aria-label={mine ? `${label} reading of chapter ${number}` : `Read aloud: chapter ${number}`}
      >
        <span aria-hidden="true" className="read-aloud-icon">
          {!mine || mine.status === 'paused' ? '▶' : mine.status === 'loading' ? '…' : '❚❚'}
        </span>
        {label}
      </button>
      {mine && (
        <button type="button" className="read-aloud-button" onClick={readAloud.stop} aria-label={`Stop reading chapter ${number}`}>
          <span aria-hidden="true" className="read-aloud-icon">
            ■
          </span>
          Stop
        </button>
      )}
      {mine && (
        <span className="read-aloud-status" role="status">
          {mine.status === 'paused' ? 'Paused' : mine.status === 'loading' ? 'Preparing the audio…' : 'Reading aloud'}
        </span>
      )}
    </div>
  );
}
