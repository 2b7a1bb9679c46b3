import { Field, Float, Int, ObjectType } from 'type-graphql';
import { Check, Column, Entity, JoinColumn, OneToOne, PrimaryColumn, UpdateDateColumn } from 'typeorm';
import { User } from '../auth/user.entity';

export type ReadAloudEngine = 'browser' | 'server';
export const READ_ALOUD_ENGINES: readonly ReadAloudEngine[] = ['browser', 'server'];

@ObjectType()
@Entity('user_settings')
@Check('ck_user_settings_reading_level', '"reading_level" BETWEEN 1 AND 12')
@Check('ck_user_settings_read_aloud_rate', '"read_aloud_rate" BETWEEN 0.5 AND 2')
@Check('ck_user_settings_read_aloud_engine', `"read_aloud_engine" IN ('browser', 'server')`)
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

  @Field(() => String, { description: "Read-aloud: 'browser' (the browser's own voice, offline) or 'server' (the server voice; credits)." })
  @Column({ type: 'varchar', length: 16, default: 'browser' })
  readAloudEngine: ReadAloudEngine;

  @Field({ description: "Read-aloud: the browser voice's name ('' = the browser's default voice)." })
  @Column({ type: 'varchar', length: 200, default: '' })
  readAloudVoice: string;

  @Field({ description: "Read-aloud: the server voice ('' = the server's first voice)." })
  @Column({ type: 'varchar', length: 64, default: '' })
  readAloudServerVoice: string;

  @Field(() => Float, { description: 'Read-aloud speed, 0.5–2 (1 = normal).' })
  @Column({ type: 'real', default: 1 })
  readAloudRate: number;

  @Field({ description: 'Read each new chapter aloud as soon as it has been written.' })
  @Column({ type: 'boolean', default: false })
  readAloudAuto: boolean;

  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt: Date;
}
