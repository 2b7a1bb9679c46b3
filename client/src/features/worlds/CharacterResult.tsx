import { useEffect, useRef } from 'react';
import { useNavigate } from 'react-router-dom';
import { toast } from 'react-toastify/unstyled';
import {
  useCharacterResult_saveCharacterDraftMutation,
  useCharacterResult_saveCharacterMutation,
  type GeneratedCharacterFieldsFragment,
  type WorldCardFieldsFragment,
} from '../../gql/graphql';
import { MESSAGES } from '../../lib/messages';
import { CharacterSheet } from '../characters/CharacterSheet';
import { rememberSelectedCharacter } from '../characters/selected-character';

/** The full-screen character result (SPEC §2): 'Your Character Profile', the card, Save Character, Start Over. */
export function CharacterResult({
  character,
  world,
  answers = [],
  onStartOver,
}: {
  character: GeneratedCharacterFieldsFragment;
  world: WorldCardFieldsFragment;
  /** The answers the character was made from: the story keeps them as threads to return to. */
  answers?: string[];
  onStartOver: () => void;
}) {
  const navigate = useNavigate();
  const heading = useRef<HTMLHeadingElement>(null);
  const [save, { loading: savingPayload }] = useCharacterResult_saveCharacterMutation({ refetchQueries: ['CharactersPage_myCharacters'] });
  const [saveDraft, { loading: savingDraft }] = useCharacterResult_saveCharacterDraftMutation({
    refetchQueries: ['CharactersPage_myCharacters', 'CharacterDrafts_myCharacterDrafts'],
  });
  const loading = savingPayload || savingDraft;

  useEffect(() => {
    heading.current?.focus();
    window.scrollTo(0, 0);
  }, []);

  const onSave = async () => {
    try {
      // The server kept the paid-for character as a draft: saving the draft also clears it from the list.
      if (character.draftId) {
        const { data } = await saveDraft({ variables: { id: character.draftId } });
        if (data) rememberSelectedCharacter(data.saveCharacterDraft.id);
        void navigate('/characters');
        return;
      }
      const { data } = await save({
        variables: {
          input: {
            name: character.username,
            worldId: world.id,
            stats: character.stats,
            description: character.description,
            traits: character.traits,
            strengths: character.strengths,
            weaknesses: character.weaknesses,
            special: { name: character.special.name, description: character.special.description },
            answers,
          },
        },
      });
      if (data) rememberSelectedCharacter(data.saveCharacter.id);
      void navigate('/characters');
    } catch {
      toast.error(MESSAGES.saveCharacterFailed);
    }
  };

  return (
    <main className="page character-result">
      <h1 ref={heading} tabIndex={-1} className="page-title">
        Your Character Profile
      </h1>
      <p className="page-lead">
        Born in <strong>{world.name}</strong>. Save them to begin their story.
      </p>
      {character.draftId && (
        <p className="muted draft-note" data-testid="draft-note">
          Not saved yet: until you save or discard them, they wait as a draft on your Characters page. Saving costs no credits.
        </p>
      )}
      <CharacterSheet character={{ ...character, name: character.username }} headingLevel={2} />
      <div className="result-actions">
        <button type="button" className="btn btn-primary btn-lg" onClick={onSave} disabled={loading} aria-busy={loading}>
          Save Character
        </button>
        <button
          type="button"
          className="btn btn-ghost btn-lg"
          onClick={() => {
            onStartOver();
            void navigate('/worlds');
          }}
        >
          Start Over
        </button>
      </div>
    </main>
  );
}
