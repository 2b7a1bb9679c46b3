import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/**
 * The audit trail of the operator CLI (`npm run admin`): every action it takes, who ran it, on what,
 * with what detail. Rows are only ever inserted, in the same transaction as the action itself.
 */
@Entity('operator_actions')
@Index('ix_operator_actions_created', ['createdAt'])
export class OperatorAction {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  /** The operating-system user (or --as) who ran the command. */
  @Column({ type: 'varchar', length: 120 })
  operator: string;

  @Column({ type: 'varchar', length: 40 })
  action: string;

  @Column({ type: 'varchar', length: 16 })
  targetKind: string;

  @Column({ type: 'varchar', length: 120 })
  targetId: string;

  @Column({ type: 'jsonb', default: () => "'{}'" })
  detail: Record<string, unknown>;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;
}
