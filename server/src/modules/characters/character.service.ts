import type { DataSource, EntityManager } from 'typeorm';
import { STAT_MAX, STAT_MIN, STAT_NAMES, type CharacterInput, type CharacterResult, type Stats, type StoryAI } from '../../ai/story-ai';
import { defaultStats } from './character-card';
import { AppError, isAppError } from '../../common/app-error';
import type { CreditsService } from '../billing/credits.service';
import { CHARACTER_GENERATION_COST } from '../billing/prices';
import type { ProfileService } from '../profile/profile.service';
import { isUuid, object, text, textList, int } from '../shared/input';
import type { WorldService } from '../worlds/world.service';
import { WORLD_DESCRIPTION_MAX } from '../worlds/world.entity';
import { Character } from './character.entity';
import { CharacterDraft } from './character-draft.entity';
import { cardJson, cardPng, parseCard } from './character-card';
import { findOwnedCharacter } from './owned-character';
import { cardsOf, importCards } from '../stories/memory/story-cards';
import type { MediaService } from '../media/media.service';

const CHARACTER_NAME_MAX = 60;
const CHARACTER_DESCRIPTION_MAX = 4000;
const ANSWER_MAX = 1000;
const QUESTION_MAX = 300;
const LIST_MAX_ITEMS = 10;
const LIST_ITEM_MAX = 200;

/** SPEC §3 saved-character payload, as both surfaces deliver it (unchecked). */
export interface SaveCharacterInput {
  name: unknown;
  world_id: unknown;
  stats: unknown;
  description: unknown;
  traits: unknown;
  strengths: unknown;
  weaknesses: unknown;
  special: unknown;
  /** The answers to the world's questions the character was made from (optional; not in SPEC's payload). */
  answers?: unknown;
}

/**
 * Characters: paid generation (spawn and spawn-from-profile), and the player's saved characters.
 * Generation charges first and refunds when the generation fails, so a burst of concurrent requests
 * can never get more characters than the balance pays for (the debit is the atomic gate).
 */
export class CharacterService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly deps: { ai: StoryAI; credits: CreditsService; worlds: WorldService; profile: ProfileService; media: MediaService },
  ) {}

  private get repo() {
    return this.dataSource.getRepository(Character);
  }

  /**
   * SPEC GET /characters/generate: a character from the answers to a world's questions. 3 credits.
   * With the world's id the character is also kept as a draft until the player saves or discards it.
   */
  async generate(
    userId: string,
    raw: { worldDescription: unknown; questions: unknown; answers: unknown; username: unknown; worldId?: unknown },
  ): Promise<GeneratedWithDraft> {
    const worldDescription = worldDescriptionOf(raw.worldDescription);
    const username = text(raw.username, 'username', { required: 'Please enter a username for your character', max: CHARACTER_NAME_MAX, name: true });
    const questions = textList(raw.questions, 'questions', LIST_MAX_ITEMS, { max: QUESTION_MAX });
    const answers = textList(raw.answers, 'answers', LIST_MAX_ITEMS, { max: ANSWER_MAX });
    const worldId = await this.draftWorld(userId, raw.worldId);
    return this.paidGeneration(userId, { worldDescription, questions, answers, username }, worldId, answers);
  }

  /**
   * Spawn from the player's own character profile. 3 credits. Refused (before any charge) when
   * skills, personality traits and free time are all empty.
   */
  async spawnFromProfile(
    userId: string,
    fallbackName: string,
    raw: { worldDescription: unknown; username?: unknown; worldId?: unknown },
  ): Promise<GeneratedWithDraft> {
    const worldDescription = worldDescriptionOf(raw.worldDescription);
    const username =
      text(raw.username, 'username', { max: CHARACTER_NAME_MAX, name: true }) ||
      text(fallbackName, 'username', { required: 'Please enter a username for your character', max: CHARACTER_NAME_MAX, name: true });
    const p = await this.deps.profile.characterProfile(userId);
    if (!p.skills.trim() && !p.personalityTraits.trim() && !p.freeTime.trim()) {
      throw AppError.badInput('Please complete your character profile first!', 'profile');
    }
    const profile = { skills: p.skills, personalityTraits: p.personalityTraits, freeTime: p.freeTime, pastTimes: p.pastTimes };
    const worldId = await this.draftWorld(userId, raw.worldId);
    return this.paidGeneration(userId, { worldDescription, profile, username }, worldId, []);
  }

  /** The world a draft will be saved into: checked before any charge (NOT_FOUND for one the player cannot see). */
  private async draftWorld(userId: string, worldId: unknown): Promise<string | null> {
    if (worldId === undefined || worldId === null) return null;
    return (await this.deps.worlds.visible(userId, worldId)).id;
  }

  private async paidGeneration(userId: string, input: CharacterInput, worldId: string | null, answers: string[]): Promise<GeneratedWithDraft> {
    // Pending until the model answers: a process that dies meanwhile leaves it to the reconciliation.
    const spent = await this.deps.credits.spendPending(userId, CHARACTER_GENERATION_COST, 'character_generate');
    try {
      const character = await this.deps.ai.generateCharacter(input);
      // The charge stands together with the draft it paid for, so paid-for work is never lost.
      const draftId = await this.dataSource.transaction(async (m) => {
        await this.deps.credits.settleIn(m, spent);
        if (!worldId) return null;
        const { username: name, ...rest } = character;
        const draft = await m.getRepository(CharacterDraft).save(m.getRepository(CharacterDraft).create({ userId, worldId, name, ...rest, answers }));
        return draft.id;
      });
      return { ...character, draftId };
    } catch (e) {
      await this.deps.credits.refund(userId, spent, CHARACTER_GENERATION_COST);
      if (isAppError(e) && e.code !== 'INTERNAL') throw e;
      throw new AppError('GENERATION_FAILED', 'Failed to generate the character; your credits were refunded.');
    }
  }

  /** SPEC insert-characters: saves a (generated) character into a world the player may see. */
  async save(userId: string, raw: SaveCharacterInput): Promise<Character> {
    const checked = await this.checkedSave(userId, raw);
    return this.dataSource.transaction(async (m) => {
      const c = await m.getRepository(Character).save(checked);
      await countPlay(m, c.worldId);
      return c;
    });
  }

  /** A character to save, with every rule checked (and the world's visibility, read outside any transaction). */
  private async checkedSave(userId: string, raw: SaveCharacterInput): Promise<Character> {
    const name = text(raw.name, 'name', { required: 'name is required.', max: CHARACTER_NAME_MAX, name: true });
    const description = text(raw.description, 'description', { required: 'description is required.', max: CHARACTER_DESCRIPTION_MAX });
    const stats = checkStats(raw.stats);
    const traits = nonBlank(textList(raw.traits, 'traits', LIST_MAX_ITEMS, { max: LIST_ITEM_MAX }));
    const strengths = nonBlank(textList(raw.strengths, 'strengths', LIST_MAX_ITEMS, { max: LIST_ITEM_MAX }));
    const weaknesses = nonBlank(textList(raw.weaknesses, 'weaknesses', LIST_MAX_ITEMS, { max: LIST_ITEM_MAX }));
    const sp = object(raw.special ?? {}, 'special');
    const special = {
      name: text(sp.name, 'special.name', { max: CHARACTER_NAME_MAX }),
      description: text(sp.description, 'special.description', { max: 1000 }),
    };
    // NOT_FOUND for a world the player cannot see: the same answer as for one that does not exist.
    const world = await this.deps.worlds.visible(userId, raw.world_id);
    // The answers go with the questions they answer: the story returns to them as threads (issue 32).
    const answers = textList(raw.answers, 'answers', LIST_MAX_ITEMS, { max: ANSWER_MAX }).slice(0, world.questions.length);
    const worldSnapshot = {
      name: world.name,
      description: world.description,
      questions: world.questions,
      ...(answers.some((a) => a.trim()) ? { answers: answers.map((a) => a.trim()) } : {}),
    };
    return this.repo.create({ userId, worldId: world.id, worldSnapshot, name, description, stats, traits, strengths, weaknesses, special });
  }

  /** The player's unsaved drafts, newest first. */
  drafts(userId: string): Promise<CharacterDraft[]> {
    return this.dataSource.getRepository(CharacterDraft).find({ where: { userId }, order: { createdAt: 'DESC', id: 'DESC' } });
  }

  /**
   * Saves a draft as a character (the same rules as any save) and removes the draft, in one
   * transaction: a double click saves it once (the second finds no draft: NOT_FOUND).
   */
  async saveDraft(userId: string, id: unknown): Promise<Character> {
    const draft = await this.ownedDraft(userId, id);
    if (!draft.worldId) throw new AppError('CONFLICT', 'The world of this draft no longer exists; it can only be discarded.');
    const checked = await this.checkedSave(userId, { ...draft, world_id: draft.worldId });
    return this.dataSource.transaction(async (m) => {
      if (!(await deleteDraft(m, userId, draft.id))) throw AppError.notFound('Draft');
      const c = await m.getRepository(Character).save(checked);
      await countPlay(m, c.worldId);
      return c;
    });
  }

  /** Discards a draft for good (its credits were spent on generating it). */
  async discardDraft(userId: string, id: unknown): Promise<void> {
    if (!isUuid(id) || !(await deleteDraft(this.dataSource.manager, userId, id))) throw AppError.notFound('Draft');
  }

  private async ownedDraft(userId: string, id: unknown): Promise<CharacterDraft> {
    if (!isUuid(id)) throw AppError.notFound('Draft');
    const draft = await this.dataSource.getRepository(CharacterDraft).findOne({ where: { id, userId } });
    if (!draft) throw AppError.notFound('Draft');
    return draft;
  }

  /** The player's saved characters, newest first. */
  mine(userId: string): Promise<Character[]> {
    return this.repo.find({ where: { userId }, order: { createdAt: 'DESC', id: 'DESC' } });
  }

  get(userId: string, id: unknown): Promise<Character> {
    return findOwnedCharacter(this.dataSource, userId, id);
  }

  /** Deletes one of the player's characters (its chapters and missions go with it). */
  async delete(userId: string, id: unknown): Promise<void> {
    if (!isUuid(id)) throw AppError.notFound('Character');
    const [rows] = (await this.dataSource.query(`DELETE FROM characters WHERE id = $1 AND user_id = $2 RETURNING id`, [id, userId])) as [
      Array<{ id: string }>,
      number,
    ];
    if (rows.length === 0) throw AppError.notFound('Character');
  }

  /** Character Card export (own characters only): V3 JSON, or a PNG with ccv3 + chara chunks. */
  async exportCard(userId: string, id: unknown, format: 'json'): Promise<ReturnType<typeof cardJson>>;
  async exportCard(userId: string, id: unknown, format: 'png'): Promise<Buffer>;
  async exportCard(userId: string, id: unknown, format: 'json' | 'png'): Promise<unknown> {
    const c = await this.get(userId, id);
    const cards = await cardsOf(this.dataSource, c.id);
    if (format === 'json') return cardJson(c, 'v3', cards);
    // The card's picture is the world's, when the player may still see that world.
    const world = c.worldId ? await this.deps.worlds.visible(userId, c.worldId).catch(() => null) : null;
    const media = world?.imageMediaId ? await this.deps.media.get(world.imageMediaId) : null;
    return cardPng(c, media?.bytes ?? null, cards);
  }

  /**
   * Imports a V2/V3 card (PNG bytes or JSON text) into a world the player may see; the entries of its
   * character_book (lorebook) become the story's cards, with the character, in one transaction.
   */
  async importCard(userId: string, worldId: unknown, card: Buffer): Promise<Character> {
    const { book, ...imported } = parseCard(card);
    const checked = await this.checkedSave(userId, { ...imported, world_id: worldId });
    return this.dataSource.transaction(async (m) => {
      const c = await m.getRepository(Character).save(checked);
      await importCards(m, c.id, book);
      await countPlay(m, c.worldId);
      return c;
    });
  }
}

/** A generated character, and the draft it is kept as (null when no world was given). */
export type GeneratedWithDraft = CharacterResult & { draftId: string | null };

async function deleteDraft(m: EntityManager, userId: string, id: string): Promise<boolean> {
  const [rows] = (await m.query(`DELETE FROM character_drafts WHERE id = $1 AND user_id = $2 RETURNING id`, [id, userId])) as [Array<{ id: string }>, number];
  return rows.length > 0;
}

/**
 * A world's play count is the characters spawned into it, counted in the spawn's own transaction (an
 * atomic increment, so concurrent spawns never lose one). Deleting a character does not take a play back.
 */
async function countPlay(m: EntityManager, worldId: string | null): Promise<void> {
  if (worldId) await m.query('UPDATE worlds SET play_count = play_count + 1 WHERE id = $1', [worldId]);
}

function worldDescriptionOf(value: unknown): string {
  return text(value, 'worldDescription', {
    required: 'No world description available',
    max: WORLD_DESCRIPTION_MAX,
    tooLong: `World description cannot exceed ${WORLD_DESCRIPTION_MAX} characters`,
  });
}

function nonBlank(list: string[]): string[] {
  return list.filter((s) => s !== '');
}

/**
 * A saved character's stats are the six the storyteller knows, each 1–20 (what a generation gives):
 * saving costs nothing, so a hand-made character must be no stronger than a generated one. Names are
 * matched case-insensitively; a missing one is 10, "a capable adult".
 */
function checkStats(value: unknown): Stats {
  const o = object(value ?? {}, 'stats');
  const out = defaultStats();
  for (const [k, v] of Object.entries(o)) {
    const name = STAT_NAMES.find((n) => n === k.toLowerCase());
    if (!name) throw AppError.badInput(`Stats are ${STAT_NAMES.join(', ')}.`, 'stats');
    out[name] = int(v, 'stats', STAT_MIN, STAT_MAX);
  }
  return out;
}
