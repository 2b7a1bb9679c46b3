import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Password reset by mail (issue 21): single-use mailed tokens, and sessions opened by one. */
export class AccountRecovery1795673738675 implements MigrationInterface {
  name = 'AccountRecovery1795673738675';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "auth_tokens" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "user_id" uuid NOT NULL, "kind" character varying(16) NOT NULL, "token_hash" character(64) NOT NULL, "expires_at" TIMESTAMP WITH TIME ZONE NOT NULL, "used_at" TIMESTAMP WITH TIME ZONE, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_41e9ddfbb32da18c4e85e45c2fd" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "ix_auth_tokens_user" ON "auth_tokens"  ("user_id") `);
    await queryRunner.query(`CREATE UNIQUE INDEX "uq_auth_tokens_hash" ON "auth_tokens"  ("token_hash") `);
    await queryRunner.query(`ALTER TABLE "sessions" ADD "recovery_until" TIMESTAMP WITH TIME ZONE`);
    await queryRunner.query(
      `ALTER TABLE "auth_tokens" ADD CONSTRAINT "FK_9691367d446cd8b18f462c191b3" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "auth_tokens" DROP CONSTRAINT "FK_9691367d446cd8b18f462c191b3"`);
    await queryRunner.query(`ALTER TABLE "sessions" DROP COLUMN "recovery_until"`);
    await queryRunner.query(`DROP INDEX "public"."uq_auth_tokens_hash"`);
    await queryRunner.query(`DROP INDEX "public"."ix_auth_tokens_user"`);
    await queryRunner.query(`DROP TABLE "auth_tokens"`);
  }
}
