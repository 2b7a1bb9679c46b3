import type { StakesChapterFieldsFragment } from '../../../gql/graphql';
import { statLabel } from '../../characters/CharacterSheet';
import './stakes.css';

type Check = NonNullable<StakesChapterFieldsFragment['check']>;
type Stakes = NonNullable<StakesChapterFieldsFragment['stakes']>;

const OUTCOME_LABELS: Record<string, string> = {
  critical_success: 'Critical success',
  success: 'Success',
  success_at_cost: 'Success at a cost',
  failure: 'Failure',
  critical_failure: 'Critical failure',
};

const signed = (n: number) => (n >= 0 ? `+ ${n}` : `− ${-n}`);

/** The roll as a sentence, for screen readers and the tooltip: every number, in order. */
function checkSentence(c: Check): string {
  const parts = [`rolled ${c.roll}`];
  if (c.modifier) parts.push(`${signed(c.modifier)} for ${statLabel(c.stat)}`);
  if (c.itemBonus) parts.push(`${signed(c.itemBonus)} for the ${c.item ?? 'item'}`);
  return `${statLabel(c.stat)} check against ${c.difficulty}: ${parts.join(' ')}, total ${c.total}. ${OUTCOME_LABELS[c.outcome] ?? c.outcome}.`;
}

/**
 * The dice shown with a chapter (issue 31): the stat, the difficulty, the roll and what it came to,
 * then what the chapter did to health and belongings. Decided by the server before the chapter was
 * written; nothing here is computed but the words.
 */
export function CheckLine({ check, stakes }: { check: Check | null; stakes: Stakes | null }) {
  const health = stakes && (stakes.healthAfter !== stakes.healthBefore || stakes.lastingCost > 0);
  if (!check && !health && !stakes?.itemsGained.length && !stakes?.itemsLost.length && !stakes?.defeat) return null;
  return (
    <div className="stakes-lines" data-testid="check-line">
      {check && (
        // role="img": the line is read as one labelled picture of the roll (aria-label is not allowed on a plain paragraph).
        <p role="img" className={`check-line outcome-${check.outcome}`} aria-label={`Dice: ${checkSentence(check)}`} title={checkSentence(check)}>
          {/* A die drawn in CSS: no emoji font is needed to see it. */}
          <span className="check-die" aria-hidden="true">
            <span className="check-die-face">d20</span> {check.roll}
          </span>
          {/* Read left to right as the sum it is: the roll (the die), what is added and why, the total
              against what it had to reach. "Strength vs 12 · − 1 = 7" made a player work it out. */}
          <span aria-hidden="true" className="check-sum">
            {signed(check.modifier)} {statLabel(check.stat)}
            {check.itemBonus ? ` ${signed(check.itemBonus)} ${check.item ?? 'item'}` : ''} = {check.total} vs {check.difficulty}
          </span>
          <strong aria-hidden="true" className="check-outcome">
            {OUTCOME_LABELS[check.outcome] ?? check.outcome}
          </strong>
        </p>
      )}
      {stakes && (health || stakes.itemsGained.length > 0 || stakes.itemsLost.length > 0 || stakes.defeat) && (
        <p className="stakes-line">
          {health && (
            <span className={stakes.healthAfter < stakes.healthBefore ? 'health-down' : 'health-up'}>
              Health {stakes.healthBefore} → {stakes.healthAfter} of {stakes.healthMax}
              {stakes.lastingCost > 0 ? ` (went on after a defeat: most health −${stakes.lastingCost} for good)` : ''}
            </span>
          )}
          {stakes.defeat && <span className="health-down">Defeated</span>}
          {stakes.itemsGained.length > 0 && <span>Gained: {stakes.itemsGained.join(', ')}</span>}
          {stakes.itemsLost.length > 0 && <span>No longer carried: {stakes.itemsLost.join(', ')}</span>}
        </p>
      )}
    </div>
  );
}
