import { CreateDateColumn, Entity, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { User } from '../auth/user.entity';
import { World } from '../worlds/world.entity';

/**
 * One player's like of one world: the primary key makes a second like of the same world impossible,
 * so `worlds.like_count` (kept in the same statement as the insert or delete) stays exact.
 */
@Entity('world_likes')
export class WorldLike {
  @PrimaryColumn({ type: 'uuid' })
  worldId: string;

  @PrimaryColumn({ type: 'uuid' })
  userId: string;

  @ManyToOne(() => World, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'world_id' })
  world?: World;

  @ManyToOne(() => User, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id' })
  user?: User;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;
}
