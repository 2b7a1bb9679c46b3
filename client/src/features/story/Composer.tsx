import { useId } from 'react';
import { ACTION_MAX } from '../../lib/constants';
import { currentAction, sendDisabled } from './story-rules';

/**
 * The player's next move (SPEC §5): a suggested choice (highlighted while nothing is typed) or a
 * typed action; Enter or the arrow sends it, Shift+Enter breaks the line.
 */
export function Composer({
  choices,
  selected,
  typed,
  busy,
  onSelect,
  onType,
  onSend,
}: {
  choices: string[];
  selected: string | null;
  typed: string;
  busy: boolean;
  onSelect: (choice: string) => void;
  onType: (text: string) => void;
  onSend: (action: string) => void;
}) {
  const ids = useId();
  const action = currentAction(selected, typed);
  const send = () => {
    if (!sendDisabled(busy, action)) onSend(action);
  };
  return (
    <div className="composer">
      {choices.length > 0 && (
        <div className="choices" role="group" aria-label="Suggested choices">
          {choices.map((choice) => {
            const on = selected === choice && !typed.trim();
            return (
              <button
                key={choice}
                type="button"
                className={`choice ${on ? 'is-selected' : ''}`}
                aria-pressed={on}
                onClick={() => onSelect(choice)}
                disabled={busy}
              >
                {choice}
              </button>
            );
          })}
        </div>
      )}
      <form
        className="action-form"
        onSubmit={(e) => {
          e.preventDefault();
          send();
        }}
      >
        <label htmlFor={`${ids}-action`} className="visually-hidden">
          Your action
        </label>
        <textarea
          id={`${ids}-action`}
          rows={2}
          placeholder="Or type your own action..."
          value={typed}
          maxLength={ACTION_MAX}
          disabled={busy}
          onChange={(e) => onType(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && !e.shiftKey) {
              e.preventDefault();
              send();
            }
          }}
        />
        <button type="submit" className="story-button send-button" disabled={sendDisabled(busy, action)} aria-label="Send">
          <svg viewBox="0 0 24 24" width="1.2em" height="1.2em" fill="none" stroke="currentColor" strokeWidth={2} aria-hidden="true">
            <path d="M4 12h14M13 6l6 6-6 6" strokeLinecap="round" strokeLinejoin="round" />
          </svg>
        </button>
      </form>
    </div>
  );
}
