/**
 * The stories module's SQL and row mapping, in one place: the context a chapter starts from (one
 * query, optionally claiming the chapter's row in the same statement), the generating row's life
 * (claim, live text, heartbeat, failure), reads of chapters and missions, and the helpers every
 * story transaction uses (lock the character first, refuse while a chapter is being written).
 * The commit itself lives in chapter-commit.ts.
 */
import type { DataSource, EntityManager } from 'typeorm';
import { AppError } from '../../common/app-error';
import { Character } from '../characters/character.entity';
import { isUuid } from '../shared/input';
import { Chapter, type CardSnapshot } from './chapter.entity';
import { hydrate } from './hydrate';
import { Mission } from './missions/mission.entity';
import type { ChoiceCheck } from './stakes/checks';
import type { ParsedGenerate } from './story-input';

/** Free-tier context when a player somehow has no subscription row (SPEC §9: "2k tokens"). */
const DEFAULT_CONTEXT_TOKENS = 2000;
/**
 * A request with the same action as the latest chapter that reached the service before that chapter
 * was committed raced it (double click, a client retrying a request that is still running): it gets
 * that chapter instead of a second one. No grace period after the commit: a player may well pick the
 * same suggested action again at once, and that must write a new chapter. Clients that retry later
 * send `expectedIndex`, which makes the retry exact.
 */
export const DUPLICATE_GRACE_MS = 0;

export interface LatestChapter {
  id: string;
  index: number;
  playerChoice: string | null;
  completedAt: Date | null;
  /** The storyteller's proposals for its choices that could fail (the next action's check may use one). */
  choiceChecks: ChoiceCheck[];
}

export interface RunningRow {
  id: string;
  index: number;
  take: number;
  playerChoice: string | null;
  touchedAt: Date;
}

/** A chapter row claimed for a generation. */
export interface ClaimedRow {
  id: string;
  take: number;
  createdAt: Date;
}

export interface StoryContext {
  character: Character;
  worldDescription: string | null;
  maxContextTokens: number;
  /** The player's tier (its model writes the story, TIER_MODELS); null without a subscription row. */
  tierId: string | null;
  latest: LatestChapter | null;
  /** The character's generating row, if any (on this instance or another). */
  running: RunningRow | null;
  /** Id and objective of the active mission. */
  missionId: string | null;
  mission: string | null;
  /** The chapter index the active mission started at (null: unknown, e.g. set by the player). */
  missionStartedAt: number | null;
  /** The last completed mission's objective, read only when no mission is active (null otherwise). */
  previousMission: string | null;
  /** How many missions the story has completed. */
  missionsCompleted: number;
  /** Every objective the story has had, oldest first (a new mission must be none of them). */
  pastMissions: string[];
  /**
   * Selected chapters the rolling summary does not cover yet, oldest first — and the one before the
   * latest even if it does (a new take of the latest chapter continues from it verbatim).
   */
  unsummarized: UnsummarizedChapter[];
  /** The generating row this read claimed for the next chapter (see loadContext), if it did. */
  claimed: ClaimedRow | null;
  /** Every story card of the story (story-cards.ts picks the prompt's). */
  cards: CardSnapshot[];
}

export interface UnsummarizedChapter {
  id: string;
  index: number;
  text: string;
  playerChoice: string | null;
}

export interface RemoteState {
  status: Chapter['status'];
  text?: string;
  /** The next actions written so far (read with the text). */
  choices?: string[];
  /** The row is generating but untouched for longer than the stale limit: its writer is gone. */
  dead: boolean;
  /** The player stopped it. */
  stopped: boolean;
}

/** Selected chapters as one JSON list (SELECT list of a subquery over `chapters h`); read by chaptersOf. */
const HISTORY_JSON = `COALESCE(json_agg(json_build_object('i', h."index", 't', h.text, 'c', h.player_choice, 'id', h.id) ORDER BY h."index"), '[]'::json)`;

/** A story's cards as one JSON list (over `story_cards k`), in CardSnapshot's shape. */
const CARDS_JSON = `COALESCE(json_agg(json_build_object('id', k.id, 'kind', k.kind, 'name', k.name, 'aliases', k.aliases, 'description', k.description,
   'role', k.role, 'status', k.status, 'pinned', k.pinned, 'source', k.source, 'edited', k.edited, 'lastSeenIndex', k.last_seen_index, 'held', k.held,
   'revision', k.revision) ORDER BY k.name), '[]'::json)`;

function chaptersOf(raw: unknown): UnsummarizedChapter[] {
  const list = (typeof raw === 'string' ? JSON.parse(raw) : (raw ?? [])) as Array<{ i: number; t: string; c: string | null; id: string }>;
  return list.map((h) => ({ id: h.id, index: h.i, text: h.t, playerChoice: h.c }));
}

// The story's own copy of its world (characters.world_snapshot) comes first; the world row only for
// characters saved before the copy was kept (the migration filled those in where the world existed).
const CONTEXT_SQL = `SELECT c.*, COALESCE(NULLIF(c.world_snapshot->>'description', ''), w.description) AS x_world_description,
        t.max_context_tokens AS x_max_context_tokens, t.id AS x_tier_id,
        l.id AS x_latest_id, l."index" AS x_latest_index, l.player_choice AS x_latest_choice, l.completed_at AS x_latest_completed_at,
        l.choice_checks AS x_latest_choice_checks,
        g.id AS x_run_id, g."index" AS x_run_index, g.take AS x_run_take, g.player_choice AS x_run_choice, g.updated_at AS x_run_touched,
        m.id AS x_mission_id, m.objective AS x_mission, m.started_at_chapter AS x_mission_started,
        -- Only read when there is no active mission (a new one must differ from it): CASE runs
        -- the subquery only in that branch, and most chapters have a mission.
        CASE WHEN m.id IS NULL THEN
          (SELECT objective FROM missions WHERE character_id = c.id AND status = 'completed' ORDER BY completed_at DESC LIMIT 1)
        END AS x_previous_mission,
        m.done AS x_missions_completed, m.objectives AS x_objectives,
        (SELECT ${HISTORY_JSON}
           FROM chapters h WHERE h.character_id = c.id AND h.is_selected
                AND (h."index" > c.summary_through_index OR h."index" = l."index" - 1)) AS x_history,
        (SELECT ${CARDS_JSON} FROM story_cards k WHERE k.character_id = c.id) AS x_cards
   FROM characters c
   LEFT JOIN worlds w ON w.id = c.world_id
   LEFT JOIN subscriptions s ON s.user_id = c.user_id
   LEFT JOIN tiers t ON t.id = s.tier_id
   LEFT JOIN LATERAL (SELECT id, "index", player_choice, completed_at, choice_checks FROM chapters
                       WHERE character_id = c.id AND is_selected ORDER BY "index" DESC LIMIT 1) l ON true
   LEFT JOIN LATERAL (SELECT id, "index", take, player_choice, updated_at FROM chapters
                       WHERE character_id = c.id AND status = 'generating' LIMIT 1) g ON true
   -- The active mission and how many are completed, in one pass over the character's missions.
   LEFT JOIN LATERAL (SELECT (array_agg(id) FILTER (WHERE status = 'active'))[1] AS id,
                             (array_agg(objective) FILTER (WHERE status = 'active'))[1] AS objective,
                             (array_agg(started_at_chapter) FILTER (WHERE status = 'active'))[1] AS started_at_chapter,
                             COUNT(*) FILTER (WHERE status = 'completed') AS done,
                             -- Every objective the story has had: a new mission is never one of them.
                             array_agg(objective ORDER BY started_at) AS objectives
                        FROM missions WHERE character_id = c.id) m ON true
  WHERE c.id = $1 AND c.user_id = $2`;

/**
 * The context read plus the claim of the next chapter's row, in one statement. The claim is written
 * only when nothing is running and every check startChapter makes on this context would let it
 * claim: a world description, the expected index, an action after the first chapter, not a
 * duplicate of the latest chapter — exactly the claim claimChapter would make after reading the same
 * snapshot. Otherwise (or when a concurrent claim wins: ON CONFLICT DO NOTHING) nothing is written.
 */
const CONTEXT_AND_CLAIM_SQL = `WITH ctx AS (${CONTEXT_SQL}),
   claimed AS (
     INSERT INTO chapters (character_id, "index", take, is_selected, status, player_choice, text, created_at, updated_at)
     SELECT ctx.id, COALESCE(ctx.x_latest_index + 1, 0),
            (SELECT COALESCE(MAX(take) + 1, 0) FROM chapters WHERE character_id = ctx.id AND "index" = COALESCE(ctx.x_latest_index + 1, 0)),
            false, 'generating', $3::text, '', $4::timestamptz, $4::timestamptz
       FROM ctx
      WHERE ctx.x_run_id IS NULL
        AND ($5::boolean OR COALESCE(ctx.x_world_description, '') <> '')
        AND ($6::integer IS NULL OR $6::integer = COALESCE(ctx.x_latest_index + 1, 0))
        AND ($3::text IS NOT NULL OR ctx.x_latest_id IS NULL)
        AND NOT ($6::integer IS NULL AND $3::text IS NOT NULL AND ctx.x_latest_completed_at IS NOT NULL
                 AND ctx.x_latest_choice IS NOT DISTINCT FROM $3::text AND $7::timestamptz <= ctx.x_latest_completed_at + make_interval(secs => $8::double precision))
     ON CONFLICT DO NOTHING
     RETURNING id, take
   )
   SELECT ctx.*, claimed.id AS x_claimed_id, claimed.take AS x_claimed_take FROM ctx LEFT JOIN claimed ON true`;

export class StoryStore {
  constructor(readonly dataSource: DataSource) {}

  /**
   * Everything a chapter is started from, in one query: the character (owned), its world's
   * description, the tier's context, the latest selected chapter, the generating row, the mission
   * objectives and the chapters the rolling summary does not cover yet. With `claim` (a next
   * chapter) the same statement may also claim the chapter's row (CONTEXT_AND_CLAIM_SQL).
   */
  async loadContext(userId: string, characterId: string, claim: { input: ParsedGenerate; arrivedAt: number } | null = null): Promise<StoryContext> {
    if (!isUuid(characterId)) throw AppError.notFound('Character');
    // The claimed row's creation time: the chapter's createdAt once it is complete.
    const claimedAt = new Date();
    const [row] = (await (claim
      ? this.dataSource.query(CONTEXT_AND_CLAIM_SQL, [
          characterId,
          userId,
          claim.input.action,
          claimedAt,
          Boolean(claim.input.worldDescription),
          claim.input.expectedIndex,
          new Date(claim.arrivedAt),
          DUPLICATE_GRACE_MS / 1000,
        ])
      : this.dataSource.query(CONTEXT_SQL, [characterId, userId]))) as Array<Record<string, unknown>>;
    if (!row) throw AppError.notFound('Character');
    return this.contextOf(row, claimedAt);
  }

  private contextOf(row: Record<string, unknown>, claimedAt: Date): StoryContext {
    return {
      character: hydrate(this.dataSource, Character, row),
      worldDescription: (row.x_world_description as string | null) ?? null,
      maxContextTokens: (row.x_max_context_tokens as number | null) ?? DEFAULT_CONTEXT_TOKENS,
      tierId: (row.x_tier_id as string | null) ?? null,
      latest:
        row.x_latest_id && row.x_latest_index !== null
          ? {
              id: row.x_latest_id as string,
              index: row.x_latest_index as number,
              playerChoice: row.x_latest_choice as string | null,
              completedAt: row.x_latest_completed_at ? new Date(row.x_latest_completed_at as string | Date) : null,
              choiceChecks: (row.x_latest_choice_checks as ChoiceCheck[] | null) ?? [],
            }
          : null,
      running: row.x_run_id
        ? {
            id: row.x_run_id as string,
            index: row.x_run_index as number,
            take: row.x_run_take as number,
            playerChoice: row.x_run_choice as string | null,
            touchedAt: new Date(row.x_run_touched as string | Date),
          }
        : null,
      missionId: (row.x_mission_id as string | null) ?? null,
      mission: (row.x_mission as string | null) ?? null,
      missionStartedAt: (row.x_mission_started as number | null) ?? null,
      previousMission: (row.x_previous_mission as string | null) ?? null,
      missionsCompleted: Number(row.x_missions_completed ?? 0),
      pastMissions: ((row.x_objectives as Array<string | null> | null) ?? []).filter((o): o is string => typeof o === 'string'),
      unsummarized: chaptersOf(row.x_history),
      cards: (typeof row.x_cards === 'string' ? JSON.parse(row.x_cards) : (row.x_cards ?? [])) as CardSnapshot[],
      claimed: row.x_claimed_id ? { id: row.x_claimed_id as string, take: row.x_claimed_take as number, createdAt: claimedAt } : null,
    };
  }

  /**
   * Claims the generating row for chapter `index` (null when another request claimed first). The
   * guard makes the claim conditional on the story still ending with the very chapter (take) we
   * read, so a chapter can never be written on top of a state that changed under us — and the
   * history read with the context is exactly the one this chapter continues.
   */
  async claimChapter(characterId: string, index: number, action: string | null, latestId: string | null): Promise<ClaimedRow | null> {
    const now = new Date();
    try {
      const rows = (await this.dataSource.query(
        `INSERT INTO chapters (character_id, "index", take, is_selected, status, player_choice, text, created_at, updated_at)
         SELECT $1, $2, (SELECT COALESCE(MAX(take) + 1, 0) FROM chapters WHERE character_id = $1 AND "index" = $2), false, 'generating', $3, '', $4, $4
          WHERE (SELECT id FROM chapters WHERE character_id = $1 AND is_selected ORDER BY "index" DESC LIMIT 1) IS NOT DISTINCT FROM $5::uuid
         RETURNING id, take`,
        [characterId, index, action, now, latestId],
      )) as Array<{ id: string; take: number }>;
      const row = rows[0];
      return row ? { ...row, createdAt: now } : null;
    } catch (e) {
      if (sqlState(e) === '23505') return null; // the one-generating-row index: someone else claimed
      throw e;
    }
  }

  /** Gives up a generating row (its writer is dead); its text stays for diagnosis. */
  async failGenerating(chapterId: string): Promise<void> {
    await this.dataSource.query(`UPDATE chapters SET status = 'failed' WHERE id = $1 AND status = 'generating'`, [chapterId]);
  }

  /** Marks a generation this instance gave up on failed, dropping its half-written text. */
  async markFailed(chapterId: string): Promise<void> {
    await this.dataSource.query(`UPDATE chapters SET status = 'failed', text = '' WHERE id = $1 AND status = 'generating'`, [chapterId]);
  }

  /** Fails every generating row (boot on the embedded database); returns how many. */
  async failAllGenerating(): Promise<number> {
    const [rows] = (await this.dataSource.query(`UPDATE chapters SET status = 'failed' WHERE status = 'generating' RETURNING id`)) as [
      Array<{ id: string }>,
      number,
    ];
    return rows.length;
  }

  /** Persists a running chapter's text (and touches the row), only while it is still generating. */
  /** The text so far, and the next actions once written (null: not yet, the row keeps its list). */
  async writeLiveText(chapterId: string, text: string, choices: string[] | null = null): Promise<boolean> {
    const [rows] = (await this.dataSource.query(
      `UPDATE chapters SET text = $2, choices = COALESCE($3::jsonb, choices), updated_at = now() WHERE id = $1 AND status = 'generating' RETURNING id`,
      [chapterId, text, choices ? JSON.stringify(choices) : null],
    )) as [unknown[], number];
    return rows.length > 0;
  }

  /**
   * Stops the character's chapter in progress (any instance may be writing it): the take fails, its
   * half text goes, and the row says it was stopped. Returns its id, or null when nothing was being
   * written (it may have just been committed: then the chapter stands).
   */
  async stopGenerating(characterId: string): Promise<string | null> {
    const [rows] = (await this.dataSource.query(
      `UPDATE chapters SET status = 'failed', text = '', stopped_at = now() WHERE character_id = $1 AND status = 'generating' RETURNING id`,
      [characterId],
    )) as [Array<{ id: string }>, number];
    return rows[0]?.id ?? null;
  }

  async wasStopped(chapterId: string): Promise<boolean> {
    const [row] = (await this.dataSource.query(`SELECT stopped_at IS NOT NULL AS stopped FROM chapters WHERE id = $1`, [chapterId])) as Array<{
      stopped: boolean;
    }>;
    return row?.stopped === true;
  }

  /** A chapter's state as another instance sees it; the database's clock decides staleness. */
  async remoteState(chapterId: string, columns: 'status' | 'status, text, choices', staleAfterMs: number): Promise<RemoteState | null> {
    const [row] = (await this.dataSource.query(
      `SELECT ${columns}, (status = 'generating' AND updated_at < now() - make_interval(secs => $2::double precision)) AS dead,
              stopped_at IS NOT NULL AS stopped
         FROM chapters WHERE id = $1`,
      [chapterId, staleAfterMs / 1000],
    )) as RemoteState[];
    return row ?? null;
  }

  /** The rolling summary's state now, with the selected chapters it does not cover yet. */
  async summaryState(characterId: string): Promise<{ summary: string; throughIndex: number; unsummarized: UnsummarizedChapter[] } | null> {
    const [row] = await this.dataSource.query<Array<{ story_summary: string; summary_through_index: number; history: unknown }>>(
      `SELECT c.story_summary, c.summary_through_index,
              (SELECT ${HISTORY_JSON}
                 FROM chapters h WHERE h.character_id = c.id AND h.is_selected AND h."index" > c.summary_through_index) AS history
         FROM characters c WHERE c.id = $1`,
      [characterId],
    );
    if (!row) return null;
    return { summary: row.story_summary, throughIndex: row.summary_through_index, unsummarized: chaptersOf(row.history) };
  }

  /**
   * Stores a new rolling summary — only if the stored one is still the one it continues and the last
   * chapter it covers is still in the story (an undo or a new take of it since makes it wrong).
   */
  async storeSummary(characterId: string, summary: string, through: number, expectedThrough: number, lastCoveredId: string): Promise<boolean> {
    const [rows] = await this.dataSource.query<[unknown[], number]>(
      `UPDATE characters SET story_summary = $2, summary_through_index = $3
        WHERE id = $1 AND summary_through_index = $4
          AND EXISTS (SELECT 1 FROM chapters WHERE id = $5 AND character_id = $1 AND is_selected AND "index" = $3)
        RETURNING id`,
      [characterId, summary, through, expectedThrough, lastCoveredId],
    );
    return rows.length > 0;
  }

  chapter(chapterId: string): Promise<Chapter> {
    return this.dataSource.getRepository(Chapter).findOneByOrFail({ id: chapterId });
  }

  async chapterText(chapterId: string): Promise<string> {
    const [row] = (await this.dataSource.query(`SELECT text FROM chapters WHERE id = $1`, [chapterId])) as Array<{ text: string }>;
    return row?.text ?? '';
  }

  selectedChapter(db: DataSource | EntityManager, characterId: string, index: number): Promise<Chapter> {
    return db.getRepository(Chapter).findOneByOrFail({ characterId, index, isSelected: true });
  }

  async lastCompletedObjective(characterId: string): Promise<string | null> {
    const [last] = await this.dataSource.getRepository(Mission).find({ where: { characterId, status: 'completed' }, order: { completedAt: 'DESC' }, take: 1 });
    return last?.objective ?? null;
  }

  /**
   * What a reader subscribing to a character's chapter stream follows, with the ownership check, in
   * one read: the chapter given, or the one generating now, or else the latest. Null: no such
   * character for this player; `chapter` null: no such chapter.
   */
  async streamTarget(
    userId: string,
    characterId: string,
    chapterId: string | null,
  ): Promise<{ chapter: Chapter | null; status: Chapter['status'] | null } | null> {
    const pinned = chapterId !== null;
    const [row] = (await this.dataSource.query(
      `SELECT c.id AS x_character, ch.*
         FROM characters c
         LEFT JOIN LATERAL (SELECT * FROM chapters
                             WHERE character_id = c.id AND ${pinned ? 'id = $3' : `(status = 'generating' OR is_selected)`}
                             ORDER BY (status = 'generating') DESC, "index" DESC LIMIT 1) ch ON true
        WHERE c.id = $1 AND c.user_id = $2`,
      pinned ? [characterId, userId, chapterId] : [characterId, userId],
    )) as Array<Record<string, unknown> & { x_character: string; id: string | null; status: Chapter['status'] | null }>;
    if (!row) return null;
    if (!row.id) return { chapter: null, status: null };
    return { chapter: hydrate(this.dataSource, Chapter, row), status: row.status };
  }

  /** A page of the selected chapters, oldest first: the last `limit` before `beforeIndex`. */
  async chapters(characterId: string, limit: number, beforeIndex: number | null): Promise<Chapter[]> {
    const rows = await this.dataSource
      .getRepository(Chapter)
      .createQueryBuilder('c')
      .where('c.characterId = :characterId AND c.isSelected', { characterId })
      .andWhere(beforeIndex === null ? '1=1' : 'c.index < :beforeIndex', { beforeIndex })
      .orderBy('c.index', 'DESC')
      .limit(limit)
      .getMany();
    return rows.reverse();
  }

  missionHistory(characterId: string): Promise<Mission[]> {
    return this.dataSource.getRepository(Mission).find({ where: { characterId }, order: { startedAt: 'ASC', createdAt: 'ASC' } });
  }

  async worldName(worldId: string | null): Promise<string | null> {
    if (!worldId) return null;
    const [world] = (await this.dataSource.query(`SELECT name FROM worlds WHERE id = $1`, [worldId])) as Array<{ name: string }>;
    return world?.name ?? null;
  }
}

// Helpers for story transactions: every writer of a story takes the character's row lock first, so
// what it reads with the lock holds until COMMIT.

export async function lockCharacter(m: EntityManager, id: string): Promise<Character> {
  const c = await m.getRepository(Character).findOne({ where: { id }, lock: { mode: 'pessimistic_write' } });
  if (!c) throw AppError.notFound('Character');
  return c;
}

export async function latestSelectedIndex(m: EntityManager, characterId: string): Promise<number> {
  const [r] = (await m.query(`SELECT COALESCE(MAX("index"), -1) AS i FROM chapters WHERE character_id = $1 AND is_selected`, [characterId])) as Array<{
    i: number;
  }>;
  return Number(r?.i ?? -1);
}

export async function refuseWhileGenerating(m: EntityManager, characterId: string): Promise<void> {
  const rows = (await m.query(`SELECT 1 FROM chapters WHERE character_id = $1 AND status = 'generating'`, [characterId])) as unknown[];
  if (rows.length > 0) throw new AppError('CONFLICT', 'A chapter is being written for this character; wait for it to finish.');
}

export function sqlState(e: unknown): string | undefined {
  const err = e as { code?: string; driverError?: { code?: string } } | null;
  return err?.driverError?.code ?? err?.code;
}
