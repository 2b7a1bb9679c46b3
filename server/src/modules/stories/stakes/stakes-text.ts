/**
 * A chapter's check and stakes in words, as exports show them (the web client renders its own line
 * from the same fields): "Check — agility against 14: rolled 9 + 1 = 10, failure. Health 8 → 6 of 10."
 */
import type { CheckOutcome, CheckOutcomeKind } from '../../../ai/story-ai';
import type { PartyMemberCheck, TakeStakes } from '../chapter.entity';

const OUTCOME_WORDS: Record<CheckOutcomeKind, string> = {
  critical_success: 'critical success',
  success: 'success',
  success_at_cost: 'success at a cost',
  failure: 'failure',
  critical_failure: 'critical failure',
};

/** The check line (null for a routine action); `who` names whose it is (a party round's companion). */
export function checkText(c: CheckOutcome | null, who?: string): string | null {
  if (!c) return null;
  const parts = [`rolled ${c.roll}`];
  if (c.modifier !== 0) parts.push(`${c.modifier > 0 ? '+' : '−'} ${Math.abs(c.modifier)} (${c.stat})`);
  if (c.itemBonus) parts.push(`+ ${c.itemBonus} (${c.item ?? 'item'}${c.itemUsedUp ? ', used up' : ''})`);
  return `${who ? `${who}'s check` : 'Check'} — ${c.stat} against ${c.difficulty}: ${parts.join(' ')} = ${c.total}, ${OUTCOME_WORDS[c.outcome]}.`;
}

/** What the chapter did to health and belongings (null when nothing changed). */
export function stakesText(s: TakeStakes | null): string | null {
  if (!s) return null;
  const out: string[] = [];
  if (s.lastingCost) out.push(`Went on after the defeat: the most health is ${s.healthMaxAfter} for good.`);
  if (s.healthAfter !== s.healthBefore || s.healthMaxAfter !== s.healthMaxBefore)
    out.push(`Health ${s.healthBefore} → ${s.healthAfter} of ${s.healthMaxAfter}.`);
  if (s.defeat) out.push('Defeated.');
  if (s.itemsGained.length) out.push(`Gained: ${s.itemsGained.join(', ')}.`);
  if (s.itemsLost.length) out.push(`No longer carried: ${s.itemsLost.join(', ')}.`);
  return out.length ? out.join(' ') : null;
}

/** A party round's companions' own checks, each named (null when none rolled). */
export function companionsText(checks: readonly PartyMemberCheck[] | null | undefined): string | null {
  const lines = (checks ?? []).map((c) => checkText(c.check, c.name)).filter((t): t is string => t !== null);
  return lines.length ? lines.join(' ') : null;
}
