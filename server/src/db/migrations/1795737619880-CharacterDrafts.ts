import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Character drafts: a generated (paid-for) character is kept until the player saves or discards it,
 * so leaving the result screen never silently loses what the credits bought. Once released, change
 * this only by a new migration.
 */
export class CharacterDrafts1795737619880 implements MigrationInterface {
  name = 'CharacterDrafts1795737619880';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "character_drafts" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "user_id" uuid NOT NULL, "world_id" uuid, "name" character varying(80) NOT NULL, "stats" jsonb NOT NULL DEFAULT '{}', "description" text NOT NULL, "traits" jsonb NOT NULL DEFAULT '[]', "strengths" jsonb NOT NULL DEFAULT '[]', "weaknesses" jsonb NOT NULL DEFAULT '[]', "special" jsonb NOT NULL DEFAULT '{"name": "", "description": ""}', "answers" jsonb NOT NULL DEFAULT '[]', "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_15278cadca5c57d24ec21f84ebe" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "ix_character_drafts_user" ON "character_drafts"  ("user_id", "created_at") `);
    await queryRunner.query(
      `ALTER TABLE "character_drafts" ADD CONSTRAINT "FK_75114caa96ae3da55089dfda373" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "character_drafts" ADD CONSTRAINT "FK_780ae43859f3d7fb50c323b3e03" FOREIGN KEY ("world_id") REFERENCES "worlds"("id") ON DELETE SET NULL ON UPDATE NO ACTION`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "character_drafts" DROP CONSTRAINT "FK_780ae43859f3d7fb50c323b3e03"`);
    await queryRunner.query(`ALTER TABLE "character_drafts" DROP CONSTRAINT "FK_75114caa96ae3da55089dfda373"`);
    await queryRunner.query(`DROP INDEX "public"."ix_character_drafts_user"`);
    await queryRunner.query(`DROP TABLE "character_drafts"`);
  }
}
