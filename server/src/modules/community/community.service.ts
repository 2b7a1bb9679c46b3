import { IsNull, type DataSource, type EntityManager } from 'typeorm';
import { AppError } from '../../common/app-error';
import { escapeHtml } from '../../common/html';
import type { Logger } from '../../common/logger';
import type { RateLimiter } from '../../common/rate-limiter';
import { afterAnswer } from '../auth/mail-tokens';
import type { Mailer } from '../mail/mailer';
import type { Config } from '../../config/env';
import { renderPublishedStory, PUBLISHED_PAGE_CSP } from '../stories/reads/story-export';
import type { StoryService } from '../stories/story.service';
import { isUuid, text } from '../shared/input';
import type { WorldService } from '../worlds/world.service';
import type { ReportTarget } from './content-report.entity';
import { StoryPublication } from './story-publication.entity';

const REPORT_REASONS = ['spam', 'sexual', 'hate', 'violence', 'harassment', 'illegal', 'other'] as const;
type ReportReason = (typeof REPORT_REASONS)[number];
const REPORT_NOTE_MAX = 1000;
/** Reports one player may file per hour: enough for honest use, too few to brigade with. */
const REPORTS_PER_HOUR = 20;
/** What moderation reads of a story: its name, world and chapters, up to this many characters. */
const MODERATION_TEXT_MAX = 200_000;

export interface PublicationView {
  id: string;
  /** The path readers open (`/read/{id}`). */
  path: string;
  publishedAt: Date;
  updatedAt: Date;
  chapterCount: number;
  /** Hidden pending review after reports, or by an operator. */
  hidden: boolean;
}

export interface ReportResult {
  /** True when this report brought the content to the threshold and it is now hidden pending review. */
  hidden: boolean;
}

export interface PublishedStoryPage {
  html: string;
  csp: string;
}

/**
 * The community around shared content: published stories (read-only links with a server-rendered
 * page) and reports. Reports from enough distinct players hide the content pending an operator's
 * review; the operator CLI (admin.ts) resolves them.
 */
export class CommunityService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly deps: { config: Config; worlds: WorldService; stories: StoryService; limiter: RateLimiter; mailer: Mailer; logger: Logger },
  ) {}

  private get publications() {
    return this.dataSource.getRepository(StoryPublication);
  }

  /**
   * Publishes the story (or updates its snapshot, keeping the link): the chapters as they are now,
   * after the moderation check. A story needs a finished chapter first.
   */
  async publish(userId: string, characterId: unknown): Promise<PublicationView> {
    const snap = await this.deps.stories.snapshot(userId, characterId);
    if (snap.chapters.length === 0) throw AppError.badInput('A story needs at least one chapter before it can be published.', 'characterId');
    const texts = [snap.character.name, snap.worldName ?? '', ...snap.chapters.flatMap((c) => [c.choice ?? '', c.text])];
    let budget = MODERATION_TEXT_MAX;
    await this.deps.worlds.passModeration(texts.filter((t) => (budget -= t.length) >= 0));
    const values = {
      characterId: snap.character.id,
      userId,
      characterName: snap.character.name,
      worldName: snap.worldName,
      worldImageMediaId: snap.worldImageMediaId,
      chapters: snap.chapters,
      styles: { ...snap.styles },
    };
    // One row per story: a second publish updates the snapshot in place and keeps the link (and a
    // hidden story stays hidden: updating it, or unpublishing and publishing again, is not a way
    // around a review).
    await this.dataSource.query(
      `INSERT INTO story_publications (character_id, user_id, character_name, world_name, world_image_media_id, chapters, styles)
       VALUES ($1, $2, $3, $4, $5, $6::jsonb, $7::jsonb)
       ON CONFLICT (character_id) DO UPDATE SET character_name = EXCLUDED.character_name, world_name = EXCLUDED.world_name,
         world_image_media_id = EXCLUDED.world_image_media_id, chapters = EXCLUDED.chapters, styles = EXCLUDED.styles, updated_at = now(),
         withdrawn_at = NULL`,
      [
        values.characterId,
        userId,
        values.characterName,
        values.worldName,
        values.worldImageMediaId,
        JSON.stringify(values.chapters),
        JSON.stringify(values.styles),
      ],
    );
    const row = await this.publications.findOneByOrFail({ characterId: snap.character.id });
    return publicationView(row);
  }

  /**
   * Takes the link down for good (publishing again makes a new link). A story hidden pending review is
   * withdrawn instead: out of everyone's sight, kept for the review, and published again still hidden.
   * False when it was not published.
   */
  async unpublish(userId: string, characterId: unknown): Promise<boolean> {
    if (!isUuid(characterId)) throw AppError.notFound('Character');
    const [withdrawn] = (await this.dataSource.query(
      `UPDATE story_publications SET withdrawn_at = now() WHERE character_id = $1 AND user_id = $2 AND hidden_at IS NOT NULL AND withdrawn_at IS NULL RETURNING id`,
      [characterId, userId],
    )) as [unknown[], number];
    if (withdrawn.length > 0) return true;
    const r = await this.publications.delete({ characterId, userId, hiddenAt: IsNull() });
    return (r.affected ?? 0) > 0;
  }

  /** The reader's page of a published story, or NOT_FOUND (never published, unpublished or hidden). */
  async readPublished(id: unknown): Promise<PublishedStoryPage> {
    if (!isUuid(id)) throw AppError.notFound('Story');
    const p = await this.publications.findOneBy({ id });
    if (!p || p.hiddenAt !== null || p.withdrawnAt !== null) throw AppError.notFound('Story');
    const base = this.deps.config.publicUrl;
    const html = renderPublishedStory({
      characterName: p.characterName,
      worldName: p.worldName,
      chapters: p.chapters,
      styles: p.styles as unknown as Parameters<typeof renderPublishedStory>[0]['styles'],
      pageUrl: `${base}/read/${p.id}`,
      imageUrl: p.worldImageMediaId ? `${base}/media/${p.worldImageMediaId}` : null,
      reportPath: `/report/story/${p.id}`,
    });
    return { html, csp: PUBLISHED_PAGE_CSP };
  }

  /**
   * A signed-in player reports a shared world, a featured world or a published story (not their own),
   * once per target. Every report reaches the review queue (`npm run admin -- reports`); it counts
   * toward hiding by its weight: 1 from an account that could not have been made for it (old enough,
   * played enough), less from a new one (REPORT_TRUSTED_*, REPORT_NEW_ACCOUNT_WEIGHT). Featured worlds
   * are never hidden by reports. The target's row is locked while the report is counted, so reports
   * arriving together hide the content exactly once, when the weight reaches the threshold; the hide
   * is written to the audit trail and mailed to OPERATOR_EMAIL.
   */
  async report(userId: string, raw: { targetKind: unknown; targetId: unknown; reason: unknown; note?: unknown }): Promise<ReportResult> {
    const kind = raw.targetKind;
    if (kind !== 'world' && kind !== 'story') throw AppError.badInput('targetKind must be world or story.', 'targetKind');
    const reason = raw.reason as ReportReason;
    if (!REPORT_REASONS.includes(reason)) throw AppError.badInput(`reason must be one of ${REPORT_REASONS.join(', ')}.`, 'reason');
    const note = text(raw.note ?? '', 'note', { max: REPORT_NOTE_MAX, tooLong: `The note can be at most ${REPORT_NOTE_MAX} characters.` });
    const what = kind === 'world' ? 'World' : 'Story';
    if (!isUuid(raw.targetId)) throw AppError.notFound(what);
    const targetId = raw.targetId;
    const r = await this.deps.limiter.hit(`report:${userId}`, REPORTS_PER_HOUR, 3600);
    if (!r.allowed) throw new AppError('RATE_LIMITED', 'Too many reports; please wait a while.', { retryAfterSeconds: r.retryAfterSeconds });
    const { reportThreshold, trustedReporter, newAccountReportWeight } = this.deps.config.community;
    const hidden = await this.dataSource.transaction(async (m) => {
      const target = await lockTarget(m, kind, targetId);
      // Reporting what the reporter cannot see answers like a target that does not exist.
      if (!target) throw AppError.notFound(what);
      if (target.owner === userId) throw AppError.badInput(`You cannot report your own ${kind}.`, 'targetId');
      const [reporter] = (await m.query(
        `SELECT u.created_at <= now() - make_interval(hours => $2) AS aged,
                (SELECT count(*) FROM chapters ch JOIN characters c ON c.id = ch.character_id
                  WHERE c.user_id = u.id AND ch.status = 'complete' AND ch.is_selected) >= $3 AS played
           FROM users u WHERE u.id = $1`,
        [userId, trustedReporter.minAccountAgeHours, trustedReporter.minChapters],
      )) as Array<{ aged: boolean; played: boolean }>;
      const weight = reporter?.aged && reporter.played ? 1 : newAccountReportWeight;
      const inserted = (await m.query(
        `INSERT INTO content_reports (reporter_id, target_kind, target_id, reason, note, weight) VALUES ($1, $2, $3, $4, $5, $6)
         ON CONFLICT (reporter_id, target_kind, target_id) DO NOTHING RETURNING id`,
        [userId, kind, targetId, reason, note, weight],
      )) as Array<{ id: string }>;
      if (inserted.length === 0) throw new AppError('CONFLICT', `You have already reported this ${kind}.`);
      // The front page is not for reports to take down: featured worlds wait for an operator.
      if (target.featured) return null;
      const [{ total, reports }] = (await m.query(
        `SELECT coalesce(sum(weight), 0)::float AS total, count(*)::int AS reports FROM content_reports WHERE target_kind = $1 AND target_id = $2 AND status = 'open'`,
        [kind, targetId],
      )) as Array<{ total: number; reports: number }>;
      // A small tolerance: weights are reals (three reports of 1/3 reach 1).
      if (total + 1e-9 < reportThreshold) return null;
      await m.query(`UPDATE ${kind === 'world' ? 'worlds' : 'story_publications'} SET hidden_at = now() WHERE id = $1 AND hidden_at IS NULL`, [targetId]);
      const detail = { reports, weight: Math.round(total * 100) / 100, threshold: reportThreshold };
      await m.query(`INSERT INTO operator_actions (operator, action, target_kind, target_id, detail) VALUES ('reports', 'auto_hide', $1, $2, $3::jsonb)`, [
        kind,
        targetId,
        JSON.stringify(detail),
      ]);
      return { title: target.title, ...detail };
    });
    if (!hidden) return { hidden: false };
    if (kind === 'world') this.deps.worlds.changed(targetId);
    this.tellOperators(kind, targetId, hidden);
    return { hidden: true };
  }

  /** Reports hid something: the operators hear of it now (the log, and OPERATOR_EMAIL), not at their next look at the queue. */
  private tellOperators(kind: ReportTarget, id: string, hidden: { title: string; reports: number; weight: number }): void {
    const { logger, mailer, config } = this.deps;
    logger.warn('reports hid content pending review', { kind, id, reports: hidden.reports, weight: hidden.weight });
    const to = config.community.operatorEmail;
    if (!to) return;
    const what = kind === 'world' ? `the world "${hidden.title}"` : `the published story "${hidden.title}"`;
    const text = `Reports hid ${what} (${kind} ${id}) pending review: ${hidden.reports} open report(s), weight ${hidden.weight}.\n\nReview it with:\n  npm run admin -- reports\n  npm run admin -- resolve ${kind} ${id} uphold|dismiss\n`;
    afterAnswer(logger, 'operator notice', () =>
      mailer.send({
        to,
        alert: true,
        subject: `Taleforge: reports hid a ${kind} pending review`,
        text,
        html: `<pre>${escapeHtml(text)}</pre>`,
      }),
    );
  }
}

/**
 * Locks a reportable target and answers its owner (null for a featured world, which has none), whether
 * it is featured, and its title; undefined when it does not exist or is not public (a private world,
 * a hidden one, an unpublished story).
 */
async function lockTarget(m: EntityManager, kind: ReportTarget, id: string): Promise<{ owner: string | null; featured: boolean; title: string } | undefined> {
  const sql =
    kind === 'world'
      ? `SELECT owner_id AS owner, featured, name AS title FROM worlds WHERE id = $1 AND hidden_at IS NULL AND (shared_globally OR featured) FOR UPDATE`
      : `SELECT user_id AS owner, false AS featured, character_name AS title FROM story_publications
          WHERE id = $1 AND hidden_at IS NULL AND withdrawn_at IS NULL FOR UPDATE`;
  const rows = (await m.query(sql, [id])) as Array<{ owner: string | null; featured: boolean; title: string }>;
  return rows[0];
}

/** The owner's view of a publication. */
export function publicationView(p: StoryPublication): PublicationView {
  return {
    id: p.id,
    path: `/read/${p.id}`,
    publishedAt: p.publishedAt,
    updatedAt: p.updatedAt,
    chapterCount: p.chapters.length,
    hidden: p.hiddenAt !== null,
  };
}
