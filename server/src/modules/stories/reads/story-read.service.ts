/**
 * Reading a story: the storyline (one read for GraphQL and REST alike, through the request's batch
 * loaders), the immersive styles of a setting, and the export as Markdown or HTML.
 */
import type { StoryAI, StyleSet } from '../../../ai/story-ai';
import { DEFAULT_STYLES } from '../../../ai/style-guard';
import type { Character } from '../../characters/character.entity';
import { findOwnedCharacter } from '../../characters/owned-character';
import { text } from '../../shared/input';
import type { Chapter } from '../chapter.entity';
import type { Mission } from '../missions/mission.entity';
import type { StoryBranch } from '../editing/story-branch.entity';
import type { StoryCard } from '../memory/story-card.entity';
import { renderStoryHtml, renderStoryMarkdown, type StoryExport } from './story-export';
import type { StoryGate } from '../generation/story-gate';
import { parseExportFormat, SETTING_DESCRIPTION_MAX, type StorylinePage } from '../story-input';
import { cardsOf } from '../memory/story-cards';
import { storyLoaders } from '../story.loaders';
import type { StoryStore } from '../story.store';
import { StyleCache } from './style-cache';

/** A story as a published link shows it (community/publications.ts keeps it). */
export interface StorySnapshot {
  character: Character;
  worldName: string | null;
  worldImageMediaId: string | null;
  chapters: Array<{ choice: string | null; text: string }>;
  styles: StyleSet;
}

/** SPEC §3 "character in the storyline": a page of chapters and where the story stands. */
export interface StorylineView {
  chapters: Chapter[];
  /** Index of the latest chapter; null before the first. */
  currentChapter: number | null;
  currentSetting: string | null;
  totalChapters: number;
  hasOlder: boolean;
  latestTakes: Chapter[];
  generatingChapterId: string | null;
}

export class StoryReadService {
  private readonly styleCache: StyleCache;

  constructor(
    private readonly store: StoryStore,
    private readonly gate: StoryGate,
    ai: StoryAI,
  ) {
    this.styleCache = new StyleCache(ai);
  }

  /**
   * The storyline of a character whose owner the caller has checked, batched per request: a list of
   * characters with their storylines costs a fixed number of queries. `requestScope` is the object
   * the request's loaders hang on.
   */
  async storylineOf(c: Character, page: StorylinePage, requestScope: object): Promise<StorylineView> {
    const l = storyLoaders(requestScope, this.store.dataSource);
    // Whether a chapter is being written is read before the chapters: the statements run on separate
    // connections, so read together a take could commit between them and the answer say "nothing is
    // being written" beside chapters from before that take (found by CI on PostgreSQL under load: a
    // reader polling for the end of a take stopped without it). In this order, "nothing is being
    // written" means the chapters read next include every take already finished.
    const meta = await l.meta.load(c.id);
    const [chapters, latestTakes] = await Promise.all([l.page.load(`${c.id}|${page.limit}|${page.beforeIndex ?? ''}`), l.latestTakes.load(c.id)]);
    return {
      chapters,
      currentChapter: meta.currentChapter,
      currentSetting: c.currentSetting,
      totalChapters: meta.totalChapters,
      hasOlder: chapters.length > 0 && chapters[0].index > 0,
      latestTakes,
      generatingChapterId: meta.generatingChapterId,
    };
  }

  /** A page of the story's chapters alone (their dice: Character.chapterStakes), batched per request. */
  chapterPageOf(c: Character, page: StorylinePage, requestScope: object): Promise<Chapter[]> {
    return storyLoaders(requestScope, this.store.dataSource).page.load(`${c.id}|${page.limit}|${page.beforeIndex ?? ''}`);
  }

  missionHistoryOf(c: Character, requestScope: object): Promise<Mission[]> {
    return storyLoaders(requestScope, this.store.dataSource).missions.load(c.id);
  }

  /** A story's cards (pinned first, then by name), batched per request. */
  storyCardsOf(c: Character, requestScope: object): Promise<StoryCard[]> {
    return storyLoaders(requestScope, this.store.dataSource).cards.load(c.id);
  }

  /** A story's branches (newest first), batched per request. */
  branchesOf(c: Character, requestScope: object): Promise<StoryBranch[]> {
    return storyLoaders(requestScope, this.store.dataSource).branches.load(c.id);
  }

  /** SPEC fetch-styles: the validated style set for a setting; the default set on any failure. */
  async styles(userId: string, settingDescription: unknown): Promise<StyleSet> {
    let setting: string;
    try {
      setting = text(settingDescription, 'settingDescription', { max: SETTING_DESCRIPTION_MAX });
    } catch {
      return { ...DEFAULT_STYLES };
    }
    if (!setting) return { ...DEFAULT_STYLES };
    return this.styleCache.get(setting, () => this.gate.pass(userId, 'styles'));
  }

  /**
   * What a published link shows, taken now: the completed chapters (the selected takes), the
   * character's name, the world's name and picture and the setting's style set. The owner is checked.
   */
  async snapshot(userId: string, characterId: unknown): Promise<StorySnapshot> {
    const c = await findOwnedCharacter(this.store.dataSource, userId, characterId);
    const [chapters, worlds] = await Promise.all([
      this.store.chapters(c.id, Number.MAX_SAFE_INTEGER, null),
      c.worldId
        ? (this.store.dataSource.query('SELECT name, image_media_id FROM worlds WHERE id = $1', [c.worldId]) as Promise<
            Array<{ name: string; image_media_id: string | null }>
          >)
        : [],
    ]);
    const styles = c.currentSetting ? await this.styles(userId, c.currentSetting) : { ...DEFAULT_STYLES };
    return {
      character: c,
      // The story's own copy of its world names it once the world is gone.
      worldName: worlds[0]?.name ?? c.worldSnapshot?.name ?? null,
      worldImageMediaId: worlds[0]?.image_media_id ?? null,
      chapters: chapters.filter((ch) => ch.status === 'complete').map((ch) => ({ choice: ch.playerChoice, text: ch.text })),
      styles,
    };
  }

  /** The story as one Markdown file or one self-contained, script-free HTML page. */
  async exportStory(userId: string, characterId: unknown, rawFormat: unknown): Promise<StoryExport> {
    const format = parseExportFormat(rawFormat);
    const c = await findOwnedCharacter(this.store.dataSource, userId, characterId);
    const [chapters, missions, worldName, cards] = await Promise.all([
      this.store.chapters(c.id, Number.MAX_SAFE_INTEGER, null),
      this.store.missionHistory(c.id),
      this.store.worldName(c.worldId),
      cardsOf(this.store.dataSource, c.id),
    ]);
    const story = { character: c, worldName: worldName ?? c.worldSnapshot?.name ?? null, chapters, missions, cards };
    if (format === 'md') return renderStoryMarkdown(story);
    const styles = c.currentSetting ? await this.styles(userId, c.currentSetting) : { ...DEFAULT_STYLES };
    return renderStoryHtml(story, styles);
  }
}
