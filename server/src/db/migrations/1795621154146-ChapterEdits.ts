import type { MigrationInterface, QueryRunner } from 'typeorm';

/** When the player rewrote a chapter's text or the action before it (story-editing.ts editChapter); exports mark both. */
export class ChapterEdits1795621154146 implements MigrationInterface {
  name = 'ChapterEdits1795621154146';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "chapters" ADD "text_edited_at" TIMESTAMP WITH TIME ZONE`);
    await queryRunner.query(`ALTER TABLE "chapters" ADD "choice_edited_at" TIMESTAMP WITH TIME ZONE`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "chapters" DROP COLUMN "choice_edited_at"`);
    await queryRunner.query(`ALTER TABLE "chapters" DROP COLUMN "text_edited_at"`);
  }
}
