/**
 * The one chapter-commit rule. planCommit decides what a take writes from the state it is written
 * over — its stats (raised by raiseStats), its setting, its mission effects (decideMissionEffects),
 * the rolling summary — and the database function commit_chapter (migration CommitChapterDocument)
 * is the one writer of that plan. Every path goes through both:
 *
 * - a next chapter: the plan is made from the context the chapter was started from, and sent alone
 *   (one round trip; the function checks under the character's lock that the story is still that
 *   state). On PostgreSQL each statement is a socket write and a wake-up of both ends; on PGlite,
 *   whose one session a transaction holds for every player, a round of first chapters used to queue
 *   behind a four-statement transaction.
 * - when that call refuses (the story moved, the chapter was taken over), and for regenerated takes:
 *   a transaction locks the character, reports the CONFLICT that applies, takes a replaced take back
 *   (unapplyTake), plans from the state it then reads and calls the same function.
 *
 * A party round's take (stakes/party-checks.ts) always takes the transaction: in it, after the plan,
 * the take records its party round and the companions' checks, and their party stats become the
 * take's statsAfter (undo, another take and a rewind put statsBefore back in theirs: take-effects.ts).
 *
 * The stored row is built from the plan, never read back (RETURNING * cost the database thread the
 * text and five JSON columns encoded, and this thread their decoding).
 */
import type { DataSource, EntityManager } from 'typeorm';
import type { CastMember, ChapterResult, CheckOutcome, PromptReport } from '../../../ai/story-ai';
import { AppError } from '../../../common/app-error';
import { Chapter, type CardEffect, type CardSnapshot, type MissionEffects, type TakeMemory, type TakeStakes } from '../chapter.entity';
import { outcomeOf, type ChapterOutcome } from './chapter-outcome';
import type { GenerateMode } from '../story-input';
import { castEffects, cardsOf } from '../memory/story-cards';
import { activeMission, decideMissionEffects, raiseStats, unapplyTake } from './take-effects';
import { sqlState } from '../story.store';
import { itemEffects, planHealth, type Health } from '../stakes/hero-state';
import type { ChoiceCheck } from '../stakes/checks';
import type { TakeParty } from '../stakes/party-checks';

export interface SummaryUpdate {
  summary: string;
  /** The last chapter index the new summary covers. */
  through: number;
  /** The summary it continues covered up to here; if the stored one moved meanwhile, it is not written. */
  expectedThrough: number;
}

/** A finished generation, ready to become part of the story. */
export interface CommitInput {
  characterId: string;
  chapterId: string;
  index: number;
  take: number;
  action: string | null;
  createdAt: Date;
  mode: GenerateMode;
  result: Pick<ChapterResult, 'text' | 'choices' | 'statIncreases' | 'newSetting' | 'missionCompleted' | 'newMission' | 'cast'> &
    Partial<Pick<ChapterResult, 'itemsGained' | 'itemsLost' | 'healthRestored'>>;
  /** The check rolled for the action before the take was written (null: routine). */
  check?: CheckOutcome | null;
  /** The storyteller's proposals for the take's choices that could fail (stakes/checks.ts choiceChecksOf). */
  choiceChecks?: ChoiceCheck[];
  /** A party round: its party, round and the companions' checks with their stats before and after. */
  party?: TakeParty | null;
  /** An objective generated before the chapter because the character had none. */
  preMission: string | null;
  summary: SummaryUpdate | null;
  /** The player character's name: never a story card of their own story. */
  heroName: string;
  /** The memories the take leaves in the memory bank (memory-bank.ts takeMemories). */
  memories: TakeMemory[];
  /** What the storyteller was sent ("what the storyteller remembered"). */
  promptReport: PromptReport | null;
}

/** The state a take is written over. */
export interface StateBefore {
  stats: Record<string, number>;
  setting: string | null;
  activeMissionId: string | null;
  /**
   * The story's cards. Read with the context for a next chapter's one call, where they may have
   * changed since: each effect writes only over the card state it was decided from (revision), so a
   * stale one is skipped, never written over the player's change.
   */
  cards: CardSnapshot[];
  /** The hero's health (0: the chapter before was a defeat, and this one goes on from it). */
  health: Health;
}

/** commit_chapter's document: everything a take writes, decided once. */
interface CommitPlan {
  characterId: string;
  chapterId: string;
  index: number;
  now: string;
  activeMissionId: string | null;
  statsBefore: Record<string, number>;
  settingBefore: string | null;
  statsAfter: Record<string, number>;
  setting: string | null;
  text: string;
  choices: string[];
  statIncreases: Record<string, number>;
  missionEffects: MissionEffects;
  summary: SummaryUpdate | null;
  cast: CastMember[];
  cardEffects: CardEffect[];
  memories: TakeMemory[];
  promptReport: PromptReport | null;
  check: CheckOutcome | null;
  stakes: TakeStakes;
  choiceChecks: ChoiceCheck[];
}

function planCommit(input: CommitInput, before: StateBefore, now: Date): CommitPlan {
  const { after, applied } = raiseStats(before.stats, input.result.statIncreases);
  const check = input.check ?? null;
  const items = itemEffects(before.cards, input.result.itemsGained ?? [], input.result.itemsLost ?? [], check, input.index);
  return {
    characterId: input.characterId,
    chapterId: input.chapterId,
    index: input.index,
    now: now.toISOString(),
    activeMissionId: before.activeMissionId,
    statsBefore: before.stats,
    settingBefore: before.setting,
    statsAfter: after,
    setting: input.result.newSetting ?? before.setting,
    text: input.result.text,
    choices: input.result.choices,
    statIncreases: applied,
    missionEffects: decideMissionEffects(before.activeMissionId ? { id: before.activeMissionId } : null, input.preMission, input.result, now),
    summary: input.summary,
    cast: input.result.cast,
    cardEffects: [...castEffects(before.cards, input.result.cast, input.index, input.heroName), ...items.effects],
    memories: input.memories,
    promptReport: input.promptReport,
    check,
    stakes: { ...planHealth(before.health, check, input.result.healthRestored ?? 0), itemsGained: items.gained, itemsLost: items.lost },
    choiceChecks: input.choiceChecks ?? [],
  };
}

const ABANDONED = 'This chapter was abandoned while it was being written.';
const CHANGED = 'The story changed while this chapter was being written.';

/**
 * Commits a take. `known` is the state a next chapter was started from (read with its context):
 * with it the plan is tried in one call first.
 */
export async function commitChapter(dataSource: DataSource, input: CommitInput, known: StateBefore | null): Promise<ChapterOutcome> {
  if (input.mode === 'next' && known && !input.party) {
    const plan = planCommit(input, known, new Date());
    if (await writePlan(dataSource.manager, plan, 'refuse')) return outcomeOf(chapterOf(input, plan));
  }
  const plan = await dataSource.transaction(async (m) => {
    const before = await lockedStateBefore(m, input);
    const p = planCommit(input, before, new Date());
    if (!(await writePlan(m, p, 'throw'))) throw new AppError('CONFLICT', CHANGED);
    if (input.party) await writeParty(m, input.chapterId, input.party);
    return p;
  });
  return outcomeOf(chapterOf(input, plan));
}

/**
 * In the caller's transaction: locks the character, reports which CONFLICT applies, and for a new
 * take of the latest chapter takes the old take back first (its stats, setting and missions), so the
 * plan is made from the state before the chapter.
 */
async function lockedStateBefore(m: EntityManager, input: CommitInput): Promise<StateBefore> {
  const [ch] = (await m.query(
    `SELECT c.stats, c.current_setting, c.health, c.health_max,
            (SELECT status FROM chapters WHERE id = $2) AS chapter_status,
            (SELECT COALESCE(MAX("index"), -1) FROM chapters WHERE character_id = c.id AND is_selected) AS latest_index,
            (SELECT id FROM missions WHERE character_id = c.id AND status = 'active' LIMIT 1) AS active_mission
       FROM characters c WHERE c.id = $1 FOR UPDATE OF c`,
    [input.characterId, input.chapterId],
  )) as Array<{
    stats: Record<string, number>;
    current_setting: string | null;
    health: number;
    health_max: number;
    chapter_status: string | null;
    latest_index: number | string;
    active_mission: string | null;
  }>;
  if (!ch) throw AppError.notFound('Character');
  if (ch.chapter_status !== 'generating') throw new AppError('CONFLICT', ABANDONED);
  const expectedLatest = input.mode === 'next' ? input.index - 1 : input.index;
  if (Number(ch.latest_index) !== expectedLatest) throw new AppError('CONFLICT', CHANGED);
  if (input.mode === 'next') {
    return {
      stats: ch.stats,
      setting: ch.current_setting,
      activeMissionId: ch.active_mission,
      cards: await cardsOf(m, input.characterId),
      health: { current: ch.health, max: ch.health_max },
    };
  }
  const prev = await m.getRepository(Chapter).findOneByOrFail({ characterId: input.characterId, index: input.index, isSelected: true });
  await unapplyTake(m, prev);
  await m.getRepository(Chapter).update({ id: prev.id }, { isSelected: false });
  return {
    stats: prev.statsBefore,
    setting: prev.settingBefore,
    activeMissionId: (await activeMission(m, input.characterId))?.id ?? null,
    cards: await cardsOf(m, input.characterId),
    health: prev.stakes ? { current: prev.stakes.healthBefore, max: prev.stakes.healthMaxBefore } : { current: ch.health, max: ch.health_max },
  };
}

/** A party round's take: its round and the companions' checks, and their party stats after it. */
async function writeParty(m: EntityManager, chapterId: string, party: TakeParty): Promise<void> {
  await m.query(`UPDATE chapters SET party_id = $2, party_round = $3, party_checks = $4::jsonb WHERE id = $1`, [
    chapterId,
    party.partyId,
    party.round,
    JSON.stringify(party.checks),
  ]);
  for (const c of party.checks) {
    await m.query(`UPDATE party_members SET stats = $3::jsonb WHERE party_id = $1 AND user_id = $2`, [party.partyId, c.userId, JSON.stringify(c.statsAfter)]);
  }
}

/** commit_chapter: true when written, false when its check refused the plan (nothing written). */
async function writePlan(m: EntityManager, plan: CommitPlan, takenOver: 'refuse' | 'throw'): Promise<boolean> {
  try {
    const [{ id }] = (await m.query(`SELECT commit_chapter($1::jsonb) AS id`, [JSON.stringify(plan)])) as Array<{ id: string | null }>;
    return id !== null;
  } catch (e) {
    // Taken over between the function's check and its write: it wrote nothing.
    if (sqlState(e) !== 'TF409') throw e;
    if (takenOver === 'refuse') return false;
    throw new AppError('CONFLICT', ABANDONED);
  }
}

/** The stored row, exactly as commit_chapter wrote it. */
function chapterOf(input: CommitInput, plan: CommitPlan): Chapter {
  const now = new Date(plan.now);
  return Object.assign(new Chapter(), {
    id: input.chapterId,
    characterId: input.characterId,
    index: input.index,
    take: input.take,
    isSelected: true,
    status: 'complete' as const,
    text: plan.text,
    playerChoice: input.action,
    choices: plan.choices,
    setting: plan.setting,
    statIncreases: plan.statIncreases,
    statsAfter: plan.statsAfter,
    statsBefore: plan.statsBefore,
    settingBefore: plan.settingBefore,
    missionEffects: plan.missionEffects,
    castMembers: plan.cast,
    textEditedAt: null,
    choiceEditedAt: null,
    stoppedAt: null,
    // What commit_chapter applied may be fewer (a card the player changed meanwhile); undo reads the row.
    cardEffects: plan.cardEffects,
    memories: plan.memories,
    // Not here: the report is written by the commit but never read with a chapter (select: false), and
    // the answer must be exactly what a later read finds.
    checkOutcome: plan.check,
    stakes: plan.stakes,
    choiceChecks: plan.choiceChecks,
    partyId: input.party?.partyId ?? null,
    partyRound: input.party?.round ?? null,
    partyChecks: input.party?.checks ?? [],
    completedAt: now,
    createdAt: input.createdAt,
    updatedAt: now,
  });
}
