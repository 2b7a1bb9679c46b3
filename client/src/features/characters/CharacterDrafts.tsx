import { useState } from 'react';
import { toast } from 'react-toastify/unstyled';
import { errorMessage } from '../../apollo/graphql-errors';
import { ConfirmDialog } from '../../components/ui/Modal';
import {
  useCharacterDrafts_discardCharacterDraftMutation,
  useCharacterDrafts_myCharacterDraftsQuery,
  useCharacterDrafts_saveCharacterDraftMutation,
} from '../../gql/graphql';
import { MESSAGES } from '../../lib/messages';
import { characterOptionLabel } from './character-label';

/**
 * Generated characters the player has not saved (they were paid for when generated): each can be
 * saved as a character or discarded. Nothing is shown when there are none, or when they cannot be
 * loaded (the saved characters below still work).
 */
export function CharacterDrafts({ onSaved }: { onSaved: (id: string) => void }) {
  const { data } = useCharacterDrafts_myCharacterDraftsQuery({ fetchPolicy: 'cache-and-network' });
  const [save, { loading: saving }] = useCharacterDrafts_saveCharacterDraftMutation({
    refetchQueries: ['CharactersPage_myCharacters', 'CharacterDrafts_myCharacterDrafts'],
    awaitRefetchQueries: true,
  });
  const [discard, { loading: discarding }] = useCharacterDrafts_discardCharacterDraftMutation({ refetchQueries: ['CharacterDrafts_myCharacterDrafts'] });
  const [confirming, setConfirming] = useState<{ id: string; name: string } | null>(null);
  const drafts = data?.myCharacterDrafts ?? [];
  if (drafts.length === 0) return null;

  const onSave = async (id: string) => {
    try {
      const { data: saved } = await save({ variables: { id } });
      if (saved) onSaved(saved.saveCharacterDraft.id);
    } catch (error) {
      toast.error(errorMessage(error) || MESSAGES.saveCharacterFailed);
    }
  };

  const onDiscard = async () => {
    if (!confirming) return;
    try {
      await discard({ variables: { id: confirming.id } });
    } catch {
      toast.error(MESSAGES.discardDraftFailed);
    }
    setConfirming(null);
  };

  return (
    <section className="character-drafts" aria-labelledby="character-drafts-title">
      <h2 id="character-drafts-title" className="section-title">
        Unsaved drafts
      </h2>
      <p className="muted">Characters you generated but have not saved. Their credits are already spent: save them to play, or discard them.</p>
      <ul className="draft-list">
        {drafts.map((d) => (
          <li key={d.id} className="draft-item">
            <div className="draft-text">
              <strong className="draft-name">{characterOptionLabel(d)}</strong>
              <span className="draft-description">{d.description}</span>
            </div>
            <div className="draft-actions">
              <button
                type="button"
                className="btn btn-primary"
                onClick={() => void onSave(d.id)}
                disabled={saving || !d.worldId}
                aria-label={`Save ${d.name}`}
                title={d.worldId ? undefined : 'Its world no longer exists'}
              >
                Save
              </button>
              <button type="button" className="btn btn-ghost" onClick={() => setConfirming({ id: d.id, name: d.name })} aria-label={`Discard ${d.name}`}>
                Discard
              </button>
            </div>
          </li>
        ))}
      </ul>
      {confirming && (
        <ConfirmDialog
          title={`Discard ${confirming.name}?`}
          message={MESSAGES.discardDraftConfirm}
          confirmLabel="Discard"
          busy={discarding}
          onConfirm={onDiscard}
          onCancel={() => setConfirming(null)}
        />
      )}
    </section>
  );
}
