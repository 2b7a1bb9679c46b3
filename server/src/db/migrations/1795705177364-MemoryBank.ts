import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The memory bank (issue 30): each take keeps the memories it left (chapters.memories) and, for the
 * latest chapters, what its storyteller was sent (chapters.prompt_report); the player's own memories
 * (story_memories) and the memories' embeddings (memory_embeddings).
 *
 * commit_chapter becomes the previous one (renamed commit_chapter_cards, unchanged) followed, when it
 * wrote, by the take's memories and prompt report — in the same call — and by dropping the prompt
 * reports of chapters more than two before it (only the latest chapters' are shown). Once released,
 * change these only by a new migration.
 */
export class MemoryBank1795705177364 implements MigrationInterface {
  name = 'MemoryBank1795705177364';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "story_memories" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "character_id" uuid NOT NULL, "kind" character varying(16) NOT NULL, "text" character varying(200) NOT NULL, "pinned" boolean NOT NULL DEFAULT false, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_3932180b7cb6ba088bea243a604" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "ix_story_memories_character" ON "story_memories"  ("character_id") `);
    await queryRunner.query(
      `CREATE TABLE "memory_embeddings" ("memory_id" uuid NOT NULL, "character_id" uuid NOT NULL, "model" character varying(120) NOT NULL, "digest" character(32) NOT NULL, "vector" bytea NOT NULL, CONSTRAINT "PK_1e0fdd577235a2368a0c8277e82" PRIMARY KEY ("memory_id"))`,
    );
    await queryRunner.query(`CREATE INDEX "ix_memory_embeddings_character" ON "memory_embeddings"  ("character_id", "model") `);
    await queryRunner.query(`ALTER TABLE "chapters" ADD "memories" jsonb NOT NULL DEFAULT '[]'`);
    await queryRunner.query(`ALTER TABLE "chapters" ADD "prompt_report" jsonb`);
    await queryRunner.query(
      `ALTER TABLE "story_memories" ADD CONSTRAINT "FK_7da254f41d29319bc357e62d597" FOREIGN KEY ("character_id") REFERENCES "characters"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "memory_embeddings" ADD CONSTRAINT "FK_d04a6afb7018b7cc9803b14ec0c" FOREIGN KEY ("character_id") REFERENCES "characters"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(`ALTER FUNCTION commit_chapter(jsonb) RENAME TO commit_chapter_cards`);
    await queryRunner.query(`CREATE FUNCTION commit_chapter(p jsonb) RETURNS uuid LANGUAGE plpgsql VOLATILE AS $fn$
    DECLARE
      written uuid;
    BEGIN
      written := commit_chapter_cards(p);
      IF written IS NULL THEN
        RETURN NULL;
      END IF;
      UPDATE chapters SET memories = COALESCE(p->'memories', '[]'::jsonb), prompt_report = p->'promptReport' WHERE id = written;
      UPDATE chapters SET prompt_report = NULL
       WHERE character_id = (p->>'characterId')::uuid AND "index" < (p->>'index')::integer - 2 AND prompt_report IS NOT NULL;
      RETURN written;
    END
    $fn$`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP FUNCTION commit_chapter(jsonb)`);
    await queryRunner.query(`ALTER FUNCTION commit_chapter_cards(jsonb) RENAME TO commit_chapter`);
    await queryRunner.query(`ALTER TABLE "memory_embeddings" DROP CONSTRAINT "FK_d04a6afb7018b7cc9803b14ec0c"`);
    await queryRunner.query(`ALTER TABLE "story_memories" DROP CONSTRAINT "FK_7da254f41d29319bc357e62d597"`);
    await queryRunner.query(`ALTER TABLE "chapters" DROP COLUMN "prompt_report"`);
    await queryRunner.query(`ALTER TABLE "chapters" DROP COLUMN "memories"`);
    await queryRunner.query(`DROP INDEX "public"."ix_memory_embeddings_character"`);
    await queryRunner.query(`DROP TABLE "memory_embeddings"`);
    await queryRunner.query(`DROP INDEX "public"."ix_story_memories_character"`);
    await queryRunner.query(`DROP TABLE "story_memories"`);
  }
}
