import { useId } from 'react';
import { toast } from 'react-toastify/unstyled';
import { useDifficultySelect_updateMutation, type Difficulty } from '../../../gql/graphql';
import { MESSAGES } from '../../../lib/messages';
import { usePlayerAction } from '../player-action';

const HELP: Record<Difficulty, string> = {
  story: 'Story: easy actions never fail, rolls are gentler, no critical failures.',
  balanced: 'Balanced: rolls as the action deserves.',
  hard: 'Hard: harder rolls, and failures hurt more.',
};

/** The story's difficulty (issue 31), in Story Memory: saved as soon as it is chosen; the next roll uses it. */
export function DifficultySelect({ characterId, difficulty, onChanged }: { characterId: string; difficulty: Difficulty; onChanged: () => void }) {
  const ids = useId();
  const run = usePlayerAction();
  const [update, { loading }] = useDifficultySelect_updateMutation();
  const choose = (value: Difficulty) =>
    run(MESSAGES.storyMemoryFailed, async () => {
      await update({ variables: { characterId, difficulty: value } });
      toast.success(MESSAGES.storyMemorySaved);
      onChanged();
    });
  return (
    <div className="memory-field">
      <label htmlFor={`${ids}-difficulty`}>Difficulty</label>
      <p className="memory-help" id={`${ids}-difficulty-help`}>
        {HELP[difficulty]}
      </p>
      <select
        id={`${ids}-difficulty`}
        value={difficulty}
        disabled={loading}
        aria-describedby={`${ids}-difficulty-help`}
        onChange={(e) => void choose(e.target.value as Difficulty)}
        data-testid="difficulty"
      >
        <option value="story">Story</option>
        <option value="balanced">Balanced</option>
        <option value="hard">Hard</option>
      </select>
    </div>
  );
}
