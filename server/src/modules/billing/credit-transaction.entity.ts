import { Field, ID, Int, ObjectType } from 'type-graphql';
import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { User } from '../auth/user.entity';

/** The credit ledger: every change of a balance, with its reason. Append-only. */
@ObjectType()
@Entity('credit_transactions')
@Index('ix_credit_transactions_user', ['userId', 'createdAt'])
export class CreditTransaction {
  @Field(() => ID)
  @PrimaryGeneratedColumn('uuid')
  id: string;

  /** Null once the account was deleted: the ledger is kept, without anything that names the player. */
  @Column({ type: 'uuid', nullable: true })
  userId: string | null;

  /** Set when the account was deleted: a random id that groups its rows and leads to nobody. */
  @Column({ type: 'uuid', nullable: true })
  erasedAccountRef: string | null;

  @ManyToOne(() => User, { onDelete: 'SET NULL' })
  @JoinColumn({ name: 'user_id' })
  user?: User;

  @Field(() => Int, { description: 'Positive for grants and refunds, negative for spending.' })
  @Column({ type: 'integer' })
  delta: number;

  @Field(() => Int)
  @Column({ type: 'integer' })
  balanceAfter: number;

  /** e.g. signup_grant, period_grant, world_create, character_generate, refund. */
  @Field()
  @Column({ type: 'varchar', length: 32 })
  reason: string;

  @Field(() => String, { nullable: true })
  @Column({ type: 'varchar', length: 128, nullable: true })
  referenceId: string | null;

  /** Makes grants idempotent (e.g. one grant per subscription and period). */
  @Index('uq_credit_transactions_idempotency', { unique: true, where: '"idempotency_key" IS NOT NULL' })
  @Column({ type: 'varchar', length: 200, nullable: true })
  idempotencyKey: string | null;

  /**
   * When the row was written (clock_timestamp), not when its transaction began (now()): spends of one
   * player queue on the balance row's lock, so a transaction that began first may write second, and
   * the ledger, newest first, would list a balance below an older one.
   */
  @Field()
  @CreateDateColumn({ type: 'timestamptz', default: () => 'clock_timestamp()' })
  createdAt: Date;
}
