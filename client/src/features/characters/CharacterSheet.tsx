import type { ReactNode } from 'react';
import './character-sheet.css';

export interface SheetCharacter {
  name: string;
  stats: Record<string, unknown>;
  description: string;
  traits: readonly string[];
  strengths: readonly string[];
  weaknesses: readonly string[];
  special: { name: string; description: string };
}

/** "strength" → "Strength", "mental_fortitude" → "Mental fortitude" (SPEC: each stat name capitalised). */
export function statLabel(name: string): string {
  const words = name.replace(/[_-]+/g, ' ').trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** Numeric stats only, in the order the server gave them. */
export function statEntries(stats: Record<string, unknown>): Array<[string, number]> {
  return Object.entries(stats).filter((e): e is [string, number] => typeof e[1] === 'number');
}

function List({ title, items }: { title: string; items: readonly string[] }) {
  return (
    <section className="sheet-block">
      <h4>{title}</h4>
      {items.length === 0 ? (
        <p className="muted">—</p>
      ) : (
        <ul>
          {items.map((item, i) => (
            <li key={i}>{item}</li>
          ))}
        </ul>
      )}
    </section>
  );
}

/**
 * A character profile card (SPEC §2 result screen and Characters sheet): header, Character Stats grid,
 * Strengths / Weaknesses / Traits, Special, and the description with its line breaks kept.
 */
export function CharacterSheet({ character, headingLevel = 3, actions }: { character: SheetCharacter; headingLevel?: 2 | 3; actions?: ReactNode }) {
  const Heading = `h${headingLevel}` as 'h2' | 'h3';
  return (
    <article className="character-sheet" aria-label={`${character.name} character sheet`}>
      <header className="sheet-header">
        <Heading className="sheet-name">{character.name}</Heading>
        {actions && <div className="sheet-actions">{actions}</div>}
      </header>
      <section className="sheet-block">
        <h4>Character Stats</h4>
        <dl className="stat-grid">
          {statEntries(character.stats).map(([name, value]) => (
            <div key={name} className="stat-item">
              <dt>{statLabel(name)}</dt>
              <dd>{value}</dd>
            </div>
          ))}
        </dl>
      </section>
      <div className="sheet-columns">
        <List title="Strengths" items={character.strengths} />
        <List title="Weaknesses" items={character.weaknesses} />
        <List title="Traits" items={character.traits} />
      </div>
      <section className="sheet-block sheet-special">
        <h4>Special</h4>
        <p className="special-name">{character.special.name}</p>
        <p>{character.special.description}</p>
      </section>
      <section className="sheet-block">
        <h4>Character Description</h4>
        <p className="sheet-description">{character.description}</p>
      </section>
    </article>
  );
}
