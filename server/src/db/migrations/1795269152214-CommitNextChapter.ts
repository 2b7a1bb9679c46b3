import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * commit_next_chapter: the usual commit of a next chapter (StoryService.commitNext) as one call.
 * It takes the character's row lock — as every writer of a story does first — and then, in
 * statements whose snapshots are taken after the lock (a VOLATILE function in READ COMMITTED takes
 * one per statement), checks that the story is still the one the chapter was started from and writes
 * the character, the chapter, the cleanup of failed takes and the chapter's mission effects. So it
 * is exactly the locking transaction of StoryService.commit, in one round trip instead of four on
 * PostgreSQL. Returns the chapter's id; NULL when the check fails (nothing written; the caller then
 * decides, in the locking transaction, what to write or which CONFLICT to report); fails with
 * SQLSTATE TF409 (nothing written either) when the chapter was taken over between the check and its
 * write. Once released, change it only by a new migration (CREATE OR REPLACE FUNCTION).
 */
export class CommitNextChapter1795269152214 implements MigrationInterface {
  name = 'CommitNextChapter1795269152214';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE FUNCTION commit_next_chapter(
      p_character uuid, p_chapter uuid, p_index integer, p_latest_index integer, p_now timestamptz,
      p_stats_before jsonb, p_setting_before text, p_stats_after jsonb, p_setting text,
      p_text text, p_choices jsonb, p_stat_increases jsonb, p_mission_effects jsonb,
      p_fold boolean, p_summary text, p_summary_through integer, p_expected_through integer,
      p_active_mission uuid, p_completes_active boolean,
      p_pre_id uuid, p_pre_objective text, p_pre_started_at timestamptz, p_pre_completed boolean,
      p_next_id uuid, p_next_objective text, p_next_started_at timestamptz
    ) RETURNS uuid LANGUAGE plpgsql VOLATILE AS $fn$
    DECLARE
      written uuid;
    BEGIN
      PERFORM 1 FROM characters WHERE id = p_character FOR UPDATE;
      IF NOT EXISTS (
        SELECT 1 FROM characters c
         WHERE c.id = p_character AND c.stats = p_stats_before AND c.current_setting IS NOT DISTINCT FROM p_setting_before
           AND (SELECT COALESCE(MAX("index"), -1) FROM chapters WHERE character_id = c.id AND is_selected) = p_latest_index
           AND (SELECT id FROM missions WHERE character_id = c.id AND status = 'active' LIMIT 1) IS NOT DISTINCT FROM p_active_mission
           -- Still this generation's chapter (not given up as abandoned by another instance).
           AND EXISTS (SELECT 1 FROM chapters WHERE id = p_chapter AND character_id = c.id AND status = 'generating')
      ) THEN
        RETURN NULL;
      END IF;
      WITH ch AS (
        UPDATE characters SET stats = p_stats_after, current_setting = p_setting,
               story_summary = CASE WHEN p_fold AND summary_through_index = p_expected_through THEN p_summary ELSE story_summary END,
               summary_through_index = CASE WHEN p_fold AND summary_through_index = p_expected_through THEN p_summary_through ELSE summary_through_index END
         WHERE id = p_character
      ), gone AS (
        DELETE FROM chapters WHERE character_id = p_character AND status = 'failed'
      ), pre AS (
        -- A mission generated before this chapter (written completed at once if the chapter completes it).
        INSERT INTO missions (id, character_id, objective, started_at, status, completed_at, started_at_chapter, completed_at_chapter)
        SELECT p_pre_id, p_character, p_pre_objective, p_pre_started_at,
               CASE WHEN p_pre_completed THEN 'completed' ELSE 'active' END,
               CASE WHEN p_pre_completed THEN p_now END, p_index, CASE WHEN p_pre_completed THEN p_index END
         WHERE p_pre_id IS NOT NULL
      ), done AS (
        UPDATE missions SET status = 'completed', completed_at = p_now, completed_at_chapter = p_index
         WHERE p_completes_active AND id = p_active_mission AND character_id = p_character AND status = 'active'
        RETURNING id
      ), next AS (
        -- Reading done's row first orders this insert after the update that frees the one active
        -- slot (uq_missions_one_active): sub-statements of a WITH otherwise run in no set order.
        INSERT INTO missions (id, character_id, objective, started_at, status, started_at_chapter)
        SELECT p_next_id, p_character, p_next_objective, p_next_started_at, 'active', p_index
         WHERE p_next_id IS NOT NULL AND (NOT p_completes_active OR EXISTS (SELECT 1 FROM done))
      )
      UPDATE chapters SET status = 'complete', is_selected = true, text = p_text, choices = p_choices, setting = p_setting,
             stat_increases = p_stat_increases, stats_after = p_stats_after, stats_before = p_stats_before,
             setting_before = p_setting_before, mission_effects = p_mission_effects, completed_at = p_now, updated_at = p_now
       WHERE id = p_chapter AND status = 'generating'
      RETURNING id INTO written;
      IF written IS NULL THEN
        -- Another instance took the chapter over (believing its writer dead; that does not take the
        -- character's lock) after the check above: fail the call, so that nothing of it is written.
        RAISE EXCEPTION 'chapter % was taken over while it was being committed', p_chapter USING ERRCODE = 'TF409';
      END IF;
      RETURN written;
    END
    $fn$`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP FUNCTION commit_next_chapter`);
  }
}
