import { GraphQLJSONObject } from 'graphql-scalars';
import { Field, ID, InputType, Int, ObjectType, registerEnumType } from 'type-graphql';
import type { Difficulty, MemoryKind, PointOfView, StoryCardKind } from '../../ai/story-ai';
import { Chapter } from './chapter.entity';
import { MemoryKindEnum } from './memory/memory.entity';
import { StoryCardKindEnum } from './memory/story-card.entity';
import { Mission } from './missions/mission.entity';

/** Values are the stored ones (POINTS_OF_VIEW). */
const PointOfViewEnum = { second: 'second', first: 'first', third: 'third' } as const satisfies Record<PointOfView, PointOfView>;
registerEnumType(PointOfViewEnum, { name: 'PointOfView', description: 'Narration person: second (you), first (I) or third (by name).' });
const DifficultyEnum = { story: 'story', balanced: 'balanced', hard: 'hard' } as const satisfies Record<Difficulty, Difficulty>;
registerEnumType(DifficultyEnum, {
  name: 'Difficulty',
  description: 'How hard the story is on the hero.',
  valuesConfig: {
    story: { description: 'Checks are easier (−3) and easy ones are routine; no critical failures; failures hurt less.' },
    balanced: { description: 'Checks as judged; the default.' },
    hard: { description: 'Checks are harder (+2) and failures hurt more.' },
  },
});

@InputType({ description: 'SPEC §7 generate-chapter.' })
export class GenerateChapterInput {
  @Field(() => ID)
  characterId: string;

  @Field(() => String, { nullable: true, description: 'A suggested choice or free text (trimmed, ≤ 500). Empty only for the opening chapter.' })
  userChoice?: string | null;

  @Field(() => Int, { nullable: true, description: '1–12; default 8.' })
  readingLevel?: number | null;

  @Field(() => String, { nullable: true, description: "Defaults to the character's world description." })
  worldDescription?: string | null;

  @Field(() => Int, {
    nullable: true,
    description:
      'Index the new chapter should get (the number of chapters you have seen). When the story has moved on, the chapter already written there from the same action is returned (a retry), otherwise CONFLICT.',
  })
  expectedIndex?: number | null;
}

@InputType()
export class RegenerateChapterInput {
  @Field(() => ID)
  characterId: string;

  @Field(() => Int, { nullable: true })
  readingLevel?: number | null;

  @Field(() => String, { nullable: true })
  worldDescription?: string | null;
}

/** A rewrite of a chapter by the player: the latest chapter's text and/or the action that led to a chapter. */
@InputType()
export class ChapterEditInput {
  @Field(() => String, { nullable: true, description: "The latest chapter's new text (plain text)." })
  text?: string | null;

  @Field(() => String, { nullable: true, description: 'The action that led to this chapter, as the player now wants it.' })
  playerChoice?: string | null;
}

@ObjectType({ description: 'SPEC §7 generate-chapter response.' })
export class GenerateChapterPayload {
  @Field(() => Chapter)
  newChapter: Chapter;

  @Field(() => GraphQLJSONObject, { description: 'All stats after the chapter.' })
  updatedStats: Record<string, number>;

  @Field(() => GraphQLJSONObject, { description: 'Stat → increase this chapter brought (shown as +N).' })
  newIncreases: Record<string, number>;

  @Field()
  newSettingGenerated: boolean;

  @Field(() => String, { nullable: true, description: 'The setting in effect after the chapter (drives the immersive styles).' })
  settingText: string | null;

  @Field(() => Mission, { nullable: true, description: 'A mission this chapter started (the one generated before it, or the next one).' })
  newMission: Mission | null;

  @Field({ description: 'Whether the chapter completed the mission that was current.' })
  missionCompleted: boolean;
}

@ObjectType({ description: 'A claimed chapter generation; follow it with the chapterStream subscription.' })
export class ChapterGeneration {
  @Field(() => ID)
  chapterId: string;

  @Field(() => ID)
  characterId: string;

  @Field(() => Int)
  index: number;

  @Field(() => Int)
  take: number;

  @Field({ description: 'True when this joined a generation that was already running for the same action.' })
  joined: boolean;
}

export enum ChapterStreamStatus {
  generating = 'generating',
  complete = 'complete',
  failed = 'failed',
}
registerEnumType(ChapterStreamStatus, { name: 'ChapterStreamStatus' });

@ObjectType({
  description:
    'One step of a chapter being written. Apply it as text = text.slice(0, offset) + delta: the first event carries the text so far (offset 0), the last has status complete (with the result) or failed.',
})
export class ChapterStreamEvent {
  @Field(() => ID)
  chapterId: string;

  @Field(() => ID)
  characterId: string;

  @Field(() => Int)
  index: number;

  @Field(() => Int)
  take: number;

  @Field(() => ChapterStreamStatus)
  status: ChapterStreamStatus;

  @Field(() => Int)
  offset: number;

  @Field()
  delta: string;

  @Field(() => [String], {
    nullable: true,
    description:
      "The next actions written so far, on the event after they changed: the storyteller writes them after the prose and before the chapter is stored, so they can be shown early (not chosen: the chapter is not stored yet). The complete event's result has the list that was kept.",
  })
  choices: string[] | null;

  @Field(() => GenerateChapterPayload, { nullable: true })
  result: GenerateChapterPayload | null;

  @Field(() => String, { nullable: true })
  errorCode: string | null;

  @Field(() => String, { nullable: true })
  error: string | null;

  @Field(() => String, { nullable: true, description: 'Why the chapter failed: timeout, busy, unavailable, misconfigured, invalid_output or failed.' })
  errorReason: string | null;

  @Field(() => String, { nullable: true, description: 'What the player can do about it, in words (e.g. "The storyteller is busy; try again in 30 s.").' })
  errorHint: string | null;

  @Field(() => Int, { nullable: true, description: 'When a retry may succeed, if the storyteller said so.' })
  retryAfterSeconds: number | null;
}

@ObjectType({ description: 'SPEC §3 storyline: a page of chapters (oldest first) and where the story stands.' })
export class Storyline {
  @Field(() => [Chapter])
  chapters: Chapter[];

  @Field(() => Int, { nullable: true, description: 'Index of the latest chapter; null before the first.' })
  currentChapter: number | null;

  @Field(() => String, { nullable: true })
  currentSetting: string | null;

  @Field(() => Int)
  totalChapters: number;

  @Field({ description: 'More (older) chapters exist before this page.' })
  hasOlder: boolean;

  @Field(() => [Chapter], { description: 'Every complete take of the latest chapter (selectChapterTake picks one).' })
  latestTakes: Chapter[];

  @Field(() => ID, { nullable: true, description: 'The chapter being written now, if any (follow it with chapterStream).' })
  generatingChapterId: string | null;
}

@ObjectType({ description: 'SPEC §3 setting style set: validated design tokens, never raw CSS.' })
export class StyleSetType {
  @Field() containerBackground: string;
  @Field() contentBackground: string;
  @Field() contentTextColor: string;
  @Field() ContainerTextColor: string;
  @Field() statsPanelBackground: string;
  @Field() statsPanelTextColor: string;
  @Field() statsItemBackground: string;
  @Field() statsItemTextColor: string;
  @Field() buttonBackground: string;
  @Field() buttonTextColor: string;
  @Field() borderColor: string;
  @Field() fontFamily: string;
  @Field() borderRadius: string;
}

@InputType({ description: 'SPEC §7 get-new-mission.' })
export class SuggestMissionInput {
  @Field()
  worldDescription: string;

  @Field(() => String, { nullable: true })
  userPersonality?: string | null;

  @Field(() => String, { nullable: true })
  previousMission?: string | null;
}

@ObjectType()
export class MissionSuggestion {
  @Field()
  objective: string;
}

@InputType({ description: 'A mission as the player sends it in update-mission-history.' })
export class MissionHistoryEntryInput {
  @Field()
  objective: string;

  @Field(() => String, { nullable: true, description: 'active or completed; default active.' })
  status?: string | null;

  @Field(() => Date, { nullable: true })
  startedAt?: Date | null;
}

@ObjectType()
export class StoryExportFile {
  @Field()
  filename: string;

  @Field()
  mimeType: string;

  @Field()
  content: string;
}

export enum StoryExportFormat {
  md = 'md',
  html = 'html',
}
registerEnumType(StoryExportFormat, { name: 'StoryExportFormat' });

@ObjectType({ description: "A story's memory: what the storyteller always keeps in mind, the player's to edit." })
export class StoryMemory {
  @Field({ description: 'Facts that must always hold (always in the chapter prompt).' })
  plotEssentials: string;

  @Field({ description: "Style and direction for the storyteller, placed right before the player's action." })
  authorsNote: string;

  @Field({ description: 'The rolling summary of older chapters (the storyteller updates it; the player may correct it).' })
  summary: string;

  @Field(() => Int, { description: 'How many chapters, from the first, the summary covers.' })
  summaryCoversChapters: number;

  @Field(() => PointOfViewEnum, { description: 'The narration: second person present (default), first person past or third person past.' })
  pointOfView: PointOfView;

  @Field(() => DifficultyEnum, { description: 'How hard the story is on the hero: story, balanced (default) or hard.' })
  difficulty: Difficulty;
}

@InputType()
export class StoryMemoryInput {
  @Field(() => String, { nullable: true })
  plotEssentials?: string | null;

  @Field(() => String, { nullable: true })
  authorsNote?: string | null;

  @Field(() => String, { nullable: true })
  summary?: string | null;

  @Field(() => PointOfViewEnum, { nullable: true })
  pointOfView?: PointOfView | null;

  @Field(() => DifficultyEnum, { nullable: true })
  difficulty?: Difficulty | null;
}

/** A new story card; kind defaults to character. */
@InputType()
export class StoryCardInput {
  @Field(() => StoryCardKindEnum, { nullable: true, description: 'A new card is a character unless given.' })
  kind?: StoryCardKind | null;
  @Field(() => String, { nullable: true })
  name?: string | null;
  @Field(() => [String], { nullable: true })
  aliases?: string[] | null;
  @Field(() => String, { nullable: true })
  description?: string | null;
  @Field(() => String, { nullable: true })
  role?: string | null;
  @Field(() => String, { nullable: true })
  status?: string | null;
  @Field(() => Boolean, { nullable: true })
  pinned?: boolean | null;
  @Field(() => Boolean, { nullable: true, description: 'An item the hero carries (items only; a new item is carried unless false).' })
  held?: boolean | null;
}

@InputType({ description: 'A memory of the memory bank to add or change; fields left out keep their value.' })
export class MemoryInput {
  @Field(() => MemoryKindEnum, { nullable: true, description: 'A new memory is a fact unless given.' })
  kind?: MemoryKind | null;
  @Field(() => String, { nullable: true, description: 'One line, at most 200 characters.' })
  text?: string | null;
  @Field(() => Boolean, { nullable: true, description: 'Sent to the storyteller every chapter.' })
  pinned?: boolean | null;
}
