import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Community (issue 20): likes and play counts on worlds, hiding pending review, remix credit,
 * published stories (snapshots), content reports, the operator audit trail and disabled accounts.
 * Existing shared worlds count as shared when they were last updated, and play counts start from
 * the characters already spawned.
 */
export class Community1795668554884 implements MigrationInterface {
  name = 'Community1795668554884';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "content_reports" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "reporter_id" uuid, "target_kind" character varying(16) NOT NULL, "target_id" uuid NOT NULL, "reason" character varying(32) NOT NULL, "note" text NOT NULL DEFAULT '', "status" character varying(16) NOT NULL DEFAULT 'open', "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "resolved_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "ck_content_reports_status" CHECK ("status" IN ('open', 'upheld', 'dismissed')), CONSTRAINT "ck_content_reports_kind" CHECK ("target_kind" IN ('world', 'story')), CONSTRAINT "PK_6c59a68146cdde8de564ee649c1" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "ix_content_reports_target" ON "content_reports"  ("target_kind", "target_id", "status") `);
    await queryRunner.query(`CREATE UNIQUE INDEX "uq_content_reports_reporter_target" ON "content_reports"  ("reporter_id", "target_kind", "target_id") `);
    await queryRunner.query(
      `CREATE TABLE "operator_actions" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "operator" character varying(120) NOT NULL, "action" character varying(40) NOT NULL, "target_kind" character varying(16) NOT NULL, "target_id" character varying(120) NOT NULL, "detail" jsonb NOT NULL DEFAULT '{}', "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_0c491b241eaeae5f0f7af4bfdd4" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "ix_operator_actions_created" ON "operator_actions"  ("created_at") `);
    await queryRunner.query(
      `CREATE TABLE "story_publications" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "character_id" uuid NOT NULL, "user_id" uuid NOT NULL, "character_name" character varying(120) NOT NULL, "world_name" character varying(120), "world_image_media_id" uuid, "chapters" jsonb NOT NULL, "styles" jsonb NOT NULL, "published_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "hidden_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "PK_ed5e4ee0ccd5d5c8852e3c73aef" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE UNIQUE INDEX "uq_story_publications_character" ON "story_publications"  ("character_id") `);
    await queryRunner.query(`CREATE INDEX "ix_story_publications_user" ON "story_publications"  ("user_id") `);
    await queryRunner.query(
      `CREATE TABLE "world_likes" ("world_id" uuid NOT NULL, "user_id" uuid NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_1d78c54441b351cfa3d368db64f" PRIMARY KEY ("world_id", "user_id"))`,
    );
    await queryRunner.query(`ALTER TABLE "users" ADD "disabled_at" TIMESTAMP WITH TIME ZONE`);
    await queryRunner.query(`ALTER TABLE "worlds" ADD "shared_at" TIMESTAMP WITH TIME ZONE`);
    await queryRunner.query(`ALTER TABLE "worlds" ADD "play_count" integer NOT NULL DEFAULT '0'`);
    await queryRunner.query(`ALTER TABLE "worlds" ADD "like_count" integer NOT NULL DEFAULT '0'`);
    await queryRunner.query(`ALTER TABLE "worlds" ADD "hidden_at" TIMESTAMP WITH TIME ZONE`);
    await queryRunner.query(`ALTER TABLE "worlds" ADD "remixed_from_id" uuid`);
    await queryRunner.query(`UPDATE "worlds" SET "shared_at" = "updated_at" WHERE "shared_globally"`);
    await queryRunner.query(`UPDATE "worlds" w SET "play_count" = (SELECT count(*) FROM "characters" c WHERE c."world_id" = w."id")`);
    await queryRunner.query(`CREATE INDEX "ix_worlds_community" ON "worlds"  ("shared_at") WHERE shared_globally AND hidden_at IS NULL`);
    await queryRunner.query(
      `ALTER TABLE "content_reports" ADD CONSTRAINT "FK_0aababfebc5662624a4a66b639b" FOREIGN KEY ("reporter_id") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "worlds" ADD CONSTRAINT "FK_8e89b0e4b67a049e905be010270" FOREIGN KEY ("remixed_from_id") REFERENCES "worlds"("id") ON DELETE SET NULL ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "story_publications" ADD CONSTRAINT "FK_89c6cc7fa24c1c0db768e0530d5" FOREIGN KEY ("character_id") REFERENCES "characters"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "story_publications" ADD CONSTRAINT "FK_7e7c8356b67753ded47c8214b85" FOREIGN KEY ("world_image_media_id") REFERENCES "media"("id") ON DELETE SET NULL ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "world_likes" ADD CONSTRAINT "FK_bcb6d49a93a42eec6f617cec3bb" FOREIGN KEY ("world_id") REFERENCES "worlds"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "world_likes" ADD CONSTRAINT "FK_17ffc55a75487b279cee069b193" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "world_likes" DROP CONSTRAINT "FK_17ffc55a75487b279cee069b193"`);
    await queryRunner.query(`ALTER TABLE "world_likes" DROP CONSTRAINT "FK_bcb6d49a93a42eec6f617cec3bb"`);
    await queryRunner.query(`ALTER TABLE "story_publications" DROP CONSTRAINT "FK_7e7c8356b67753ded47c8214b85"`);
    await queryRunner.query(`ALTER TABLE "story_publications" DROP CONSTRAINT "FK_89c6cc7fa24c1c0db768e0530d5"`);
    await queryRunner.query(`ALTER TABLE "worlds" DROP CONSTRAINT "FK_8e89b0e4b67a049e905be010270"`);
    await queryRunner.query(`ALTER TABLE "content_reports" DROP CONSTRAINT "FK_0aababfebc5662624a4a66b639b"`);
    await queryRunner.query(`DROP INDEX "public"."ix_worlds_community"`);
    await queryRunner.query(`ALTER TABLE "worlds" DROP COLUMN "remixed_from_id"`);
    await queryRunner.query(`ALTER TABLE "worlds" DROP COLUMN "hidden_at"`);
    await queryRunner.query(`ALTER TABLE "worlds" DROP COLUMN "like_count"`);
    await queryRunner.query(`ALTER TABLE "worlds" DROP COLUMN "play_count"`);
    await queryRunner.query(`ALTER TABLE "worlds" DROP COLUMN "shared_at"`);
    await queryRunner.query(`ALTER TABLE "users" DROP COLUMN "disabled_at"`);
    await queryRunner.query(`DROP TABLE "world_likes"`);
    await queryRunner.query(`DROP INDEX "public"."ix_story_publications_user"`);
    await queryRunner.query(`DROP INDEX "public"."uq_story_publications_character"`);
    await queryRunner.query(`DROP TABLE "story_publications"`);
    await queryRunner.query(`DROP INDEX "public"."ix_operator_actions_created"`);
    await queryRunner.query(`DROP TABLE "operator_actions"`);
    await queryRunner.query(`DROP INDEX "public"."uq_content_reports_reporter_target"`);
    await queryRunner.query(`DROP INDEX "public"."ix_content_reports_target"`);
    await queryRunner.query(`DROP TABLE "content_reports"`);
  }
}
