import type { Difficulty, PointOfView } from '../../ai/story-ai';
import { Field, ID, Int, ObjectType } from 'type-graphql';
import { GraphQLJSONObject } from 'graphql-scalars';
import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { User } from '../auth/user.entity';
import { World } from '../worlds/world.entity';

@ObjectType()
export class SpecialAbility {
  @Field()
  name: string;

  @Field()
  description: string;
}

/** The world as a story keeps it (Character.worldSnapshot). */
export interface WorldSnapshot {
  name?: string;
  description?: string;
  questions?: string[];
  /** The player's answers to the questions when the character was made, in their order (issue 32). */
  answers?: string[];
}

@ObjectType({ description: 'A saved character, owned by one player, living in one world.' })
@Entity('characters')
@Index('ix_characters_user', ['userId', 'createdAt'])
export class Character {
  @Field(() => ID)
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ type: 'uuid' })
  userId: string;

  @ManyToOne(() => User, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id' })
  user?: User;

  /** Null once the world is deleted: the character survives and shows 'Unknown World'. */
  @Field(() => ID, { nullable: true })
  @Column({ type: 'uuid', nullable: true })
  worldId: string | null;

  @ManyToOne(() => World, { onDelete: 'SET NULL', nullable: true })
  @JoinColumn({ name: 'world_id' })
  world?: World | null;

  @Field()
  @Column({ type: 'varchar', length: 80 })
  name: string;

  @Field(() => GraphQLJSONObject, { description: 'Stat name → value.' })
  @Column({ type: 'jsonb', default: () => "'{}'" })
  stats: Record<string, number>;

  @Field()
  @Column({ type: 'text' })
  description: string;

  @Field(() => [String])
  @Column({ type: 'jsonb', default: () => "'[]'" })
  traits: string[];

  @Field(() => [String])
  @Column({ type: 'jsonb', default: () => "'[]'" })
  strengths: string[];

  @Field(() => [String])
  @Column({ type: 'jsonb', default: () => "'[]'" })
  weaknesses: string[];

  @Field(() => SpecialAbility)
  @Column({ type: 'jsonb', default: () => `'{"name": "", "description": ""}'` })
  special: SpecialAbility;

  /**
   * What the story is written from, kept with it when the character is saved: the world's name and
   * description (its questions too). The story never needs the world row, nor a description from the
   * client, to go on — a world removed with its owner's account leaves other players' stories whole.
   */
  @Column({ type: 'jsonb', default: () => "'{}'" })
  worldSnapshot: WorldSnapshot;

  /** The setting text of the latest chapter that changed it; drives the immersive styles. */
  @Field(() => String, { nullable: true })
  @Column({ type: 'text', nullable: true })
  currentSetting: string | null;

  /** Rolling summary of chapters [0, summaryThroughIndex], updated incrementally (context budget). */
  @Column({ type: 'text', default: '' })
  storySummary: string;

  @Column({ type: 'integer', default: -1 })
  summaryThroughIndex: number;

  /** The player's plot essentials: always in the chapter prompt (story memory, owner only). */
  @Column({ type: 'text', default: '' })
  plotEssentials: string;

  /** The player's author's note: style and direction, placed right before the action. */
  @Column({ type: 'text', default: '' })
  authorsNote: string;

  /** The narration's person and tense (second person by default). */
  @Column({ type: 'varchar', length: 8, default: 'second' })
  pointOfView: PointOfView;

  /**
   * The hero's health now (issue 31: stories/stakes/hero-state.ts). Written only by chapter takes
   * (commit_chapter, and undo/takes/rewind from the take's recorded stakes), so it is always the
   * selected story's.
   */
  @Field(() => Int, { description: 'Health now (0: the latest chapter was a defeat).' })
  @Column({ type: 'integer', default: 10 })
  health: number;

  @Field(() => Int, { description: 'The most health the hero can have (a defeat the player goes on from lowers it).' })
  @Column({ type: 'integer', default: 10 })
  healthMax: number;

  /** How hard the story is on the hero: story, balanced or hard (Story Memory). */
  @Column({ type: 'varchar', length: 8, default: 'balanced' })
  difficulty: Difficulty;

  @Field()
  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;
}
