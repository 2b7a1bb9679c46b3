import type { DataSource, EntitySubscriberInterface, InsertEvent, QueryRunner, TransactionCommitEvent, TransactionRollbackEvent } from 'typeorm';
import { CreditTransaction } from '../modules/billing/credit-transaction.entity';
import type { Metrics } from './metrics';

type Pending = Array<{ delta: number; reason: string }>;

/**
 * Counts credits from the ledger as rows are written, but only once their transaction commits: a
 * spend inside a transaction that later rolls back (a failed world creation) never reaches the
 * metrics. Watching the ledger entity means no credit code has to remember to report.
 */
export function meterCredits(dataSource: DataSource, metrics: Metrics): void {
  const pending = new WeakMap<QueryRunner, Pending>();
  const subscriber: EntitySubscriberInterface<CreditTransaction> = {
    listenTo: () => CreditTransaction,
    afterInsert(event: InsertEvent<CreditTransaction>) {
      const row = { delta: Number(event.entity.delta), reason: String(event.entity.reason) };
      if (!Number.isFinite(row.delta)) return;
      const qr = event.queryRunner;
      if (qr?.isTransactionActive) {
        const list = pending.get(qr) ?? [];
        list.push(row);
        pending.set(qr, list);
      } else {
        metrics.recordCredits(row.delta, row.reason);
      }
    },
    afterTransactionCommit(event: TransactionCommitEvent) {
      // A released savepoint is not a commit: wait for the outermost transaction.
      if (event.queryRunner.isTransactionActive) return;
      const list = pending.get(event.queryRunner);
      pending.delete(event.queryRunner);
      for (const r of list ?? []) metrics.recordCredits(r.delta, r.reason);
    },
    afterTransactionRollback(event: TransactionRollbackEvent) {
      // Only a full rollback is certain to drop every row (savepoint rollbacks are not used for credits).
      if (!event.queryRunner.isTransactionActive) pending.delete(event.queryRunner);
    },
  };
  // DataSource builds its subscriber list at initialize; adding one afterwards is supported at runtime.
  (dataSource.subscribers as EntitySubscriberInterface[]).push(subscriber);
}
