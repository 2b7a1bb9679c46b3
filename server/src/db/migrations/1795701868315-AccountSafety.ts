import type { MigrationInterface, QueryRunner } from 'typeorm';

export class AccountSafety1795701868315 implements MigrationInterface {
  name = 'AccountSafety1795701868315';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "attempt_counters" ("key_hash" character(64) NOT NULL, "count" integer NOT NULL, "window_ends_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "PK_f91e236d4882f06373d3fe4d390" PRIMARY KEY ("key_hash"))`,
    );
    await queryRunner.query(`CREATE INDEX "ix_attempt_counters_window_ends" ON "attempt_counters"  ("window_ends_at") `);
    await queryRunner.query(`ALTER TABLE "sessions" ADD "reauthenticated_at" TIMESTAMP WITH TIME ZONE`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "sessions" DROP COLUMN "reauthenticated_at"`);
    await queryRunner.query(`DROP INDEX "public"."ix_attempt_counters_window_ends"`);
    await queryRunner.query(`DROP TABLE "attempt_counters"`);
  }
}
