import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Charges waiting for their generation's outcome. A row lives from the debit until the generation
 * succeeds (deleted) or fails (refunded, deleted); one left behind by a process that died is refunded
 * by the reconciliation (CreditsService.reconcilePending).
 */
export class PendingCharges1795300000001 implements MigrationInterface {
  name = 'PendingCharges1795300000001';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE "pending_charges" (
      "transaction_id" uuid NOT NULL,
      "user_id" uuid NOT NULL,
      "amount" integer NOT NULL,
      "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
      CONSTRAINT "PK_pending_charges" PRIMARY KEY ("transaction_id"),
      CONSTRAINT "FK_pending_charges_tx" FOREIGN KEY ("transaction_id") REFERENCES "credit_transactions"("id") ON DELETE CASCADE,
      CONSTRAINT "FK_pending_charges_user" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE
    )`);
    await queryRunner.query(`CREATE INDEX "ix_pending_charges_created" ON "pending_charges" ("created_at")`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "pending_charges"`);
  }
}
