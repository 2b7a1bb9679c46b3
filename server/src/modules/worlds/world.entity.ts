import { Field, ID, Int, ObjectType } from 'type-graphql';
import { Check, Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';
import { User } from '../auth/user.entity';
import { Media } from '../media/media.entity';

export { WORLD_DESCRIPTION_MAX } from '../shared/limits';
import { WORLD_DESCRIPTION_MAX } from '../shared/limits';

@ObjectType({ description: 'A story world: featured, shared by its owner, or private to its owner.' })
@Entity('worlds')
@Check('ck_worlds_description_length', `char_length("description") <= ${WORLD_DESCRIPTION_MAX}`)
@Index('ix_worlds_featured', ['featured', 'createdAt'])
// The community list: shared and not hidden, newest share first (the other sorts read the same rows).
@Index('ix_worlds_community', ['sharedAt'], { where: 'shared_globally AND hidden_at IS NULL' })
export class World {
  @Field(() => ID)
  @PrimaryGeneratedColumn('uuid')
  id: string;

  /** Null for the worlds we seed (featured). */
  @Index('ix_worlds_owner')
  @Column({ type: 'uuid', nullable: true })
  ownerId: string | null;

  @ManyToOne(() => User, { onDelete: 'CASCADE', nullable: true })
  @JoinColumn({ name: 'owner_id' })
  owner?: User | null;

  @Field()
  @Column({ type: 'varchar', length: 120 })
  name: string;

  @Field()
  @Column({ type: 'text' })
  description: string;

  @Field(() => [String])
  @Column({ type: 'jsonb', default: () => "'[]'" })
  questions: string[];

  @Column({ type: 'uuid', nullable: true })
  imageMediaId: string | null;

  @ManyToOne(() => Media, { onDelete: 'SET NULL', nullable: true })
  @JoinColumn({ name: 'image_media_id' })
  image?: Media | null;

  @Field(() => String, { nullable: true, description: 'Detected or chosen genre, e.g. cyberpunk.' })
  @Column({ type: 'varchar', length: 32, nullable: true })
  genre: string | null;

  @Field()
  @Column({ type: 'boolean', default: false })
  sharedGlobally: boolean;

  @Field()
  @Column({ type: 'boolean', default: false })
  featured: boolean;

  /** When the owner last shared it (the community list's "new" order); kept when unshared. */
  @Field(() => Date, { nullable: true })
  @Column({ type: 'timestamptz', nullable: true })
  sharedAt: Date | null;

  /** Characters spawned into the world, kept in the spawn's own transaction. */
  @Field(() => Int, { description: 'Characters spawned into this world.' })
  @Column({ type: 'integer', default: 0 })
  playCount: number;

  /** Rows of world_likes, kept in the like's own statement. */
  @Field(() => Int, { description: 'Players who like this world.' })
  @Column({ type: 'integer', default: 0 })
  likeCount: number;

  /** Hidden pending review (reports reached the threshold) or by an operator: public only to its owner. */
  @Column({ type: 'timestamptz', nullable: true })
  hiddenAt: Date | null;

  /** The world this one was remixed from; the credit goes away if the original does. */
  @Column({ type: 'uuid', nullable: true })
  remixedFromId: string | null;

  @ManyToOne(() => World, { onDelete: 'SET NULL', nullable: true })
  @JoinColumn({ name: 'remixed_from_id' })
  remixedFrom?: World | null;

  @Field()
  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt: Date;
}
