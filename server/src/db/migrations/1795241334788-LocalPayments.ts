import type { MigrationInterface, QueryRunner } from 'typeorm';

export class LocalPayments1795241334788 implements MigrationInterface {
  name = 'LocalPayments1795241334788';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "local_checkout_sessions" ("id" character varying(64) NOT NULL, "user_id" uuid NOT NULL, "tier_id" character varying(32) NOT NULL, "status" character varying(16) NOT NULL DEFAULT 'open', "subscription_id" character varying(64), "expires_at" TIMESTAMP WITH TIME ZONE NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_db2901abe624d53cb9d473fed17" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "ix_local_checkout_sessions_user" ON "local_checkout_sessions"  ("user_id") `);
    await queryRunner.query(
      `CREATE TABLE "local_subscriptions" ("id" character varying(64) NOT NULL, "user_id" uuid NOT NULL, "tier_id" character varying(32) NOT NULL, "status" character varying(16) NOT NULL DEFAULT 'active', "current_period_start" TIMESTAMP WITH TIME ZONE NOT NULL, "current_period_end" TIMESTAMP WITH TIME ZONE NOT NULL, "cancel_at_period_end" boolean NOT NULL DEFAULT false, "canceled_at" TIMESTAMP WITH TIME ZONE, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_a7eddcbc01fea286a5f16f96b7a" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "ix_local_subscriptions_user" ON "local_subscriptions"  ("user_id") `);
    await queryRunner.query(
      `ALTER TABLE "local_checkout_sessions" ADD CONSTRAINT "FK_e051282b79dc9c3d37f5d17b0cc" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "local_subscriptions" ADD CONSTRAINT "FK_4bbf9b463e3619c0d9869add470" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "local_subscriptions" DROP CONSTRAINT "FK_4bbf9b463e3619c0d9869add470"`);
    await queryRunner.query(`ALTER TABLE "local_checkout_sessions" DROP CONSTRAINT "FK_e051282b79dc9c3d37f5d17b0cc"`);
    await queryRunner.query(`DROP INDEX "public"."ix_local_subscriptions_user"`);
    await queryRunner.query(`DROP TABLE "local_subscriptions"`);
    await queryRunner.query(`DROP INDEX "public"."ix_local_checkout_sessions_user"`);
    await queryRunner.query(`DROP TABLE "local_checkout_sessions"`);
  }
}
