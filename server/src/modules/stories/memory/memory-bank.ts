/**
 * The memory bank (issue 30): short memories of what happened, facts, promises and where things are,
 * retrieved for each chapter by relevance to the action and the latest text, so a fact from chapter 3
 * reaches the prompt of chapter 16 when the action asks for it.
 *
 * Where memories live:
 * - a chapter's own memories on its take's row (Chapter.memories): the storyteller's record of the
 *   chapter and the player's action as they wrote it. Undo, another take, a rewind and a restored
 *   branch carry them exactly, as they carry the text; only selected chapters are remembered.
 * - the player's own memories in story_memories: they stay whatever happens to the chapters.
 *
 * Retrieval is PostgreSQL full-text search (the same on PGlite and PostgreSQL): the action and the
 * latest lines become an OR query over the memories' text, ranked (ts_rank_cd) and then by recency;
 * pinned memories always come first. With an embeddings model (EMBEDDINGS_MODEL) the ranking blends in
 * vector similarity, compared in process (memory/memory-vectors.ts).
 */
import crypto from 'node:crypto';
import type { DataSource } from 'typeorm';
import { MEMORY_KINDS, type ChapterResult, type MemoryKind, type PromptMemory } from '../../../ai/story-ai';
import { AppError } from '../../../common/app-error';
import { findOwnedCharacter } from '../../characters/owned-character';
import { bool, int, isUuid, object, text } from '../../shared/input';
import { MEMORY_TEXT_MAX } from '../../shared/limits';
import type { TakeMemory } from '../chapter.entity';
import { similarity, vectorOf } from '../../../ai/embeddings';
import { lockCharacter } from '../story.store';
import { MemoryEntry, PlayerMemory } from './memory.entity';

/** Memories one story may hold that the player wrote (the chapters' own are bounded by the chapters). */
const PLAYER_MEMORIES_MAX = 500;
/** Candidates retrieved for a chapter; the prompt's memory share decides how many are sent. */
const MEMORY_CANDIDATES = 40;
/** Words of the action and latest text a retrieval query is made of. */
const QUERY_TERMS_MAX = 48;

/** One line, plain, at most MEMORY_TEXT_MAX characters (cut at a word). */
function memoryLine(s: string): string {
  const one = s.replace(/\s+/g, ' ').trim();
  if (one.length <= MEMORY_TEXT_MAX) return one;
  const cut = one.slice(0, MEMORY_TEXT_MAX - 1);
  const space = cut.lastIndexOf(' ');
  return `${space > MEMORY_TEXT_MAX / 2 ? cut.slice(0, space) : cut}…`;
}

/**
 * The memories a take leaves: the storyteller's record of the chapter, then the player's action as
 * they wrote it (the player's own words are the facts they most expect to be kept).
 */
export function takeMemories(result: Pick<ChapterResult, 'memories'>, action: string | null): TakeMemory[] {
  const out: TakeMemory[] = [];
  const seen = new Set<string>();
  const add = (kind: MemoryKind, raw: string, source: TakeMemory['source']) => {
    const t = memoryLine(raw);
    if (!t || seen.has(t.toLowerCase())) return;
    seen.add(t.toLowerCase());
    out.push({ id: crypto.randomUUID(), kind, text: t, pinned: false, source, edited: false });
  };
  for (const m of result.memories ?? []) add(m.kind, m.text, 'storyteller');
  if (action?.trim()) add('event', action, 'action');
  return out;
}

/**
 * The retrieval query for a chapter: the significant words of the action, then of the latest
 * chapter's last lines and the mission, as an OR query (to_tsquery syntax). Letters and digits only:
 * nothing a player typed reaches the query syntax.
 */
export function memoryQuery(parts: Array<string | null | undefined>): string {
  const terms: string[] = [];
  const seen = new Set<string>();
  for (const part of parts) {
    for (const m of (part ?? '').toLowerCase().matchAll(/[\p{L}\p{N}]{3,}/gu)) {
      const w = m[0];
      if (STOP.has(w) || seen.has(w)) continue;
      seen.add(w);
      terms.push(w);
      if (terms.length >= QUERY_TERMS_MAX) return terms.join(' | ');
    }
  }
  return terms.join(' | ');
}

// Words too common in stories to tell memories apart (PostgreSQL drops English stop words itself;
// these are the narration's own).
const STOP = new Set(
  'the and you your yours she her him his they them their its for with that this then than from into onto what when where who why how not but are was were have has had will would can could should said says say just like one two some any all out over under back down again still there here very'.split(
    ' ',
  ),
);

interface MemoryRow {
  id: string;
  kind: MemoryKind;
  text: string;
  pinned: boolean;
  chapter_index: number | null;
  source: MemoryEntry['source'];
  edited: boolean;
  rank: number;
}

/** A ranked candidate for a chapter prompt. */
export interface RankedMemory extends PromptMemory {
  id: string;
  /** 0–1: how well it matches the chapter (1 for a pinned one). */
  score: number;
}

export class MemoryBank {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * The memories for a chapter at `beforeIndex` (those of earlier chapters, and the player's), pinned
   * first, then by relevance to `query` (memoryQuery) and recency. Memories that match nothing are
   * not candidates: only pinned ones are sent whatever the chapter is about.
   *
   * With `vector` (the chapter's retrieval text embedded by `model`), the stored vectors count too:
   * the memories most similar to it are candidates as well, and the two rankings are fused by
   * reciprocal rank (a memory high in both comes first; one found by meaning alone, with no word in
   * common, still gets in).
   */
  async retrieve(
    characterId: string,
    beforeIndex: number,
    query: string,
    opts: { limit?: number; vector?: { model: string; vector: Float32Array } | null } = {},
  ): Promise<RankedMemory[]> {
    const limit = opts.limit ?? MEMORY_CANDIDATES;
    const semantic = opts.vector ?? null;
    const rows = (await this.dataSource.query(
      `WITH mem AS (
         SELECT e->>'id' AS id, e->>'kind' AS kind, e->>'text' AS text, COALESCE((e->>'pinned')::boolean, false) AS pinned,
                c."index" AS chapter_index, e->>'source' AS source, COALESCE((e->>'edited')::boolean, false) AS edited
           FROM chapters c CROSS JOIN LATERAL jsonb_array_elements(c.memories) e
          WHERE c.character_id = $1 AND c.is_selected AND c.status = 'complete' AND c."index" < $2
         UNION ALL
         SELECT id::text, kind, text, pinned, NULL, 'player', false FROM story_memories WHERE character_id = $1
       ), q AS (SELECT CASE WHEN $3 = '' THEN NULL ELSE to_tsquery('english', $3) END AS q)
       SELECT mem.*, COALESCE(ts_rank_cd(to_tsvector('english', mem.text), q.q, 32), 0)::float AS rank${
         semantic
           ? `, (SELECT v.vector FROM memory_embeddings v
                  WHERE v.character_id = $1 AND v.memory_id::text = mem.id AND v.model = $4 AND v.digest = md5(mem.text)) AS vector`
           : ''
       }
         FROM mem, q
        WHERE ${semantic ? 'true' : "mem.pinned OR (q.q IS NOT NULL AND to_tsvector('english', mem.text) @@ q.q)"}
        ORDER BY mem.pinned DESC, rank DESC, mem.chapter_index DESC NULLS FIRST
        ${semantic ? '' : 'LIMIT $4'}`,
      semantic ? [characterId, beforeIndex, query, semantic.model] : [characterId, beforeIndex, query, limit],
    )) as Array<MemoryRow & { vector?: Uint8Array | null }>;
    const ranked = semantic ? fuse(rows, semantic.vector, limit) : rows.map((r) => ({ row: r, score: Number(r.rank) }));
    return ranked.map(({ row: r, score }) => ({
      id: r.id,
      kind: r.kind,
      text: r.text,
      chapterNumber: r.chapter_index === null ? 0 : Number(r.chapter_index) + 1,
      pinned: r.pinned,
      // ts_rank_cd with normalization 32 is rank/(rank+1): already in 0–1; a fused score is scaled to 0–1.
      score: r.pinned ? 1 : score,
    }));
  }

  /** The story's memories as the player sees them: pinned first, then the player's own, then the newest chapters'. */
  async list(userId: string, characterId: unknown, page: { limit?: unknown; offset?: unknown; search?: unknown } = {}): Promise<MemoryEntry[]> {
    const c = await findOwnedCharacter(this.dataSource, userId, characterId);
    const limit = page.limit === undefined || page.limit === null ? 200 : int(page.limit, 'limit', 1, 500);
    const offset = page.offset === undefined || page.offset === null ? 0 : int(page.offset, 'offset', 0, 1_000_000);
    const search = text(page.search ?? '', 'search', { max: 200 });
    const rows = (await this.dataSource.query(
      `WITH mem AS (
         SELECT e->>'id' AS id, e->>'kind' AS kind, e->>'text' AS text, COALESCE((e->>'pinned')::boolean, false) AS pinned,
                c."index" AS chapter_index, e->>'source' AS source, COALESCE((e->>'edited')::boolean, false) AS edited, c.created_at AS at
           FROM chapters c CROSS JOIN LATERAL jsonb_array_elements(c.memories) e
          WHERE c.character_id = $1 AND c.is_selected AND c.status = 'complete'
         UNION ALL
         SELECT id::text, kind, text, pinned, NULL, 'player', false, created_at FROM story_memories WHERE character_id = $1
       )
       SELECT * FROM mem WHERE $2 = '' OR strpos(lower(text), lower($2)) > 0
        ORDER BY pinned DESC, chapter_index DESC NULLS FIRST, at DESC, id
        LIMIT $3 OFFSET $4`,
      [c.id, search, limit, offset],
    )) as MemoryRow[];
    return rows.map(entryOf);
  }

  /** A memory the player writes (Story Memory): kept whatever happens to the chapters. */
  async add(userId: string, characterId: unknown, raw: unknown): Promise<MemoryEntry> {
    const c = await findOwnedCharacter(this.dataSource, userId, characterId);
    const input = object(raw, 'input');
    const kind = kindOf(input.kind ?? 'fact');
    const t = memoryText(input.text);
    const pinned = input.pinned === undefined || input.pinned === null ? false : bool(input.pinned, 'pinned');
    const saved = await this.dataSource.transaction(async (m) => {
      await lockCharacter(m, c.id);
      const repo = m.getRepository(PlayerMemory);
      if ((await repo.countBy({ characterId: c.id })) >= PLAYER_MEMORIES_MAX) {
        throw AppError.badInput(`A story keeps at most ${PLAYER_MEMORIES_MAX} memories you wrote; delete one first.`, 'text');
      }
      return repo.save(repo.create({ characterId: c.id, kind, text: t, pinned }));
    });
    return entryOf({ id: saved.id, kind, text: t, pinned, chapter_index: null, source: 'player', edited: false, rank: 0 });
  }

  /** Changes a memory's text, kind or pin (a chapter's memory is rewritten on its take's row, and marked edited). */
  async update(userId: string, characterId: unknown, id: unknown, raw: unknown): Promise<MemoryEntry> {
    const c = await findOwnedCharacter(this.dataSource, userId, characterId);
    if (!isUuid(id)) throw AppError.notFound('Memory');
    const input = object(raw, 'input');
    const patch: { text?: string; pinned?: boolean; kind?: MemoryKind } = {};
    if (input.text !== undefined && input.text !== null) patch.text = memoryText(input.text);
    if (input.pinned !== undefined && input.pinned !== null) patch.pinned = bool(input.pinned, 'pinned');
    if (input.kind !== undefined && input.kind !== null) patch.kind = kindOf(input.kind);
    return this.dataSource.transaction(async (m) => {
      await lockCharacter(m, c.id);
      const player = await m.getRepository(PlayerMemory).findOneBy({ id, characterId: c.id });
      if (player) {
        await m.getRepository(PlayerMemory).update({ id }, patch);
        const p = { ...player, ...patch };
        return entryOf({ id, kind: p.kind, text: p.text, pinned: p.pinned, chapter_index: null, source: 'player', edited: false, rank: 0 });
      }
      const change = { ...patch, ...(patch.text !== undefined || patch.kind !== undefined ? { edited: true } : {}) };
      const [rows] = (await m.query(
        `UPDATE chapters SET memories = (SELECT jsonb_agg(CASE WHEN e->>'id' = $2 THEN e || $3::jsonb ELSE e END ORDER BY o) FROM jsonb_array_elements(memories) WITH ORDINALITY AS x(e, o))
          WHERE character_id = $1 AND memories @> jsonb_build_array(jsonb_build_object('id', $2::text))
          RETURNING "index", is_selected, (SELECT e FROM jsonb_array_elements(memories) e WHERE e->>'id' = $2) AS memory`,
        [c.id, id, JSON.stringify(change)],
      )) as [Array<{ index: number; is_selected: boolean; memory: TakeMemory }>, number];
      const row = rows.find((r) => r.is_selected) ?? rows[0];
      if (!row) throw AppError.notFound('Memory');
      return entryOf({ ...row.memory, chapter_index: row.index, rank: 0 });
    });
  }

  /** Forgets a memory for good (the player's, or a chapter's on its take). */
  async remove(userId: string, characterId: unknown, id: unknown): Promise<boolean> {
    const c = await findOwnedCharacter(this.dataSource, userId, characterId);
    if (!isUuid(id)) throw AppError.notFound('Memory');
    return this.dataSource.transaction(async (m) => {
      await lockCharacter(m, c.id);
      const gone = await m.getRepository(PlayerMemory).delete({ id, characterId: c.id });
      if (gone.affected) {
        await m.query(`DELETE FROM memory_embeddings WHERE memory_id = $1`, [id]);
        return true;
      }
      const [rows] = (await m.query(
        `UPDATE chapters SET memories = COALESCE((SELECT jsonb_agg(e ORDER BY o) FROM jsonb_array_elements(memories) WITH ORDINALITY AS x(e, o) WHERE e->>'id' <> $2), '[]'::jsonb)
          WHERE character_id = $1 AND memories @> jsonb_build_array(jsonb_build_object('id', $2::text)) RETURNING id`,
        [c.id, id],
      )) as [unknown[], number];
      if (rows.length === 0) throw AppError.notFound('Memory');
      await m.query(`DELETE FROM memory_embeddings WHERE memory_id = $1`, [id]);
      return true;
    });
  }
}

/** Reciprocal rank fusion's constant: how much the top places count over the next ones. */
const RRF_K = 60;
/** Memories found by meaning alone must be at least this close, relative to the closest one. */
const SIMILAR_SHARE = 0.75;

/**
 * Pinned memories, then the full-text ranking (rows come ordered by it) fused with the vector ranking
 * by reciprocal rank; rows whose rank is 0 and that are not among the most similar are not candidates.
 */
function fuse(rows: Array<MemoryRow & { vector?: Uint8Array | null }>, query: Float32Array, limit: number) {
  const pinned = rows.filter((r) => r.pinned);
  const text = rows.filter((r) => !r.pinned && Number(r.rank) > 0);
  const near = rows
    .filter((r) => !r.pinned && r.vector)
    .map((r) => ({ r, sim: similarity(vectorOf(r.vector!), query) }))
    .filter((x) => x.sim > 0)
    .sort((a, b) => b.sim - a.sim);
  const best = near[0]?.sim ?? 0;
  const similar = near.filter((x) => x.sim >= best * SIMILAR_SHARE).slice(0, limit);
  const score = new Map<string, { row: MemoryRow; score: number }>();
  const add = (row: MemoryRow, place: number) => {
    const s = score.get(row.id) ?? { row, score: 0 };
    s.score += 1 / (RRF_K + place);
    score.set(row.id, s);
  };
  text.forEach((r, i) => add(r, i + 1));
  similar.forEach((x, i) => add(x.r, i + 1));
  const top = 2 / (RRF_K + 1);
  const fused = [...score.values()]
    .sort((a, b) => b.score - a.score || (b.row.chapter_index ?? Infinity) - (a.row.chapter_index ?? Infinity))
    .map((s) => ({ row: s.row, score: s.score / top }));
  return [...pinned.map((row) => ({ row, score: 1 })), ...fused].slice(0, limit);
}

function entryOf(r: Omit<MemoryRow, 'rank'> & { rank?: number }): MemoryEntry {
  return Object.assign(new MemoryEntry(), {
    id: r.id,
    kind: r.kind,
    text: r.text,
    pinned: r.pinned,
    chapterNumber: r.chapter_index === null || r.chapter_index === undefined ? null : Number(r.chapter_index) + 1,
    source: r.source,
    edited: r.edited,
  });
}

function kindOf(v: unknown): MemoryKind {
  if (!(MEMORY_KINDS as readonly unknown[]).includes(v)) throw AppError.badInput(`kind must be one of ${MEMORY_KINDS.join(', ')}.`, 'kind');
  return v as MemoryKind;
}

function memoryText(v: unknown): string {
  const t = text(v, 'text', { required: 'Write the memory first.', max: MEMORY_TEXT_MAX, tooLong: `A memory is at most ${MEMORY_TEXT_MAX} characters.` });
  if (t.includes('\n')) throw AppError.badInput('A memory is one line.', 'text');
  return t;
}
