import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Binds a local checkout session to the buyer's browser: a one-time hand-off token, then a cookie. */
export class CheckoutHandoff1795300000000 implements MigrationInterface {
  name = 'CheckoutHandoff1795300000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "local_checkout_sessions" ADD "handoff_hash" character varying(64)`);
    await queryRunner.query(`ALTER TABLE "local_checkout_sessions" ADD "browser_hash" character varying(64)`);
    // Sessions opened before this release have no hand-off token: they cannot be paid any more.
    await queryRunner.query(`UPDATE "local_checkout_sessions" SET "status" = 'expired' WHERE "status" = 'open'`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "local_checkout_sessions" DROP COLUMN "browser_hash"`);
    await queryRunner.query(`ALTER TABLE "local_checkout_sessions" DROP COLUMN "handoff_hash"`);
  }
}
