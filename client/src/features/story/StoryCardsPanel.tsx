import { useId, useState, type FormEvent } from 'react';
import { toast } from 'react-toastify/unstyled';
import {
  useStoryCardsPanel_createMutation,
  useStoryCardsPanel_deleteMutation,
  useStoryCardsPanel_updateMutation,
  type StoryCardFieldsFragment,
  type StoryCardKind,
} from '../../gql/graphql';
import { STORY_CARD_ALIASES_MAX, STORY_CARD_DESCRIPTION_MAX, STORY_CARD_LINE_MAX, STORY_CARD_NAME_MAX, STORY_CARDS_MAX } from '../../lib/limits.generated';
import { MESSAGES } from '../../lib/messages';
import { usePlayerAction } from './player-action';

/**
 * What the form calls each kind, in the order it offers them. The kinds are the schema's
 * StoryCardKind enum (the generated type): a kind the server adds fails this file's typecheck until
 * it has a label here.
 */
const KIND_LABELS: Record<StoryCardKind, string> = {
  character: 'Person',
  place: 'Place',
  item: 'Item',
  faction: 'Faction',
  lore: 'Lore',
};
const KINDS = Object.entries(KIND_LABELS) as Array<[StoryCardKind, string]>;
const kindLabel = (kind: StoryCardKind) => KIND_LABELS[kind] ?? kind;

interface Draft {
  kind: StoryCardKind;
  name: string;
  aliases: string;
  role: string;
  status: string;
  description: string;
  pinned: boolean;
}
const EMPTY: Draft = { kind: 'character', name: '', aliases: '', role: '', status: '', description: '', pinned: false };
const draftOf = (c: StoryCardFieldsFragment): Draft => ({
  kind: c.kind,
  name: c.name,
  aliases: c.aliases.join(', '),
  role: c.role ?? '',
  status: c.status ?? '',
  description: c.description,
  pinned: c.pinned,
});
const inputOf = (d: Draft) => ({
  kind: d.kind,
  name: d.name,
  aliases: d.aliases
    .split(',')
    .map((a) => a.trim())
    .filter(Boolean),
  role: d.role,
  status: d.status,
  description: d.description,
  pinned: d.pinned,
});

/**
 * Story cards (AI Dungeon's story cards, SillyTavern's world info): the story's people, places,
 * items, factions and lore. Chapters add a card for each new person they show and keep their status
 * current; the player adds, edits, pins (always remembered) and deletes them. A card enters a
 * chapter's prompt when its name or an alias comes up, so the storyteller keeps people consistent.
 */
export function StoryCardsPanel({ characterId, cards, onChanged }: { characterId: string; cards: StoryCardFieldsFragment[]; onChanged: () => unknown }) {
  const run = usePlayerAction();
  // null: no form open; 'new': adding; else the id of the card being edited.
  const [editing, setEditing] = useState<string | null>(null);
  const [create, created] = useStoryCardsPanel_createMutation();
  const [update, updated] = useStoryCardsPanel_updateMutation();
  const [remove] = useStoryCardsPanel_deleteMutation();
  const saving = created.loading || updated.loading;

  const save = (card: StoryCardFieldsFragment | null, d: Draft) =>
    run(MESSAGES.storyCardSaveFailed, async () => {
      if (card) await update({ variables: { id: card.id, input: inputOf(d) } });
      else await create({ variables: { characterId, input: inputOf(d) } });
      setEditing(null);
      toast.success(MESSAGES.storyCardSaved);
      await onChanged();
    });
  const togglePin = (card: StoryCardFieldsFragment) =>
    run(MESSAGES.storyCardSaveFailed, async () => {
      await update({ variables: { id: card.id, input: { pinned: !card.pinned } } });
      await onChanged();
    });
  const del = (card: StoryCardFieldsFragment) =>
    run(MESSAGES.storyCardDeleteFailed, async () => {
      if (!window.confirm(MESSAGES.storyCardDeleteConfirm)) return;
      await remove({ variables: { id: card.id } });
      toast.success(MESSAGES.storyCardDeleted);
      await onChanged();
    });

  return (
    <details className="story-panel memory-panel cards-panel" data-testid="story-cards" open>
      <summary>
        <h2>Story Cards ({cards.length})</h2>
      </summary>
      <p className="memory-help">People, places and things the storyteller keeps consistent. Pinned cards are always remembered.</p>
      {cards.length === 0 && <p className="cards-empty">No cards yet: people the story meets appear here.</p>}
      <ul className="card-list">
        {cards.map((card) =>
          editing === card.id ? (
            <li key={card.id} className="story-card">
              <CardForm initial={draftOf(card)} saving={saving} onSave={(d) => void save(card, d)} onCancel={() => setEditing(null)} />
            </li>
          ) : (
            <li key={card.id} className="story-card" data-testid="story-card">
              <div className="story-card-head">
                <h3>
                  {card.pinned && (
                    <span className="card-pin" aria-label="Pinned" title="Pinned">
                      ★{' '}
                    </span>
                  )}
                  {card.name}
                </h3>
                <span className="card-kind">{kindLabel(card.kind)}</span>
              </div>
              {(card.role || card.status) && (
                <p className="card-meta">
                  {card.role}
                  {card.role && card.status ? ' · ' : ''}
                  {card.status && <em>{card.status}</em>}
                </p>
              )}
              {card.description && <p className="card-description">{card.description}</p>}
              {card.aliases.length > 0 && <p className="card-meta">Also: {card.aliases.join(', ')}</p>}
              <div className="card-actions">
                <button type="button" className="story-button story-button-sm" onClick={() => setEditing(card.id)} aria-label={`Edit ${card.name}`}>
                  Edit
                </button>
                <button
                  type="button"
                  className="story-button story-button-sm"
                  onClick={() => void togglePin(card)}
                  aria-pressed={card.pinned}
                  aria-label={`${card.pinned ? 'Unpin' : 'Pin'} ${card.name}`}
                >
                  {card.pinned ? 'Unpin' : 'Pin'}
                </button>
                <button type="button" className="story-button story-button-sm" onClick={() => void del(card)} aria-label={`Delete ${card.name}`}>
                  Delete
                </button>
              </div>
            </li>
          ),
        )}
      </ul>
      {editing === 'new' ? (
        <CardForm initial={EMPTY} saving={saving} onSave={(d) => void save(null, d)} onCancel={() => setEditing(null)} />
      ) : (
        <button type="button" className="story-button" onClick={() => setEditing('new')} disabled={cards.length >= STORY_CARDS_MAX}>
          Add Card
        </button>
      )}
    </details>
  );
}

function CardForm({ initial, saving, onSave, onCancel }: { initial: Draft; saving: boolean; onSave: (d: Draft) => void; onCancel: () => void }) {
  const ids = useId();
  const [d, setD] = useState(initial);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    onSave(d);
  };
  const line = (key: 'name' | 'aliases' | 'role' | 'status', label: string, max: number, help?: string) => (
    <div className="memory-field">
      <label htmlFor={`${ids}-${key}`}>{label}</label>
      {help && (
        <p className="memory-help" id={`${ids}-${key}-help`}>
          {help}
        </p>
      )}
      <input
        id={`${ids}-${key}`}
        value={d[key]}
        maxLength={max}
        required={key === 'name'}
        aria-describedby={help ? `${ids}-${key}-help` : undefined}
        onChange={(e) => setD({ ...d, [key]: e.target.value })}
      />
    </div>
  );
  return (
    <form className="card-form" onSubmit={submit} aria-label={initial.name ? `Edit ${initial.name}` : 'New story card'}>
      <div className="memory-field">
        <label htmlFor={`${ids}-kind`}>Kind</label>
        <select id={`${ids}-kind`} value={d.kind} onChange={(e) => setD({ ...d, kind: e.target.value as StoryCardKind })}>
          {KINDS.map(([k, label]) => (
            <option key={k} value={k}>
              {label}
            </option>
          ))}
        </select>
      </div>
      {line('name', 'Name', STORY_CARD_NAME_MAX)}
      {line(
        'aliases',
        'Other names',
        STORY_CARD_NAME_MAX * STORY_CARD_ALIASES_MAX,
        `Up to ${STORY_CARD_ALIASES_MAX}, comma-separated; any of them brings the card to mind.`,
      )}
      {d.kind === 'character' && line('role', 'Role', STORY_CARD_LINE_MAX)}
      {line('status', 'Status', STORY_CARD_LINE_MAX)}
      <div className="memory-field">
        <label htmlFor={`${ids}-description`}>Description</label>
        <textarea
          id={`${ids}-description`}
          rows={3}
          maxLength={STORY_CARD_DESCRIPTION_MAX}
          value={d.description}
          onChange={(e) => setD({ ...d, description: e.target.value })}
        />
      </div>
      <label className="card-pin-toggle">
        <input type="checkbox" checked={d.pinned} onChange={(e) => setD({ ...d, pinned: e.target.checked })} /> Always remember (pin)
      </label>
      <div className="card-actions">
        <button type="submit" className="story-button" disabled={saving || !d.name.trim()} aria-busy={saving}>
          Save Card
        </button>
        <button type="button" className="story-button" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
