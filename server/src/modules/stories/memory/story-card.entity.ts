import { Field, ID, Int, ObjectType, registerEnumType } from 'type-graphql';
import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';
import { STORY_CARD_KINDS, type StoryCardKind } from '../../../ai/story-ai';
import { Character } from '../../characters/character.entity';

/**
 * The GraphQL enum StoryCardKind. Its values are STORY_CARD_KINDS (the story AI's contract, which
 * the prompts use) as they are stored, so the list is written once: the schema, the server's
 * validation and the client's generated type all follow it. A new kind needs a description here.
 */
export const StoryCardKindEnum = Object.fromEntries(STORY_CARD_KINDS.map((k) => [k, k])) as { [K in StoryCardKind]: K };
registerEnumType(StoryCardKindEnum, {
  name: 'StoryCardKind',
  description: 'What a story card is about.',
  valuesConfig: {
    character: { description: "A person (the default; a chapter's cast only ever adds people)." },
    place: { description: 'A place.' },
    item: { description: 'An object.' },
    faction: { description: 'A group: a guild, a house, an order.' },
    lore: { description: 'Anything else the story must keep: history, customs, rules of the world.' },
  } satisfies Record<StoryCardKind, { description: string }>,
});

export type StoryCardSource = 'player' | 'model' | 'import';

/**
 * One story card (AI Dungeon's story cards, SillyTavern's world info): a person, place, item, faction
 * or piece of lore of one story, with the names that bring it into a chapter prompt. The engine keeps
 * a card per person the chapters report (their cast); the player adds, edits, pins and deletes them.
 *
 * `revision` names the card's exact state: every write sets a new one, and a chapter take's card
 * effects (apply_card_state) write only over the revision they were decided from — so undo and take
 * switches restore cards exactly, and never over a change the player made since.
 */
@ObjectType({ description: 'A story card: someone or something of one story (its kind), and the names that bring it into the prompt.' })
@Entity('story_cards')
@Index('ix_story_cards_character', ['characterId'])
export class StoryCard {
  @Field(() => ID)
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ type: 'uuid' })
  characterId: string;

  @ManyToOne(() => Character, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'character_id' })
  character?: Character;

  @Field(() => StoryCardKindEnum)
  @Column({ type: 'varchar', length: 16 })
  kind: StoryCardKind;

  @Field()
  @Column({ type: 'varchar', length: 60 })
  name: string;

  @Field(() => [String], { description: 'Other names that trigger the card (a nickname, a title).' })
  @Column({ type: 'jsonb', default: () => "'[]'" })
  aliases: string[];

  @Field()
  @Column({ type: 'text', default: '' })
  description: string;

  @Field(() => String, { nullable: true, description: 'What a person is in the story ("innkeeper", "rival").' })
  @Column({ type: 'varchar', length: 80, nullable: true })
  role: string | null;

  @Field(() => String, { nullable: true, description: 'Where they stand now ("ally, wounded").' })
  @Column({ type: 'varchar', length: 80, nullable: true })
  status: string | null;

  @Field({ description: 'Pinned cards are always in the prompt.' })
  @Column({ type: 'boolean', default: false })
  pinned: boolean;

  @Field(() => String, { description: 'Who made it: player, model (from a chapter) or import (a character card).' })
  @Column({ type: 'varchar', length: 16 })
  source: StoryCardSource;

  /** The player wrote or changed the card (chapters only ever update a card's status and when it was last seen). */
  @Field({ description: 'The player wrote or edited it.' })
  @Column({ type: 'boolean', default: false })
  edited: boolean;

  /** An item the hero carries (the Inventory): kind item only; chapters set it as the hero gains and loses things. */
  @Field({ description: 'The hero carries it (an item card in the inventory).' })
  @Column({ type: 'boolean', default: false })
  held: boolean;

  /** 0-based index of the chapter whose cast last named it. */
  @Column({ type: 'integer', nullable: true })
  lastSeenIndex: number | null;

  @Column({ type: 'uuid' })
  revision: string;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;

  @Field()
  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt: Date;

  @Field(() => Int, { nullable: true, description: 'The chapter (1-based) that last showed this person or thing.' })
  get lastSeenChapter(): number | null {
    return this.lastSeenIndex === null ? null : this.lastSeenIndex + 1;
  }
}
