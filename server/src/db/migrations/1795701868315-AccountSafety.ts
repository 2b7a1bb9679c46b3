import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The second probe's fixes (issue 36): counted attempts (guesses at codes and tokens, mails to one
 * address) exact under concurrency; when a session last proved its password (adding an authenticator
 * needs a recent proof); every mailed token dies when the account's email, password or
 * authenticators change — in the database, so no path that changes them can forget it; report
 * weights and withdrawn publications; and the copy of its world a story is written from.
 */
export class AccountSafety1795701868315 implements MigrationInterface {
  name = 'AccountSafety1795701868315';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "attempt_counters" ("key_hash" character(64) NOT NULL, "count" integer NOT NULL, "window_ends_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "PK_f91e236d4882f06373d3fe4d390" PRIMARY KEY ("key_hash"))`,
    );
    await queryRunner.query(`CREATE INDEX "ix_attempt_counters_window_ends" ON "attempt_counters"  ("window_ends_at") `);
    await queryRunner.query(`ALTER TABLE "sessions" ADD "reauthenticated_at" TIMESTAMP WITH TIME ZONE`);
    await queryRunner.query(`CREATE FUNCTION spend_mail_tokens() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE uid uuid;
      BEGIN
        IF TG_TABLE_NAME = 'users' THEN uid := NEW.id;
        ELSIF TG_OP = 'DELETE' THEN uid := OLD.user_id;
        ELSE uid := NEW.user_id;
        END IF;
        UPDATE auth_tokens SET used_at = now() WHERE user_id = uid AND used_at IS NULL;
        RETURN NULL;
      END $$`);
    await queryRunner.query(`CREATE TRIGGER users_spend_mail_tokens AFTER UPDATE OF email, password_hash ON users FOR EACH ROW
      WHEN (OLD.email IS DISTINCT FROM NEW.email OR OLD.password_hash IS DISTINCT FROM NEW.password_hash) EXECUTE FUNCTION spend_mail_tokens()`);
    await queryRunner.query(`CREATE TRIGGER mfa_factors_verified_spend_mail_tokens AFTER UPDATE OF status ON mfa_factors FOR EACH ROW
      WHEN (OLD.status IS DISTINCT FROM NEW.status) EXECUTE FUNCTION spend_mail_tokens()`);
    await queryRunner.query(`CREATE TRIGGER mfa_factors_removed_spend_mail_tokens AFTER DELETE ON mfa_factors FOR EACH ROW
      WHEN (OLD.status = 'verified') EXECUTE FUNCTION spend_mail_tokens()`);
    await queryRunner.query(`ALTER TABLE "content_reports" ADD "weight" real NOT NULL DEFAULT '1'`);
    await queryRunner.query(`ALTER TABLE "story_publications" ADD "withdrawn_at" TIMESTAMP WITH TIME ZONE`);
    await queryRunner.query(`ALTER TABLE "characters" ADD "world_snapshot" jsonb NOT NULL DEFAULT '{}'`);
    // Stories saved before: the copy is taken from their world while it still exists.
    await queryRunner.query(
      `UPDATE characters c SET world_snapshot = jsonb_build_object('name', w.name, 'description', w.description, 'questions', w.questions) FROM worlds w WHERE w.id = c.world_id`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "characters" DROP COLUMN "world_snapshot"`);
    await queryRunner.query(`ALTER TABLE "story_publications" DROP COLUMN "withdrawn_at"`);
    await queryRunner.query(`ALTER TABLE "content_reports" DROP COLUMN "weight"`);
    await queryRunner.query(`DROP TRIGGER mfa_factors_removed_spend_mail_tokens ON mfa_factors`);
    await queryRunner.query(`DROP TRIGGER mfa_factors_verified_spend_mail_tokens ON mfa_factors`);
    await queryRunner.query(`DROP TRIGGER users_spend_mail_tokens ON users`);
    await queryRunner.query(`DROP FUNCTION spend_mail_tokens()`);
    await queryRunner.query(`ALTER TABLE "sessions" DROP COLUMN "reauthenticated_at"`);
    await queryRunner.query(`DROP INDEX "public"."ix_attempt_counters_window_ends"`);
    await queryRunner.query(`DROP TABLE "attempt_counters"`);
  }
}
