/** Under the latest chapter: its versions (takes), Continue, Regenerate and Undo. */
export function ChapterTools({
  takes,
  currentTake,
  busy,
  regenerating,
  onSelectTake,
  onRegenerate,
  onContinue,
  onUndo,
}: {
  takes: Array<{ take: number }>;
  currentTake: number;
  busy: boolean;
  regenerating: boolean;
  onSelectTake: (take: number) => void;
  onRegenerate: () => void;
  /** The storyteller goes on with this chapter (a new version: the old one stays). */
  onContinue: () => void;
  onUndo: () => void;
}) {
  const at = takes.findIndex((t) => t.take === currentTake);
  return (
    <div className="chapter-tools">
      {takes.length > 1 && at >= 0 && (
        <div className="take-switcher" role="group" aria-label="Versions of this chapter">
          <button
            type="button"
            className="story-button story-button-ghost"
            aria-label="Previous version"
            disabled={busy || at === 0}
            onClick={() => onSelectTake(takes[at - 1].take)}
          >
            ‹
          </button>
          <span>
            Version {at + 1} of {takes.length}
          </span>
          <button
            type="button"
            className="story-button story-button-ghost"
            aria-label="Next version"
            disabled={busy || at === takes.length - 1}
            onClick={() => onSelectTake(takes[at + 1].take)}
          >
            ›
          </button>
        </div>
      )}
      <button type="button" className="story-button story-button-ghost" onClick={onContinue} disabled={busy}>
        Continue
      </button>
      <button type="button" className="story-button story-button-ghost" onClick={onRegenerate} disabled={busy} aria-busy={regenerating}>
        {regenerating ? 'Rewriting…' : 'Regenerate'}
      </button>
      <button type="button" className="story-button story-button-ghost" onClick={onUndo} disabled={busy}>
        Undo
      </button>
    </div>
  );
}
