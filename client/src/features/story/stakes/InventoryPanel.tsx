import { useId } from 'react';
import './stakes.css';

/**
 * What the hero carries (issue 31): the story's item cards the hero holds. An action that names one
 * uses it (+2 on a check); the storyteller cannot use anything else.
 */
export function InventoryPanel({ items }: { items: Array<{ id: string; name: string; description: string }> }) {
  const ids = useId();
  return (
    <section className="story-panel inventory-panel" aria-labelledby={`${ids}-title`} data-testid="inventory">
      <h2 id={`${ids}-title`}>Inventory</h2>
      {items.length === 0 ? (
        <p className="inventory-empty">Nothing carried yet.</p>
      ) : (
        <ul className="inventory-list">
          {items.map((i) => (
            <li key={i.id}>
              <strong>{i.name}</strong>
              {i.description && <span className="inventory-description">{i.description}</span>}
            </li>
          ))}
        </ul>
      )}
      <p className="inventory-help">Name an item in your action to use it: +2 on a roll.</p>
    </section>
  );
}
