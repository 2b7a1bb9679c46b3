/**
 * Continue: the storyteller goes on with the latest chapter. The continued chapter becomes a new
 * take of it (the take it continues stays, to switch back to), written over the same state as that
 * take — so undo and take switches keep working exactly — whose text is the old text followed by
 * the new part, and whose outcome keeps what the continued take already did: its stat gains, its
 * setting, its mission changes and its cast, with the continuation's added on top. Its choices are
 * the continuation's (the chapter now ends elsewhere).
 */
import type { CastMember, ChapterResult } from '../../../ai/story-ai';
import { AppError } from '../../../common/app-error';
import type { Chapter } from '../chapter.entity';
import { CHAPTER_TEXT_MAX } from '../../shared/limits';

/** How much of the chapter so far the model is given: its last lines are what it continues from. */
const CONTINUE_FROM_CHARS = 1500;

/** Refuses a continue that would make the chapter longer than a chapter can be. */
export function assertContinuable(text: string): void {
  if (text.length >= CHAPTER_TEXT_MAX) throw AppError.badInput('This chapter is as long as a chapter can be; play the next one.', 'characterId');
}

/** The chapter's last lines, from a paragraph or sentence start. */
export function continueFrom(text: string): string {
  if (text.length <= CONTINUE_FROM_CHARS) return text;
  const tail = text.slice(-CONTINUE_FROM_CHARS);
  const para = tail.indexOf('\n\n');
  if (para >= 0 && para < CONTINUE_FROM_CHARS / 2) return tail.slice(para + 2);
  const sentence = tail.search(/[.!?…]["”’']?\s+\S/);
  return sentence >= 0 ? tail.slice(sentence).replace(/^[.!?…]["”’']?\s+/, '') : tail;
}

/** The separator between the chapter so far and its continuation (what readers see streamed first). */
export const CONTINUE_JOIN = '\n\n';

/**
 * The continued take's result: the continued take's effects plus the continuation's. The mission
 * effects are the continued take's when it had any (the continuation may only add a completion or a
 * new mission where it had none), so a mission never completes twice in one chapter.
 */
export function continuedResult(
  prev: Chapter,
  more: ChapterResult,
): {
  result: Pick<ChapterResult, 'text' | 'choices' | 'statIncreases' | 'newSetting' | 'missionCompleted' | 'newMission' | 'cast'>;
  preMission: string | null;
} {
  const e = prev.missionEffects ?? {};
  const statIncreases: Record<string, number> = { ...prev.statIncreases };
  for (const [k, v] of Object.entries(more.statIncreases ?? {})) if (v) statIncreases[k] = (statIncreases[k] ?? 0) + v;
  const cast = new Map<string, CastMember>();
  for (const m of [...(prev.castMembers ?? []), ...(more.cast ?? [])]) cast.set(m.name.toLowerCase(), m);
  const prevCompleted = Boolean(e.completedMissionId);
  return {
    result: {
      text: `${prev.text}${CONTINUE_JOIN}${more.text}`,
      choices: more.choices,
      statIncreases,
      newSetting: more.newSetting ?? (prev.setting !== prev.settingBefore ? prev.setting : null),
      missionCompleted: prevCompleted || (!e.newMission && more.missionCompleted),
      newMission: e.newMission?.objective ?? more.newMission,
      cast: [...cast.values()],
    },
    preMission: e.preMission?.objective ?? null,
  };
}
