import { useId } from 'react';
import './stakes.css';

/**
 * After a defeat (issue 31) the player chooses: rewind to before it (the story's branches keep the
 * defeat to return to), or go on — which costs 2 of the most health for good. No permadeath.
 */
export function DefeatChoice({
  chapterNumber,
  onRewind,
  onGoOn,
  disabled,
}: {
  chapterNumber: number;
  onRewind: () => void;
  onGoOn: () => void;
  disabled: boolean;
}) {
  const ids = useId();
  return (
    <section className="defeat-choice" role="region" aria-labelledby={`${ids}-title`} data-testid="defeat-choice">
      <h2 id={`${ids}-title`}>Defeated — but not dead</h2>
      <p>Your hero is beaten. Rewind to before it, or go on: you get up at half health, and your most health drops by 2 for good.</p>
      <div className="defeat-actions">
        <button type="button" className="story-button" onClick={onRewind} disabled={disabled || chapterNumber < 2}>
          Rewind to chapter {Math.max(1, chapterNumber - 1)}
        </button>
        <button type="button" className="story-button" onClick={onGoOn} disabled={disabled}>
          Go on, scarred
        </button>
      </div>
    </section>
  );
}
