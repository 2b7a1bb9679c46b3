import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

/** Payment provider events already applied; inserted in the same transaction as their effect. */
@Entity('payment_events')
export class PaymentEvent {
  @PrimaryColumn({ type: 'varchar', length: 255 })
  id: string;

  @Column({ type: 'varchar', length: 16 })
  provider: string;

  @Column({ type: 'varchar', length: 64 })
  type: string;

  @CreateDateColumn({ type: 'timestamptz' })
  processedAt: Date;
}
