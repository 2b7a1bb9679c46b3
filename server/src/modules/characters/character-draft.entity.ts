import { Field, ID, ObjectType } from 'type-graphql';
import { GraphQLJSONObject } from 'graphql-scalars';
import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { User } from '../auth/user.entity';
import { World } from '../worlds/world.entity';
import { SpecialAbility } from './character.entity';

/**
 * A generated character the player has not saved (yet). Generation is paid, so what was paid for is
 * kept until the player saves it as a character or discards it: leaving the result screen never
 * silently loses the credits it cost.
 */
@ObjectType({ description: 'A generated character not saved yet: save it as a character, or discard it.' })
@Entity('character_drafts')
@Index('ix_character_drafts_user', ['userId', 'createdAt'])
export class CharacterDraft {
  @Field(() => ID)
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ type: 'uuid' })
  userId: string;

  @ManyToOne(() => User, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id' })
  user?: User;

  /** Null once the world is deleted: the draft can then only be discarded. */
  @Field(() => ID, { nullable: true })
  @Column({ type: 'uuid', nullable: true })
  worldId: string | null;

  @ManyToOne(() => World, { onDelete: 'SET NULL', nullable: true })
  @JoinColumn({ name: 'world_id' })
  world?: World | null;

  /** The generated name (SPEC's `username` of a generated profile). */
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

  /** The answers to the world's questions it was made from: saved with it, as the story's threads. */
  @Field(() => [String])
  @Column({ type: 'jsonb', default: () => "'[]'" })
  answers: string[];

  @Field()
  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;
}
