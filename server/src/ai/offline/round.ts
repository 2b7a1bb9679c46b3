/**
 * A party round's action (issue 34): the server writes every player's part as "Name: what they do."
 * one after another (parties/party-rules.ts composeRoundAction). Offline, the hero's own part is the
 * action the chapter answers; the others are told as what the hero's companions did meanwhile,
 * instead of the whole line being read as one odd action ("you kael Stormborn: you climbs…").
 */
import type { CheckOutcomeKind, CompanionCheck } from '../story-ai';
import { pastOf } from './answer';
import { normaliseAction } from './text';
import { shortName } from './world-model';

export interface RoundPart {
  name: string;
  /** What they do, without their own name in front ("climbs the bell tower"). */
  text: string;
}

/** The parts of a round's action; null for one player's ordinary action. */
export function roundParts(action: string | null | undefined, heroName: string): { hero: string | null; others: RoundPart[] } | null {
  if (!action) return null;
  const pieces = action.trim().split(/(?<=[.!?…"')\]])\s+(?=[^\s:][^:]{0,59}:\s)/);
  const parts: RoundPart[] = [];
  for (const piece of pieces) {
    const m = /^([^:.!?]{1,60}):\s+(\S[\s\S]*)$/.exec(piece);
    if (!m) return null;
    const name = (m[1] as string).trim();
    // "Mira searches the cellar" from Mira: her own name (or its first word) is not part of the action.
    const own = new RegExp(`^(?:${escape(name)}|${escape(shortName(name))})\\s+`, 'i');
    parts.push({ name, text: (m[2] as string).replace(own, '').trim() });
  }
  const isHero = (p: RoundPart) => p.name.toLowerCase() === heroName.trim().toLowerCase() || shortName(p.name) === shortName(heroName);
  // One part alone is a round only when it is the hero's (a player's "Note: …" is their own action).
  if (parts.length < 2 && !parts.some(isHero)) return null;
  const hero = parts.find(isHero);
  return { hero: hero ? hero.text : null, others: parts.filter((p) => p !== hero) };
}

/** The hero's own action in what a chapter answered (a round: their part, else the first player's). */
export function ownAction(action: string, heroName: string): string {
  const round = roundParts(action, heroName);
  return round ? (round.hero ?? round.others[0]?.text ?? '') : action;
}

/**
 * How a companion's own check came out (the engine rolled it on their stats: ChapterInput.companionChecks),
 * told of them by name: "Tomas tried to question the innkeeper, but failed".
 */
const COMPANION_OUTCOME: Record<CheckOutcomeKind, (who: string, attempt: string) => string> = {
  critical_success: (who, attempt) => `${who} managed to ${attempt}, brilliantly, better than anyone had hoped`,
  success: (who, attempt) => `${who} managed to ${attempt}`,
  success_at_cost: (who, attempt) => `${who} managed to ${attempt}, but it cost them`,
  failure: (who, attempt) => `${who} tried to ${attempt}, but failed`,
  critical_failure: (who, attempt) => `${who} tried to ${attempt} and failed badly, which made things worse`,
};

/**
 * What the others did, in one past-tense sentence the narration turns to the story's point of view:
 * "Beside Kael, Tomas questioned the innkeeper, and Mira searched the cellar." A companion whose part
 * the engine rolled a check for is told with its outcome ("Tomas tried to question the innkeeper,
 * but failed").
 */
export function companionsLine(others: readonly RoundPart[], heroShort: string, heroActed: boolean, checks: readonly CompanionCheck[] = []): string | null {
  if (others.length === 0) return null;
  const deeds = others.map((p) => {
    const who = shortName(p.name);
    const rolled = checks.find((c) => c.name.trim().toLowerCase() === p.name.trim().toLowerCase());
    if (rolled) return COMPANION_OUTCOME[rolled.check.outcome](who, rolled.check.attempt);
    const a = normaliseAction(p.text);
    if (a.clause.startsWith('follow a sudden idea')) return `${who} went their own way`;
    const [verb, ...rest] = a.clause.split(/\s+/);
    return `${who} ${pastOf(verb as string)}${rest.length ? ` ${rest.join(' ')}` : ''}`;
  });
  const list = deeds.length === 1 ? (deeds[0] as string) : `${deeds.slice(0, -1).join(', ')}, and ${deeds[deeds.length - 1] as string}`;
  return heroActed ? `Beside ${heroShort}, ${list}` : `Meanwhile, ${list}`;
}

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
