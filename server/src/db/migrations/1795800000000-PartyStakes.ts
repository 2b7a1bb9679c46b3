import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Party stakes (issue 34, step 7): each member's own stats in the party (party_members.stats, copied
 * from their saved character; null for the story's owner, whose hero is the story character), and on
 * each take the party round it answers (chapters.party_id, chapters.party_round) and the companions'
 * own checks with their stats before and after (chapters.party_checks), so undo, another take and a
 * rewind restore them and reopen the round. Members who joined before get their saved character's
 * stats now.
 */
export class PartyStakes1795800000000 implements MigrationInterface {
  name = 'PartyStakes1795800000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "party_members" ADD "stats" jsonb`);
    await queryRunner.query(`ALTER TABLE "chapters" ADD "party_id" uuid`);
    await queryRunner.query(`ALTER TABLE "chapters" ADD "party_round" integer`);
    await queryRunner.query(`ALTER TABLE "chapters" ADD "party_checks" jsonb NOT NULL DEFAULT '[]'`);
    await queryRunner.query(
      `UPDATE "party_members" m SET "stats" = c."stats" FROM "characters" c, "parties" p
        WHERE c."id" = m."character_id" AND p."id" = m."party_id" AND m."character_id" <> p."story_character_id"`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "chapters" DROP COLUMN "party_checks"`);
    await queryRunner.query(`ALTER TABLE "chapters" DROP COLUMN "party_round"`);
    await queryRunner.query(`ALTER TABLE "chapters" DROP COLUMN "party_id"`);
    await queryRunner.query(`ALTER TABLE "party_members" DROP COLUMN "stats"`);
  }
}
