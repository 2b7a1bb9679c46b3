/**
 * Changing a story after the fact: choosing another take of the latest chapter, and undoing the
 * latest chapter. Both restore stats, setting and missions exactly (story-state.ts), under the
 * character's lock, and are refused while a chapter is being written.
 */
import type { DataSource } from 'typeorm';
import { AppError } from '../../common/app-error';
import type { Character } from '../characters/character.entity';
import { findOwnedCharacter } from '../characters/owned-character';
import { Chapter } from './chapter.entity';
import { outcomeOf, type ChapterOutcome } from './chapter-outcome';
import type { GenerationRegistry } from './generation-registry';
import { parseTake } from './story-input';
import { applyTake, unapplyTake } from './story-state';
import { latestSelectedIndex, lockCharacter, refuseWhileGenerating } from './story.store';

export class StoryEditing {
  constructor(
    private readonly dataSource: DataSource,
    private readonly registry: GenerationRegistry,
  ) {}

  /** Makes another take of the latest chapter the chosen one; stats and missions follow it exactly. */
  async selectTake(userId: string, characterId: unknown, rawTake: unknown): Promise<ChapterOutcome> {
    const character = await findOwnedCharacter(this.dataSource, userId, characterId);
    this.registry.forgetRecent(character.id);
    const take = parseTake(rawTake);
    const chapter = await this.dataSource.transaction(async (m) => {
      await lockCharacter(m, character.id);
      await refuseWhileGenerating(m, character.id);
      const index = await latestSelectedIndex(m, character.id);
      const repo = m.getRepository(Chapter);
      const chosen = await repo.findOne({ where: { characterId: character.id, index, take, status: 'complete' } });
      if (index < 0 || !chosen) throw AppError.notFound('Chapter take');
      if (chosen.isSelected) return chosen;
      const current = await repo.findOneByOrFail({ characterId: character.id, index, isSelected: true });
      await unapplyTake(m, current);
      await repo.update({ id: current.id }, { isSelected: false });
      await applyTake(m, chosen);
      await repo.update({ id: chosen.id }, { isSelected: true });
      return repo.findOneByOrFail({ id: chosen.id });
    });
    return outcomeOf(chapter);
  }

  /**
   * Removes the latest chapter (all its takes), restoring stats, setting and missions exactly as they
   * were before it. Returns the character as it is now.
   */
  async undoLastChapter(userId: string, characterId: unknown): Promise<Character> {
    const character = await findOwnedCharacter(this.dataSource, userId, characterId);
    this.registry.forgetRecent(character.id);
    await this.dataSource.transaction(async (m) => {
      const ch = await lockCharacter(m, character.id);
      await refuseWhileGenerating(m, character.id);
      const index = await latestSelectedIndex(m, character.id);
      if (index < 0) throw AppError.badInput('There is no chapter to undo.', 'characterId');
      const latest = await m.getRepository(Chapter).findOneByOrFail({ characterId: character.id, index, isSelected: true });
      await unapplyTake(m, latest);
      await m.query(`DELETE FROM chapters WHERE character_id = $1 AND ("index" >= $2 OR status = 'failed')`, [character.id, index]);
      // A summary that covered the removed chapter no longer describes the story: rebuild it lazily.
      if (ch.summaryThroughIndex >= index) {
        await m.query(`UPDATE characters SET story_summary = '', summary_through_index = -1 WHERE id = $1`, [character.id]);
      }
    });
    return findOwnedCharacter(this.dataSource, userId, character.id);
  }
}
