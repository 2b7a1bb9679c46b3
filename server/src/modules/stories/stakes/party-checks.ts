/**
 * Party rounds (issue 34, step 7): each player's stats and checks are their own. The story owner's
 * part of a round is the hero's (the story character's) and its check is the chapter's own check,
 * with its health and items. Every other member's part is judged on its own (judgeAction on that
 * part's text, never the whole round) and rolled on that member's party stats (party_members.stats),
 * from a seed of the chapter and the member — so another take of the chapter keeps every roll. A
 * companion's check costs no hero health and uses none of the hero's items; it grows the companion's
 * party stats by the hero's growth rule (a success against a difficulty above the stat), and never
 * their saved character. Mission growth stays the hero's.
 */
import type { CheckOutcome, CompanionCheck, Difficulty } from '../../../ai/story-ai';
import { mixSeed } from '../../../ai/offline/prng';
import type { PartyMemberCheck } from '../chapter.entity';
import { raiseStats } from '../state/take-effects';
import { judgeAction, proposalFor, rollCheck, type ChoiceCheck } from './checks';
import { earnedGrowth } from './hero-state';

/** A companion's part of a round, as the party hands it to the engine. */
export interface CompanionPart {
  userId: string;
  name: string;
  action: string;
  /** Their party stats before the round's chapter. */
  stats: Record<string, number>;
}

/** A party round as the party hands it to the engine (StartOptions.party). */
export interface PartyRoundInput {
  partyId: string;
  round: number;
  /** The story owner's own part (their hero's check is the chapter's check); null when they did not act. */
  heroAction: string | null;
  /** Every other member who acted, in seat order. */
  companions: CompanionPart[];
}

/** The party round a take answers, as it is recorded with the take. */
export interface TakeParty {
  partyId: string;
  round: number;
  checks: PartyMemberCheck[];
}

/** The seed of a member's d20 in a chapter: the chapter's seed and who rolls (another take keeps it). */
export function memberSeed(chapterSeed: number, userId: string): number {
  return mixSeed('party-member-check', chapterSeed, userId);
}

/**
 * Judges and rolls each companion's own part on their own stats, then their growth from it. A part
 * that is one of the choices the storyteller offered with a proposed check is judged on that proposal,
 * as the hero's is.
 */
export function rollCompanions(
  parts: readonly CompanionPart[],
  difficulty: Difficulty,
  chapterSeed: number,
  dice: (seed: number) => number,
  offered: readonly ChoiceCheck[] = [],
): PartyMemberCheck[] {
  return parts.map((p) => {
    const plan = judgeAction(p.action, difficulty, proposalFor(p.action, offered));
    const check: CheckOutcome | null = plan ? rollCheck(plan, p.stats, null, difficulty, dice(memberSeed(chapterSeed, p.userId))) : null;
    return companionGrowth({ userId: p.userId, name: p.name, action: p.action, check, statsBefore: p.stats });
  });
}

/** A companion's stats after their own check: the hero's growth rule, without mission growth. */
export function companionGrowth(c: Pick<PartyMemberCheck, 'userId' | 'name' | 'action' | 'check' | 'statsBefore'>): PartyMemberCheck {
  const { after, applied } = raiseStats(c.statsBefore, earnedGrowth(c.statsBefore, c.check, false, {}));
  return { ...c, statsAfter: after, statIncreases: applied };
}

/** What the storyteller is told of the companions: each rolled check, by name. */
export function companionChecksOf(checks: readonly PartyMemberCheck[]): CompanionCheck[] {
  return checks.filter((c): c is PartyMemberCheck & { check: CheckOutcome } => c.check !== null).map((c) => ({ name: c.name, check: c.check }));
}
