import type { MigrationInterface, QueryRunner } from 'typeorm';

/** When the player stopped a take while it was written (GenerationEngine.stop). */
export class ChapterStop1795629173024 implements MigrationInterface {
  name = 'ChapterStop1795629173024';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "chapters" ADD "stopped_at" TIMESTAMP WITH TIME ZONE`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "chapters" DROP COLUMN "stopped_at"`);
  }
}
