import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn, UpdateDateColumn } from 'typeorm';
import { User } from '../../auth/user.entity';

/**
 * The embedded payment provider's own records (what Stripe keeps on its side): a checkout session the
 * player confirms on the local checkout page, and the subscription it creates. Our `subscriptions`
 * row is updated only from events about these, exactly as it is from Stripe's.
 */
@Entity('local_checkout_sessions')
export class LocalCheckoutSession {
  /** Unguessable: the id in the checkout URL is the only thing that lets a browser pay it. */
  @PrimaryColumn({ type: 'varchar', length: 64 })
  id: string;

  @Index('ix_local_checkout_sessions_user')
  @Column({ type: 'uuid' })
  userId: string;

  @ManyToOne(() => User, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id' })
  user?: User;

  @Column({ type: 'varchar', length: 32 })
  tierId: string;

  /** open → complete (paid) or expired. */
  @Column({ type: 'varchar', length: 16, default: 'open' })
  status: 'open' | 'complete' | 'expired';

  @Column({ type: 'varchar', length: 64, nullable: true })
  subscriptionId: string | null;

  /**
   * sha256 of the one-time hand-off token in the URL createCheckout gave the signed-in buyer; cleared
   * when the buyer's browser opens the page and gets the session's cookie instead.
   */
  @Column({ type: 'varchar', length: 64, nullable: true })
  handoffHash: string | null;

  /** sha256 of the HttpOnly cookie that binds the session to the buyer's browser (set at hand-off). */
  @Column({ type: 'varchar', length: 64, nullable: true })
  browserHash: string | null;

  @Column({ type: 'timestamptz' })
  expiresAt: Date;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;
}

@Entity('local_subscriptions')
export class LocalSubscription {
  @PrimaryColumn({ type: 'varchar', length: 64 })
  id: string;

  @Index('ix_local_subscriptions_user')
  @Column({ type: 'uuid' })
  userId: string;

  @ManyToOne(() => User, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id' })
  user?: User;

  @Column({ type: 'varchar', length: 32 })
  tierId: string;

  @Column({ type: 'varchar', length: 16, default: 'active' })
  status: 'active' | 'canceled';

  @Column({ type: 'timestamptz' })
  currentPeriodStart: Date;

  @Column({ type: 'timestamptz' })
  currentPeriodEnd: Date;

  @Column({ type: 'boolean', default: false })
  cancelAtPeriodEnd: boolean;

  @Column({ type: 'timestamptz', nullable: true })
  canceledAt: Date | null;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt: Date;
}
