/**
 * Story memory the player keeps (like AI Dungeon's plot essentials and author's note): plot
 * essentials go into every chapter prompt, the author's note right before the action, and the rolling
 * summary the engine folds is theirs to read and correct, and the narration's point of view is theirs
 * to choose, as is how hard the story is on the hero (difficulty). Owner only; written under the story lock.
 */
import type { DataSource } from 'typeorm';
import { DIFFICULTIES, POINTS_OF_VIEW, type Difficulty, type PointOfView } from '../../../ai/story-ai';
import { isDifficulty } from '../stakes/checks';
import { AppError } from '../../../common/app-error';
import { Character } from '../../characters/character.entity';
import { findOwnedCharacter } from '../../characters/owned-character';
import { object, text } from '../../shared/input';
import { AUTHORS_NOTE_MAX, PLOT_ESSENTIALS_MAX, STORY_SUMMARY_MAX } from '../../shared/limits';
import { lockCharacter } from '../story.store';

export interface StoryMemoryView {
  plotEssentials: string;
  authorsNote: string;
  summary: string;
  /** How many chapters (from the first) the summary covers. */
  summaryCoversChapters: number;
  pointOfView: PointOfView;
  /** How hard the story is on the hero (stakes/checks.ts DIFFICULTY_RULES); the next roll uses it. */
  difficulty: Difficulty;
}

export function storyMemoryOf(c: Character): StoryMemoryView {
  return {
    plotEssentials: c.plotEssentials,
    authorsNote: c.authorsNote,
    summary: c.storySummary,
    summaryCoversChapters: c.summaryThroughIndex + 1,
    pointOfView: c.pointOfView,
    difficulty: c.difficulty,
  };
}

export class StoryMemoryService {
  constructor(private readonly dataSource: DataSource) {}

  /** Changes the fields given (a field left out keeps its value; "" clears it). */
  async update(userId: string, characterId: unknown, raw: unknown): Promise<StoryMemoryView> {
    const character = await findOwnedCharacter(this.dataSource, userId, characterId);
    const input = object(raw, 'input');
    const changes: Partial<Pick<Character, 'plotEssentials' | 'authorsNote' | 'storySummary' | 'pointOfView' | 'difficulty'>> = {};
    if (input.plotEssentials !== undefined) changes.plotEssentials = text(input.plotEssentials, 'plotEssentials', { max: PLOT_ESSENTIALS_MAX });
    if (input.authorsNote !== undefined) changes.authorsNote = text(input.authorsNote, 'authorsNote', { max: AUTHORS_NOTE_MAX });
    if (input.summary !== undefined) changes.storySummary = text(input.summary, 'summary', { max: STORY_SUMMARY_MAX });
    if (input.pointOfView !== undefined) {
      if (!(POINTS_OF_VIEW as readonly unknown[]).includes(input.pointOfView)) {
        throw AppError.badInput(`pointOfView must be one of ${POINTS_OF_VIEW.join(', ')}.`, 'pointOfView');
      }
      changes.pointOfView = input.pointOfView as PointOfView;
    }
    if (input.difficulty !== undefined) {
      if (!isDifficulty(input.difficulty)) throw AppError.badInput(`difficulty must be one of ${DIFFICULTIES.join(', ')}.`, 'difficulty');
      changes.difficulty = input.difficulty;
    }
    if (Object.keys(changes).length === 0) return storyMemoryOf(character);
    const updated = await this.dataSource.transaction(async (m) => {
      await lockCharacter(m, character.id);
      await m.getRepository(Character).update({ id: character.id }, changes);
      return findOwnedCharacter(m, userId, character.id);
    });
    return storyMemoryOf(updated);
  }
}
