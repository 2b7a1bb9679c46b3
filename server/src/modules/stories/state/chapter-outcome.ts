import { Chapter, type MissionSnapshot } from '../chapter.entity';
import { Mission } from '../missions/mission.entity';

/** What a committed chapter did: the fields of SPEC §7 generate-chapter, from the stored take. */
export interface ChapterOutcome {
  chapter: Chapter;
  updatedStats: Record<string, number>;
  newIncreases: Record<string, number>;
  newSettingGenerated: boolean;
  settingText: string | null;
  /** The mission this chapter started (its pre-mission or the next one), null when none. */
  newMission: Mission | null;
  missionCompleted: boolean;
}

/** Outcome fields from the stored take, so every reader (local, remote, late) sees the same answer. */
export function outcomeOf(c: Chapter): ChapterOutcome {
  const e = c.missionEffects ?? {};
  const started: MissionSnapshot | undefined = e.newMission ?? (e.preMission && e.completedMissionId !== e.preMission.id ? e.preMission : undefined);
  let newMission: Mission | null = null;
  if (started) {
    newMission = Object.assign(new Mission(), {
      id: started.id,
      characterId: c.characterId,
      objective: started.objective,
      startedAt: new Date(started.startedAt),
      status: 'active' as const,
      completedAt: null,
      startedAtChapter: c.index,
      completedAtChapter: null,
    });
  }
  return {
    chapter: c,
    updatedStats: c.statsAfter,
    newIncreases: c.statIncreases,
    newSettingGenerated: c.setting !== null && c.setting !== c.settingBefore,
    settingText: c.setting,
    newMission,
    missionCompleted: Boolean(e.completedMissionId),
  };
}
