import { useCallback, useEffect, useId, useRef, useState } from 'react';
import { ACTION_MAX } from '../../lib/constants';
import { currentAction, sendDisabled } from './story-rules';

/**
 * The composer's draft: a suggested choice or typed text, never both — picking a choice clears the
 * text, typing something clears the choice. `setTyped` puts an action back (a chapter that failed).
 */
export function useComposerDraft() {
  const [selected, setSelected] = useState<string | null>(null);
  const [typed, setTyped] = useState('');
  const onSelect = useCallback((choice: string) => {
    setSelected(choice);
    setTyped('');
  }, []);
  const onType = useCallback((text: string) => {
    setTyped(text);
    if (text.trim()) setSelected(null);
  }, []);
  const clear = useCallback(() => {
    setSelected(null);
    setTyped('');
  }, []);
  return { selected, typed, onSelect, onType, clear, setTyped };
}

/**
 * The player's next move (SPEC §5): a suggested choice (highlighted while nothing is typed) or a
 * typed action; Enter or the arrow sends it, Shift+Enter breaks the line.
 */
export function Composer({
  choices,
  pending = false,
  selected,
  typed,
  busy,
  onSelect,
  onType,
  onSend,
}: {
  choices: string[];
  /** Shown while the chapter is written: the next actions so far, greyed until it is stored. */
  pending?: boolean;
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
  // Keys for the suggested choices while the player is not typing: 1–4 pick one, Enter sends it.
  const keys = useRef({ choices, pending, busy, selected, onSelect, send });
  useEffect(() => {
    keys.current = { choices, pending, busy, selected, onSelect, send };
  });
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const k = keys.current;
      if (e.defaultPrevented || e.altKey || e.ctrlKey || e.metaKey || k.busy || k.pending) return;
      const target = e.target as HTMLElement | null;
      if (target?.closest('input, textarea, select, [contenteditable="true"], [role="dialog"], [role="alertdialog"], a')) return;
      if (document.querySelector('[aria-modal="true"]')) return;
      const n = Number(e.key);
      if (Number.isInteger(n) && n >= 1 && n <= Math.min(4, k.choices.length)) {
        e.preventDefault();
        k.onSelect(k.choices[n - 1]);
      } else if (e.key === 'Enter' && k.selected && (!target?.closest('button') || target.closest('.choice'))) {
        // On a choice button, Enter first picks it (its click); on the picked one it sends.
        if (target?.closest('.choice') && target.getAttribute('aria-pressed') !== 'true') return;
        e.preventDefault();
        k.send();
      }
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);
  return (
    <div className="composer">
      {choices.length > 0 && (
        <div
          className={`choices ${pending ? 'is-pending' : ''}`}
          role="group"
          aria-label={pending ? 'Next choices, being written' : 'Suggested choices'}
          aria-busy={pending || undefined}
        >
          {choices.map((choice, i) => {
            const on = selected === choice && !typed.trim();
            return (
              <button
                key={choice}
                type="button"
                className={`choice ${on ? 'is-selected' : ''}`}
                aria-pressed={on}
                // The key that picks it (1–4), drawn by CSS: not part of the choice's text or name.
                data-key={!pending && i < 4 ? i + 1 : undefined}
                onClick={() => onSelect(choice)}
                disabled={busy || pending}
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
