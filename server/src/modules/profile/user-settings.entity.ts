import { Field, Int, ObjectType } from 'type-graphql';
import { Check, Column, Entity, JoinColumn, OneToOne, PrimaryColumn, UpdateDateColumn } from 'typeorm';
import { User } from '../auth/user.entity';

@ObjectType()
@Entity('user_settings')
@Check('ck_user_settings_reading_level', '"reading_level" BETWEEN 1 AND 12')
export class UserSettings {
  @PrimaryColumn({ type: 'uuid' })
  userId: string;

  @OneToOne(() => User, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id' })
  user?: User;

  @Field({ description: 'The experimental immersive restyle of the story screen.' })
  @Column({ type: 'boolean', default: false })
  immersiveUi: boolean;

  @Field(() => Int, { description: 'Reading level 1–12 passed to chapter generation.' })
  @Column({ type: 'smallint', default: 8 })
  readingLevel: number;

  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt: Date;
}
