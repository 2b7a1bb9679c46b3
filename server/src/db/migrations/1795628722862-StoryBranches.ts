import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Chapters set aside by a rewind, to return to later (story-branches.ts). */
export class StoryBranches1795628722862 implements MigrationInterface {
  name = 'StoryBranches1795628722862';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "story_branches" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "character_id" uuid NOT NULL, "from_chapter_id" uuid NOT NULL, "from_index" integer NOT NULL, "chapters" jsonb NOT NULL, "chapter_count" integer NOT NULL, "first_action" text, "preview" text NOT NULL DEFAULT '', "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_c0f466ff5ffc582865edae3d020" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "ix_story_branches_character" ON "story_branches"  ("character_id") `);
    await queryRunner.query(
      `ALTER TABLE "story_branches" ADD CONSTRAINT "FK_03baed9f011ceb33ce7122690e6" FOREIGN KEY ("character_id") REFERENCES "characters"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "story_branches" DROP CONSTRAINT "FK_03baed9f011ceb33ce7122690e6"`);
    await queryRunner.query(`DROP INDEX "public"."ix_story_branches_character"`);
    await queryRunner.query(`DROP TABLE "story_branches"`);
  }
}
