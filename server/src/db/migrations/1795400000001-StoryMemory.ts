import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Story memory the player keeps per story: plot essentials (always in the prompt) and an author's note. */
export class StoryMemory1795400000001 implements MigrationInterface {
  name = 'StoryMemory1795400000001';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "characters" ADD "plot_essentials" text NOT NULL DEFAULT ''`);
    await queryRunner.query(`ALTER TABLE "characters" ADD "authors_note" text NOT NULL DEFAULT ''`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "characters" DROP COLUMN "authors_note"`);
    await queryRunner.query(`ALTER TABLE "characters" DROP COLUMN "plot_essentials"`);
  }
}
