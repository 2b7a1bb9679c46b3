import { Field, ID, Int, ObjectType, registerEnumType } from 'type-graphql';
import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';
import { MEMORY_KINDS, type MemoryKind } from '../../../ai/story-ai';
import { Character } from '../../characters/character.entity';

export const MemoryKindEnum = Object.fromEntries(MEMORY_KINDS.map((k) => [k, k])) as { [K in MemoryKind]: K };
registerEnumType(MemoryKindEnum, {
  name: 'MemoryKind',
  description: 'What a memory of the memory bank records.',
  valuesConfig: {
    event: { description: 'Something that happened.' },
    fact: { description: 'Something learned that stays true.' },
    promise: { description: 'A promise, a debt, a threat: something still owed.' },
    place: { description: 'Where someone or something is.' },
  } satisfies Record<MemoryKind, { description: string }>,
});

/**
 * A memory the player wrote into the story's memory bank. Chapters keep their own memories on their
 * take's row (Chapter.memories), so they follow undo, takes and branches; the player's stay whatever
 * happens to the chapters, like the plot essentials.
 */
@Entity('story_memories')
@Index('ix_story_memories_character', ['characterId'])
export class PlayerMemory {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ type: 'uuid' })
  characterId: string;

  @ManyToOne(() => Character, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'character_id' })
  character?: Character;

  @Column({ type: 'varchar', length: 16 })
  kind: MemoryKind;

  @Column({ type: 'varchar', length: 200 })
  text: string;

  @Column({ type: 'boolean', default: false })
  pinned: boolean;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt: Date;
}

/**
 * A memory's embedding (an OpenAI-compatible /embeddings model, when one is configured), compared in
 * process: a story holds thousands of memories at most, and neither PGlite nor every PostgreSQL offers
 * pgvector. The vector is float32 little-endian bytes. Keyed by the memory's id, so a memory keeps its
 * vector through undo and branches; vectors of memories that no longer exist are never matched.
 */
@Entity('memory_embeddings')
@Index('ix_memory_embeddings_character', ['characterId', 'model'])
export class MemoryEmbedding {
  @PrimaryColumn({ type: 'uuid' })
  memoryId: string;

  @Column({ type: 'uuid' })
  characterId: string;

  @ManyToOne(() => Character, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'character_id' })
  character?: Character;

  @Column({ type: 'varchar', length: 120 })
  model: string;

  /** md5 of the text it embeds: a memory rewritten since is embedded again. */
  @Column({ type: 'char', length: 32 })
  digest: string;

  @Column({ type: 'bytea' })
  vector: Buffer;
}

/** A memory of the bank as the player sees it (Story Memory). */
@ObjectType('StoryMemoryEntry', { description: "A memory of the story's memory bank: what happened, a fact, a promise, where something is." })
export class MemoryEntry {
  @Field(() => ID)
  id: string;

  @Field(() => MemoryKindEnum)
  kind: MemoryKind;

  @Field()
  text: string;

  @Field({ description: 'Sent to the storyteller every chapter, whatever the chapter is about.' })
  pinned: boolean;

  @Field(() => Int, { nullable: true, description: 'The chapter (1-based) it comes from; null for a memory the player wrote.' })
  chapterNumber: number | null;

  @Field(() => String, { description: "storyteller (the chapter's record), action (the player's own action) or player (written by the player)." })
  source: 'storyteller' | 'action' | 'player';

  @Field({ description: 'The player rewrote it.' })
  edited: boolean;
}
