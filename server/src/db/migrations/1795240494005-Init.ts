import type { MigrationInterface, QueryRunner } from 'typeorm';

export class Init1795240494005 implements MigrationInterface {
  name = 'Init1795240494005';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "app_secrets" ("name" character varying(64) NOT NULL, "value" text NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_6c785a9da9881929b0d1d780423" PRIMARY KEY ("name"))`,
    );
    await queryRunner.query(
      `CREATE TABLE "users" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "email" character varying(254) NOT NULL, "username" character varying(40) NOT NULL, "password_hash" text NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_a3ffb1c0c8416b9fc6f907b7433" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE UNIQUE INDEX "uq_users_email" ON "users"  ("email") `);
    await queryRunner.query(
      `CREATE TABLE "sessions" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "user_id" uuid NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "last_refreshed_at" TIMESTAMP WITH TIME ZONE NOT NULL, "revoked_at" TIMESTAMP WITH TIME ZONE, "revoked_reason" character varying(32), "user_agent" character varying(256), "ip" character varying(64), CONSTRAINT "PK_3238ef96f18b355b671619111bc" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "ix_sessions_user" ON "sessions"  ("user_id") `);
    await queryRunner.query(
      `CREATE TABLE "refresh_tokens" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "session_id" uuid NOT NULL, "token_hash" character(64) NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "expires_at" TIMESTAMP WITH TIME ZONE NOT NULL, "used_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "PK_7d8bee0204106019488c4c50ffa" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "ix_refresh_tokens_session" ON "refresh_tokens"  ("session_id") `);
    await queryRunner.query(`CREATE UNIQUE INDEX "uq_refresh_tokens_hash" ON "refresh_tokens"  ("token_hash") `);
    await queryRunner.query(
      `CREATE TABLE "credit_transactions" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "user_id" uuid NOT NULL, "delta" integer NOT NULL, "balance_after" integer NOT NULL, "reason" character varying(32) NOT NULL, "reference_id" character varying(128), "idempotency_key" character varying(200), "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_a408319811d1ab32832ec86fc2c" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "uq_credit_transactions_idempotency" ON "credit_transactions"  ("idempotency_key") WHERE "idempotency_key" IS NOT NULL`,
    );
    await queryRunner.query(`CREATE INDEX "ix_credit_transactions_user" ON "credit_transactions"  ("user_id", "created_at") `);
    await queryRunner.query(
      `CREATE TABLE "payment_events" ("id" character varying(255) NOT NULL, "provider" character varying(16) NOT NULL, "type" character varying(64) NOT NULL, "processed_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_9f1d16fc78b33e676940a32e8b5" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE TABLE "tiers" ("id" character varying(32) NOT NULL, "name" character varying(64) NOT NULL, "price_cents" integer NOT NULL, "monthly_credits" integer NOT NULL, "max_context_tokens" integer NOT NULL, "description" text NOT NULL, "features" jsonb NOT NULL DEFAULT '[]', "sort_order" smallint NOT NULL DEFAULT '0', CONSTRAINT "PK_908405492b9b2c2ae1cea1e1cc0" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE TABLE "subscriptions" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "user_id" uuid NOT NULL, "tier_id" character varying(32) NOT NULL, "status" character varying(16) NOT NULL DEFAULT 'active', "credits" integer NOT NULL DEFAULT '0', "current_period_start" TIMESTAMP WITH TIME ZONE NOT NULL, "current_period_end" TIMESTAMP WITH TIME ZONE, "cancel_at_period_end" boolean NOT NULL DEFAULT false, "provider" character varying(16) NOT NULL DEFAULT 'none', "provider_customer_id" character varying(255), "provider_subscription_id" character varying(255), "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "REL_d0a95ef8a28188364c546eb65c" UNIQUE ("user_id"), CONSTRAINT "ck_subscriptions_credits_non_negative" CHECK ("credits" >= 0), CONSTRAINT "PK_a87248d73155605cf782be9ee5e" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE UNIQUE INDEX "uq_subscriptions_user" ON "subscriptions"  ("user_id") `);
    await queryRunner.query(
      `CREATE UNIQUE INDEX "uq_subscriptions_provider_sub" ON "subscriptions"  ("provider_subscription_id") WHERE "provider_subscription_id" IS NOT NULL`,
    );
    await queryRunner.query(
      `CREATE TABLE "media" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "mime" character varying(32) NOT NULL, "bytes" bytea NOT NULL, "sha256" character(64) NOT NULL, "byte_length" integer NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_f4e0fcac36e050de337b670d8bd" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE TABLE "worlds" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "owner_id" uuid, "name" character varying(120) NOT NULL, "description" text NOT NULL, "questions" jsonb NOT NULL DEFAULT '[]', "image_media_id" uuid, "genre" character varying(32), "shared_globally" boolean NOT NULL DEFAULT false, "featured" boolean NOT NULL DEFAULT false, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "ck_worlds_description_length" CHECK (char_length("description") <= 1200), CONSTRAINT "PK_8b447f7a2b28d3567db893ae7a6" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "ix_worlds_owner" ON "worlds"  ("owner_id") `);
    await queryRunner.query(`CREATE INDEX "ix_worlds_featured" ON "worlds"  ("featured", "created_at") `);
    await queryRunner.query(
      `CREATE TABLE "characters" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "user_id" uuid NOT NULL, "world_id" uuid, "name" character varying(80) NOT NULL, "stats" jsonb NOT NULL DEFAULT '{}', "description" text NOT NULL, "traits" jsonb NOT NULL DEFAULT '[]', "strengths" jsonb NOT NULL DEFAULT '[]', "weaknesses" jsonb NOT NULL DEFAULT '[]', "special" jsonb NOT NULL DEFAULT '{"name": "", "description": ""}', "current_setting" text, "story_summary" text NOT NULL DEFAULT '', "summary_through_index" integer NOT NULL DEFAULT '-1', "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_9d731e05758f26b9315dac5e378" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "ix_characters_user" ON "characters"  ("user_id", "created_at") `);
    await queryRunner.query(
      `CREATE TABLE "user_character_profiles" ("user_id" uuid NOT NULL, "skills" text NOT NULL DEFAULT '', "personality_traits" text NOT NULL DEFAULT '', "free_time" text NOT NULL DEFAULT '', "past_times" text NOT NULL DEFAULT '', "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_a2c529787c55dfecf1a310b1125" PRIMARY KEY ("user_id"))`,
    );
    await queryRunner.query(
      `CREATE TABLE "user_settings" ("user_id" uuid NOT NULL, "immersive_ui" boolean NOT NULL DEFAULT false, "reading_level" smallint NOT NULL DEFAULT '8', "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "ck_user_settings_reading_level" CHECK ("reading_level" BETWEEN 1 AND 12), CONSTRAINT "PK_4ed056b9344e6f7d8d46ec4b302" PRIMARY KEY ("user_id"))`,
    );
    await queryRunner.query(
      `CREATE TABLE "chapters" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "character_id" uuid NOT NULL, "index" integer NOT NULL, "take" smallint NOT NULL DEFAULT '0', "is_selected" boolean NOT NULL DEFAULT true, "status" character varying(16) NOT NULL DEFAULT 'complete', "text" text NOT NULL DEFAULT '', "player_choice" text, "choices" jsonb NOT NULL DEFAULT '[]', "setting" text, "stat_increases" jsonb NOT NULL DEFAULT '{}', "stats_after" jsonb NOT NULL DEFAULT '{}', "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_a2bbdbb4bdc786fe0cb0fcfc4a0" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE UNIQUE INDEX "uq_chapters_one_generating" ON "chapters"  ("character_id") WHERE "status" = 'generating'`);
    await queryRunner.query(`CREATE UNIQUE INDEX "uq_chapters_take" ON "chapters"  ("character_id", "index", "take") `);
    await queryRunner.query(`CREATE UNIQUE INDEX "uq_chapters_selected" ON "chapters"  ("character_id", "index") WHERE "is_selected"`);
    await queryRunner.query(
      `CREATE TABLE "missions" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "character_id" uuid NOT NULL, "objective" text NOT NULL, "started_at" TIMESTAMP WITH TIME ZONE NOT NULL, "status" character varying(16) NOT NULL DEFAULT 'active', "completed_at" TIMESTAMP WITH TIME ZONE, "started_at_chapter" integer, "completed_at_chapter" integer, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_787aebb1ac5923c9904043c6309" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE UNIQUE INDEX "uq_missions_one_active" ON "missions"  ("character_id") WHERE "status" = 'active'`);
    await queryRunner.query(`CREATE INDEX "ix_missions_character" ON "missions"  ("character_id", "started_at") `);
    await queryRunner.query(
      `CREATE TABLE "support_messages" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "user_id" uuid NOT NULL, "type" character varying(16) NOT NULL, "message" text NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "ck_support_messages_length" CHECK (char_length("message") BETWEEN 1 AND 5000), CONSTRAINT "ck_support_messages_type" CHECK ("type" IN ('contact', 'feedback', 'bug')), CONSTRAINT "PK_2aa37479e71ef29cbf4dba2b1a2" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `ALTER TABLE "sessions" ADD CONSTRAINT "FK_085d540d9f418cfbdc7bd55bb19" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "refresh_tokens" ADD CONSTRAINT "FK_3bf308fa93da3966f9e76fcfba4" FOREIGN KEY ("session_id") REFERENCES "sessions"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "credit_transactions" ADD CONSTRAINT "FK_9ac41a5292ef4d8356a86be30c2" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "subscriptions" ADD CONSTRAINT "FK_d0a95ef8a28188364c546eb65c1" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "subscriptions" ADD CONSTRAINT "FK_c2d9de83b12e926d07ed0b083ec" FOREIGN KEY ("tier_id") REFERENCES "tiers"("id") ON DELETE NO ACTION ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "worlds" ADD CONSTRAINT "FK_1da965fc2e58ab92439505dc376" FOREIGN KEY ("owner_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "worlds" ADD CONSTRAINT "FK_e739329cfe7f888b4539a6df494" FOREIGN KEY ("image_media_id") REFERENCES "media"("id") ON DELETE SET NULL ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "characters" ADD CONSTRAINT "FK_c6e648aeaab79e4213def02aba8" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "characters" ADD CONSTRAINT "FK_d21b478ef6ebdd04d331fe49495" FOREIGN KEY ("world_id") REFERENCES "worlds"("id") ON DELETE SET NULL ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "user_character_profiles" ADD CONSTRAINT "FK_a2c529787c55dfecf1a310b1125" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "user_settings" ADD CONSTRAINT "FK_4ed056b9344e6f7d8d46ec4b302" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "chapters" ADD CONSTRAINT "FK_c95e52f5fbc35dac88b847c59d3" FOREIGN KEY ("character_id") REFERENCES "characters"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "missions" ADD CONSTRAINT "FK_563e04dea088b928149b9e7dd57" FOREIGN KEY ("character_id") REFERENCES "characters"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "support_messages" ADD CONSTRAINT "FK_238f6d3183cd7c8f38622a1bad3" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "support_messages" DROP CONSTRAINT "FK_238f6d3183cd7c8f38622a1bad3"`);
    await queryRunner.query(`ALTER TABLE "missions" DROP CONSTRAINT "FK_563e04dea088b928149b9e7dd57"`);
    await queryRunner.query(`ALTER TABLE "chapters" DROP CONSTRAINT "FK_c95e52f5fbc35dac88b847c59d3"`);
    await queryRunner.query(`ALTER TABLE "user_settings" DROP CONSTRAINT "FK_4ed056b9344e6f7d8d46ec4b302"`);
    await queryRunner.query(`ALTER TABLE "user_character_profiles" DROP CONSTRAINT "FK_a2c529787c55dfecf1a310b1125"`);
    await queryRunner.query(`ALTER TABLE "characters" DROP CONSTRAINT "FK_d21b478ef6ebdd04d331fe49495"`);
    await queryRunner.query(`ALTER TABLE "characters" DROP CONSTRAINT "FK_c6e648aeaab79e4213def02aba8"`);
    await queryRunner.query(`ALTER TABLE "worlds" DROP CONSTRAINT "FK_e739329cfe7f888b4539a6df494"`);
    await queryRunner.query(`ALTER TABLE "worlds" DROP CONSTRAINT "FK_1da965fc2e58ab92439505dc376"`);
    await queryRunner.query(`ALTER TABLE "subscriptions" DROP CONSTRAINT "FK_c2d9de83b12e926d07ed0b083ec"`);
    await queryRunner.query(`ALTER TABLE "subscriptions" DROP CONSTRAINT "FK_d0a95ef8a28188364c546eb65c1"`);
    await queryRunner.query(`ALTER TABLE "credit_transactions" DROP CONSTRAINT "FK_9ac41a5292ef4d8356a86be30c2"`);
    await queryRunner.query(`ALTER TABLE "refresh_tokens" DROP CONSTRAINT "FK_3bf308fa93da3966f9e76fcfba4"`);
    await queryRunner.query(`ALTER TABLE "sessions" DROP CONSTRAINT "FK_085d540d9f418cfbdc7bd55bb19"`);
    await queryRunner.query(`DROP TABLE "support_messages"`);
    await queryRunner.query(`DROP INDEX "public"."ix_missions_character"`);
    await queryRunner.query(`DROP INDEX "public"."uq_missions_one_active"`);
    await queryRunner.query(`DROP TABLE "missions"`);
    await queryRunner.query(`DROP INDEX "public"."uq_chapters_selected"`);
    await queryRunner.query(`DROP INDEX "public"."uq_chapters_take"`);
    await queryRunner.query(`DROP INDEX "public"."uq_chapters_one_generating"`);
    await queryRunner.query(`DROP TABLE "chapters"`);
    await queryRunner.query(`DROP TABLE "user_settings"`);
    await queryRunner.query(`DROP TABLE "user_character_profiles"`);
    await queryRunner.query(`DROP INDEX "public"."ix_characters_user"`);
    await queryRunner.query(`DROP TABLE "characters"`);
    await queryRunner.query(`DROP INDEX "public"."ix_worlds_featured"`);
    await queryRunner.query(`DROP INDEX "public"."ix_worlds_owner"`);
    await queryRunner.query(`DROP TABLE "worlds"`);
    await queryRunner.query(`DROP TABLE "media"`);
    await queryRunner.query(`DROP INDEX "public"."uq_subscriptions_provider_sub"`);
    await queryRunner.query(`DROP INDEX "public"."uq_subscriptions_user"`);
    await queryRunner.query(`DROP TABLE "subscriptions"`);
    await queryRunner.query(`DROP TABLE "tiers"`);
    await queryRunner.query(`DROP TABLE "payment_events"`);
    await queryRunner.query(`DROP INDEX "public"."ix_credit_transactions_user"`);
    await queryRunner.query(`DROP INDEX "public"."uq_credit_transactions_idempotency"`);
    await queryRunner.query(`DROP TABLE "credit_transactions"`);
    await queryRunner.query(`DROP INDEX "public"."uq_refresh_tokens_hash"`);
    await queryRunner.query(`DROP INDEX "public"."ix_refresh_tokens_session"`);
    await queryRunner.query(`DROP TABLE "refresh_tokens"`);
    await queryRunner.query(`DROP INDEX "public"."ix_sessions_user"`);
    await queryRunner.query(`DROP TABLE "sessions"`);
    await queryRunner.query(`DROP INDEX "public"."uq_users_email"`);
    await queryRunner.query(`DROP TABLE "users"`);
    await queryRunner.query(`DROP TABLE "app_secrets"`);
  }
}
