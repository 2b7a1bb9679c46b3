import type { MigrationInterface, QueryRunner } from 'typeorm';

export class PartyInviteCodeEnd1795800000001 implements MigrationInterface {
  name = 'PartyInviteCodeEnd1795800000001';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "party_invites" ADD "code_end" character varying(4)`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "party_invites" DROP COLUMN "code_end"`);
  }
}
