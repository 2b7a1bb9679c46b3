import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * One fixed window of counted attempts (AttemptBudgets): guesses at a code, mails to an address. The
 * key is stored as its SHA-256, so no address or account id sits in the table.
 */
@Entity('attempt_counters')
export class AttemptCounter {
  @PrimaryColumn({ type: 'char', length: 64 })
  keyHash: string;

  @Column({ type: 'integer' })
  count: number;

  @Index('ix_attempt_counters_window_ends')
  @Column({ type: 'timestamptz' })
  windowEndsAt: Date;
}
