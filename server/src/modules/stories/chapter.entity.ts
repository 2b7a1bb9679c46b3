import { Field, ID, Int, ObjectType } from 'type-graphql';
import { GraphQLJSONObject } from 'graphql-scalars';
import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';
import { Character } from '../characters/character.entity';

export type ChapterStatus = 'generating' | 'complete' | 'failed';

/**
 * One take of one chapter. Alternative takes of the same index are kept (regenerate); exactly one
 * per index is selected. A partial unique index allows at most one generating chapter per character,
 * so the storyline can never fork even with several instances.
 */
@ObjectType()
@Entity('chapters')
@Index('uq_chapters_selected', ['characterId', 'index'], { unique: true, where: '"is_selected"' })
@Index('uq_chapters_take', ['characterId', 'index', 'take'], { unique: true })
@Index('uq_chapters_one_generating', ['characterId'], { unique: true, where: `"status" = 'generating'` })
export class Chapter {
  @Field(() => ID)
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ type: 'uuid' })
  characterId: string;

  @ManyToOne(() => Character, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'character_id' })
  character?: Character;

  @Field(() => Int)
  @Column({ type: 'integer' })
  index: number;

  @Field(() => Int)
  @Column({ type: 'smallint', default: 0 })
  take: number;

  @Column({ type: 'boolean', default: true })
  isSelected: boolean;

  @Field(() => String)
  @Column({ type: 'varchar', length: 16, default: 'complete' })
  status: ChapterStatus;

  /** Grows chunk by chunk while generating, so a reconnecting reader gets the text so far. */
  @Field()
  @Column({ type: 'text', default: '' })
  text: string;

  @Field(() => String, { nullable: true })
  @Column({ type: 'text', nullable: true })
  playerChoice: string | null;

  @Field(() => [String])
  @Column({ type: 'jsonb', default: () => "'[]'" })
  choices: string[];

  @Field(() => String, { nullable: true })
  @Column({ type: 'text', nullable: true })
  setting: string | null;

  @Field(() => GraphQLJSONObject)
  @Column({ type: 'jsonb', default: () => "'{}'" })
  statIncreases: Record<string, number>;

  /** Character stats after this chapter: undo and take selection restore them exactly. */
  @Column({ type: 'jsonb', default: () => "'{}'" })
  statsAfter: Record<string, number>;

  @Field()
  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt: Date;
}
