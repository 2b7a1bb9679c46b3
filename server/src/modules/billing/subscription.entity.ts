import { Check, Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, OneToOne, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';
import { User } from '../auth/user.entity';
import { Tier } from './tier.entity';

export type SubscriptionStatus = 'active' | 'past_due' | 'canceled' | 'incomplete';

/** One per user: the current tier, billing period and the credit balance (never negative). */
@Entity('subscriptions')
@Check('ck_subscriptions_credits_non_negative', '"credits" >= 0')
export class Subscription {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Index('uq_subscriptions_user', { unique: true })
  @Column({ type: 'uuid' })
  userId: string;

  @OneToOne(() => User, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id' })
  user?: User;

  @Column({ type: 'varchar', length: 32 })
  tierId: string;

  @ManyToOne(() => Tier)
  @JoinColumn({ name: 'tier_id' })
  tier?: Tier;

  @Column({ type: 'varchar', length: 16, default: 'active' })
  status: SubscriptionStatus;

  @Column({ type: 'integer', default: 0 })
  credits: number;

  @Column({ type: 'timestamptz' })
  currentPeriodStart: Date;

  @Column({ type: 'timestamptz', nullable: true })
  currentPeriodEnd: Date | null;

  @Column({ type: 'boolean', default: false })
  cancelAtPeriodEnd: boolean;

  /** 'none' (Free), 'local' (embedded checkout) or 'stripe'. */
  @Column({ type: 'varchar', length: 16, default: 'none' })
  provider: string;

  @Column({ type: 'varchar', length: 255, nullable: true })
  providerCustomerId: string | null;

  @Index('uq_subscriptions_provider_sub', { unique: true, where: '"provider_subscription_id" IS NOT NULL' })
  @Column({ type: 'varchar', length: 255, nullable: true })
  providerSubscriptionId: string | null;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt: Date;
}
