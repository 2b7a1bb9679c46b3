/**
 * A party story's chapters and its party's rounds stay one story (issue 34, step 7). A take written
 * for a party round records it (chapters.party_id, chapters.party_round); when undo or a rewind takes
 * such chapters out of the story, their party goes back to the earliest round taken out: collecting
 * again, with that round's actions as they were sent (party_actions keeps them per round), so the
 * players can act again or the host can close it. Actions of later rounds go (those rounds have not
 * happened now), and no member has seen further than the story's latest chapter.
 *
 * Returning to a branch puts its rounds back the same way forward: their party moves on to the round
 * after the latest one restored (collecting; by post with a full turn's time for whoever's turn it is).
 *
 * Runs inside the undo's or rewind's transaction, with the story character locked, after the takes
 * were taken back (their companions' party stats with them: take-effects.ts). The party row is locked
 * here; a round being written refuses the change (its chapter is not in the story yet).
 */
import type { EntityManager } from 'typeorm';
import { AppError } from '../../../common/app-error';
import type { Chapter } from '../chapter.entity';

/** Refuses while a party of this story is writing a round's chapter (the story gate covers the chapter itself). */
export async function refuseWhilePartyWriting(m: EntityManager, characterId: string): Promise<void> {
  const rows = (await m.query(`SELECT 1 FROM parties WHERE story_character_id = $1 AND status = 'open' AND round_state = 'writing'`, [
    characterId,
  ])) as unknown[];
  if (rows.length > 0) throw new AppError('CONFLICT', "The party's round is being written; wait for its chapter to finish.", { reason: 'party_writing' });
}

/** Rolls the parties of `removed` takes back to their earliest removed round; clamps what members have seen to `latestLeft`. */
export async function rollBackPartyRounds(m: EntityManager, characterId: string, removed: readonly Chapter[], latestLeft: number): Promise<void> {
  const earliest = new Map<string, number>();
  for (const t of removed) {
    if (!t.partyId || t.partyRound === null) continue;
    earliest.set(t.partyId, Math.min(earliest.get(t.partyId) ?? t.partyRound, t.partyRound));
  }
  for (const [partyId, round] of earliest) {
    const [p] = (await m.query(`SELECT round, round_state, status FROM parties WHERE id = $1 FOR UPDATE`, [partyId])) as Array<{
      round: number;
      round_state: string;
      status: string;
    }>;
    // An ended party keeps its last round (nobody plays it again); a missing one is gone with its rounds.
    if (!p || p.status !== 'open' || p.round < round) continue;
    if (p.round_state === 'writing') {
      throw new AppError('CONFLICT', "The party's round is being written; wait for its chapter to finish.", { reason: 'party_writing' });
    }
    await m.query(`DELETE FROM party_actions WHERE party_id = $1 AND round > $2`, [partyId, round]);
    // By post, the turn is again the player's who took it (if they are still in the party), with a full turn's time;
    // live, the round's timer starts again with its next action.
    await m.query(
      `UPDATE parties SET round = $2, round_state = 'collecting', writing_since = NULL, last_error = NULL, updated_at = now(),
              turn_user_id = CASE WHEN mode = 'post'
                THEN COALESCE((SELECT a.user_id FROM party_actions a JOIN party_members pm ON pm.party_id = a.party_id AND pm.user_id = a.user_id
                                WHERE a.party_id = $1 AND a.round = $2 ORDER BY a.updated_at LIMIT 1), turn_user_id)
                ELSE turn_user_id END,
              deadline_at = CASE WHEN mode = 'post' THEN now() + turn_seconds * interval '1 second' END
        WHERE id = $1`,
      [partyId, round],
    );
  }
  await m.query(
    `UPDATE party_members SET seen_through_index = $2
      WHERE seen_through_index > $2 AND party_id IN (SELECT id FROM parties WHERE story_character_id = $1)`,
    [characterId, latestLeft],
  );
}

/** Moves the parties of `restored` takes (a branch returned to) on past their latest restored round. */
export async function advancePartyRounds(m: EntityManager, restored: readonly Chapter[]): Promise<void> {
  const latest = new Map<string, number>();
  for (const t of restored) {
    if (!t.partyId || t.partyRound === null) continue;
    latest.set(t.partyId, Math.max(latest.get(t.partyId) ?? t.partyRound, t.partyRound));
  }
  for (const [partyId, round] of latest) {
    const [p] = (await m.query(`SELECT round, round_state, status FROM parties WHERE id = $1 FOR UPDATE`, [partyId])) as Array<{
      round: number;
      round_state: string;
      status: string;
    }>;
    if (!p || p.status !== 'open' || p.round > round) continue;
    if (p.round_state === 'writing') {
      throw new AppError('CONFLICT', "The party's round is being written; wait for its chapter to finish.", { reason: 'party_writing' });
    }
    await m.query(`DELETE FROM party_actions WHERE party_id = $1 AND round > $2`, [partyId, round]);
    await m.query(
      `UPDATE parties SET round = $2, round_state = 'collecting', writing_since = NULL, last_error = NULL, updated_at = now(),
              deadline_at = CASE WHEN mode = 'post' THEN now() + turn_seconds * interval '1 second' END
        WHERE id = $1`,
      [partyId, round + 1],
    );
  }
}
