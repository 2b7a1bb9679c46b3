import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Story cards (story-card.entity.ts), each chapter's cast and the card effects of a take, and a
 * per-story point of view.
 *
 * apply_card_state(character, from, to) is the one writer of a take's card effects: it moves one card
 * from state `from` (null: it does not exist) to state `to` (null: it is deleted), only when the card
 * is still exactly `from` (its revision) — so undoing a take or switching back to it restores cards
 * exactly, and never writes over what the player changed since. A new card is not created when the
 * story already has one of that name (any case). Returns whether it wrote.
 *
 * commit_chapter becomes the old function (renamed commit_chapter_core, unchanged) followed, when it
 * wrote, by the take's card effects and its cast: the chapter row keeps the cast and the effects that
 * applied, all in the same call (one statement for a next chapter, as before). Once released, change
 * these only by a new migration.
 */
export class StoryCards1795618777340 implements MigrationInterface {
  name = 'StoryCards1795618777340';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "story_cards" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "character_id" uuid NOT NULL, "kind" character varying(16) NOT NULL, "name" character varying(60) NOT NULL, "aliases" jsonb NOT NULL DEFAULT '[]', "description" text NOT NULL DEFAULT '', "role" character varying(80), "status" character varying(80), "pinned" boolean NOT NULL DEFAULT false, "source" character varying(16) NOT NULL, "edited" boolean NOT NULL DEFAULT false, "last_seen_index" integer, "revision" uuid NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_b788c4dbad5557a92caf3c3746e" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "ix_story_cards_character" ON "story_cards"  ("character_id") `);
    await queryRunner.query(`ALTER TABLE "characters" ADD "point_of_view" character varying(8) NOT NULL DEFAULT 'second'`);
    await queryRunner.query(`ALTER TABLE "chapters" ADD "cast_members" jsonb NOT NULL DEFAULT '[]'`);
    await queryRunner.query(`ALTER TABLE "chapters" ADD "card_effects" jsonb NOT NULL DEFAULT '[]'`);
    await this.functions(queryRunner);
    await queryRunner.query(
      `ALTER TABLE "story_cards" ADD CONSTRAINT "FK_c4fa25084e188fe23fa34c82395" FOREIGN KEY ("character_id") REFERENCES "characters"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  private async functions(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE FUNCTION apply_card_state(p_character uuid, p_from jsonb, p_to jsonb) RETURNS boolean LANGUAGE plpgsql VOLATILE AS $fn$
    DECLARE
      n integer;
    BEGIN
      IF jsonb_typeof(p_to) IS DISTINCT FROM 'object' THEN
        DELETE FROM story_cards WHERE id = (p_from->>'id')::uuid AND character_id = p_character AND revision = (p_from->>'revision')::uuid;
      ELSIF jsonb_typeof(p_from) IS DISTINCT FROM 'object' THEN
        INSERT INTO story_cards (id, character_id, kind, name, aliases, description, role, status, pinned, source, edited, last_seen_index, revision)
        SELECT (p_to->>'id')::uuid, p_character, p_to->>'kind', p_to->>'name', COALESCE(p_to->'aliases', '[]'::jsonb), COALESCE(p_to->>'description', ''),
               p_to->>'role', p_to->>'status', COALESCE((p_to->>'pinned')::boolean, false), p_to->>'source', COALESCE((p_to->>'edited')::boolean, false),
               (p_to->>'lastSeenIndex')::integer, (p_to->>'revision')::uuid
         WHERE NOT EXISTS (SELECT 1 FROM story_cards WHERE character_id = p_character AND (id = (p_to->>'id')::uuid OR lower(name) = lower(p_to->>'name')));
      ELSE
        UPDATE story_cards SET kind = p_to->>'kind', name = p_to->>'name', aliases = COALESCE(p_to->'aliases', '[]'::jsonb),
               description = COALESCE(p_to->>'description', ''), role = p_to->>'role', status = p_to->>'status',
               pinned = COALESCE((p_to->>'pinned')::boolean, false), source = p_to->>'source', edited = COALESCE((p_to->>'edited')::boolean, false),
               last_seen_index = (p_to->>'lastSeenIndex')::integer, revision = (p_to->>'revision')::uuid, updated_at = now()
         WHERE id = (p_from->>'id')::uuid AND character_id = p_character AND revision = (p_from->>'revision')::uuid;
      END IF;
      GET DIAGNOSTICS n = ROW_COUNT;
      RETURN n > 0;
    END
    $fn$`);
    await queryRunner.query(`ALTER FUNCTION commit_chapter(jsonb) RENAME TO commit_chapter_core`);
    await queryRunner.query(`CREATE FUNCTION commit_chapter(p jsonb) RETURNS uuid LANGUAGE plpgsql VOLATILE AS $fn$
    DECLARE
      v_character uuid := (p->>'characterId')::uuid;
      written uuid;
      e jsonb;
      applied jsonb := '[]'::jsonb;
    BEGIN
      written := commit_chapter_core(p);
      IF written IS NULL THEN
        RETURN NULL;
      END IF;
      FOR e IN SELECT value FROM jsonb_array_elements(COALESCE(p->'cardEffects', '[]'::jsonb)) LOOP
        IF apply_card_state(v_character, e->'before', e->'after') THEN
          applied := applied || jsonb_build_array(e);
        END IF;
      END LOOP;
      UPDATE chapters SET cast_members = COALESCE(p->'cast', '[]'::jsonb), card_effects = applied WHERE id = written;
      RETURN written;
    END
    $fn$`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP FUNCTION commit_chapter(jsonb)`);
    await queryRunner.query(`ALTER FUNCTION commit_chapter_core(jsonb) RENAME TO commit_chapter`);
    await queryRunner.query(`DROP FUNCTION apply_card_state(uuid, jsonb, jsonb)`);
    await queryRunner.query(`ALTER TABLE "story_cards" DROP CONSTRAINT "FK_c4fa25084e188fe23fa34c82395"`);
    await queryRunner.query(`ALTER TABLE "chapters" DROP COLUMN "card_effects"`);
    await queryRunner.query(`ALTER TABLE "chapters" DROP COLUMN "cast_members"`);
    await queryRunner.query(`ALTER TABLE "characters" DROP COLUMN "point_of_view"`);
    await queryRunner.query(`DROP INDEX "public"."ix_story_cards_character"`);
    await queryRunner.query(`DROP TABLE "story_cards"`);
  }
}
