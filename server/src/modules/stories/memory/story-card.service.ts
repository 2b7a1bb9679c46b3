/**
 * The player's story cards (StoryCardService): list, add, edit, pin and delete them; owner only,
 * under the story lock. Every write goes through applyCardEffects (story-cards.ts), the same writer
 * a chapter's cast and an undo use, so a card's revision always names its exact state.
 */
import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { STORY_CARD_KINDS } from '../../../ai/story-ai';
import { AppError } from '../../../common/app-error';
import { findOwnedCharacter } from '../../characters/owned-character';
import { bool, isUuid, object, text, textList } from '../../shared/input';
import { STORY_CARD_ALIASES_MAX, STORY_CARD_DESCRIPTION_MAX, STORY_CARD_LINE_MAX, STORY_CARD_NAME_MAX, STORY_CARDS_MAX } from '../../shared/limits';
import type { CardSnapshot } from '../chapter.entity';
import { lockCharacter } from '../story.store';
import { StoryCard } from './story-card.entity';
import { applyCardEffects, calls, cardsOf, isStoryCardKind } from './story-cards';

export class StoryCardService {
  constructor(private readonly dataSource: DataSource) {}

  async list(userId: string, characterId: unknown): Promise<StoryCard[]> {
    const c = await findOwnedCharacter(this.dataSource, userId, characterId);
    return this.dataSource.getRepository(StoryCard).find({ where: { characterId: c.id }, order: { pinned: 'DESC', name: 'ASC' } });
  }

  async create(userId: string, characterId: unknown, raw: unknown): Promise<StoryCard> {
    const c = await findOwnedCharacter(this.dataSource, userId, characterId);
    const input = cardInput(raw, true);
    return this.dataSource.transaction(async (m) => {
      await lockCharacter(m, c.id);
      const cards = await cardsOf(m, c.id);
      if (cards.length >= STORY_CARDS_MAX) throw AppError.badInput(`A story can have at most ${STORY_CARDS_MAX} story cards.`, 'name');
      assertNameFree(cards, input.name as string, input.aliases ?? [], null);
      const snap: CardSnapshot = {
        id: randomUUID(),
        kind: input.kind ?? 'character',
        name: input.name as string,
        aliases: input.aliases ?? [],
        description: input.description ?? '',
        role: input.role ?? null,
        status: input.status ?? null,
        pinned: input.pinned ?? false,
        source: 'player',
        edited: true,
        lastSeenIndex: null,
        // An item the player adds is one the hero carries unless they say otherwise.
        held: input.kind === 'item' && (input.held ?? true),
        revision: randomUUID(),
      };
      await applyCardEffects(m, c.id, [{ before: null, after: snap }], 'forward');
      return m.getRepository(StoryCard).findOneByOrFail({ id: snap.id });
    });
  }

  /** Changes the fields given; the card is then the player's (chapters update only its status). */
  async update(userId: string, cardId: unknown, raw: unknown): Promise<StoryCard> {
    const card = await this.ownedCard(userId, cardId);
    const input = cardInput(raw, false);
    return this.dataSource.transaction(async (m) => {
      await lockCharacter(m, card.characterId);
      const cards = await cardsOf(m, card.characterId);
      const before = cards.find((x) => x.id === card.id);
      if (!before) throw AppError.notFound('Story card');
      const after: CardSnapshot = { ...before, ...input, revision: randomUUID() };
      // Only items are carried.
      after.held = after.kind === 'item' && Boolean(after.held);
      // Pinning alone does not make a card the player's: its text is still the model's.
      if (Object.keys(input).some((k) => k !== 'pinned')) after.edited = true;
      assertNameFree(cards, after.name, after.aliases, card.id);
      await applyCardEffects(m, card.characterId, [{ before, after }], 'forward');
      return m.getRepository(StoryCard).findOneByOrFail({ id: card.id });
    });
  }

  async remove(userId: string, cardId: unknown): Promise<boolean> {
    const card = await this.ownedCard(userId, cardId);
    await this.dataSource.transaction(async (m) => {
      await lockCharacter(m, card.characterId);
      await m.getRepository(StoryCard).delete({ id: card.id });
    });
    return true;
  }

  private async ownedCard(userId: string, cardId: unknown): Promise<StoryCard> {
    if (!isUuid(cardId)) throw AppError.notFound('Story card');
    const card = await this.dataSource.getRepository(StoryCard).findOne({ where: { id: cardId }, relations: { character: true } });
    if (!card || card.character?.userId !== userId) throw AppError.notFound('Story card');
    return card;
  }
}

function assertNameFree(cards: readonly CardSnapshot[], name: string, aliases: readonly string[], self: string | null): void {
  for (const n of [name, ...aliases]) {
    const other = cards.find((c) => c.id !== self && calls(c, n));
    if (other) throw AppError.badInput(`Another story card is already called "${n}".`, 'name');
  }
}

type CardInput = Partial<Pick<CardSnapshot, 'kind' | 'name' | 'aliases' | 'description' | 'role' | 'status' | 'pinned' | 'held'>>;

function cardInput(raw: unknown, creating: boolean): CardInput {
  const o = object(raw, 'input');
  const out: CardInput = {};
  if (creating || o.name !== undefined) out.name = text(o.name, 'name', { required: 'A story card needs a name.', max: STORY_CARD_NAME_MAX, name: true });
  if (o.kind !== undefined) {
    // GraphQL already refuses other values (the StoryCardKind enum); this guards every other caller.
    if (!isStoryCardKind(o.kind)) throw AppError.badInput(`kind must be one of ${STORY_CARD_KINDS.join(', ')}.`, 'kind');
    out.kind = o.kind;
  }
  if (o.aliases !== undefined) {
    out.aliases = [...new Set(textList(o.aliases, 'aliases', STORY_CARD_ALIASES_MAX, { max: STORY_CARD_NAME_MAX, name: true }).filter(Boolean))];
  }
  if (o.description !== undefined) out.description = text(o.description, 'description', { max: STORY_CARD_DESCRIPTION_MAX });
  if (o.role !== undefined) out.role = text(o.role, 'role', { max: STORY_CARD_LINE_MAX }) || null;
  if (o.status !== undefined) out.status = text(o.status, 'status', { max: STORY_CARD_LINE_MAX }) || null;
  if (o.pinned !== undefined) out.pinned = bool(o.pinned, 'pinned');
  if (o.held !== undefined) out.held = bool(o.held, 'held');
  return out;
}
