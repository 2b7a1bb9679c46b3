import { Fragment, useId, useState, type FormEvent, type ReactNode } from 'react';
import { toast } from 'react-toastify/unstyled';
import { useChapterList_editMutation, type StakesChapterFieldsFragment, type StoryChapterFieldsFragment } from '../../gql/graphql';
import { ACTION_MAX, CHAPTER_TEXT_MAX } from '../../lib/limits.generated';
import { MESSAGES } from '../../lib/messages';
import { usePlayerAction } from './player-action';
import { ReadAloudControl } from './read-aloud/ReadAloudControl';
import type { ReadAloud } from './read-aloud/useReadAloud';
import { CheckLine } from './stakes/CheckLine';
import type { LiveChapter } from './useChapterStream';

/** How the list lets the player rewrite the story (absent: read only, e.g. while a chapter is written). */
interface Editing {
  characterId: string;
  /** After a saved edit (the page refetches the story). */
  onEdited: () => unknown;
  /** Asks to rewind the story to this chapter (0-based index); the page confirms. */
  onRewind: (index: number) => void;
}

function PlayerChoice({ text, edited, onEdit }: { text: string; edited?: boolean; onEdit?: () => void }) {
  return (
    <p className="player-choice">
      <span className="visually-hidden">You chose: </span>
      {text}
      {edited && <span className="edited-mark"> (edited)</span>}
      {onEdit && (
        <button type="button" className="edit-link" onClick={onEdit} aria-label="Edit this action">
          Edit
        </button>
      )}
    </p>
  );
}

/** An inline rewrite: a field with Save and Cancel. */
function Rewrite({
  label,
  initial,
  max,
  rows,
  onSave,
  onCancel,
}: {
  label: string;
  initial: string;
  max: number;
  rows: number;
  onSave: (v: string) => Promise<boolean>;
  onCancel: () => void;
}) {
  const id = useId();
  const [value, setValue] = useState(initial);
  const [saving, setSaving] = useState(false);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setSaving(true);
    const ok = await onSave(value);
    setSaving(false);
    if (ok) onCancel();
  };
  return (
    <form className="rewrite" onSubmit={(e) => void submit(e)}>
      <label htmlFor={id} className="visually-hidden">
        {label}
      </label>
      <textarea id={id} rows={rows} maxLength={max} value={value} onChange={(e) => setValue(e.target.value)} />
      <div className="card-actions">
        <button type="submit" className="story-button" disabled={saving || !value.trim() || value === initial} aria-busy={saving}>
          Save Edit
        </button>
        <button type="button" className="story-button" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}

/**
 * The story so far (each chapter after the choice that led to it), then the chapter being written.
 * With `editing`, the player may rewrite any earlier action and the latest chapter's text: the next
 * chapters are written from the rewrite.
 */
export function ChapterList({
  chapters,
  live,
  editing,
  stakesOf,
  diceOf,
  beforeLatest,
  readAloud,
}: {
  chapters: StoryChapterFieldsFragment[];
  live: LiveChapter | null;
  editing?: Editing;
  /** Each chapter's dice and stakes (issue 31: stakes/useChapterStakes.ts), shown above its text. */
  stakesOf?: (chapterId: string) => StakesChapterFieldsFragment | null;
  /** Instead of stakesOf's line: the chapter's dice as the page draws them (a party round: every player's). */
  diceOf?: (chapterId: string) => ReactNode;
  /** Shown just before the latest chapter (and its action): "Previously…". */
  beforeLatest?: ReactNode;
  /** Each finished chapter gets a Read aloud control (absent, or not available here: none). */
  readAloud?: ReadAloud;
}) {
  const run = usePlayerAction();
  const [edit] = useChapterList_editMutation();
  // `${chapterId}:text` or `${chapterId}:action` while that rewrite is open.
  const [open, setOpen] = useState<string | null>(null);
  const save = (chapterId: string, input: { text?: string; playerChoice?: string }) =>
    run(MESSAGES.chapterEditFailed, async () => {
      if (!editing) return;
      await edit({ variables: { characterId: editing.characterId, chapterId, input } });
      toast.success(MESSAGES.chapterEdited);
      await editing.onEdited();
    });

  return (
    <div className="chapters">
      {chapters.map((chapter, i) => {
        const isCurrent = i === chapters.length - 1 && !live;
        const isReading = readAloud?.reading?.chapterId === chapter.id;
        return (
          <Fragment key={chapter.id}>
            {i === chapters.length - 1 && beforeLatest}
            {chapter.playerChoice &&
              (open === `${chapter.id}:action` ? (
                <Rewrite
                  label={`Your action before chapter ${chapter.index + 1}`}
                  initial={chapter.playerChoice}
                  max={ACTION_MAX}
                  rows={2}
                  onSave={(v) => save(chapter.id, { playerChoice: v })}
                  onCancel={() => setOpen(null)}
                />
              ) : (
                <PlayerChoice
                  text={chapter.playerChoice}
                  edited={chapter.actionEdited}
                  onEdit={editing && !open ? () => setOpen(`${chapter.id}:action`) : undefined}
                />
              ))}
            <article
              className={`chapter ${isCurrent ? 'is-current' : ''} ${isReading ? 'is-reading' : ''}`}
              data-reading={isReading ? 'true' : undefined}
              aria-label={`Chapter ${chapter.index + 1}`}
              data-testid="chapter"
              data-chapter-index={chapter.index}
            >
              {open === `${chapter.id}:text` ? (
                <Rewrite
                  label={`Text of chapter ${chapter.index + 1}`}
                  initial={chapter.text}
                  max={CHAPTER_TEXT_MAX}
                  rows={12}
                  onSave={(v) => save(chapter.id, { text: v })}
                  onCancel={() => setOpen(null)}
                />
              ) : (
                <>
                  {readAloud?.available && <ReadAloudControl chapter={chapter} number={chapter.index + 1} readAloud={readAloud} />}
                  {diceOf ? diceOf(chapter.id) : <CheckLine check={stakesOf?.(chapter.id)?.check ?? null} stakes={stakesOf?.(chapter.id)?.stakes ?? null} />}
                  <div className="chapter-text">{chapter.text}</div>
                </>
              )}
              {chapter.edited && open !== `${chapter.id}:text` && <p className="edited-mark">Edited by you</p>}
            </article>
            {isCurrent && editing && !open && (
              <button type="button" className="edit-link" onClick={() => setOpen(`${chapter.id}:text`)}>
                Edit chapter
              </button>
            )}
            {!isCurrent && !live && editing && !open && (
              <button
                type="button"
                className="edit-link rewind-link"
                onClick={() => editing.onRewind(chapter.index)}
                aria-label={`Rewind here: make chapter ${chapter.index + 1} the latest`}
              >
                Rewind here
              </button>
            )}
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
