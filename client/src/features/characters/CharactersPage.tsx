import { useId, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { toast } from 'react-toastify/unstyled';
import { PageLoader } from '../../components/layout/PageLoader';
import { ConfirmDialog } from '../../components/ui/Modal';
import { useCharactersPage_deleteCharacterMutation, useCharactersPage_myCharactersQuery } from '../../gql/graphql';
import { MESSAGES } from '../../lib/messages';
import { CharacterDrafts } from './CharacterDrafts';
import { CharacterSheet } from './CharacterSheet';
import { UNKNOWN_WORLD, characterOptionLabel } from './character-label';
import { rememberSelectedCharacter, selectedCharacterId } from './selected-character';
import './characters.css';
import { PartiesList } from '../party/PartiesList';

/** Reloads the page after a delete (SPEC §4); a seam for tests. */
export const pageReload = { reload: () => window.location.reload() };

export default function CharactersPage() {
  const navigate = useNavigate();
  const ids = useId();
  const { data, loading, error, refetch } = useCharactersPage_myCharactersQuery({ fetchPolicy: 'cache-and-network' });
  const [remembered, setRemembered] = useState<string | null>(selectedCharacterId);
  const [confirming, setConfirming] = useState(false);
  const [remove, { loading: deleting }] = useCharactersPage_deleteCharacterMutation();
  const characters = data?.myCharacters ?? [];
  const selected = characters.find((c) => c.id === remembered) ?? characters[0];

  const select = (id: string) => {
    setRemembered(id);
    rememberSelectedCharacter(id);
  };

  const onDelete = async () => {
    if (!selected) return;
    try {
      await remove({ variables: { id: selected.id } });
      rememberSelectedCharacter(null);
      setConfirming(false);
      pageReload.reload();
    } catch {
      setConfirming(false);
      toast.error(MESSAGES.deleteCharacterFailed);
    }
  };

  if (loading && !data) return <PageLoader label="Loading your characters…" />;

  return (
    <main className="page characters-page">
      <h1 className="page-title">Characters</h1>
      <CharacterDrafts onSaved={select} />
      {error && !data ? (
        <div className="notice" role="alert">
          <p>Your characters could not be loaded.</p>
          <button type="button" className="btn btn-ghost" onClick={() => void refetch()}>
            Try Again
          </button>
        </div>
      ) : characters.length === 0 || !selected ? (
        <div className="characters-empty">
          <p>No characters found</p>
          <button type="button" className="btn btn-primary" onClick={() => navigate('/worlds')}>
            Spawn a Character in Worlds
          </button>
        </div>
      ) : (
        <>
          <div className="field character-select">
            <label htmlFor={`${ids}-select`}>Character</label>
            <select id={`${ids}-select`} value={selected.id} onChange={(e) => select(e.target.value)}>
              {characters.map((c) => (
                <option key={c.id} value={c.id}>
                  {characterOptionLabel(c)}
                </option>
              ))}
            </select>
          </div>
          <CharacterSheet
            character={selected}
            headingLevel={2}
            actions={
              <>
                <button
                  type="button"
                  className="btn btn-primary"
                  onClick={() => {
                    rememberSelectedCharacter(selected.id);
                    void navigate(`/storychat/${selected.id}`);
                  }}
                >
                  Story
                </button>
                <button type="button" className="btn btn-danger" onClick={() => setConfirming(true)}>
                  Delete
                </button>
              </>
            }
          />
          <p className="muted character-world">World: {selected.worldName ?? UNKNOWN_WORLD}</p>
        </>
      )}
      <PartiesList />
      {confirming && selected && (
        <ConfirmDialog
          title={`Delete ${selected.name}?`}
          message={MESSAGES.deleteCharacterConfirm}
          confirmLabel="Delete"
          busy={deleting}
          onConfirm={onDelete}
          onCancel={() => setConfirming(false)}
        />
      )}
    </main>
  );
}
