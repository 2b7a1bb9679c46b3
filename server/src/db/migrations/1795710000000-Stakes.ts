import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Stakes (issue 31): the hero's health and the story's difficulty (characters), the check a take
 * rolled and what it did to health and items (chapters.check_outcome, chapters.stakes), the
 * storyteller's proposals for its next actions that could fail (chapters.choice_checks), and items the
 * hero carries (story_cards.held).
 *
 * apply_card_state now writes `held` too. commit_chapter becomes the previous one (renamed
 * commit_chapter_memories, unchanged) followed, when it wrote, by the take's check and stakes and the
 * hero's health after it — in the same call. Once released, change these only by a new migration.
 */
export class Stakes1795710000000 implements MigrationInterface {
  name = 'Stakes1795710000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "characters" ADD "health" integer NOT NULL DEFAULT 10`);
    await queryRunner.query(`ALTER TABLE "characters" ADD "health_max" integer NOT NULL DEFAULT 10`);
    await queryRunner.query(`ALTER TABLE "characters" ADD "difficulty" character varying(8) NOT NULL DEFAULT 'balanced'`);
    await queryRunner.query(`ALTER TABLE "chapters" ADD "check_outcome" jsonb`);
    await queryRunner.query(`ALTER TABLE "chapters" ADD "stakes" jsonb`);
    await queryRunner.query(`ALTER TABLE "chapters" ADD "choice_checks" jsonb NOT NULL DEFAULT '[]'`);
    await queryRunner.query(`ALTER TABLE "story_cards" ADD "held" boolean NOT NULL DEFAULT false`);
    await queryRunner.query(`CREATE OR REPLACE FUNCTION apply_card_state(p_character uuid, p_from jsonb, p_to jsonb) RETURNS boolean LANGUAGE plpgsql VOLATILE AS $fn$
    DECLARE
      n integer;
    BEGIN
      IF jsonb_typeof(p_to) IS DISTINCT FROM 'object' THEN
        DELETE FROM story_cards WHERE id = (p_from->>'id')::uuid AND character_id = p_character AND revision = (p_from->>'revision')::uuid;
      ELSIF jsonb_typeof(p_from) IS DISTINCT FROM 'object' THEN
        INSERT INTO story_cards (id, character_id, kind, name, aliases, description, role, status, pinned, source, edited, last_seen_index, held, revision)
        SELECT (p_to->>'id')::uuid, p_character, p_to->>'kind', p_to->>'name', COALESCE(p_to->'aliases', '[]'::jsonb), COALESCE(p_to->>'description', ''),
               p_to->>'role', p_to->>'status', COALESCE((p_to->>'pinned')::boolean, false), p_to->>'source', COALESCE((p_to->>'edited')::boolean, false),
               (p_to->>'lastSeenIndex')::integer, COALESCE((p_to->>'held')::boolean, false), (p_to->>'revision')::uuid
         WHERE NOT EXISTS (SELECT 1 FROM story_cards WHERE character_id = p_character AND (id = (p_to->>'id')::uuid OR lower(name) = lower(p_to->>'name')));
      ELSE
        UPDATE story_cards SET kind = p_to->>'kind', name = p_to->>'name', aliases = COALESCE(p_to->'aliases', '[]'::jsonb),
               description = COALESCE(p_to->>'description', ''), role = p_to->>'role', status = p_to->>'status',
               pinned = COALESCE((p_to->>'pinned')::boolean, false), source = p_to->>'source', edited = COALESCE((p_to->>'edited')::boolean, false),
               last_seen_index = (p_to->>'lastSeenIndex')::integer, held = COALESCE((p_to->>'held')::boolean, false),
               revision = (p_to->>'revision')::uuid, updated_at = now()
         WHERE id = (p_from->>'id')::uuid AND character_id = p_character AND revision = (p_from->>'revision')::uuid;
      END IF;
      GET DIAGNOSTICS n = ROW_COUNT;
      RETURN n > 0;
    END
    $fn$`);
    await queryRunner.query(`ALTER FUNCTION commit_chapter(jsonb) RENAME TO commit_chapter_memories`);
    await queryRunner.query(`CREATE FUNCTION commit_chapter(p jsonb) RETURNS uuid LANGUAGE plpgsql VOLATILE AS $fn$
    DECLARE
      written uuid;
    BEGIN
      written := commit_chapter_memories(p);
      IF written IS NULL THEN
        RETURN NULL;
      END IF;
      UPDATE chapters SET check_outcome = p->'check', stakes = p->'stakes', choice_checks = COALESCE(p->'choiceChecks', '[]'::jsonb) WHERE id = written;
      IF jsonb_typeof(p->'stakes') = 'object' THEN
        UPDATE characters SET health = (p->'stakes'->>'healthAfter')::integer, health_max = (p->'stakes'->>'healthMaxAfter')::integer
         WHERE id = (p->>'characterId')::uuid;
      END IF;
      RETURN written;
    END
    $fn$`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP FUNCTION commit_chapter(jsonb)`);
    await queryRunner.query(`ALTER FUNCTION commit_chapter_memories(jsonb) RENAME TO commit_chapter`);
    await queryRunner.query(`CREATE OR REPLACE FUNCTION apply_card_state(p_character uuid, p_from jsonb, p_to jsonb) RETURNS boolean LANGUAGE plpgsql VOLATILE AS $fn$
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
    await queryRunner.query(`ALTER TABLE "story_cards" DROP COLUMN "held"`);
    await queryRunner.query(`ALTER TABLE "chapters" DROP COLUMN "choice_checks"`);
    await queryRunner.query(`ALTER TABLE "chapters" DROP COLUMN "stakes"`);
    await queryRunner.query(`ALTER TABLE "chapters" DROP COLUMN "check_outcome"`);
    await queryRunner.query(`ALTER TABLE "characters" DROP COLUMN "difficulty"`);
    await queryRunner.query(`ALTER TABLE "characters" DROP COLUMN "health_max"`);
    await queryRunner.query(`ALTER TABLE "characters" DROP COLUMN "health"`);
  }
}
