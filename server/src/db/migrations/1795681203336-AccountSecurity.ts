import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * MFA (TOTP factors and challenges, session assurance levels), mailed sign-in codes, email-change and
 * sign-up confirmation links, and a credit ledger that outlives a deleted account without naming it
 * (issue 21). Accounts that exist already count as confirmed: they signed up when nobody was asked to.
 */
export class AccountSecurity1795681203336 implements MigrationInterface {
  name = 'AccountSecurity1795681203336';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "credit_transactions" DROP CONSTRAINT "FK_9ac41a5292ef4d8356a86be30c2"`);
    await queryRunner.query(
      `CREATE TABLE "mfa_factors" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "user_id" uuid NOT NULL, "friendly_name" character varying(64), "factor_type" character varying(16) NOT NULL DEFAULT 'totp', "secret" character varying(64) NOT NULL, "status" character varying(16) NOT NULL DEFAULT 'unverified', "last_used_step" bigint, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_2a242f78dd4fed11bd563d4f933" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "ix_mfa_factors_user" ON "mfa_factors"  ("user_id") `);
    await queryRunner.query(
      `CREATE TABLE "mfa_challenges" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "factor_id" uuid NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "expires_at" TIMESTAMP WITH TIME ZONE NOT NULL, "verified_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "PK_25d85a6da62620267e003fb4da4" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "ix_mfa_challenges_factor" ON "mfa_challenges"  ("factor_id") `);
    await queryRunner.query(`ALTER TABLE "users" ADD "email_confirmed_at" TIMESTAMP WITH TIME ZONE`);
    await queryRunner.query(`UPDATE "users" SET "email_confirmed_at" = "created_at"`);
    await queryRunner.query(`ALTER TABLE "sessions" ADD "aal" character varying(8) NOT NULL DEFAULT 'aal1'`);
    await queryRunner.query(`ALTER TABLE "sessions" ADD "auth_method" character varying(16) NOT NULL DEFAULT 'password'`);
    await queryRunner.query(`ALTER TABLE "auth_tokens" ADD "new_email" character varying(254)`);
    await queryRunner.query(`ALTER TABLE "credit_transactions" ADD "erased_account_ref" uuid`);
    await queryRunner.query(`ALTER TABLE "credit_transactions" ALTER COLUMN "user_id" DROP NOT NULL`);
    await queryRunner.query(
      `ALTER TABLE "mfa_factors" ADD CONSTRAINT "FK_120abae8e4a6232bfe2c75b59d2" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "mfa_challenges" ADD CONSTRAINT "FK_022162ebd29b0e72d98338f41df" FOREIGN KEY ("factor_id") REFERENCES "mfa_factors"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "credit_transactions" ADD CONSTRAINT "FK_9ac41a5292ef4d8356a86be30c2" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE NO ACTION`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "credit_transactions" DROP CONSTRAINT "FK_9ac41a5292ef4d8356a86be30c2"`);
    await queryRunner.query(`ALTER TABLE "mfa_challenges" DROP CONSTRAINT "FK_022162ebd29b0e72d98338f41df"`);
    await queryRunner.query(`ALTER TABLE "mfa_factors" DROP CONSTRAINT "FK_120abae8e4a6232bfe2c75b59d2"`);
    await queryRunner.query(`ALTER TABLE "credit_transactions" ALTER COLUMN "user_id" SET NOT NULL`);
    await queryRunner.query(`ALTER TABLE "credit_transactions" DROP COLUMN "erased_account_ref"`);
    await queryRunner.query(`ALTER TABLE "auth_tokens" DROP COLUMN "new_email"`);
    await queryRunner.query(`ALTER TABLE "sessions" DROP COLUMN "auth_method"`);
    await queryRunner.query(`ALTER TABLE "sessions" DROP COLUMN "aal"`);
    await queryRunner.query(`ALTER TABLE "users" DROP COLUMN "email_confirmed_at"`);
    await queryRunner.query(`DROP INDEX "public"."ix_mfa_challenges_factor"`);
    await queryRunner.query(`DROP TABLE "mfa_challenges"`);
    await queryRunner.query(`DROP INDEX "public"."ix_mfa_factors_user"`);
    await queryRunner.query(`DROP TABLE "mfa_factors"`);
    await queryRunner.query(
      `ALTER TABLE "credit_transactions" ADD CONSTRAINT "FK_9ac41a5292ef4d8356a86be30c2" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }
}
