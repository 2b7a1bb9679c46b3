/**
 * Rewinding a story to an earlier chapter, and returning to what was set aside.
 *
 * A rewind takes the chapters after the chosen one back, latest first, exactly as an undo does
 * (unapplyTake: stats, setting, missions, story cards), and keeps their rows — every take — in a
 * branch (StoryBranch). Returning to a branch first sets the chapters now after its chapter aside in
 * the same way (nothing is ever dropped), then puts the branch's rows back under their own ids and
 * re-applies their selected takes in order (applyTake), which recreates their missions under their
 * original ids and writes card states only over the revisions they expect — so a card the player
 * edited meanwhile keeps the player's text.
 *
 * All under the character's lock, refused while a chapter is being written.
 */
import { MoreThan, type DataSource, type EntityManager } from 'typeorm';
import { AppError } from '../../../common/app-error';
import type { Character } from '../../characters/character.entity';
import { findOwnedCharacter } from '../../characters/owned-character';
import { isUuid } from '../../shared/input';
import { Chapter } from '../chapter.entity';
import type { GenerationRegistry } from '../generation/generation-registry';
import { StoryBranch } from './story-branch.entity';
import { applyTake, unapplyTake } from '../state/take-effects';
import { advancePartyRounds, refuseWhilePartyWriting, rollBackPartyRounds } from '../state/party-rounds';
import { latestSelectedIndex, lockCharacter, refuseWhileGenerating } from '../story.store';

/** Branches kept per story; beyond it the player deletes one before rewinding again (nothing goes silently). */
const BRANCHES_MAX = 30;
const PREVIEW_CHARS = 160;

export class StoryBranchService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly registry: GenerationRegistry,
  ) {}

  /**
   * Makes chapter `rawIndex` (0-based) the latest again: the chapters after it become a branch.
   * Returns the character as it is now.
   */
  async rewind(userId: string, characterId: unknown, rawIndex: unknown): Promise<Character> {
    const character = await findOwnedCharacter(this.dataSource, userId, characterId);
    if (typeof rawIndex !== 'number' || !Number.isInteger(rawIndex) || rawIndex < 0) {
      throw AppError.badInput('Choose a chapter to rewind to.', 'chapterIndex');
    }
    this.registry.forgetRecent(character.id);
    await this.dataSource.transaction(async (m) => {
      const locked = await lockCharacter(m, character.id);
      await refuseWhileGenerating(m, character.id);
      const latest = await latestSelectedIndex(m, character.id);
      if (rawIndex >= latest) throw AppError.badInput('Choose an earlier chapter to rewind to.', 'chapterIndex');
      const count = await m.getRepository(StoryBranch).count({ where: { characterId: character.id } });
      if (count >= BRANCHES_MAX) {
        throw AppError.badInput(`This story already keeps ${BRANCHES_MAX} branches; delete one before rewinding again.`, 'chapterIndex');
      }
      await setAside(m, locked, rawIndex);
    });
    return findOwnedCharacter(this.dataSource, userId, character.id);
  }

  /**
   * Returns to a branch: the chapters now after its chapter become a branch of their own, and the
   * branch's chapters are the story again. Returns the character as it is now.
   */
  async restore(userId: string, characterId: unknown, branchId: unknown): Promise<Character> {
    const character = await findOwnedCharacter(this.dataSource, userId, characterId);
    if (!isUuid(branchId)) throw AppError.notFound('Branch');
    this.registry.forgetRecent(character.id);
    await this.dataSource.transaction(async (m) => {
      const locked = await lockCharacter(m, character.id);
      await refuseWhileGenerating(m, character.id);
      const branch = await m.getRepository(StoryBranch).findOne({ where: { id: branchId, characterId: character.id } });
      if (!branch) throw AppError.notFound('Branch');
      const from = await m.getRepository(Chapter).findOne({ where: { id: branch.fromChapterId, characterId: character.id } });
      if (!from?.isSelected || from.status !== 'complete') {
        throw AppError.badInput(
          `This branch continues another version of chapter ${branch.fromIndex + 1}; choose that take (or return to the branch that holds it) first.`,
          'branchId',
        );
      }
      const latest = await latestSelectedIndex(m, character.id);
      if (latest > branch.fromIndex) await setAside(m, locked, branch.fromIndex);
      else await m.query(`DELETE FROM chapters WHERE character_id = $1 AND status = 'failed'`, [character.id]);
      // The rows as they were, under their own ids (branches that grow from them become returnable again).
      await m.query(`INSERT INTO chapters SELECT * FROM jsonb_populate_recordset(NULL::chapters, $1::jsonb)`, [JSON.stringify(branch.chapters)]);
      const restored = await m.getRepository(Chapter).find({
        where: { characterId: character.id, isSelected: true, index: MoreThan(branch.fromIndex) },
        order: { index: 'ASC' },
      });
      for (const take of restored) await applyTake(m, take);
      // Party rounds' chapters: their party moves on past the latest one restored (state/party-rounds.ts).
      await advancePartyRounds(m, restored);
      await m.delete(StoryBranch, { id: branch.id });
    });
    return findOwnedCharacter(this.dataSource, userId, character.id);
  }

  /** Deletes a branch for good. */
  async remove(userId: string, characterId: unknown, branchId: unknown): Promise<boolean> {
    const character = await findOwnedCharacter(this.dataSource, userId, characterId);
    if (!isUuid(branchId)) throw AppError.notFound('Branch');
    const r = await this.dataSource.getRepository(StoryBranch).delete({ id: branchId, characterId: character.id });
    if (!r.affected) throw AppError.notFound('Branch');
    return true;
  }
}

/**
 * Takes every chapter after `index` back (latest first) and keeps their rows as a branch. Inside the
 * caller's transaction, with the character locked.
 */
async function setAside(m: EntityManager, character: Character, index: number): Promise<void> {
  const repo = m.getRepository(Chapter);
  // Latest first: each take is taken back over the state it left.
  const selected = await repo.find({ where: { characterId: character.id, isSelected: true, index: MoreThan(index) }, order: { index: 'DESC' } });
  for (const take of selected) await unapplyTake(m, take);
  // Party rounds' chapters: their party goes back to the earliest round set aside (state/party-rounds.ts).
  await refuseWhilePartyWriting(m, character.id);
  await rollBackPartyRounds(m, character.id, selected, index);
  const from = await repo.findOneByOrFail({ characterId: character.id, index, isSelected: true });
  // The rows go from table to branch inside the database (never decoded here).
  await m.query(
    `INSERT INTO story_branches (character_id, from_chapter_id, from_index, chapters, chapter_count, first_action, preview)
     SELECT $1, $3, $2, COALESCE(jsonb_agg(to_jsonb(c) ORDER BY c."index", c.take), '[]'::jsonb), $4, $5, $6
       FROM chapters c WHERE c.character_id = $1 AND c."index" > $2 AND c.status = 'complete'`,
    [character.id, index, from.id, selected.length, selected[selected.length - 1]?.playerChoice ?? null, (selected[0]?.text ?? '').slice(0, PREVIEW_CHARS)],
  );
  await m.query(`DELETE FROM chapters WHERE character_id = $1 AND ("index" > $2 OR status = 'failed')`, [character.id, index]);
  // A summary that covered the set-aside chapters no longer describes the story: rebuild it lazily.
  if (character.summaryThroughIndex > index) {
    await m.query(`UPDATE characters SET story_summary = '', summary_through_index = -1 WHERE id = $1`, [character.id]);
  }
}
