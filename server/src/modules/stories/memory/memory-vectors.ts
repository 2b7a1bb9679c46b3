/**
 * The memory bank's vectors (issue 30, item 2), when an embeddings model is configured
 * (EMBEDDINGS_MODEL): each memory's embedding is stored beside it in memory_embeddings (bytea,
 * float32, unit length) and compared in process — a story holds thousands of memories at most, a few
 * megabytes of floats, read once per chapter. Neither PGlite 0.5 nor the PostgreSQL this project is
 * tested on (15, Debian) offers pgvector, so one way serves both databases.
 *
 * Vectors are written after the fact, in the background: after a chapter is stored, and after the
 * player writes or rewrites a memory, every memory of the story without a vector for the current
 * model and its current text (digest: md5 of the text) gets one, so a changed model, an edit, or an
 * outage are caught up by the next chapter. A
 * memory without a vector yet is still found by full-text search. Vectors of memories that no take
 * and no player memory holds any more are dropped at the same time.
 */
import type { DataSource } from 'typeorm';
import type { Embedder } from '../../../ai/embeddings';
import { vectorBytes } from '../../../ai/embeddings';
import type { Logger } from '../../../common/logger';

/** Memories embedded per catch-up (a long story written before a model was configured catches up over a few chapters). */
const CATCH_UP_MAX = 256;

/** Every memory of the story: the selected takes' and the player's own (as text ids). */
const MEMORY_IDS = `SELECT e->>'id' AS id, e->>'text' AS text FROM chapters c CROSS JOIN LATERAL jsonb_array_elements(c.memories) e
                     WHERE c.character_id = $1 AND c.is_selected AND c.status = 'complete'
                    UNION ALL
                    SELECT id::text, text FROM story_memories WHERE character_id = $1`;

export class MemoryVectors {
  /** The catch-up running per character, and whether another was asked for meanwhile. */
  private readonly running = new Map<string, { done: Promise<void>; again: boolean }>();
  /** Aborted at shutdown: catch-ups stop (the next start catches up). */
  private readonly shutdown = new AbortController();

  constructor(
    private readonly dataSource: DataSource,
    private readonly embedder: Embedder | null,
    private readonly log: Logger,
  ) {}

  /** The model vectors are compared under; null: no embeddings (full-text search only). */
  get model(): string | null {
    return this.embedder?.model ?? null;
  }

  /**
   * The vector of a chapter's retrieval text, or null (no model; the server failed or was slower
   * than its timeout: the chapter goes on with full-text search, and says so in the log).
   */
  async queryVector(text: string, signal?: AbortSignal): Promise<Float32Array | null> {
    if (!this.embedder || !text.trim()) return null;
    try {
      return (await this.embedder.embed([text], signal))[0] ?? null;
    } catch (err) {
      if (signal?.aborted) throw err;
      this.log.warn('memory search without embeddings for this chapter: the embeddings server failed', { model: this.embedder.model, err });
      return null;
    }
  }

  /** Embeds the story's memories that have no vector yet, in the background (see the header). */
  refresh(characterId: string): void {
    if (!this.embedder || this.shutdown.signal.aborted) return;
    const run = this.running.get(characterId);
    if (run) {
      run.again = true;
      return;
    }
    const state = { done: Promise.resolve(), again: false };
    state.done = (async () => {
      do {
        state.again = false;
        await this.catchUp(characterId).catch((err: unknown) => {
          if (!this.shutdown.signal.aborted)
            this.log.warn('memory embeddings not written; the next chapter tries again', { characterId, model: this.embedder?.model, err });
        });
      } while (state.again && !this.shutdown.signal.aborted);
    })().finally(() => this.running.delete(characterId));
    this.running.set(characterId, state);
  }

  /** Settles when no catch-up runs (tests, shutdown). */
  async idle(): Promise<void> {
    while (this.running.size > 0) await Promise.allSettled([...this.running.values()].map((r) => r.done));
  }

  /** Shutdown: stops the catch-ups running and waits for them. */
  async close(): Promise<void> {
    this.shutdown.abort();
    await this.idle();
  }

  private async catchUp(characterId: string): Promise<void> {
    const embedder = this.embedder!;
    const missing = (await this.dataSource.query(
      `WITH mem AS (${MEMORY_IDS})
       SELECT mem.id, mem.text FROM mem
        WHERE NOT EXISTS (SELECT 1 FROM memory_embeddings v
                           WHERE v.character_id = $1 AND v.memory_id::text = mem.id AND v.model = $2 AND v.digest = md5(mem.text))
        LIMIT ${CATCH_UP_MAX}`,
      [characterId, embedder.model],
    )) as Array<{ id: string; text: string }>;
    if (missing.length > 0) {
      const vectors = await embedder.embed(
        missing.map((m) => m.text),
        this.shutdown.signal,
      );
      if (this.shutdown.signal.aborted) return;
      const rows = missing.map((m, i) => ({ id: m.id, text: m.text, vector: vectorBytes(vectors[i]!) }));
      // One statement; a memory forgotten meanwhile (its character gone) is skipped, an existing row
      // (another model's, or a concurrent catch-up's) is replaced.
      await this.dataSource.query(
        `INSERT INTO memory_embeddings (memory_id, character_id, model, digest, vector)
         SELECT (r->>'id')::uuid, $1, $2, md5(r->>'t'), decode(r->>'v', 'base64') FROM jsonb_array_elements($3::jsonb) r
          WHERE EXISTS (SELECT 1 FROM characters WHERE id = $1)
         ON CONFLICT (memory_id) DO UPDATE SET model = EXCLUDED.model, digest = EXCLUDED.digest, vector = EXCLUDED.vector`,
        [characterId, embedder.model, JSON.stringify(rows.map((r) => ({ id: r.id, t: r.text, v: r.vector.toString('base64') })))],
      );
    }
    // Vectors of memories no take and no player memory holds any more (undone chapters, forgotten memories).
    await this.dataSource.query(
      `DELETE FROM memory_embeddings v WHERE v.character_id = $1 AND v.memory_id::text NOT IN (
         SELECT e->>'id' FROM chapters c CROSS JOIN LATERAL jsonb_array_elements(c.memories) e WHERE c.character_id = $1
         UNION ALL SELECT id::text FROM story_memories WHERE character_id = $1)`,
      [characterId],
    );
  }
}
