import { WORLD_DESCRIPTION_MAX } from '../../lib/constants';
import { MESSAGES } from '../../lib/messages';

export interface WorldDraft {
  name: string;
  description: string;
  questions: string[];
}

/** SPEC §5 new-world rules, in order; null when the draft may be submitted. */
export function validateWorld(draft: WorldDraft): string | null {
  if (!draft.name.trim()) return MESSAGES.worldNameRequired;
  if (!draft.description.trim()) return MESSAGES.worldDescriptionRequired;
  if (draft.description.length > WORLD_DESCRIPTION_MAX) return MESSAGES.worldDescriptionTooLong;
  if (!(draft.questions[0] ?? '').trim()) return MESSAGES.worldQuestionRequired;
  return null;
}

/** Blank questions are dropped on submit (SPEC §5). */
export function cleanQuestions(questions: readonly string[]): string[] {
  return questions.map((q) => q.trim()).filter((q) => q !== '');
}

/**
 * Accepting a generated description (SPEC §5): over 1200 characters it is truncated to 1200 and the
 * player is told to edit it.
 */
export function acceptGeneratedDescription(text: string): { description: string; warning: string | null } {
  if (text.length > WORLD_DESCRIPTION_MAX) {
    return { description: text.slice(0, WORLD_DESCRIPTION_MAX), warning: MESSAGES.generatedDescriptionTooLong };
  }
  return { description: text, warning: null };
}
