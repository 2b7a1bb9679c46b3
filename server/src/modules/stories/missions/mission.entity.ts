import { Field, ID, Int, ObjectType } from 'type-graphql';
import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { Character } from '../../characters/character.entity';

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

  @Field(() => Date, { nullable: true, description: 'When it was completed (the mission log).' })
  @Column({ type: 'timestamptz', nullable: true })
  completedAt: Date | null;

  /** Chapter index that started / completed it, so undoing a chapter restores missions exactly. */
  @Column({ type: 'integer', nullable: true })
  startedAtChapter: number | null;

  @Column({ type: 'integer', nullable: true })
  completedAtChapter: number | null;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;

  @Field(() => Int, { nullable: true, description: 'The chapter (1-based) that brought it; null when the player set it before any chapter.' })
  get startedInChapter(): number | null {
    return this.startedAtChapter === null || this.startedAtChapter === undefined ? null : this.startedAtChapter + 1;
  }

  @Field(() => Int, { nullable: true, description: 'The chapter (1-based) that completed it.' })
  get completedInChapter(): number | null {
    return this.completedAtChapter === null || this.completedAtChapter === undefined ? null : this.completedAtChapter + 1;
  }
}
