/**
 * How a chapter take changes a character, written so that every change can be taken back exactly.
 *
 * A take records the state before it (`statsBefore`, `settingBefore`, health in `stakes`) and what it did to missions
 * (`missionEffects`, with the ids and times of missions it created). Only the selected take of the
 * latest chapter is ever "unapplied" (undo, switching takes), so restoring is: put the before-state
 * back, delete the missions it created, reactivate the one it completed. Re-selecting a take applies
 * its recorded effects verbatim, recreating its missions under their original ids and times.
 *
 * Every function here runs inside the caller's transaction, with the character row locked.
 */
import { randomUUID } from 'node:crypto';
import type { EntityManager } from 'typeorm';
import { STAT_MAX } from '../../../ai/story-ai';
import type { Chapter, MissionEffects, MissionSnapshot } from '../chapter.entity';
import { Mission } from '../missions/mission.entity';
import { applyCardEffects } from '../memory/story-cards';

/**
 * Applies the model's stat increases to the stats the character actually has (matched without case),
 * capped at STAT_MAX; a stat already above the cap (hand-made characters) never goes down. Returns the
 * new stats and the increases that really happened — what the stats panel shows as +N.
 */
export function raiseStats(
  before: Record<string, number>,
  increases: Record<string, number | undefined>,
): { after: Record<string, number>; applied: Record<string, number> } {
  const after = { ...before };
  const applied: Record<string, number> = {};
  const keys = Object.keys(before);
  for (const [name, inc] of Object.entries(increases)) {
    if (!inc || inc <= 0) continue;
    const key = keys.find((k) => k.toLowerCase() === name.toLowerCase());
    if (key === undefined) continue; // a stat the character does not have: not invented mid-story
    const old = after[key] ?? 0;
    const next = Math.max(old, Math.min(STAT_MAX, old + inc));
    if (next > old) {
      after[key] = next;
      applied[key] = next - old;
    }
  }
  return { after, applied };
}

export async function activeMission(m: EntityManager, characterId: string): Promise<Mission | null> {
  return m.getRepository(Mission).findOne({ where: { characterId, status: 'active' }, lock: { mode: 'pessimistic_write' } });
}

/**
 * Decides a new take's mission effects from the model's answer and the current mission state.
 * SPEC §4: a chapter that brings a new mission while one exists completes the current one.
 */
export function decideMissionEffects(
  active: Pick<Mission, 'id'> | null,
  preObjective: string | null,
  result: { missionCompleted: boolean; newMission: string | null },
  now: Date,
): MissionEffects {
  const effects: MissionEffects = {};
  let current: string | null = active?.id ?? null;
  if (!current && preObjective) {
    effects.preMission = snapshot(preObjective, now);
    current = effects.preMission.id;
  }
  if (current && (result.missionCompleted || result.newMission)) {
    effects.completedMissionId = current;
    effects.completedAt = now.toISOString();
    current = null;
  }
  if (!current && result.newMission) effects.newMission = snapshot(result.newMission, now);
  return effects;
}

function snapshot(objective: string, at: Date): MissionSnapshot {
  return { id: randomUUID(), objective, startedAt: at.toISOString() };
}

/** Writes a take's recorded mission effects. Tolerates missions the player edited away meanwhile. */
async function applyMissionEffects(m: EntityManager, characterId: string, index: number, effects: MissionEffects): Promise<void> {
  const repo = m.getRepository(Mission);
  const insert = async (s: MissionSnapshot) => {
    // update-mission-history may have installed another active mission since: never two active.
    if (await repo.exists({ where: { characterId, status: 'active' } })) return;
    await repo.insert({ id: s.id, characterId, objective: s.objective, startedAt: new Date(s.startedAt), status: 'active', startedAtChapter: index });
  };
  if (effects.preMission) await insert(effects.preMission);
  if (effects.completedMissionId) {
    await repo.update(
      { id: effects.completedMissionId, characterId, status: 'active' },
      { status: 'completed', completedAt: new Date(effects.completedAt ?? Date.now()), completedAtChapter: index },
    );
  }
  if (effects.newMission) await insert(effects.newMission);
}

/** Takes a selected take's effects back: missions it created go, the one it completed is active again. */
export async function unapplyTake(m: EntityManager, take: Chapter): Promise<void> {
  const e = take.missionEffects ?? {};
  const created = [e.preMission?.id, e.newMission?.id].filter((id): id is string => Boolean(id));
  const repo = m.getRepository(Mission);
  if (created.length > 0) await m.query(`DELETE FROM missions WHERE character_id = $1 AND id = ANY($2::uuid[])`, [take.characterId, created]);
  if (e.completedMissionId && !created.includes(e.completedMissionId)) {
    await repo.update(
      { id: e.completedMissionId, characterId: take.characterId, status: 'completed' },
      { status: 'active', completedAt: null, completedAtChapter: null },
    );
  }
  await m.query(`UPDATE characters SET stats = $2, current_setting = $3 WHERE id = $1`, [
    take.characterId,
    JSON.stringify(take.statsBefore),
    take.settingBefore,
  ]);
  await applyCardEffects(m, take.characterId, take.cardEffects ?? [], 'backward');
  await setPartyStats(m, take, 'statsBefore');
  // Health as it was before the take (takes recorded before stakes left it alone).
  if (take.stakes) {
    await m.query(`UPDATE characters SET health = $2, health_max = $3 WHERE id = $1`, [
      take.characterId,
      take.stakes.healthBefore,
      take.stakes.healthMaxBefore,
    ]);
  }
}

/** Re-applies a complete take recorded earlier (switching back to it): its exact after-state. */
export async function applyTake(m: EntityManager, take: Chapter): Promise<void> {
  await applyMissionEffects(m, take.characterId, take.index, take.missionEffects ?? {});
  await applyCardEffects(m, take.characterId, take.cardEffects ?? [], 'forward');
  await m.query(`UPDATE characters SET stats = $2, current_setting = $3 WHERE id = $1`, [take.characterId, JSON.stringify(take.statsAfter), take.setting]);
  await setPartyStats(m, take, 'statsAfter');
  if (take.stakes) {
    await m.query(`UPDATE characters SET health = $2, health_max = $3 WHERE id = $1`, [take.characterId, take.stakes.healthAfter, take.stakes.healthMaxAfter]);
  }
}

/**
 * A party round's take: the companions' party stats as they were before it, or after it. A member who
 * has left since has no row to write (their stats went with it).
 */
async function setPartyStats(m: EntityManager, take: Chapter, which: 'statsBefore' | 'statsAfter'): Promise<void> {
  if (!take.partyId) return;
  for (const c of take.partyChecks ?? []) {
    await m.query(`UPDATE party_members SET stats = $3::jsonb WHERE party_id = $1 AND user_id = $2`, [take.partyId, c.userId, JSON.stringify(c[which])]);
  }
}

/**
 * The objective that was current just before `take` (for regenerating it): its pre-mission did not
 * exist yet, the mission it completed was still running, and a mission it started was not there.
 */
export async function missionBeforeTake(m: EntityManager, take: Chapter): Promise<string | null> {
  const e = take.missionEffects ?? {};
  if (e.preMission) return null;
  if (e.completedMissionId) {
    const row = await m.getRepository(Mission).findOne({ where: { id: e.completedMissionId } });
    return row?.objective ?? null;
  }
  const active = await m.getRepository(Mission).findOne({ where: { characterId: take.characterId, status: 'active' } });
  if (!active || active.id === e.newMission?.id) return null;
  return active.objective;
}
