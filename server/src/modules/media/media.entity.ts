import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';

/**
 * Binary media we store ourselves (world images). In the database so every instance can serve it
 * without a shared disk; `sha256` doubles as the HTTP ETag.
 */
@Entity('media')
export class Media {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ type: 'varchar', length: 32 })
  mime: string;

  @Column({ type: 'bytea' })
  bytes: Buffer;

  @Column({ type: 'char', length: 64 })
  sha256: string;

  @Column({ type: 'integer' })
  byteLength: number;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;
}
