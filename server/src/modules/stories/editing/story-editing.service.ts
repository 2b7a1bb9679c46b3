/**
 * Changing a story after the fact: choosing another take of the latest chapter, undoing the latest
 * chapter (both restore stats, setting, missions and story cards exactly, state/take-effects.ts), and
 * rewriting the latest chapter's text or any earlier action of the player. All under the
 * character's lock, and refused while a chapter is being written.
 */
import type { DataSource } from 'typeorm';
import { AppError } from '../../../common/app-error';
import type { Character } from '../../characters/character.entity';
import { findOwnedCharacter } from '../../characters/owned-character';
import { Chapter } from '../chapter.entity';
import { outcomeOf, type ChapterOutcome } from '../state/chapter-outcome';
import type { GenerationRegistry } from '../generation/generation-registry';
import { ACTION_MAX, CHAPTER_TEXT_MAX } from '../../shared/limits';
import { isUuid, object, text } from '../../shared/input';
import { parseTake } from '../story-input';
import { applyTake, unapplyTake } from '../state/take-effects';
import { refuseWhilePartyWriting, rollBackPartyRounds } from '../state/party-rounds';
import { latestSelectedIndex, lockCharacter, refuseWhileGenerating } from '../story.store';

export class StoryEditingService {
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
      // A party round's chapter: its party goes back to that round (state/party-rounds.ts).
      await refuseWhilePartyWriting(m, character.id);
      await rollBackPartyRounds(m, character.id, [latest], index - 1);
      // Branches that continued the removed chapter have nothing left to continue.
      await m.query(
        `DELETE FROM story_branches WHERE character_id = $1 AND from_chapter_id IN (SELECT id FROM chapters WHERE character_id = $1 AND "index" >= $2)`,
        [character.id, index],
      );
      await m.query(`DELETE FROM chapters WHERE character_id = $1 AND ("index" >= $2 OR status = 'failed')`, [character.id, index]);
      // A summary that covered the removed chapter no longer describes the story: rebuild it lazily.
      if (ch.summaryThroughIndex >= index) {
        await m.query(`UPDATE characters SET story_summary = '', summary_through_index = -1 WHERE id = $1`, [character.id]);
      }
    });
    return findOwnedCharacter(this.dataSource, userId, character.id);
  }

  /**
   * Rewrites the latest chapter's text and/or the action that led to any chapter. The edit is the
   * story from then on: the next chapters are written from it (verbatim chapters and the action in
   * the prompt come from the stored rows), and exports mark it. A rolling summary that already
   * covers an edited action is left as it is (the player can correct it in Story Memory).
   */
  async editChapter(userId: string, characterId: unknown, chapterId: unknown, raw: unknown): Promise<Chapter> {
    const character = await findOwnedCharacter(this.dataSource, userId, characterId);
    if (!isUuid(chapterId)) throw AppError.notFound('Chapter');
    const input = object(raw, 'input');
    const newText =
      input.text === undefined || input.text === null
        ? null
        : plainChapterText(text(input.text, 'text', { required: 'The chapter text cannot be empty.', max: CHAPTER_TEXT_MAX }));
    const newChoice =
      input.playerChoice === undefined || input.playerChoice === null
        ? null
        : text(input.playerChoice, 'playerChoice', { required: 'The action cannot be empty.', max: ACTION_MAX });
    if (newText === null && newChoice === null) throw AppError.badInput('Nothing to change: give text or playerChoice.', 'input');
    this.registry.forgetRecent(character.id);
    return this.dataSource.transaction(async (m) => {
      await lockCharacter(m, character.id);
      await refuseWhileGenerating(m, character.id);
      const repo = m.getRepository(Chapter);
      const chapter = await repo.findOne({ where: { id: chapterId, characterId: character.id, isSelected: true, status: 'complete' } });
      if (!chapter) throw AppError.notFound('Chapter');
      const now = new Date();
      const changes: Partial<Chapter> = {};
      if (newText !== null && newText !== chapter.text) {
        if (chapter.index !== (await latestSelectedIndex(m, character.id))) {
          throw AppError.badInput("Only the latest chapter's text can be rewritten.", 'text');
        }
        Object.assign(changes, { text: newText, textEditedAt: now });
      }
      if (newChoice !== null && newChoice !== chapter.playerChoice) {
        if (chapter.playerChoice === null) throw AppError.badInput('The opening chapter has no action to rewrite.', 'playerChoice');
        Object.assign(changes, { playerChoice: newChoice, choiceEditedAt: now });
      }
      if (Object.keys(changes).length > 0) await repo.update({ id: chapter.id }, changes);
      // Its readings aloud were of the old text and can never be asked for again: they go now (their
      // MP3s with them, by the chapter_audio trigger), not when the chapter is next read.
      if (changes.text !== undefined) await m.query(`DELETE FROM chapter_audio WHERE chapter_id = $1`, [chapter.id]);
      return repo.findOneByOrFail({ id: chapter.id });
    });
  }
}

/** Chapter text is shown as text: angle brackets (refused in other fields) become ‹ › like a model's. */
function plainChapterText(s: string): string {
  return s.replace(/</g, '‹').replace(/>/g, '›').replace(/\r\n?/g, '\n');
}
