import { Check, Column, CreateDateColumn, Entity, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { User } from '../auth/user.entity';

export const SUPPORT_TYPES = ['contact', 'feedback', 'bug'] as const;
export type SupportType = (typeof SUPPORT_TYPES)[number];
export const SUPPORT_MESSAGE_MAX = 5000;

@Entity('support_messages')
@Check('ck_support_messages_type', `"type" IN ('contact', 'feedback', 'bug')`)
@Check('ck_support_messages_length', `char_length("message") BETWEEN 1 AND ${SUPPORT_MESSAGE_MAX}`)
export class SupportMessage {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ type: 'uuid' })
  userId: string;

  @ManyToOne(() => User, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id' })
  user?: User;

  @Column({ type: 'varchar', length: 16 })
  type: SupportType;

  @Column({ type: 'text' })
  message: string;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;
}
