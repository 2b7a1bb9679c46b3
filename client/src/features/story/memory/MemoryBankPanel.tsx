import { useId, useState, type FormEvent } from 'react';
import { toast } from 'react-toastify/unstyled';
import {
  MemoryBankPanel_memoriesDocument,
  useMemoryBankPanel_addMutation,
  useMemoryBankPanel_deleteMutation,
  useMemoryBankPanel_memoriesQuery,
  useMemoryBankPanel_updateMutation,
  type MemoryBankEntryFragment,
  type MemoryKind,
} from '../../../gql/graphql';
import { MEMORY_TEXT_MAX } from '../../../lib/limits.generated';
import { MESSAGES } from '../../../lib/messages';
import { usePlayerAction } from '../player-action';
import './memory.css';

/**
 * What each kind of memory is called, in the order the form offers them. The kinds are the schema's
 * MemoryKind enum (the generated type): a kind the server adds fails this file's typecheck until it
 * has a label here.
 */
const KIND_LABELS: Record<MemoryKind, string> = { event: 'Event', fact: 'Fact', promise: 'Promise', place: 'Where things are' };
const KINDS = Object.entries(KIND_LABELS) as Array<[MemoryKind, string]>;

function origin(m: MemoryBankEntryFragment): string {
  if (m.chapterNumber === null || m.chapterNumber === undefined) return 'yours';
  return `chapter ${m.chapterNumber}${m.source === 'action' ? ', your action' : ''}`;
}

/**
 * The memory bank (issue 30): the short memories chapters leave — what happened, facts, promises,
 * where things are — which the storyteller recalls when an action calls for them. The player reads,
 * searches, rewrites, pins (always recalled), forgets and adds their own. A chapter's memories go
 * with its take: undoing the chapter takes them back.
 */
export function MemoryBankPanel({ characterId }: { characterId: string }) {
  const ids = useId();
  const run = usePlayerAction();
  const [search, setSearch] = useState('');
  const [editing, setEditing] = useState<string | null>(null);
  const [adding, setAdding] = useState(false);
  const variables = { characterId, search: search.trim() || null };
  const { data, loading, error } = useMemoryBankPanel_memoriesQuery({ variables, fetchPolicy: 'cache-and-network' });
  const refetchQueries = [{ query: MemoryBankPanel_memoriesDocument, variables }];
  const [add, added] = useMemoryBankPanel_addMutation({ refetchQueries, awaitRefetchQueries: true });
  const [update, updated] = useMemoryBankPanel_updateMutation({ refetchQueries, awaitRefetchQueries: true });
  const [remove] = useMemoryBankPanel_deleteMutation({ refetchQueries, awaitRefetchQueries: true });
  const saving = added.loading || updated.loading;
  const memories = data?.character?.memories ?? [];

  const save = (m: MemoryBankEntryFragment | null, d: { kind: MemoryKind; text: string }) =>
    run(MESSAGES.memorySaveFailed, async () => {
      if (m) await update({ variables: { characterId, memoryId: m.id, input: { kind: d.kind, text: d.text } } });
      else await add({ variables: { characterId, input: { kind: d.kind, text: d.text } } });
      setEditing(null);
      setAdding(false);
      toast.success(MESSAGES.memorySaved);
    });
  const togglePin = (m: MemoryBankEntryFragment) =>
    run(MESSAGES.memorySaveFailed, () => update({ variables: { characterId, memoryId: m.id, input: { pinned: !m.pinned } } }));
  const forget = (m: MemoryBankEntryFragment) =>
    run(MESSAGES.memoryDeleteFailed, async () => {
      if (!window.confirm(MESSAGES.memoryDeleteConfirm)) return;
      await remove({ variables: { characterId, memoryId: m.id } });
      toast.success(MESSAGES.memoryDeleted);
    });

  return (
    <section className="memory-bank" data-testid="memory-bank" aria-labelledby={`${ids}-title`}>
      <h3 id={`${ids}-title`}>Memories</h3>
      <p className="memory-help">What the storyteller can recall when an action calls for it. Pinned memories are recalled every chapter.</p>
      <div className="memory-field">
        <label htmlFor={`${ids}-search`}>Search memories</label>
        <input id={`${ids}-search`} type="search" value={search} onChange={(e) => setSearch(e.target.value)} />
      </div>
      {error && !data && <p role="alert">{MESSAGES.memoriesLoadFailed}</p>}
      {!loading && !error && memories.length === 0 && (
        <p className="cards-empty">{search.trim() ? 'No memory mentions that.' : 'No memories yet: each chapter leaves a few.'}</p>
      )}
      <ul className="card-list memory-list">
        {memories.map((m) =>
          editing === m.id ? (
            <li key={m.id} className="story-card">
              <MemoryForm
                initial={{ kind: m.kind, text: m.text }}
                label="Edit memory"
                saving={saving}
                onSave={(d) => void save(m, d)}
                onCancel={() => setEditing(null)}
              />
            </li>
          ) : (
            <li key={m.id} className="story-card memory-item" data-testid="memory">
              <p className="memory-text">
                {m.pinned && (
                  <span className="card-pin" aria-label="Pinned" title="Pinned">
                    ★{' '}
                  </span>
                )}
                {m.text}
              </p>
              <p className="card-meta">
                {KIND_LABELS[m.kind] ?? m.kind} · {origin(m)}
                {m.edited ? ' · edited' : ''}
              </p>
              <div className="card-actions">
                <button type="button" className="story-button story-button-sm" onClick={() => setEditing(m.id)} aria-label={`Edit memory: ${m.text}`}>
                  Edit
                </button>
                <button
                  type="button"
                  className="story-button story-button-sm"
                  onClick={() => void togglePin(m)}
                  aria-pressed={m.pinned}
                  aria-label={`${m.pinned ? 'Unpin' : 'Pin'} memory: ${m.text}`}
                >
                  {m.pinned ? 'Unpin' : 'Pin'}
                </button>
                <button type="button" className="story-button story-button-sm" onClick={() => void forget(m)} aria-label={`Forget memory: ${m.text}`}>
                  Forget
                </button>
              </div>
            </li>
          ),
        )}
      </ul>
      {adding ? (
        <MemoryForm
          initial={{ kind: 'fact', text: '' }}
          label="New memory"
          saving={saving}
          onSave={(d) => void save(null, d)}
          onCancel={() => setAdding(false)}
        />
      ) : (
        <button type="button" className="story-button" onClick={() => setAdding(true)}>
          Add Memory
        </button>
      )}
    </section>
  );
}

function MemoryForm({
  initial,
  label,
  saving,
  onSave,
  onCancel,
}: {
  initial: { kind: MemoryKind; text: string };
  label: string;
  saving: boolean;
  onSave: (d: { kind: MemoryKind; text: string }) => void;
  onCancel: () => void;
}) {
  const ids = useId();
  const [d, setD] = useState(initial);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (d.text.trim()) onSave({ kind: d.kind, text: d.text.trim() });
  };
  return (
    <form className="card-form" onSubmit={submit} aria-label={label}>
      <div className="memory-field">
        <label htmlFor={`${ids}-kind`}>Kind</label>
        <select id={`${ids}-kind`} value={d.kind} onChange={(e) => setD({ ...d, kind: e.target.value as MemoryKind })}>
          {KINDS.map(([k, l]) => (
            <option key={k} value={k}>
              {l}
            </option>
          ))}
        </select>
      </div>
      <div className="memory-field">
        <label htmlFor={`${ids}-text`}>Memory</label>
        <textarea id={`${ids}-text`} rows={2} maxLength={MEMORY_TEXT_MAX} required value={d.text} onChange={(e) => setD({ ...d, text: e.target.value })} />
      </div>
      <div className="card-actions">
        <button type="submit" className="story-button story-button-sm" disabled={saving || !d.text.trim()} aria-busy={saving}>
          Save
        </button>
        <button type="button" className="story-button story-button-sm" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
