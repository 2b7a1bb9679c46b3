import type { MigrationInterface, QueryRunner } from 'typeorm';

/** A ledger row's time is when it was written, so the ledger's order is the balance's (credit-transaction.entity.ts). */
export class LedgerWriteTime1795800000002 implements MigrationInterface {
  name = 'LedgerWriteTime1795800000002';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "credit_transactions" ALTER COLUMN "created_at" SET DEFAULT clock_timestamp()`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "credit_transactions" ALTER COLUMN "created_at" SET DEFAULT now()`);
  }
}
