import { Field, ID, ObjectType } from 'type-graphql';
import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { Character } from '../characters/character.entity';

export type MissionStatus = 'active' | 'completed';

@ObjectType()
@Entity('missions')
@Index('ix_missions_character', ['characterId', 'startedAt'])
@Index('uq_missions_one_active', ['characterId'], { unique: true, where: `"status" = 'active'` })
export class Mission {
  @Field(() => ID)
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ type: 'uuid' })
  characterId: string;

  @ManyToOne(() => Character, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'character_id' })
  character?: Character;

  @Field()
  @Column({ type: 'text' })
  objective: string;

  @Field()
  @Column({ type: 'timestamptz' })
  startedAt: Date;

  @Field(() => String)
  @Column({ type: 'varchar', length: 16, default: 'active' })
  status: MissionStatus;

  @Column({ type: 'timestamptz', nullable: true })
  completedAt: Date | null;

  /** Chapter index that started / completed it, so undoing a chapter restores missions exactly. */
  @Column({ type: 'integer', nullable: true })
  startedAtChapter: number | null;

  @Column({ type: 'integer', nullable: true })
  completedAtChapter: number | null;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;
}
