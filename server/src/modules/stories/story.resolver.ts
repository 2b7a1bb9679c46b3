import { Arg, Authorized, Ctx, FieldResolver, ID, Int, Mutation, Query, Resolver, Root, Subscription } from 'type-graphql';
import type { StyleSet } from '../../ai/story-ai';
import { requireUser } from '../../graphql/auth-checker';
import type { GraphQLContext } from '../../graphql/context';
import { Character } from '../characters/character.entity';
import { assertOwnedBy } from '../characters/owned-character';
import { Chapter } from './chapter.entity';
import { Mission } from './missions/mission.entity';
import { StoryBranch } from './editing/story-branch.entity';
import { StoryCard } from './memory/story-card.entity';
import { MemoryEntry } from './memory/memory.entity';
import { Remembered } from './memory/remembered';
import type { ChapterHandle, ChapterOutcome, StreamEvent } from './story.service';
import { STORYLINE_PAGE_MAX } from './story-input';
import {
  ChapterGeneration,
  ChapterStreamEvent,
  ChapterStreamStatus,
  GenerateChapterInput,
  GenerateChapterPayload,
  MissionHistoryEntryInput,
  MissionSuggestion,
  RegenerateChapterInput,
  StoryExportFile,
  StoryExportFormat,
  StoryMemory,
  StoryMemoryInput,
  StoryCardInput,
  MemoryInput,
  ChapterEditInput,
  Storyline,
  StyleSetType,
  SuggestMissionInput,
} from './story.types';

function presentOutcome(o: ChapterOutcome): GenerateChapterPayload {
  return {
    newChapter: o.chapter,
    updatedStats: o.updatedStats,
    newIncreases: o.newIncreases,
    newSettingGenerated: o.newSettingGenerated,
    settingText: o.settingText,
    newMission: o.newMission,
    missionCompleted: o.missionCompleted,
  };
}

/** A chapter stream event as GraphQL sends it (also the party story's stream, parties/party.resolver.ts). */
export function presentStreamEvent(e: StreamEvent): ChapterStreamEvent {
  return {
    chapterId: e.chapterId,
    characterId: e.characterId,
    index: e.index,
    take: e.take,
    status: e.status as ChapterStreamStatus,
    offset: e.offset,
    delta: e.delta,
    choices: e.choices ?? null,
    result: e.outcome ? presentOutcome(e.outcome) : null,
    errorCode: e.errorCode,
    error: e.error,
    errorReason: e.errorReason,
    errorHint: e.errorHint,
    retryAfterSeconds: e.retryAfterSeconds,
  };
}

function presentHandle(h: ChapterHandle): ChapterGeneration {
  return { chapterId: h.chapterId, characterId: h.characterId, index: h.index, take: h.take, joined: h.joined };
}

/** Storylines over GraphQL: thin over StoryService (rules, ownership, limits live there). */
@Resolver()
export class StoryResolver {
  @Authorized()
  @Mutation(() => GenerateChapterPayload, {
    description:
      'Writes the next chapter and returns it when committed (no credits; rate-limited). A second request for the same action while it is written joins it; a different one gets CONFLICT. Follow the text live with chapterStream.',
  })
  async generateChapter(@Arg('input', () => GenerateChapterInput) input: GenerateChapterInput, @Ctx() ctx: GraphQLContext): Promise<GenerateChapterPayload> {
    return presentOutcome(await ctx.services.stories.generateChapter(requireUser(ctx).id, { ...input }));
  }

  @Authorized()
  @Mutation(() => ChapterGeneration, {
    description: 'Starts (or joins) the next chapter and returns at once; the chapter is written on the server even if you disconnect.',
  })
  async startChapter(@Arg('input', () => GenerateChapterInput) input: GenerateChapterInput, @Ctx() ctx: GraphQLContext): Promise<ChapterGeneration> {
    return presentHandle(await ctx.services.stories.startChapter(requireUser(ctx).id, { ...input }, 'next'));
  }

  @Authorized()
  @Mutation(() => ChapterGeneration, {
    description:
      'Starts a new take of the latest chapter and returns at once (streamed regenerate): follow it with chapterStream(characterId, chapterId) — reconnecting follows it again, never starts another. When it completes it is selected; earlier takes are kept. Also POST /api/stories/start-regeneration.',
  })
  async startRegeneration(@Arg('input', () => RegenerateChapterInput) input: RegenerateChapterInput, @Ctx() ctx: GraphQLContext): Promise<ChapterGeneration> {
    return presentHandle(await ctx.services.stories.startChapter(requireUser(ctx).id, { ...input }, 'regenerate'));
  }

  @Authorized()
  @Mutation(() => ChapterGeneration, {
    description:
      "Continue: the storyteller goes on with the latest chapter, and returns at once. The continued chapter is a new take of it (the old one kept, selectChapterTake switches back) whose text is the old text, a blank line, then the new part; it keeps the old take's stat gains, mission changes and cast, adds the continuation's, and ends with the continuation's choices. Follow it with chapterStream(characterId, chapterId): the stream starts with the chapter so far. Also POST /api/stories/start-continuation.",
  })
  async startContinuation(@Arg('input', () => RegenerateChapterInput) input: RegenerateChapterInput, @Ctx() ctx: GraphQLContext): Promise<ChapterGeneration> {
    return presentHandle(await ctx.services.stories.startChapter(requireUser(ctx).id, { ...input }, 'continue'));
  }

  @Authorized()
  @Mutation(() => GenerateChapterPayload, {
    description: 'Writes a new take of the latest chapter and selects it; earlier takes are kept (selectChapterTake).',
  })
  async regenerateChapter(
    @Arg('input', () => RegenerateChapterInput) input: RegenerateChapterInput,
    @Ctx() ctx: GraphQLContext,
  ): Promise<GenerateChapterPayload> {
    return presentOutcome(await ctx.services.stories.regenerateChapter(requireUser(ctx).id, { ...input }));
  }

  @Authorized()
  @Mutation(() => GenerateChapterPayload, { description: 'Chooses a take of the latest chapter; stats and missions become exactly what that take made them.' })
  async selectChapterTake(
    @Arg('characterId', () => ID) characterId: string,
    @Arg('take', () => Int) take: number,
    @Ctx() ctx: GraphQLContext,
  ): Promise<GenerateChapterPayload> {
    return presentOutcome(await ctx.services.stories.selectTake(requireUser(ctx).id, characterId, take));
  }

  @Authorized()
  @Mutation(() => Chapter, {
    description:
      "Rewrites the latest chapter's text and/or the action that led to any chapter. The next chapters are written from the edit; exports mark it. Also POST /api/stories/edit-chapter.",
  })
  editChapter(
    @Arg('characterId', () => ID) characterId: string,
    @Arg('chapterId', () => ID) chapterId: string,
    @Arg('input', () => ChapterEditInput) input: ChapterEditInput,
    @Ctx() ctx: GraphQLContext,
  ): Promise<Chapter> {
    return ctx.services.stories.editChapter(requireUser(ctx).id, characterId, chapterId, given(input));
  }

  @Authorized()
  @Mutation(() => Character, { description: 'Removes the latest chapter (all its takes), restoring stats, setting and missions exactly.' })
  async undoLastChapter(@Arg('characterId', () => ID) characterId: string, @Ctx() ctx: GraphQLContext): Promise<Character> {
    const c = await ctx.services.stories.undoLastChapter(requireUser(ctx).id, characterId);
    // A party story's round may have gone back with it: its members are told.
    await ctx.services.parties.storyChanged(c.id);
    return c;
  }

  @Authorized()
  @Mutation(() => Boolean, {
    description:
      "Stops the chapter being written for a character. The take is dropped, never part of the story (the story stays as it was before it; the player's action can be sent again), and its stream ends with status failed and errorCode STOPPED. False when nothing was being written (it may have just finished: then it stands). Also POST /api/stories/stop-chapter.",
  })
  stopChapter(@Arg('characterId', () => ID) characterId: string, @Ctx() ctx: GraphQLContext): Promise<boolean> {
    return ctx.services.stories.stopChapter(requireUser(ctx).id, characterId);
  }

  @Authorized()
  @Mutation(() => Character, {
    description:
      'Rewinds the story to an earlier chapter (0-based chapterIndex), restoring stats, setting, missions and story cards exactly as they were there. The chapters after it become a branch (Character.storyBranches) the player can return to. Also POST /api/stories/rewind.',
  })
  async rewindStory(
    @Arg('characterId', () => ID) characterId: string,
    @Arg('chapterIndex', () => Int) chapterIndex: number,
    @Ctx() ctx: GraphQLContext,
  ): Promise<Character> {
    const c = await ctx.services.stories.rewind(requireUser(ctx).id, characterId, chapterIndex);
    await ctx.services.parties.storyChanged(c.id);
    return c;
  }

  @Authorized()
  @Mutation(() => Character, {
    description:
      "Returns to a branch: the chapters now after the branch's chapter become a branch of their own, and the branch's chapters (with their stats, missions and cards) are the story again. Also POST /api/stories/restore-branch.",
  })
  async restoreStoryBranch(
    @Arg('characterId', () => ID) characterId: string,
    @Arg('branchId', () => ID) branchId: string,
    @Ctx() ctx: GraphQLContext,
  ): Promise<Character> {
    const c = await ctx.services.stories.restoreBranch(requireUser(ctx).id, characterId, branchId);
    await ctx.services.parties.storyChanged(c.id);
    return c;
  }

  @Authorized()
  @Mutation(() => Boolean, { description: 'Deletes a branch for good. Also POST /api/stories/delete-branch.' })
  deleteStoryBranch(
    @Arg('characterId', () => ID) characterId: string,
    @Arg('branchId', () => ID) branchId: string,
    @Ctx() ctx: GraphQLContext,
  ): Promise<boolean> {
    return ctx.services.stories.deleteBranch(requireUser(ctx).id, characterId, branchId);
  }

  @Authorized()
  @Subscription(() => ChapterStreamEvent, {
    description:
      'Follows the chapter being written for a character (or the given chapter): first the text so far, then each piece as it is written, then the result. Reconnect any time; you catch up without gaps or repeats. With nothing running, the latest chapter arrives at once, complete.',
    subscribe: async ({ args, context }) => {
      const ctx = context as GraphQLContext;
      return ctx.services.stories.openStream(requireUser(ctx).id, args.characterId, args.chapterId);
    },
  })
  chapterStream(
    @Root() e: StreamEvent,
    @Arg('characterId', () => ID) _characterId: string,
    @Arg('chapterId', () => ID, { nullable: true }) _chapterId?: string,
  ): ChapterStreamEvent {
    return presentStreamEvent(e);
  }

  @Authorized()
  @Subscription(() => ChapterStreamEvent, {
    description:
      'Starts (or joins) the next chapter and streams it, in one operation: the same events as chapterStream, the first chunk one round trip sooner than startChapter + chapterStream. The chapter is written on the server whatever happens to the connection: after a disconnect, follow it with chapterStream (any event carries chapterId) or send the same playChapter again — with expectedIndex it joins the running chapter or replays the finished one, never writes a second. Errors (CONFLICT, RATE_LIMITED, BAD_USER_INPUT, NOT_FOUND) end the operation before any event.',
    subscribe: async ({ args, context }) => {
      const ctx = context as GraphQLContext;
      return ctx.services.stories.playChapter(requireUser(ctx).id, { ...(args.input as Record<string, unknown>) });
    },
  })
  playChapter(@Root() e: StreamEvent, @Arg('input', () => GenerateChapterInput) _input: GenerateChapterInput): ChapterStreamEvent {
    return presentStreamEvent(e);
  }

  @Authorized()
  @Query(() => StyleSetType, { description: 'SPEC fetch-styles: the validated immersive style set for a setting (cached; the default set on any failure).' })
  settingStyles(@Arg('settingDescription') settingDescription: string, @Ctx() ctx: GraphQLContext): Promise<StyleSet> {
    return ctx.services.stories.styles(requireUser(ctx).id, settingDescription);
  }

  @Authorized()
  @Mutation(() => MissionSuggestion, { description: 'SPEC get-new-mission: suggests an objective (not stored).' })
  suggestMission(@Arg('input', () => SuggestMissionInput) input: SuggestMissionInput, @Ctx() ctx: GraphQLContext): Promise<MissionSuggestion> {
    return ctx.services.stories.suggestMission(requireUser(ctx).id, { ...input });
  }

  @Authorized()
  @Mutation(() => Mission, { description: "SPEC update-mission: edits the current mission's objective (starts one when there is none)." })
  async updateMissionObjective(
    @Arg('characterId', () => ID) characterId: string,
    @Arg('objective') objective: string,
    @Ctx() ctx: GraphQLContext,
  ): Promise<Mission> {
    return (await ctx.services.stories.updateMission(requireUser(ctx).id, characterId, objective)).mission;
  }

  @Authorized()
  @Mutation(() => [Mission], { description: 'SPEC update-mission-history: replaces the mission history (at most one active).' })
  updateMissionHistory(
    @Arg('characterId', () => ID) characterId: string,
    @Arg('missionHistory', () => [MissionHistoryEntryInput]) missionHistory: MissionHistoryEntryInput[],
    @Ctx() ctx: GraphQLContext,
  ): Promise<Mission[]> {
    return ctx.services.stories.replaceMissionHistory(
      requireUser(ctx).id,
      characterId,
      missionHistory.map((m) => ({ ...m })),
    );
  }

  @Authorized()
  @Mutation(() => StoryMemory, { description: "Edits the story's memory; fields left out keep their value, an empty string clears one." })
  updateStoryMemory(
    @Arg('characterId', () => ID) characterId: string,
    @Arg('input', () => StoryMemoryInput) input: StoryMemoryInput,
    @Ctx() ctx: GraphQLContext,
  ): Promise<StoryMemory> {
    return ctx.services.stories.updateStoryMemory(requireUser(ctx).id, characterId, given(input));
  }

  @Authorized()
  @Mutation(() => StoryCard, { description: 'Adds a story card to one of your stories (at most 100; names unique per story).' })
  createStoryCard(
    @Arg('characterId', () => ID) characterId: string,
    @Arg('input', () => StoryCardInput) input: StoryCardInput,
    @Ctx() ctx: GraphQLContext,
  ): Promise<StoryCard> {
    return ctx.services.stories.createStoryCard(requireUser(ctx).id, characterId, given(input));
  }

  @Authorized()
  @Mutation(() => StoryCard, { description: 'Edits a story card; fields left out keep their value. Edited cards keep their text when chapters update them.' })
  updateStoryCard(@Arg('id', () => ID) id: string, @Arg('input', () => StoryCardInput) input: StoryCardInput, @Ctx() ctx: GraphQLContext): Promise<StoryCard> {
    return ctx.services.stories.updateStoryCard(requireUser(ctx).id, id, given(input));
  }

  @Authorized()
  @Mutation(() => Boolean, { description: 'Deletes a story card.' })
  deleteStoryCard(@Arg('id', () => ID) id: string, @Ctx() ctx: GraphQLContext): Promise<boolean> {
    return ctx.services.stories.deleteStoryCard(requireUser(ctx).id, id);
  }

  @Authorized()
  @Mutation(() => MemoryEntry, {
    description: "Writes a memory into the story's memory bank (kept whatever happens to the chapters). Also POST /api/stories/memories.",
  })
  addMemory(
    @Arg('characterId', () => ID) characterId: string,
    @Arg('input', () => MemoryInput) input: MemoryInput,
    @Ctx() ctx: GraphQLContext,
  ): Promise<MemoryEntry> {
    return ctx.services.stories.addMemory(requireUser(ctx).id, characterId, given(input));
  }

  @Authorized()
  @Mutation(() => MemoryEntry, {
    description: "Changes a memory's text, kind or pin; a chapter's memory is rewritten on its take and marked edited. Also PUT /api/stories/memories/{id}.",
  })
  updateMemory(
    @Arg('characterId', () => ID) characterId: string,
    @Arg('id', () => ID) id: string,
    @Arg('input', () => MemoryInput) input: MemoryInput,
    @Ctx() ctx: GraphQLContext,
  ): Promise<MemoryEntry> {
    return ctx.services.stories.updateMemory(requireUser(ctx).id, characterId, id, given(input));
  }

  @Authorized()
  @Mutation(() => Boolean, { description: 'Forgets a memory for good. Also DELETE /api/stories/memories/{id}?characterId=….' })
  deleteMemory(@Arg('characterId', () => ID) characterId: string, @Arg('id', () => ID) id: string, @Ctx() ctx: GraphQLContext): Promise<boolean> {
    return ctx.services.stories.deleteMemory(requireUser(ctx).id, characterId, id);
  }

  @Authorized()
  @Query(() => StoryExportFile, {
    description: 'The story as Markdown or as one self-contained, script-free HTML page (also GET /api/stories/export/{characterId}).',
  })
  exportStory(
    @Arg('characterId', () => ID) characterId: string,
    @Arg('format', () => StoryExportFormat) format: StoryExportFormat,
    @Ctx() ctx: GraphQLContext,
  ): Promise<StoryExportFile> {
    return ctx.services.stories.exportStory(requireUser(ctx).id, characterId, format);
  }
}

/** The fields an input object gave (GraphQL null, like a field left out, keeps the value). */
function given(input: object): Record<string, unknown> {
  return Object.fromEntries(Object.entries({ ...input }).filter(([, v]) => v !== undefined && v !== null));
}

/** SPEC §3 "character in the storyline": the storyline and mission history on Character. */
@Resolver(() => Character)
export class CharacterStoryResolver {
  @FieldResolver(() => Storyline, { description: 'Chapters (a page, oldest first: the last `limit` before `beforeIndex`), current chapter and setting.' })
  async storyline(
    @Root() c: Character,
    @Ctx() ctx: GraphQLContext,
    @Arg('limit', () => Int, { defaultValue: 50, description: `1–${STORYLINE_PAGE_MAX}` }) limit: number,
    @Arg('beforeIndex', () => Int, { nullable: true }) beforeIndex?: number | null,
  ): Promise<Storyline> {
    assertOwnedBy(c, ctx.user?.id);
    return ctx.services.stories.storylineOf(c, { limit, beforeIndex }, ctx.loaders);
  }

  @FieldResolver(() => [Mission], { description: 'Every mission, oldest first (status active or completed).' })
  missionHistory(@Root() c: Character, @Ctx() ctx: GraphQLContext): Promise<Mission[]> {
    assertOwnedBy(c, ctx.user?.id);
    return ctx.services.stories.missionHistoryOf(c, ctx.loaders);
  }

  @FieldResolver(() => StoryMemory, { description: "The story's memory: plot essentials, author's note, the rolling summary." })
  storyMemory(@Root() c: Character, @Ctx() ctx: GraphQLContext): StoryMemory {
    assertOwnedBy(c, ctx.user?.id);
    return ctx.services.stories.storyMemoryOf(c);
  }

  @FieldResolver(() => [StoryCard], { description: "The story's cards: pinned first, then by name." })
  storyCards(@Root() c: Character, @Ctx() ctx: GraphQLContext): Promise<StoryCard[]> {
    assertOwnedBy(c, ctx.user?.id);
    return ctx.services.stories.storyCardsOf(c, ctx.loaders);
  }

  @FieldResolver(() => [Chapter], {
    description:
      "The latest `limit` chapters, oldest first, as `storyline` pages them — asked for their `check` and `stakes` (the dice beside a story page's text; issue 31).",
  })
  chapterStakes(
    @Root() c: Character,
    @Ctx() ctx: GraphQLContext,
    @Arg('limit', () => Int, { defaultValue: 50, description: `1–${STORYLINE_PAGE_MAX}` }) limit: number,
  ): Promise<Chapter[]> {
    assertOwnedBy(c, ctx.user?.id);
    return ctx.services.stories.chapterStakesOf(c, { limit }, ctx.loaders);
  }

  @FieldResolver(() => [StoryCard], { description: 'What the hero carries: the item cards held by the hero, by name (issue 31).' })
  async inventory(@Root() c: Character, @Ctx() ctx: GraphQLContext): Promise<StoryCard[]> {
    assertOwnedBy(c, ctx.user?.id);
    return (await ctx.services.stories.storyCardsOf(c, ctx.loaders)).filter((k) => k.kind === 'item' && k.held).sort((a, b) => a.name.localeCompare(b.name));
  }

  @FieldResolver(() => [MemoryEntry], {
    description: "The memory bank: pinned first, then the player's own, then the newest chapters'. Also GET /api/stories/memories/{characterId}.",
  })
  memories(
    @Root() c: Character,
    @Ctx() ctx: GraphQLContext,
    @Arg('limit', () => Int, { defaultValue: 200, description: '1–500' }) limit: number,
    @Arg('offset', () => Int, { defaultValue: 0 }) offset: number,
    @Arg('search', () => String, { nullable: true, description: 'Text in the memory.' }) search: string | null,
  ): Promise<MemoryEntry[]> {
    assertOwnedBy(c, ctx.user?.id);
    return ctx.services.stories.listMemories(c.userId, c.id, { limit, offset, search });
  }

  @FieldResolver(() => Remembered, {
    nullable: true,
    description:
      "What the storyteller remembered: the latest chapter's prompt (or the given chapter's), section by section with token counts, and what was left out and why. Kept for the latest three chapters; null before. Also GET /api/stories/remembered/{characterId}.",
  })
  remembered(
    @Root() c: Character,
    @Ctx() ctx: GraphQLContext,
    @Arg('chapterId', () => ID, { nullable: true }) chapterId: string | null,
  ): Promise<Remembered | null> {
    assertOwnedBy(c, ctx.user?.id);
    return ctx.services.stories.remembered(c.userId, c.id, chapterId);
  }

  @FieldResolver(() => [StoryBranch], { description: 'Chapters set aside by rewinds, newest first; restoreStoryBranch returns to one.' })
  storyBranches(@Root() c: Character, @Ctx() ctx: GraphQLContext): Promise<StoryBranch[]> {
    assertOwnedBy(c, ctx.user?.id);
    return ctx.services.stories.branchesOf(c, ctx.loaders);
  }

  @FieldResolver(() => Mission, { nullable: true, description: 'The active mission, if any.' })
  async currentMission(@Root() c: Character, @Ctx() ctx: GraphQLContext): Promise<Mission | null> {
    return (await this.missionHistory(c, ctx)).find((m) => m.status === 'active') ?? null;
  }
}
