import { useId, useState, type ReactNode } from 'react';
import { toast } from 'react-toastify/unstyled';
import { useStoryMemoryPanel_updateMutation, type PointOfView, type StoryMemoryFieldsFragment } from '../../gql/graphql';
import { AUTHORS_NOTE_MAX, PLOT_ESSENTIALS_MAX, STORY_SUMMARY_MAX } from '../../lib/limits.generated';
import { MESSAGES } from '../../lib/messages';
import { usePlayerAction } from './player-action';

/**
 * Story memory (like AI Dungeon's plot essentials and author's note): what the storyteller always
 * keeps in mind. Folded away by default; the summary is the storyteller's, shown so the player can
 * see what is remembered of older chapters and correct it.
 */
export function StoryMemoryPanel({ characterId, memory, children }: { characterId: string; memory: StoryMemoryFieldsFragment; children?: ReactNode }) {
  const ids = useId();
  const run = usePlayerAction();
  const [draft, setDraft] = useState(memory);
  const [saved, setSaved] = useState(memory);
  // A new memory from the server (a chapter folded the summary) replaces an unchanged draft.
  if (memory !== saved) {
    setSaved(memory);
    if (
      draft.plotEssentials === saved.plotEssentials &&
      draft.authorsNote === saved.authorsNote &&
      draft.summary === saved.summary &&
      draft.pointOfView === saved.pointOfView
    )
      setDraft(memory);
  }
  const [update, { loading }] = useStoryMemoryPanel_updateMutation();
  const dirty =
    draft.plotEssentials !== memory.plotEssentials ||
    draft.authorsNote !== memory.authorsNote ||
    draft.summary !== memory.summary ||
    draft.pointOfView !== memory.pointOfView;

  const save = () =>
    run(MESSAGES.storyMemoryFailed, async () => {
      const { data } = await update({
        variables: {
          characterId,
          input: { plotEssentials: draft.plotEssentials, authorsNote: draft.authorsNote, summary: draft.summary, pointOfView: draft.pointOfView },
        },
      });
      if (data) setDraft(data.updateStoryMemory);
      toast.success(MESSAGES.storyMemorySaved);
    });

  const field = (key: 'plotEssentials' | 'authorsNote' | 'summary', label: string, help: string, max: number, rows: number) => (
    <div className="memory-field">
      <label htmlFor={`${ids}-${key}`}>{label}</label>
      <p className="memory-help" id={`${ids}-${key}-help`}>
        {help}
      </p>
      <textarea
        id={`${ids}-${key}`}
        rows={rows}
        maxLength={max}
        value={draft[key]}
        aria-describedby={`${ids}-${key}-help`}
        onChange={(e) => setDraft({ ...draft, [key]: e.target.value })}
      />
    </div>
  );

  return (
    <details className="story-panel memory-panel" data-testid="story-memory">
      <summary>
        <h2>Story Memory</h2>
      </summary>
      {field('plotEssentials', 'Plot essentials', 'Facts the storyteller always keeps in mind.', PLOT_ESSENTIALS_MAX, 4)}
      <div className="memory-field">
        <label htmlFor={`${ids}-pov`}>Narration</label>
        <select id={`${ids}-pov`} value={draft.pointOfView} onChange={(e) => setDraft({ ...draft, pointOfView: e.target.value as PointOfView })}>
          <option value="second">Second person, present (“you step inside”)</option>
          <option value="first">First person, past (“I stepped inside”)</option>
          <option value="third">Third person, past (by name)</option>
        </select>
      </div>
      {/* Settings saved on their own (the story's difficulty). */}
      {children}
      {field('authorsNote', "Author's note", 'Style and direction for the next chapters.', AUTHORS_NOTE_MAX, 2)}
      {field(
        'summary',
        'Story so far',
        memory.summaryCoversChapters > 0 ? `What is remembered of the first ${memory.summaryCoversChapters} chapters.` : 'Written once the story grows long.',
        STORY_SUMMARY_MAX,
        5,
      )}
      <button type="button" className="story-button" onClick={() => void save()} disabled={!dirty || loading} aria-busy={loading}>
        Save Memory
      </button>
    </details>
  );
}
