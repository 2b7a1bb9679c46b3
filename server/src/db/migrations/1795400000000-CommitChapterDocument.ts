import type { MigrationInterface, QueryRunner } from 'typeorm';
import { CommitNextChapter1795269152214 } from './1795269152214-CommitNextChapter';

/**
 * commit_chapter(plan jsonb): the one writer of a chapter take, replacing commit_next_chapter's 26
 * positional parameters with the plan document chapter-commit.ts builds (planCommit: the one rule of
 * what a take writes). Next chapters call it alone (one round trip); the locking transaction — for
 * regenerated takes, and for next chapters the lone call refused — calls it after its own checks
 * (and, for a new take, after taking the old take back), so every path writes through the same
 * statements.
 *
 * It takes the character's row lock (a no-op when the caller's transaction holds it), checks that the
 * story is still the one the plan was made from (stats, setting, latest selected chapter, active
 * mission; the chapter still this generation's) and writes the character (stats, setting, the
 * rolling summary when it still continues the stored one), the chapter, the cleanup of failed takes
 * and the take's mission effects (`missionEffects`: a mission generated before the chapter —
 * written completed at once when the chapter completes it —, the active mission it completes, the
 * one it brings). Returns the chapter's id; NULL when the check fails (nothing written); fails with
 * SQLSTATE TF409 (nothing written) when the chapter was taken over between the check and its write.
 * Once released, change it only by a new migration.
 */
export class CommitChapterDocument1795400000000 implements MigrationInterface {
  name = 'CommitChapterDocument1795400000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP FUNCTION IF EXISTS commit_next_chapter`);
    await queryRunner.query(`CREATE FUNCTION commit_chapter(p jsonb) RETURNS uuid LANGUAGE plpgsql VOLATILE AS $fn$
    DECLARE
      v_character uuid := (p->>'characterId')::uuid;
      v_chapter uuid := (p->>'chapterId')::uuid;
      v_index integer := (p->>'index')::integer;
      v_now timestamptz := (p->>'now')::timestamptz;
      v_active uuid := (p->>'activeMissionId')::uuid;
      v_effects jsonb := p->'missionEffects';
      v_pre jsonb := p->'missionEffects'->'preMission';
      v_next jsonb := p->'missionEffects'->'newMission';
      v_completed uuid := (p->'missionEffects'->>'completedMissionId')::uuid;
      v_completed_at timestamptz := COALESCE((p->'missionEffects'->>'completedAt')::timestamptz, (p->>'now')::timestamptz);
      v_pre_completed boolean;
      v_completes_active boolean;
      v_fold boolean := jsonb_typeof(p->'summary') = 'object';
      written uuid;
    BEGIN
      v_pre_completed := v_pre IS NOT NULL AND v_completed IS NOT DISTINCT FROM (v_pre->>'id')::uuid;
      v_completes_active := v_completed IS NOT NULL AND NOT v_pre_completed;
      PERFORM 1 FROM characters WHERE id = v_character FOR UPDATE;
      IF NOT EXISTS (
        SELECT 1 FROM characters c
         WHERE c.id = v_character AND c.stats = p->'statsBefore' AND c.current_setting IS NOT DISTINCT FROM (p->>'settingBefore')
           AND (SELECT COALESCE(MAX("index"), -1) FROM chapters WHERE character_id = c.id AND is_selected) = v_index - 1
           AND (SELECT id FROM missions WHERE character_id = c.id AND status = 'active' LIMIT 1) IS NOT DISTINCT FROM v_active
           -- A take completes the active mission only: the plan must agree with the state it checks.
           AND (NOT v_completes_active OR v_completed = v_active)
           -- Still this generation's chapter (not given up as abandoned by another instance).
           AND EXISTS (SELECT 1 FROM chapters WHERE id = v_chapter AND character_id = c.id AND status = 'generating')
      ) THEN
        RETURN NULL;
      END IF;
      WITH ch AS (
        UPDATE characters SET stats = p->'statsAfter', current_setting = p->>'setting',
               story_summary = CASE WHEN v_fold AND summary_through_index = (p->'summary'->>'expectedThrough')::integer
                                    THEN p->'summary'->>'summary' ELSE story_summary END,
               summary_through_index = CASE WHEN v_fold AND summary_through_index = (p->'summary'->>'expectedThrough')::integer
                                            THEN (p->'summary'->>'through')::integer ELSE summary_through_index END
         WHERE id = v_character
      ), gone AS (
        DELETE FROM chapters WHERE character_id = v_character AND status = 'failed'
      ), pre AS (
        INSERT INTO missions (id, character_id, objective, started_at, status, completed_at, started_at_chapter, completed_at_chapter)
        SELECT (v_pre->>'id')::uuid, v_character, v_pre->>'objective', (v_pre->>'startedAt')::timestamptz,
               CASE WHEN v_pre_completed THEN 'completed' ELSE 'active' END,
               CASE WHEN v_pre_completed THEN v_completed_at END, v_index, CASE WHEN v_pre_completed THEN v_index END
         WHERE v_pre IS NOT NULL
      ), done AS (
        UPDATE missions SET status = 'completed', completed_at = v_completed_at, completed_at_chapter = v_index
         WHERE v_completes_active AND id = v_active AND character_id = v_character AND status = 'active'
        RETURNING id
      ), next AS (
        -- Reading done's row first orders this insert after the update that frees the one active
        -- slot (uq_missions_one_active): sub-statements of a WITH otherwise run in no set order.
        INSERT INTO missions (id, character_id, objective, started_at, status, started_at_chapter)
        SELECT (v_next->>'id')::uuid, v_character, v_next->>'objective', (v_next->>'startedAt')::timestamptz, 'active', v_index
         WHERE v_next IS NOT NULL AND (NOT v_completes_active OR EXISTS (SELECT 1 FROM done))
      )
      UPDATE chapters SET status = 'complete', is_selected = true, text = p->>'text', choices = p->'choices', setting = p->>'setting',
             stat_increases = p->'statIncreases', stats_after = p->'statsAfter', stats_before = p->'statsBefore',
             setting_before = p->>'settingBefore', mission_effects = v_effects, completed_at = v_now, updated_at = v_now
       WHERE id = v_chapter AND status = 'generating'
      RETURNING id INTO written;
      IF written IS NULL THEN
        -- Another instance took the chapter over (believing its writer dead; that does not take the
        -- character's lock) after the check above: fail the call, so that nothing of it is written.
        RAISE EXCEPTION 'chapter % was taken over while it was being committed', v_chapter USING ERRCODE = 'TF409';
      END IF;
      RETURN written;
    END
    $fn$`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP FUNCTION commit_chapter`);
    await new CommitNextChapter1795269152214().up(queryRunner);
  }
}
