import { useId } from 'react';
import { statEntries, statLabel } from '../characters/CharacterSheet';

/** Character Stats panel (SPEC §2): every stat, and the last chapter's gains as +N with an up arrow. */
export function StatsPanel({ stats, increases }: { stats: Record<string, unknown>; increases: Record<string, number> }) {
  const ids = useId();
  return (
    <section className="story-panel stats-panel" aria-labelledby={`${ids}-title`}>
      <h2 id={`${ids}-title`}>Character Stats</h2>
      <dl className="story-stats">
        {statEntries(stats).map(([name, value]) => {
          const gain = increases[name];
          return (
            <div key={name} className={`story-stat ${gain ? 'has-gain' : ''}`}>
              <dt>{statLabel(name)}</dt>
              <dd>
                {value}
                {gain ? (
                  <span className="stat-gain">
                    <span aria-hidden="true">+{gain} ↑</span>
                    <span className="visually-hidden">, up {gain} this chapter</span>
                  </span>
                ) : null}
              </dd>
            </div>
          );
        })}
      </dl>
    </section>
  );
}
