import { useId } from 'react';
import { toast } from 'react-toastify/unstyled';
import { useStoryBranchesPanel_deleteMutation, useStoryBranchesPanel_restoreMutation, type StoryBranchFieldsFragment } from '../../gql/graphql';
import { MESSAGES } from '../../lib/messages';
import { usePlayerAction } from './player-action';

/**
 * The chapters a rewind set aside. Returning to one sets the chapters now after its chapter aside in
 * turn (listed here), so nothing is ever lost by moving between branches; only Delete drops one.
 */
export function StoryBranchesPanel({
  characterId,
  branches,
  disabled,
  onChanged,
}: {
  characterId: string;
  branches: StoryBranchFieldsFragment[];
  disabled: boolean;
  onChanged: () => unknown;
}) {
  const run = usePlayerAction();
  const [restore, restoring] = useStoryBranchesPanel_restoreMutation();
  const [remove] = useStoryBranchesPanel_deleteMutation();
  const titleId = useId();
  // The tool is always there (a tab, a sheet): with nothing set aside yet it says what it will hold.
  if (branches.length === 0) {
    return (
      <section className="story-panel memory-panel branches-panel" data-testid="story-branches" aria-labelledby={titleId}>
        <h2 id={titleId}>Branches</h2>
        <p className="memory-help">No branches yet. When you rewind to an earlier chapter, the chapters after it are kept here, and you can return to them.</p>
      </section>
    );
  }

  const onRestore = (b: StoryBranchFieldsFragment) =>
    run(MESSAGES.branchRestoreFailed, async () => {
      await restore({ variables: { characterId, branchId: b.id } });
      toast.success(MESSAGES.branchRestored);
      await onChanged();
    });
  const onDelete = (b: StoryBranchFieldsFragment) =>
    run(MESSAGES.branchDeleteFailed, async () => {
      if (!window.confirm(MESSAGES.branchDeleteConfirm)) return;
      await remove({ variables: { characterId, branchId: b.id } });
      await onChanged();
    });

  return (
    <details className="story-panel memory-panel branches-panel" data-testid="story-branches" open>
      <summary>
        <h2>Branches ({branches.length})</h2>
      </summary>
      <p className="memory-help">Chapters you rewound past. Return to one to play on from there; the chapters you leave are kept here.</p>
      <ul className="card-list">
        {branches.map((b) => {
          const what = `from chapter ${b.fromChapterNumber}, ${b.chapterCount} ${b.chapterCount === 1 ? 'chapter' : 'chapters'}`;
          return (
            <li key={b.id} className="story-card" data-testid="story-branch">
              <div className="story-card-head">
                <h3>After chapter {b.fromChapterNumber}</h3>
                <span className="card-kind">
                  {b.chapterCount} {b.chapterCount === 1 ? 'chapter' : 'chapters'}
                </span>
              </div>
              {b.firstAction && (
                <p className="card-meta">
                  You chose: <em>{b.firstAction}</em>
                </p>
              )}
              {b.preview && <p className="card-description">{b.preview}…</p>}
              <div className="card-actions">
                <button
                  type="button"
                  className="story-button story-button-sm"
                  disabled={disabled || restoring.loading}
                  onClick={() => void onRestore(b)}
                  aria-label={`Return to this branch (${what})`}
                >
                  Return to this branch
                </button>
                <button type="button" className="story-button story-button-sm" onClick={() => void onDelete(b)} aria-label={`Delete this branch (${what})`}>
                  Delete
                </button>
              </div>
            </li>
          );
        })}
      </ul>
    </details>
  );
}
