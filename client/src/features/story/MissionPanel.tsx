import { useCallback, useEffect, useId, useRef, useState } from 'react';
import { MISSION_COMPLETE_HIGHLIGHT_MS, OBJECTIVE_MAX } from '../../lib/constants';
import { MESSAGES } from '../../lib/messages';

/**
 * The 'complete' highlight (SPEC §4): when a chapter brings a new mission while one exists, the old
 * one shows as complete for 3 seconds, then the new one replaces it.
 */
export function useMissionCompleteHighlight(durationMs = MISSION_COMPLETE_HIGHLIGHT_MS) {
  const [completed, setCompleted] = useState<string | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const trigger = useCallback(
    (objective: string) => {
      if (timer.current) clearTimeout(timer.current);
      setCompleted(objective);
      timer.current = setTimeout(() => {
        timer.current = null;
        setCompleted(null);
      }, durationMs);
    },
    [durationMs],
  );
  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
    },
    [],
  );
  return { completed, trigger };
}

export interface MissionPanelProps {
  objective: string | null;
  /** The objective just completed, shown with the 'complete' highlight instead of the current one. */
  completedObjective: string | null;
  /** Saves the edited objective; resolves true when saved (edit mode then closes). */
  onSave: (objective: string) => Promise<boolean>;
  disabled?: boolean;
  /** Completed missions, oldest first: the mission log. */
  log?: Array<{ id: string; objective: string; completedAt?: string | null; completedInChapter?: number | null }>;
}

/** Current Mission panel (SPEC §2): view ↔ edit (pencil, textarea, Save, Cancel). */
export function MissionPanel({ objective, completedObjective, onSave, disabled, log = [] }: MissionPanelProps) {
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState('');
  const [saving, setSaving] = useState(false);
  const [failed, setFailed] = useState(false);
  const ids = useId();
  const pencil = useRef<HTMLButtonElement>(null);
  const highlighted = completedObjective !== null;

  const startEdit = () => {
    setDraft(objective ?? '');
    setFailed(false);
    setEditing(true);
  };
  const stopEdit = () => {
    setEditing(false);
    requestAnimationFrame(() => pencil.current?.focus());
  };
  const save = async () => {
    if (!draft.trim() || saving) return;
    setSaving(true);
    const ok = await onSave(draft.trim());
    setSaving(false);
    // SPEC §8: a failed update keeps edit mode open (the draft is not lost); the player is told.
    setFailed(!ok);
    if (ok) stopEdit();
  };

  return (
    <section
      className={`story-panel mission-panel ${highlighted ? 'is-complete' : ''}`}
      aria-labelledby={`${ids}-title`}
      data-testid="mission-panel"
      data-state={highlighted ? 'complete' : editing ? 'edit' : 'view'}
    >
      <div className="story-panel-head">
        <h2 id={`${ids}-title`}>Current Mission</h2>
        {!editing && !highlighted && (
          <button ref={pencil} type="button" className="icon-button" aria-label="Edit mission" onClick={startEdit} disabled={disabled}>
            <svg viewBox="0 0 24 24" width="1em" height="1em" fill="none" stroke="currentColor" strokeWidth={1.8} aria-hidden="true">
              <path d="M4 20h4L19 9l-4-4L4 16v4zM14 6l4 4" strokeLinecap="round" strokeLinejoin="round" />
            </svg>
          </button>
        )}
      </div>
      {highlighted ? (
        <p className="mission-objective mission-complete" role="status">
          <span className="mission-complete-badge">Mission complete</span>
          <span className="mission-complete-text">{completedObjective}</span>
        </p>
      ) : editing ? (
        <div className="mission-edit">
          <label htmlFor={`${ids}-objective`} className="visually-hidden">
            Mission objective
          </label>
          <textarea
            id={`${ids}-objective`}
            rows={4}
            value={draft}
            onChange={(e) => setDraft(e.target.value)}
            autoFocus
            maxLength={OBJECTIVE_MAX}
            onKeyDown={(e) => {
              if (e.key === 'Escape') {
                e.stopPropagation();
                stopEdit();
              }
            }}
          />
          {failed && (
            <p className="mission-error" role="alert">
              {MESSAGES.missionSaveFailed}
            </p>
          )}
          <div className="mission-actions">
            <button type="button" className="story-button" onClick={save} disabled={saving || !draft.trim()} aria-busy={saving}>
              Save
            </button>
            <button type="button" className="story-button story-button-ghost" onClick={stopEdit} disabled={saving}>
              Cancel
            </button>
          </div>
        </div>
      ) : (
        <p className="mission-objective">{objective ?? <span className="muted-inline">No mission yet — one will be given when your story begins.</span>}</p>
      )}
      {log.length > 0 && (
        <details className="mission-log" data-testid="mission-log">
          <summary>Mission log ({log.length})</summary>
          <ol>
            {[...log].reverse().map((m) => (
              <li key={m.id}>
                <span className="mission-log-objective">{m.objective}</span>
                <span className="mission-log-when">
                  {m.completedInChapter ? `Chapter ${m.completedInChapter}` : 'Completed'}
                  {m.completedAt ? ` · ${new Date(m.completedAt).toLocaleDateString(undefined, { day: 'numeric', month: 'short', year: 'numeric' })}` : ''}
                </span>
              </li>
            ))}
          </ol>
        </details>
      )}
    </section>
  );
}
