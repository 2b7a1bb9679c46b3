import type { MigrationInterface, QueryRunner } from 'typeorm';

export class ReadAloud1795737758908 implements MigrationInterface {
  name = 'ReadAloud1795737758908';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "chapter_audio" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "chapter_id" uuid NOT NULL, "voice" character varying(64) NOT NULL, "text_sha256" character(64) NOT NULL, "media_id" uuid NOT NULL, "model" character varying(120) NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_71c2eb300ddeb566146d8318f59" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "ix_chapter_audio_media" ON "chapter_audio"  ("media_id") `);
    await queryRunner.query(`CREATE UNIQUE INDEX "uq_chapter_audio_key" ON "chapter_audio"  ("chapter_id", "voice", "text_sha256") `);
    await queryRunner.query(`ALTER TABLE "user_settings" ADD "read_aloud_engine" character varying(16) NOT NULL DEFAULT 'browser'`);
    await queryRunner.query(`ALTER TABLE "user_settings" ADD "read_aloud_voice" character varying(200) NOT NULL DEFAULT ''`);
    await queryRunner.query(`ALTER TABLE "user_settings" ADD "read_aloud_server_voice" character varying(64) NOT NULL DEFAULT ''`);
    await queryRunner.query(`ALTER TABLE "user_settings" ADD "read_aloud_rate" real NOT NULL DEFAULT '1'`);
    await queryRunner.query(`ALTER TABLE "user_settings" ADD "read_aloud_auto" boolean NOT NULL DEFAULT false`);
    await queryRunner.query(
      `ALTER TABLE "user_settings" ADD CONSTRAINT "ck_user_settings_read_aloud_engine" CHECK ("read_aloud_engine" IN ('browser', 'server'))`,
    );
    await queryRunner.query(`ALTER TABLE "user_settings" ADD CONSTRAINT "ck_user_settings_read_aloud_rate" CHECK ("read_aloud_rate" BETWEEN 0.5 AND 2)`);
    await queryRunner.query(
      `ALTER TABLE "chapter_audio" ADD CONSTRAINT "FK_ee2d5acfddd36deb9745bf2be1e" FOREIGN KEY ("chapter_id") REFERENCES "chapters"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "chapter_audio" ADD CONSTRAINT "FK_f7715e5ecaa1687f7eaa58a34ac" FOREIGN KEY ("media_id") REFERENCES "media"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    // Written by hand (TypeORM does not model triggers): a reading's audio goes with it, whether the row
    // is deleted itself (a stale reading) or by its chapter's cascade (undo, deleted branch, account).
    await queryRunner.query(`CREATE FUNCTION chapter_audio_drop_media() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        DELETE FROM media WHERE id = OLD.media_id;
        RETURN NULL;
      END $$`);
    await queryRunner.query(
      `CREATE TRIGGER tr_chapter_audio_drop_media AFTER DELETE ON "chapter_audio" FOR EACH ROW EXECUTE FUNCTION chapter_audio_drop_media()`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TRIGGER tr_chapter_audio_drop_media ON "chapter_audio"`);
    await queryRunner.query(`DROP FUNCTION chapter_audio_drop_media()`);
    await queryRunner.query(`ALTER TABLE "chapter_audio" DROP CONSTRAINT "FK_f7715e5ecaa1687f7eaa58a34ac"`);
    await queryRunner.query(`ALTER TABLE "chapter_audio" DROP CONSTRAINT "FK_ee2d5acfddd36deb9745bf2be1e"`);
    await queryRunner.query(`ALTER TABLE "user_settings" DROP CONSTRAINT "ck_user_settings_read_aloud_rate"`);
    await queryRunner.query(`ALTER TABLE "user_settings" DROP CONSTRAINT "ck_user_settings_read_aloud_engine"`);
    await queryRunner.query(`ALTER TABLE "user_settings" DROP COLUMN "read_aloud_auto"`);
    await queryRunner.query(`ALTER TABLE "user_settings" DROP COLUMN "read_aloud_rate"`);
    await queryRunner.query(`ALTER TABLE "user_settings" DROP COLUMN "read_aloud_server_voice"`);
    await queryRunner.query(`ALTER TABLE "user_settings" DROP COLUMN "read_aloud_voice"`);
    await queryRunner.query(`ALTER TABLE "user_settings" DROP COLUMN "read_aloud_engine"`);
    await queryRunner.query(`DROP INDEX "public"."uq_chapter_audio_key"`);
    await queryRunner.query(`DROP INDEX "public"."ix_chapter_audio_media"`);
    await queryRunner.query(`DROP TABLE "chapter_audio"`);
  }
}
