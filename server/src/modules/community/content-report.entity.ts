import { Check, Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { User } from '../auth/user.entity';

export type ReportTarget = 'world' | 'story';
export type ReportStatus = 'open' | 'upheld' | 'dismissed';

/**
 * A player's report of a shared world or a published story. One per player and target (the unique
 * index), so the number of distinct reporters is a count of open rows; at the configured threshold
 * the content is hidden pending an operator's review (`npm run admin -- reports`).
 * The target is not a foreign key: a report outlives the content it was about, for the audit trail.
 */
@Entity('content_reports')
@Index('uq_content_reports_reporter_target', ['reporterId', 'targetKind', 'targetId'], { unique: true })
@Index('ix_content_reports_target', ['targetKind', 'targetId', 'status'])
@Check('ck_content_reports_kind', `"target_kind" IN ('world', 'story')`)
@Check('ck_content_reports_status', `"status" IN ('open', 'upheld', 'dismissed')`)
export class ContentReport {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  /** Null once the reporter's account is gone: the report stays for the record. */
  @Column({ type: 'uuid', nullable: true })
  reporterId: string | null;

  @ManyToOne(() => User, { onDelete: 'SET NULL', nullable: true })
  @JoinColumn({ name: 'reporter_id' })
  reporter?: User | null;

  @Column({ type: 'varchar', length: 16 })
  targetKind: ReportTarget;

  @Column({ type: 'uuid' })
  targetId: string;

  @Column({ type: 'varchar', length: 32 })
  reason: string;

  @Column({ type: 'text', default: '' })
  note: string;

  @Column({ type: 'varchar', length: 16, default: 'open' })
  status: ReportStatus;

  /**
   * How much this report counts toward hiding: 1 from an account that could not have been made for it
   * (old enough and played enough, REPORT_TRUSTED_*), else REPORT_NEW_ACCOUNT_WEIGHT. Every report
   * reaches the review queue whatever its weight.
   */
  @Column({ type: 'real', default: 1 })
  weight: number;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;

  @Column({ type: 'timestamptz', nullable: true })
  resolvedAt: Date | null;
}
