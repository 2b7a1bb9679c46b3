import type { DataSource, EntityManager } from 'typeorm';
import { AppError } from '../../common/app-error';
import type { CreditsService } from '../billing/credits.service';
import { isUuid } from '../shared/input';
import type { Invalidation } from '../../ops/invalidation';

export interface ReportSummary {
  targetKind: 'world' | 'story';
  targetId: string;
  /** The world's name, or the published story's character name; null when the content is gone. */
  title: string | null;
  hidden: boolean;
  openReports: number;
  reasons: string[];
  notes: string[];
  firstReportedAt: Date;
}

export interface AuditEntry {
  createdAt: Date;
  operator: string;
  action: string;
  targetKind: string;
  targetId: string;
  detail: Record<string, unknown>;
}

export interface ActionResult {
  message: string;
  invalidations: Invalidation[];
}

type Kind = 'world' | 'story';
const TABLE: Record<Kind, string> = { world: 'worlds', story: 'story_publications' };

/**
 * What the operator CLI (`npm run admin`) does, against either database. Every action runs in one
 * transaction with its row in `operator_actions`, so the audit trail has exactly the actions that
 * happened. Each result lists what running instances must forget (the CLI broadcasts it).
 */
export class OperatorService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly credits: CreditsService,
    private readonly operator: string,
  ) {}

  /** Reported content, most reported first: open reports only unless `all`. */
  async reports(all = false): Promise<ReportSummary[]> {
    const rows = (await this.dataSource.query(
      `SELECT r.target_kind, r.target_id, count(*)::int AS n, array_agg(DISTINCT r.reason) AS reasons,
              array_remove(array_agg(r.note ORDER BY r.created_at), '') AS notes, min(r.created_at) AS first_at,
              coalesce(w.name, p.character_name) AS title, coalesce(w.hidden_at, p.hidden_at) IS NOT NULL AS hidden
         FROM content_reports r
         LEFT JOIN worlds w ON r.target_kind = 'world' AND w.id = r.target_id
         LEFT JOIN story_publications p ON r.target_kind = 'story' AND p.id = r.target_id
        WHERE $1 OR r.status = 'open'
        GROUP BY r.target_kind, r.target_id, w.name, p.character_name, w.hidden_at, p.hidden_at
        ORDER BY n DESC, first_at ASC`,
      [all],
    )) as Array<{ target_kind: Kind; target_id: string; n: number; reasons: string[]; notes: string[]; first_at: Date; title: string | null; hidden: boolean }>;
    return rows.map((r) => ({
      targetKind: r.target_kind,
      targetId: r.target_id,
      title: r.title,
      hidden: r.hidden,
      openReports: r.n,
      reasons: r.reasons,
      notes: r.notes,
      firstReportedAt: new Date(r.first_at),
    }));
  }

  /**
   * Closes the open reports on one target. Upheld: the content stays hidden (hidden now if it was
   * not). Dismissed: the reports were wrong, so the content is public again.
   */
  resolve(kind: unknown, id: unknown, verdict: unknown): Promise<ActionResult> {
    const k = targetKind(kind);
    if (verdict !== 'uphold' && verdict !== 'dismiss') throw AppError.badInput('The verdict is uphold or dismiss.');
    const targetId = uuid(id);
    return this.act(`resolve_${verdict}`, k, targetId, {}, async (m) => {
      const [closed] = (await m.query(
        `UPDATE content_reports SET status = $3, resolved_at = now() WHERE target_kind = $1 AND target_id = $2 AND status = 'open' RETURNING id`,
        [k, targetId, verdict === 'uphold' ? 'upheld' : 'dismissed'],
      )) as [unknown[], number];
      if (closed.length === 0) throw AppError.notFound('Open report');
      await this.setHidden(m, k, targetId, verdict === 'uphold', false);
      return {
        message: `${closed.length} report(s) ${verdict === 'uphold' ? 'upheld; the content stays hidden' : 'dismissed; the content is public again'}.`,
        detail: { reports: closed.length },
      };
    });
  }

  hide(kind: unknown, id: unknown, reason = ''): Promise<ActionResult> {
    const k = targetKind(kind);
    const targetId = uuid(id);
    return this.act('hide', k, targetId, { reason }, async (m) => {
      await this.setHidden(m, k, targetId, true, true);
      return { message: `Hidden: ${k} ${targetId}.` };
    });
  }

  restore(kind: unknown, id: unknown): Promise<ActionResult> {
    const k = targetKind(kind);
    const targetId = uuid(id);
    return this.act('restore', k, targetId, {}, async (m) => {
      await this.setHidden(m, k, targetId, false, true);
      return { message: `Restored: ${k} ${targetId}.` };
    });
  }

  /** Featured worlds are the public front page: a featured world is shown to everyone, oldest first. */
  setFeatured(id: unknown, featured: boolean): Promise<ActionResult> {
    const worldId = uuid(id);
    return this.act(featured ? 'feature' : 'unfeature', 'world', worldId, {}, async (m) => {
      const [rows] = (await m.query(`UPDATE worlds SET featured = $2, updated_at = now() WHERE id = $1 RETURNING name`, [worldId, featured])) as [
        Array<{ name: string }>,
        number,
      ];
      if (rows.length === 0) throw AppError.notFound('World');
      return { message: `${featured ? 'Featured' : 'No longer featured'}: ${rows[0]!.name}.` };
    });
  }

  /** Grants (positive) or removes (negative) credits through the ledger, with the operator's reason. */
  async adjustCredits(account: unknown, amount: number, reason: string): Promise<ActionResult> {
    if (!Number.isInteger(amount) || amount === 0 || Math.abs(amount) > 1_000_000) throw AppError.badInput('The amount is a whole number of credits, not 0.');
    const user = await this.findUser(account);
    let balance = 0;
    const result = await this.act(amount > 0 ? 'grant_credits' : 'remove_credits', 'user', user.id, { amount, reason }, async (m) => {
      const change =
        amount > 0 ? await this.credits.grantIn(m, user.id, amount, 'operator_grant') : await this.credits.spendIn(m, user.id, -amount, 'operator_removal');
      balance = change?.balance ?? 0;
      return { message: `${amount > 0 ? 'Granted' : 'Removed'} ${Math.abs(amount)} credits ${amount > 0 ? 'to' : 'from'} ${user.email}; balance ${balance}.` };
    });
    return { ...result, invalidations: [{ kind: 'credits', id: user.id }] };
  }

  /** A disabled account cannot sign in or refresh, and every session it has is revoked now. */
  async setDisabled(account: unknown, disabled: boolean): Promise<ActionResult> {
    const user = await this.findUser(account);
    let revoked: string[] = [];
    const result = await this.act(disabled ? 'disable_account' : 'enable_account', 'user', user.id, {}, async (m) => {
      await m.query(`UPDATE users SET disabled_at = ${disabled ? 'now()' : 'NULL'}, updated_at = now() WHERE id = $1`, [user.id]);
      if (disabled) revoked = await endSessions(m, user.id, 'account_disabled');
      return {
        message: `${disabled ? `Disabled ${user.email}; ${revoked.length} session(s) ended` : `Enabled ${user.email}`}.`,
        detail: { sessions: revoked.length },
      };
    });
    return { ...result, invalidations: revoked.map((id) => ({ kind: 'session' as const, id })) };
  }

  /**
   * Removes every authenticator of the account (its player lost the device, and support checked who
   * they are out of band): the password alone signs in again. Every session ends too, so only the
   * player who signs in next holds one.
   */
  async resetMfa(account: unknown): Promise<ActionResult> {
    const user = await this.findUser(account);
    let revoked: string[] = [];
    const result = await this.act('reset_mfa', 'user', user.id, {}, async (m) => {
      const [factors] = (await m.query(`DELETE FROM mfa_factors WHERE user_id = $1 RETURNING id`, [user.id])) as [unknown[], number];
      revoked = await endSessions(m, user.id, 'mfa_reset');
      return {
        message: `Removed ${factors.length} authenticator(s) of ${user.email}; ${revoked.length} session(s) ended.`,
        detail: { factors: factors.length, sessions: revoked.length },
      };
    });
    return { ...result, invalidations: revoked.map((id) => ({ kind: 'session' as const, id })) };
  }

  /** The last `limit` actions (1–1000; a number or the CLI's text for one). */
  async audit(limit: unknown = 50): Promise<AuditEntry[]> {
    const n = typeof limit === 'string' && /^\d+$/.test(limit.trim()) ? Number(limit) : limit;
    if (typeof n !== 'number' || !Number.isInteger(n) || n < 1 || n > 1000)
      throw AppError.badInput('audit takes how many actions to show: a whole number from 1 to 1000.');
    const rows = (await this.dataSource.query(
      `SELECT created_at, operator, action, target_kind, target_id, detail FROM operator_actions ORDER BY created_at DESC, id DESC LIMIT $1`,
      [n],
    )) as Array<{ created_at: Date; operator: string; action: string; target_kind: string; target_id: string; detail: Record<string, unknown> }>;
    return rows.map((r) => ({
      createdAt: new Date(r.created_at),
      operator: r.operator,
      action: r.action,
      targetKind: r.target_kind,
      targetId: r.target_id,
      detail: r.detail,
    }));
  }

  private async setHidden(m: EntityManager, kind: Kind, id: string, hidden: boolean, mustExist: boolean): Promise<void> {
    const [rows] = (await m.query(`UPDATE ${TABLE[kind]} SET hidden_at = ${hidden ? 'coalesce(hidden_at, now())' : 'NULL'} WHERE id = $1 RETURNING id`, [
      id,
    ])) as [unknown[], number];
    if (rows.length === 0 && mustExist) throw AppError.notFound(kind === 'world' ? 'World' : 'Published story');
  }

  private async findUser(account: unknown): Promise<{ id: string; email: string }> {
    if (typeof account !== 'string' || account.trim() === '') throw AppError.badInput('Name the account by email or id.');
    const a = account.trim().toLowerCase();
    const rows = (await this.dataSource.query(`SELECT id, email FROM users WHERE ${isUuid(a) ? 'id = $1' : 'email = $1'}`, [a])) as Array<{
      id: string;
      email: string;
    }>;
    if (!rows[0]) throw AppError.notFound('Account');
    return rows[0];
  }

  /** Runs one action and its audit row in one transaction. */
  private async act(
    action: string,
    kind: string,
    targetId: string,
    detail: Record<string, unknown>,
    run: (m: EntityManager) => Promise<{ message: string; detail?: Record<string, unknown> }>,
  ): Promise<ActionResult> {
    const message = await this.dataSource.transaction(async (m) => {
      const r = await run(m);
      await m.query(`INSERT INTO operator_actions (operator, action, target_kind, target_id, detail) VALUES ($1, $2, $3, $4, $5::jsonb)`, [
        this.operator,
        action,
        kind,
        targetId,
        JSON.stringify({ ...detail, ...r.detail }),
      ]);
      return r.message;
    });
    return { message, invalidations: kind === 'world' ? [{ kind: 'worlds', id: targetId }] : [] };
  }
}

function targetKind(kind: unknown): Kind {
  if (kind !== 'world' && kind !== 'story') throw AppError.badInput('The target is world or story.');
  return kind;
}

function uuid(id: unknown): string {
  if (!isUuid(id)) throw AppError.badInput('That is not an id (a UUID).');
  return id;
}

/** Revokes every live session of the account, answering their ids (the caller tells the instances). */
async function endSessions(m: EntityManager, userId: string, reason: string): Promise<string[]> {
  const [rows] = (await m.query(`UPDATE sessions SET revoked_at = now(), revoked_reason = $2 WHERE user_id = $1 AND revoked_at IS NULL RETURNING id`, [
    userId,
    reason,
  ])) as [Array<{ id: string }>, number];
  return rows.map((r) => r.id);
}
