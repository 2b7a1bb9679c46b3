import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

/**
 * Secrets generated once on first boot (e.g. the JWT signing key when JWT_SECRET is unset). Kept in
 * the database rather than a local file so that several instances on one PostgreSQL agree on them;
 * on the embedded default the database itself lives under DATA_DIR.
 */
@Entity('app_secrets')
export class AppSecret {
  @PrimaryColumn({ type: 'varchar', length: 64 })
  name: string;

  @Column({ type: 'text' })
  value: string;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;
}
