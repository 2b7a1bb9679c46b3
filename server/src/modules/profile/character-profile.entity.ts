import { Field, ObjectType } from 'type-graphql';
import { Column, Entity, JoinColumn, OneToOne, PrimaryColumn, UpdateDateColumn } from 'typeorm';
import { User } from '../auth/user.entity';

/** The player's own character profile, used to spawn a character "from profile". */
@ObjectType()
@Entity('user_character_profiles')
export class UserCharacterProfile {
  @PrimaryColumn({ type: 'uuid' })
  userId: string;

  @OneToOne(() => User, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id' })
  user?: User;

  @Field()
  @Column({ type: 'text', default: '' })
  skills: string;

  @Field()
  @Column({ type: 'text', default: '' })
  personalityTraits: string;

  @Field()
  @Column({ type: 'text', default: '' })
  freeTime: string;

  @Field()
  @Column({ type: 'text', default: '' })
  pastTimes: string;

  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt: Date;
}
