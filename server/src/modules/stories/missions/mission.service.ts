/** Missions (SPEC §4, get-new-mission, update-mission, update-mission-history). */
import type { DataSource } from 'typeorm';
import type { StoryAI } from '../../../ai/story-ai';
import { AppError } from '../../../common/app-error';
import type { Logger } from '../../../common/logger';
import { findOwnedCharacter } from '../../characters/owned-character';
import { object, text } from '../../shared/input';
import { WORLD_DESCRIPTION_MAX } from '../../shared/limits';
import { Mission } from './mission.entity';
import type { StoryGate } from '../generation/story-gate';
import { MISSION_HISTORY_MAX, OBJECTIVE_MAX, missionText } from '../story-input';
import { lockCharacter, type StoryStore } from '../story.store';

export class MissionService {
  private readonly dataSource: DataSource;

  constructor(
    private readonly store: StoryStore,
    private readonly gate: StoryGate,
    private readonly ai: StoryAI,
    private readonly log: Logger,
  ) {
    this.dataSource = store.dataSource;
  }

  /** SPEC get-new-mission: an objective suggestion (not stored). */
  async suggest(userId: string, raw: Record<string, unknown>): Promise<{ objective: string }> {
    const worldDescription = text(raw.worldDescription, 'worldDescription', { required: 'No world description available', max: WORLD_DESCRIPTION_MAX });
    const personality = text(raw.userPersonality, 'userPersonality', { max: 4000 });
    const previousMission = missionText(raw.previousMission);
    await this.gate.pass(userId, 'mission');
    try {
      return await this.ai.generateMission({ worldDescription, character: { name: 'the hero', description: personality || undefined }, previousMission });
    } catch (e) {
      this.log.warn('mission suggestion failed', { err: e });
      throw new AppError('GENERATION_FAILED', 'Failed to generate a mission.');
    }
  }

  /** SPEC update-mission: edits the current mission's objective (starting one when there is none). */
  async update(userId: string, characterId: unknown, updated: unknown): Promise<{ mission: Mission; history: Mission[] }> {
    const character = await findOwnedCharacter(this.dataSource, userId, characterId);
    const raw = updated !== null && typeof updated === 'object' && !Array.isArray(updated) ? (updated as Record<string, unknown>).objective : updated;
    const objective = text(raw, 'updatedMission', { required: 'The mission objective cannot be empty.', max: OBJECTIVE_MAX });
    const mission = await this.dataSource.transaction(async (m) => {
      await lockCharacter(m, character.id);
      const repo = m.getRepository(Mission);
      const active = await repo.findOne({ where: { characterId: character.id, status: 'active' } });
      if (active) {
        await repo.update({ id: active.id }, { objective });
        return repo.findOneByOrFail({ id: active.id });
      }
      // It starts with the next chapter: the storyteller paces a mission by its age in chapters.
      const [{ next }] = (await m.query(`SELECT COALESCE(MAX("index"), -1) + 1 AS next FROM chapters WHERE character_id = $1 AND is_selected`, [
        character.id,
      ])) as Array<{ next: number }>;
      return repo.save(repo.create({ characterId: character.id, objective, startedAt: new Date(), status: 'active', startedAtChapter: Number(next) }));
    });
    return { mission, history: await this.store.missionHistory(character.id) };
  }

  /**
   * SPEC update-mission-history: the player's list replaces the stored one. Entries matching a stored
   * mission (same objective and start time) keep its identity and chapter links, so undo still works.
   */
  async replaceHistory(userId: string, characterId: unknown, list: unknown): Promise<Mission[]> {
    const character = await findOwnedCharacter(this.dataSource, userId, characterId);
    const items = parseHistory(list);
    await this.dataSource.transaction(async (m) => {
      await lockCharacter(m, character.id);
      const repo = m.getRepository(Mission);
      const existing = await repo.find({ where: { characterId: character.id } });
      const keep = new Set<string>();
      const updates: Array<{ id: string; status: Mission['status'] }> = [];
      const inserts: typeof items = [];
      for (const item of items) {
        const match = existing.find((e) => !keep.has(e.id) && e.objective === item.objective && e.startedAt.getTime() === item.startedAt.getTime());
        if (match) {
          keep.add(match.id);
          if (match.status !== item.status) updates.push({ id: match.id, status: item.status });
        } else inserts.push(item);
      }
      const drop = existing.filter((e) => !keep.has(e.id)).map((e) => e.id);
      if (drop.length > 0) await m.query(`DELETE FROM missions WHERE id = ANY($1::uuid[])`, [drop]);
      // Completions first, so the one-active index never sees two active missions.
      for (const u of updates.sort((a) => (a.status === 'completed' ? -1 : 1))) {
        await repo.update(
          { id: u.id },
          u.status === 'completed' ? { status: 'completed', completedAt: new Date() } : { status: 'active', completedAt: null, completedAtChapter: null },
        );
      }
      for (const item of inserts) {
        await repo.insert({ characterId: character.id, ...item, completedAt: item.status === 'completed' ? new Date() : null });
      }
    });
    return this.store.missionHistory(character.id);
  }
}

function parseHistory(list: unknown): Array<{ objective: string; status: Mission['status']; startedAt: Date }> {
  if (!Array.isArray(list)) throw AppError.badInput('missionHistory must be a list.', 'missionHistory');
  if (list.length > MISSION_HISTORY_MAX) throw AppError.badInput(`missionHistory may have at most ${MISSION_HISTORY_MAX} entries.`, 'missionHistory');
  const items = list.map((v, i) => {
    const o = object(v, `missionHistory[${i}]`);
    const objective = text(o.objective, 'missionHistory.objective', { required: 'Every mission needs an objective.', max: OBJECTIVE_MAX });
    const status = o.status ?? 'active';
    if (status !== 'active' && status !== 'completed') throw AppError.badInput('status must be active or completed.', 'missionHistory.status');
    const startedAt = o.startedAt === undefined || o.startedAt === null ? new Date() : new Date(String(o.startedAt));
    if (Number.isNaN(startedAt.getTime())) throw AppError.badInput('startedAt must be an ISO time.', 'missionHistory.startedAt');
    return { objective, status: status as Mission['status'], startedAt };
  });
  if (items.filter((x) => x.status === 'active').length > 1) throw AppError.badInput('Only one mission can be active.', 'missionHistory');
  return items;
}
