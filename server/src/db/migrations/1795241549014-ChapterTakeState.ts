import type { MigrationInterface, QueryRunner } from 'typeorm';

export class ChapterTakeState1795241549014 implements MigrationInterface {
  name = 'ChapterTakeState1795241549014';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "chapters" ADD "stats_before" jsonb NOT NULL DEFAULT '{}'`);
    await queryRunner.query(`ALTER TABLE "chapters" ADD "setting_before" text`);
    await queryRunner.query(`ALTER TABLE "chapters" ADD "mission_effects" jsonb NOT NULL DEFAULT '{}'`);
    await queryRunner.query(`ALTER TABLE "chapters" ADD "completed_at" TIMESTAMP WITH TIME ZONE`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "chapters" DROP COLUMN "completed_at"`);
    await queryRunner.query(`ALTER TABLE "chapters" DROP COLUMN "mission_effects"`);
    await queryRunner.query(`ALTER TABLE "chapters" DROP COLUMN "setting_before"`);
    await queryRunner.query(`ALTER TABLE "chapters" DROP COLUMN "stats_before"`);
  }
}
