import type { MigrationInterface, QueryRunner } from 'typeorm';

export class Parties1795764658637 implements MigrationInterface {
  name = 'Parties1795764658637';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "parties" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "host_user_id" uuid, "story_character_id" uuid NOT NULL, "story_owner_id" uuid NOT NULL, "world_id" uuid NOT NULL, "mode" character varying(8) NOT NULL, "status" character varying(8) NOT NULL DEFAULT 'open', "host_pays" boolean NOT NULL DEFAULT false, "locked" boolean NOT NULL DEFAULT false, "round_seconds" integer NOT NULL, "turn_seconds" integer NOT NULL, "round" integer NOT NULL DEFAULT '0', "round_state" character varying(12) NOT NULL DEFAULT 'collecting', "turn_user_id" uuid, "deadline_at" TIMESTAMP WITH TIME ZONE, "writing_since" TIMESTAMP WITH TIME ZONE, "last_error" text, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "ck_parties_round_state" CHECK ("round_state" IN ('collecting', 'writing')), CONSTRAINT "ck_parties_status" CHECK ("status" IN ('open', 'ended')), CONSTRAINT "ck_parties_mode" CHECK ("mode" IN ('live', 'post')), CONSTRAINT "PK_da698299dca60d55f0050dde935" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "ix_parties_due" ON "parties"  ("status", "round_state", "deadline_at") `);
    await queryRunner.query(
      `CREATE TABLE "party_members" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "party_id" uuid NOT NULL, "user_id" uuid NOT NULL, "character_id" uuid NOT NULL, "seat" integer NOT NULL, "seen_through_index" integer NOT NULL DEFAULT '-1', "joined_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_7e3b16f4f4fae338bbc6214f4de" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "ix_party_members_user" ON "party_members"  ("user_id") `);
    await queryRunner.query(`CREATE UNIQUE INDEX "uq_party_members_user" ON "party_members"  ("party_id", "user_id") `);
    await queryRunner.query(
      `CREATE TABLE "party_bans" ("party_id" uuid NOT NULL, "user_id" uuid NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_fc60949521f57fc8686a8658c8c" PRIMARY KEY ("party_id", "user_id"))`,
    );
    await queryRunner.query(
      `CREATE TABLE "party_invites" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "party_id" uuid NOT NULL, "code_hash" character(64) NOT NULL, "expires_at" TIMESTAMP WITH TIME ZONE NOT NULL, "revoked_at" TIMESTAMP WITH TIME ZONE, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_f066039452ef4f0fd6a963581d2" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "ix_party_invites_party" ON "party_invites"  ("party_id") `);
    await queryRunner.query(`CREATE UNIQUE INDEX "uq_party_invites_hash" ON "party_invites"  ("code_hash") `);
    await queryRunner.query(
      `CREATE TABLE "party_actions" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "party_id" uuid NOT NULL, "round" integer NOT NULL, "user_id" uuid NOT NULL, "text" text NOT NULL, "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_8617de2908fc0647c57b766b0ca" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE UNIQUE INDEX "uq_party_actions_round_user" ON "party_actions"  ("party_id", "round", "user_id") `);
    await queryRunner.query(
      `ALTER TABLE "parties" ADD CONSTRAINT "FK_f4fae63a44bd12d4b246dc87ef4" FOREIGN KEY ("host_user_id") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "parties" ADD CONSTRAINT "FK_05560383bc823a84e582a2b4cb7" FOREIGN KEY ("story_character_id") REFERENCES "characters"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "parties" ADD CONSTRAINT "FK_9edc2abce89653d313533e42e10" FOREIGN KEY ("turn_user_id") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "party_members" ADD CONSTRAINT "FK_dbbff6593274841bcfc91adbc51" FOREIGN KEY ("party_id") REFERENCES "parties"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "party_members" ADD CONSTRAINT "FK_3dcc38b247864e98e3e86e18f6d" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "party_members" ADD CONSTRAINT "FK_47272167dee442fda38f9807e52" FOREIGN KEY ("character_id") REFERENCES "characters"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "party_bans" ADD CONSTRAINT "FK_b9dd1c9fed0fd04ef2d6808e5d1" FOREIGN KEY ("party_id") REFERENCES "parties"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "party_bans" ADD CONSTRAINT "FK_7005a4ecb59ed4f4441d3aab84c" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "party_invites" ADD CONSTRAINT "FK_e1d32e046fdbc037eab5a948b7a" FOREIGN KEY ("party_id") REFERENCES "parties"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "party_actions" ADD CONSTRAINT "FK_2cc9d74290a224cc081f6168837" FOREIGN KEY ("party_id") REFERENCES "parties"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "party_actions" ADD CONSTRAINT "FK_6d02ec5c0cdbe9899b64ef3fb21" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "party_actions" DROP CONSTRAINT "FK_6d02ec5c0cdbe9899b64ef3fb21"`);
    await queryRunner.query(`ALTER TABLE "party_actions" DROP CONSTRAINT "FK_2cc9d74290a224cc081f6168837"`);
    await queryRunner.query(`ALTER TABLE "party_invites" DROP CONSTRAINT "FK_e1d32e046fdbc037eab5a948b7a"`);
    await queryRunner.query(`ALTER TABLE "party_bans" DROP CONSTRAINT "FK_7005a4ecb59ed4f4441d3aab84c"`);
    await queryRunner.query(`ALTER TABLE "party_bans" DROP CONSTRAINT "FK_b9dd1c9fed0fd04ef2d6808e5d1"`);
    await queryRunner.query(`ALTER TABLE "party_members" DROP CONSTRAINT "FK_47272167dee442fda38f9807e52"`);
    await queryRunner.query(`ALTER TABLE "party_members" DROP CONSTRAINT "FK_3dcc38b247864e98e3e86e18f6d"`);
    await queryRunner.query(`ALTER TABLE "party_members" DROP CONSTRAINT "FK_dbbff6593274841bcfc91adbc51"`);
    await queryRunner.query(`ALTER TABLE "parties" DROP CONSTRAINT "FK_9edc2abce89653d313533e42e10"`);
    await queryRunner.query(`ALTER TABLE "parties" DROP CONSTRAINT "FK_05560383bc823a84e582a2b4cb7"`);
    await queryRunner.query(`ALTER TABLE "parties" DROP CONSTRAINT "FK_f4fae63a44bd12d4b246dc87ef4"`);
    await queryRunner.query(`DROP INDEX "public"."uq_party_actions_round_user"`);
    await queryRunner.query(`DROP TABLE "party_actions"`);
    await queryRunner.query(`DROP INDEX "public"."uq_party_invites_hash"`);
    await queryRunner.query(`DROP INDEX "public"."ix_party_invites_party"`);
    await queryRunner.query(`DROP TABLE "party_invites"`);
    await queryRunner.query(`DROP TABLE "party_bans"`);
    await queryRunner.query(`DROP INDEX "public"."uq_party_members_user"`);
    await queryRunner.query(`DROP INDEX "public"."ix_party_members_user"`);
    await queryRunner.query(`DROP TABLE "party_members"`);
    await queryRunner.query(`DROP INDEX "public"."ix_parties_due"`);
    await queryRunner.query(`DROP TABLE "parties"`);
  }
}
