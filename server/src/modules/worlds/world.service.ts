/**
 * Worlds: the public lists (featured; the community's shared worlds, sorted, filtered and paged,
 * cached per instance and dropped on every world write), visibility (own, featured or shared and not
 * hidden), sharing through the moderation check, likes and remixes, the AI helpers of the creation
 * wizard (description, questions, image), and submitting a world for its credits: everything that
 * can be refused is checked before the debit, and the debit, the image and the row commit together.
 */
import crypto from 'node:crypto';
import { In, type DataSource } from 'typeorm';
import type { StoryAI } from '../../ai/story-ai';
import { AppError, isAppError } from '../../common/app-error';
import type { RateLimiter } from '../../common/rate-limiter';
import type { Config } from '../../config/env';
import type { CreditsService } from '../billing/credits.service';
import { WORLD_CREATION_COST } from '../billing/prices';
import { bytesFromDataUrl, jpegDataUrl, prepareImage } from '../media/image-upload';
import type { MediaService } from '../media/media.service';
import type { Moderation } from '../community/moderation';
import { FreshCache } from '../../common/fresh-cache';
import { charLength, int, isUuid, text, textList, bool } from '../shared/input';
import { genreOf } from './world-genre';
import { World, WORLD_DESCRIPTION_MAX } from './world.entity';

export interface FeaturedQuery {
  limit?: number;
  offset?: number;
  search?: string | null;
  genre?: string | null;
}

const COMMUNITY_SORTS = ['new', 'played', 'liked'] as const;
type CommunitySort = (typeof COMMUNITY_SORTS)[number];

export interface CommunityQuery extends FeaturedQuery {
  sort?: string | null;
}

export interface CommunityPage {
  worlds: World[];
  /** Matching worlds in all (for pagination). */
  total: number;
  /** The creators' usernames by owner id, read in the same statement as the page. */
  authors: Map<string, string | null>;
}

/** Submit-world input as both surfaces deliver it; `image` is raw upload bytes or a data URL. */
export interface SubmitWorldInput {
  worldName: unknown;
  worldDescription: unknown;
  questions: unknown;
  image?: unknown;
}

export interface WorldImageInfo {
  success: boolean;
  publicURL: string | null;
}

const FEATURED_PAGE_MAX = 100;
/** The community list's ORDER BY per sort; each ends in unique keys so pages never overlap. */
const COMMUNITY_ORDER: Record<CommunitySort, Record<string, 'DESC'>> = {
  new: { 'w.sharedAt': 'DESC', 'w.id': 'DESC' },
  played: { 'w.playCount': 'DESC', 'w.sharedAt': 'DESC', 'w.id': 'DESC' },
  liked: { 'w.likeCount': 'DESC', 'w.sharedAt': 'DESC', 'w.id': 'DESC' },
};
const WORLD_NAME_MAX = 120;
const WORLD_QUESTIONS_MAX = 10;
const WORLD_QUESTION_MAX = 300;
/** Smallest description length a caller may ask for: shorter would not be a world. */
const DESCRIPTION_MAX_LENGTH_MIN = 50;

const DESCRIPTION_RULE = {
  required: 'Please enter a world description',
  max: WORLD_DESCRIPTION_MAX,
  tooLong: `World description cannot exceed ${WORLD_DESCRIPTION_MAX} characters`,
};

/**
 * Worlds: public featured reads, the owner's own worlds, sharing, AI help for the create wizard and
 * world creation. Visibility rule for reads by id: own, featured, or shared globally; anything else
 * answers NOT_FOUND exactly like an id that does not exist, so ids cannot be probed.
 */
export class WorldService {
  /** Told after a committed world write (response caches of public world lists drop their copies). */
  private readonly changeListeners = new Set<(worldId: string) => void>();

  constructor(
    private readonly dataSource: DataSource,
    private readonly deps: {
      config: Config;
      ai: StoryAI;
      credits: CreditsService;
      media: MediaService;
      limiter: RateLimiter;
      moderation: Moderation;
    },
  ) {
    this.communityPages = new FreshCache(deps.config.ops.responseCacheSeconds * 1000, 500);
  }

  /**
   * Community pages by query, for every caller (the response cache in front of GraphQL serves only
   * anonymous POSTs; REST and signed-in readers come here). Dropped on every world write here and on
   * other instances' (forgetPublicLists); likes and plays do not drop it, so counts in a list may lag
   * by the TTL while the world's own popup reads them fresh.
   */
  private readonly communityPages: FreshCache<string, CommunityPage>;

  private get repo() {
    return this.dataSource.getRepository(World);
  }

  onChange(listener: (worldId: string) => void): () => void {
    this.changeListeners.add(listener);
    return () => this.changeListeners.delete(listener);
  }

  /** Another instance changed a world: public lists held here are stale. */
  forgetPublicLists(): void {
    this.communityPages.clear();
  }

  /** A world changed (committed): public lists here drop their copies, listeners (other caches, other instances) hear it. */
  changed(worldId: string): void {
    this.communityPages.clear();
    for (const l of this.changeListeners) {
      try {
        l(worldId);
      } catch {
        /* a listener reports its own errors; the write is committed */
      }
    }
  }

  /** Public: featured worlds, oldest first, optionally filtered by text (name/description) and genre. */
  async featured(q: FeaturedQuery = {}): Promise<World[]> {
    const limit = q.limit ?? 50;
    const offset = q.offset ?? 0;
    if (!Number.isInteger(limit) || limit < 1 || limit > FEATURED_PAGE_MAX) {
      throw AppError.badInput(`limit must be between 1 and ${FEATURED_PAGE_MAX}.`, 'limit');
    }
    if (!Number.isInteger(offset) || offset < 0) throw AppError.badInput('offset must be 0 or more.', 'offset');
    const qb = this.repo.createQueryBuilder('w').where('w.featured = true AND w.hidden_at IS NULL');
    filterByText(qb, q);
    return qb.orderBy('w.created_at', 'ASC').addOrderBy('w.id', 'ASC').limit(limit).offset(offset).getMany();
  }

  /**
   * Public: worlds players shared (not featured ones, which have their own list; not hidden ones),
   * by newest share, most played or most liked. One statement per page: the total comes from a window
   * count over the same rows.
   */
  async community(q: CommunityQuery = {}): Promise<CommunityPage> {
    const limit = q.limit ?? 24;
    const offset = q.offset ?? 0;
    if (!Number.isInteger(limit) || limit < 1 || limit > FEATURED_PAGE_MAX) {
      throw AppError.badInput(`limit must be between 1 and ${FEATURED_PAGE_MAX}.`, 'limit');
    }
    if (!Number.isInteger(offset) || offset < 0 || offset > 100_000) throw AppError.badInput('offset must be between 0 and 100000.', 'offset');
    const sort = (q.sort ?? 'new') as CommunitySort;
    if (!COMMUNITY_SORTS.includes(sort)) throw AppError.badInput(`sort must be one of ${COMMUNITY_SORTS.join(', ')}.`, 'sort');
    const search = q.search?.trim() ?? '';
    const genre = q.genre?.trim() ?? '';
    const key = JSON.stringify([limit, offset, sort, search.toLowerCase(), genre]);
    return this.communityPages.load(key, async () => {
      const listed = () =>
        filterByText(this.repo.createQueryBuilder('w').where('w.shared_globally = true AND w.hidden_at IS NULL AND w.featured = false'), { search, genre });
      const qb = listed()
        .leftJoin('w.owner', 'u')
        .addSelect('u.username', 'author')
        .addSelect('count(*) OVER ()', 'total')
        .orderBy(COMMUNITY_ORDER[sort])
        .limit(limit)
        .offset(offset);
      const { entities, raw } = await qb.getRawAndEntities<{ w_owner_id: string | null; author: string | null; total: string | number }>();
      // A page past the end has no rows to carry the window count: one more (rare) count answers it.
      const total = raw.length > 0 ? Number(raw[0]!.total) : offset === 0 ? 0 : await listed().getCount();
      const authors = new Map(raw.filter((r) => r.w_owner_id !== null).map((r) => [r.w_owner_id!, r.author]));
      return { worlds: entities, total, authors };
    });
  }

  /** The caller's own worlds, newest first. */
  mine(userId: string): Promise<World[]> {
    return this.repo.find({ where: { ownerId: userId }, order: { createdAt: 'DESC', id: 'DESC' } });
  }

  /** Raw rows by id (one query); callers apply the visibility rule. */
  byIds(ids: string[]): Promise<World[]> {
    return ids.length === 0 ? Promise.resolve([]) : this.repo.find({ where: { id: In(ids) } });
  }

  /** A world the viewer may see (own, featured or shared), else NOT_FOUND. Anonymous viewers: userId null. */
  async visible(userId: string | null, id: unknown): Promise<World> {
    if (!isUuid(id)) throw AppError.notFound('World');
    const world = await this.repo.findOne({ where: { id } });
    if (!world || !WorldService.canSee(userId, world)) throw AppError.notFound('World');
    return world;
  }

  /** Names of the worlds with these ids that the viewer may see, in one query (others are left out). */
  async visibleNames(userId: string | null, ids: Array<string | null>): Promise<Map<string, string>> {
    const worlds = await this.byIds([...new Set(ids.filter((id): id is string => id !== null))]);
    return new Map(worlds.filter((w) => WorldService.canSee(userId, w)).map((w) => [w.id, w.name]));
  }

  /** Own worlds always; others when featured or shared and not hidden pending review. */
  static canSee(userId: string | null, world: World): boolean {
    if (userId !== null && world.ownerId === userId) return true;
    return world.hiddenAt === null && (world.featured || world.sharedGlobally);
  }

  /** SPEC `GET /worlds/image/{id}`: the image's same-origin URL, or success false when it has none. */
  async imageInfo(userId: string | null, id: unknown): Promise<WorldImageInfo> {
    const world = await this.visible(userId, id);
    const url = this.imageUrl(world);
    return { success: url !== null, publicURL: url };
  }

  imageUrl(world: Pick<World, 'imageMediaId'>): string | null {
    return world.imageMediaId ? `/media/${world.imageMediaId}` : null;
  }

  /**
   * Owner only; another player's world (even a shared one) is NOT_FOUND for this purpose. Sharing
   * passes the moderation check first (name, description, questions): refused content stays private
   * with CONTENT_REJECTED. `shared_at` is when it was last shared (the community list's "new").
   */
  async setShared(userId: string, id: unknown, shared: unknown): Promise<World> {
    const value = bool(shared, 'shared_globally');
    if (!isUuid(id)) throw AppError.notFound('World');
    if (value) {
      const world = await this.repo.findOne({ where: { id, ownerId: userId } });
      if (!world) throw AppError.notFound('World');
      // A copy (of a copy…) of a world hidden pending review would put it back in front of everyone.
      if (world.remixedFromId && (await this.copiesHiddenWorld(world.id))) {
        throw new AppError('FORBIDDEN', 'This world is a copy of one hidden pending review: it can be shared once the review is over.', {
          reason: 'original_hidden',
        });
      }
      await this.passModeration([world.name, world.description, ...world.questions]);
    }
    const [rows] = (await this.dataSource.query(
      `UPDATE worlds SET shared_globally = $1, updated_at = now(),
         shared_at = CASE WHEN $1 AND NOT shared_globally THEN now() ELSE shared_at END
       WHERE id = $2 AND owner_id = $3 RETURNING id`,
      [value, id, userId],
    )) as [Array<{ id: string }>, number];
    if (rows.length === 0) throw AppError.notFound('World');
    this.changed(id);
    return this.repo.findOneOrFail({ where: { id } });
  }

  /** Whether any world this one was remixed from, however far back, is hidden pending review. */
  private async copiesHiddenWorld(id: string): Promise<boolean> {
    const rows = (await this.dataSource.query(
      `WITH RECURSIVE origin(id, remixed_from_id, hidden_at, depth) AS (
         SELECT id, remixed_from_id, NULL::timestamptz, 0 FROM worlds WHERE id = $1
         UNION ALL
         SELECT w.id, w.remixed_from_id, w.hidden_at, o.depth + 1 FROM worlds w JOIN origin o ON w.id = o.remixed_from_id WHERE o.depth < 50
       )
       SELECT 1 FROM origin WHERE hidden_at IS NOT NULL LIMIT 1`,
      [id],
    )) as unknown[];
    return rows.length > 0;
  }

  /** CONTENT_REJECTED unless the moderation check passes these texts. */
  async passModeration(texts: string[]): Promise<void> {
    const verdict = await this.deps.moderation.check(texts);
    if (verdict.flagged) {
      throw new AppError('CONTENT_REJECTED', 'This content cannot be shared: it breaks the community rules.', { categories: verdict.categories });
    }
  }

  /**
   * Likes or unlikes a world the player may see (not their own). Idempotent: liking twice is one like.
   * The count changes in the same statement as the like row, so concurrent likes stay exact.
   */
  async setLiked(userId: string, id: unknown, liked: unknown): Promise<World> {
    const value = bool(liked, 'liked');
    const world = await this.visible(userId, id);
    if (world.ownerId === userId) throw AppError.badInput('You cannot like your own world.', 'id');
    const sql = value
      ? `WITH changed AS (INSERT INTO world_likes (world_id, user_id) VALUES ($1, $2) ON CONFLICT DO NOTHING RETURNING 1)
         UPDATE worlds SET like_count = like_count + (SELECT count(*) FROM changed) WHERE id = $1 RETURNING like_count`
      : `WITH changed AS (DELETE FROM world_likes WHERE world_id = $1 AND user_id = $2 RETURNING 1)
         UPDATE worlds SET like_count = like_count - (SELECT count(*) FROM changed) WHERE id = $1 RETURNING like_count`;
    const [rows] = (await this.dataSource.query(sql, [world.id, userId])) as [Array<{ like_count: number }>, number];
    world.likeCount = Number(rows[0]?.like_count ?? world.likeCount);
    return world;
  }

  /**
   * Copies a world the player may see (featured, shared or their own) into their worlds, private, with
   * its questions and image, crediting the original. Costs what creating a world costs, charged in
   * the same transaction as the copy.
   */
  async remix(userId: string, id: unknown): Promise<World> {
    const original = await this.visible(userId, id);
    const copyId = crypto.randomUUID();
    let balance = 0;
    const world = await this.dataSource.transaction(async (m) => {
      const change = await this.deps.credits.spendIn(m, userId, WORLD_CREATION_COST, 'world_remix', { referenceId: copyId });
      balance = change.balance;
      await m.getRepository(World).insert({
        id: copyId,
        ownerId: userId,
        name: original.name,
        description: original.description,
        questions: original.questions,
        genre: original.genre,
        featured: false,
        sharedGlobally: false,
        // Media rows are immutable and shared by id: the copy points at the same picture.
        imageMediaId: original.imageMediaId,
        remixedFromId: original.id,
      });
      return m.getRepository(World).findOneOrFail({ where: { id: copyId } });
    });
    this.deps.credits.emit(userId, balance);
    this.changed(copyId);
    return world;
  }

  /** A description grown from the player's idea; never longer than maxLength (≤ 1200). */
  async generateDescription(userId: string, raw: { worldDescription?: unknown; maxLength?: unknown }): Promise<string> {
    const idea = text(raw.worldDescription, 'worldDescription', { max: WORLD_DESCRIPTION_MAX, tooLong: DESCRIPTION_RULE.tooLong });
    const maxLength =
      raw.maxLength === undefined || raw.maxLength === null
        ? WORLD_DESCRIPTION_MAX
        : Math.min(WORLD_DESCRIPTION_MAX, int(raw.maxLength, 'maxLength', DESCRIPTION_MAX_LENGTH_MIN, Number.MAX_SAFE_INTEGER));
    await this.throttle(userId);
    const { description } = await this.generation(() => this.deps.ai.generateWorldDescription({ idea, maxLength }), 'description');
    // The providers clamp to at least 200 characters; the caller's limit is the contract.
    return truncateProse(description, maxLength);
  }

  async generateQuestions(userId: string, raw: { worldDescription?: unknown }): Promise<string[]> {
    const worldDescription = text(raw.worldDescription, 'worldDescription', DESCRIPTION_RULE);
    await this.throttle(userId);
    const { questions } = await this.generation(() => this.deps.ai.generateWorldQuestions({ worldDescription }), 'questions');
    return questions;
  }

  /** SPEC generate-image: a JPEG data URL the wizard shows and later submits with the world. */
  async generateImage(userId: string, raw: { worldDescription?: unknown }): Promise<string> {
    const worldDescription = text(raw.worldDescription, 'worldDescription', { ...DESCRIPTION_RULE, required: 'Please enter a world description first' });
    await this.throttle(userId);
    // A fresh seed each time: "regenerate" must give a different picture for the same description.
    const seed = crypto.randomInt(0, 2 ** 31);
    const img = await this.generation(() => this.deps.ai.generateWorldImage({ worldDescription, seed }), 'image');
    return jpegDataUrl(img.bytes, img.mime);
  }

  /**
   * Creates a world for 3 credits. Everything that can be refused (fields, the image) is checked
   * before the debit; the debit, the stored image and the world row then commit together or not at
   * all, so a failure after the debit leaves no charge behind (the ledger never shows it).
   */
  async submit(userId: string, raw: SubmitWorldInput): Promise<World> {
    const name = text(raw.worldName, 'worldName', { required: 'Please enter a world name', max: WORLD_NAME_MAX, name: true });
    const description = text(raw.worldDescription, 'worldDescription', DESCRIPTION_RULE);
    const questions = cleanQuestions(raw.questions);
    let image = null;
    if (raw.image !== undefined && raw.image !== null && raw.image !== '') {
      if (typeof raw.image !== 'string' && !Buffer.isBuffer(raw.image)) throw AppError.badInput('image must be an image data URL.', 'image');
      image = await prepareImage(typeof raw.image === 'string' ? bytesFromDataUrl(raw.image) : raw.image);
    }
    const id = crypto.randomUUID();
    let balance = 0;
    const world = await this.dataSource.transaction(async (m) => {
      const change = await this.deps.credits.spendIn(m, userId, WORLD_CREATION_COST, 'world_create', { referenceId: id });
      balance = change.balance;
      const stored = image ? await this.deps.media.store(m, image) : null;
      await m.getRepository(World).insert({
        id,
        ownerId: userId,
        name,
        description,
        questions,
        genre: genreOf(`${name}. ${description}`),
        featured: false,
        sharedGlobally: false,
        imageMediaId: stored?.id ?? null,
      });
      return m.getRepository(World).findOneOrFail({ where: { id } });
    });
    this.deps.credits.emit(userId, balance);
    this.changed(id);
    return world;
  }

  private async throttle(userId: string): Promise<void> {
    const { perUserPerWindow, windowSeconds } = this.deps.config.generationRateLimit;
    const r = await this.deps.limiter.hit(`world-gen:${userId}`, perUserPerWindow, windowSeconds);
    if (!r.allowed) {
      throw new AppError('RATE_LIMITED', 'Too many generations; please wait a moment.', { retryAfterSeconds: r.retryAfterSeconds });
    }
  }

  private async generation<T>(run: () => Promise<T>, what: string): Promise<T> {
    try {
      return await run();
    } catch (e) {
      if (isAppError(e)) throw e;
      throw new AppError('GENERATION_FAILED', `Failed to generate ${what}.`);
    }
  }
}

/** Text search (ILIKE with the wildcards escaped: the search text is data, never a pattern) and genre. */
function filterByText<Q extends import('typeorm').SelectQueryBuilder<World>>(qb: Q, q: { search?: string | null; genre?: string | null }): Q {
  const search = q.search?.trim();
  if (search) {
    if (search.length > 100) throw AppError.badInput('search must be at most 100 characters.', 'search');
    const pattern = `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    qb.andWhere('(w.name ILIKE :pattern OR w.description ILIKE :pattern)', { pattern });
  }
  const genre = q.genre?.trim();
  if (genre) qb.andWhere('w.genre = :genre', { genre });
  return qb;
}

/** SPEC §5: the first question is required; blank questions are dropped. */
function cleanQuestions(raw: unknown): string[] {
  const list = textList(raw, 'questions', WORLD_QUESTIONS_MAX, { max: WORLD_QUESTION_MAX });
  if (!list[0]) throw AppError.badInput('Please enter at least one question', 'questions');
  return list.filter((q) => q !== '');
}

/** Cuts prose to at most `max` characters at a sentence end, else a word boundary. */
function truncateProse(s: string, max: number): string {
  if (charLength(s) <= max) return s;
  const cut = [...s].slice(0, max).join('');
  const sentence = cut.search(/[.!?…](?=[^.!?…]*$)/);
  if (sentence >= max * 0.5) return cut.slice(0, sentence + 1);
  const space = cut.lastIndexOf(' ');
  return (space > 0 ? cut.slice(0, space) : cut).replace(/[\s,;:–-]+$/, '');
}
