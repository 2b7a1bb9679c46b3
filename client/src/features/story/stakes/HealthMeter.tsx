import { useId } from 'react';
import './stakes.css';

/** The hero's health (issue 31): a meter with its numbers; low health is marked. */
export function HealthMeter({ health, max }: { health: number; max: number }) {
  const ids = useId();
  return (
    <section className="story-panel health-panel" aria-labelledby={`${ids}-title`} data-testid="health-meter">
      <div className="story-panel-head">
        <h2 id={`${ids}-title`}>Health</h2>
        <span className={`health-value ${health <= max / 3 ? 'is-low' : ''}`}>
          {health} / {max}
        </span>
      </div>
      <meter
        className="health-meter"
        min={0}
        max={max}
        low={Math.ceil(max / 3)}
        high={Math.ceil((2 * max) / 3)}
        optimum={max}
        value={health}
        aria-labelledby={`${ids}-title`}
      >
        {health} of {max}
      </meter>
      {health === 0 && <p className="health-note">Defeated. Rewind, or go on at a lasting cost.</p>}
    </section>
  );
}
