import crypto from 'node:crypto';
import type { DataSource, EntityManager } from 'typeorm';
import { AppError } from '../../common/app-error';
import type { Logger } from '../../common/logger';
import type { RateLimiter } from '../../common/rate-limiter';
import { zip } from '../../common/zip';
import type { AuthService, AuthUser, RequestMeta } from '../auth/auth.service';
import type { BillingService } from '../billing/billing.service';
import type { WorldService } from '../worlds/world.service';

/** Exports per account per hour: an archive reads every row the player owns. */
const EXPORTS_PER_HOUR = 5;

const README = `Taleforge account export
========================

Everything this account owns, as it was when the archive was made. Every .json file holds rows as
the database keeps them (column names in snake_case, times in ISO 8601 UTC).

account.json          your account (no password or secrets), settings, character profile, subscription,
                      authenticator apps (names and dates), sessions (devices and addresses)
ledger.json           every change of your credit balance, with its reason
worlds/<id>.json      each world you created, with its questions
worlds/<id>.<ext>     its image, when it has one
characters/<id>.json  each character with its story: chapters (with every take of each), missions,
                      story cards, branches (rewinds) and its published snapshot, if any
community.json        the worlds you liked and the reports you filed
support.json          your messages to support
payments.json         payments through the built-in checkout (Stripe keeps its own invoices)
parties.json          the parties you are in (your seat and character), those you host, the actions you
                      sent in their rounds and turns, and the parties that banned you
`;

const EXT: Record<string, string> = { 'image/png': 'png', 'image/jpeg': 'jpg', 'image/webp': 'webp', 'image/gif': 'gif' };

type Row = Record<string, unknown>;

/**
 * GDPR access, portability and erasure: the export archive of everything an account owns, and the
 * deletion of the account (after its password) that leaves nothing pointing at it.
 */
export class AccountDataService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly deps: { auth: AuthService; billing: BillingService; worlds: WorldService; limiter: RateLimiter; logger: Logger },
  ) {}

  async exportArchive(user: AuthUser): Promise<{ filename: string; archive: Buffer }> {
    const r = await this.deps.limiter.hit(`export:${user.id}`, EXPORTS_PER_HOUR, 3600);
    if (!r.allowed)
      throw new AppError('RATE_LIMITED', 'You made several exports this hour. Please try again later.', { retryAfterSeconds: r.retryAfterSeconds });
    const files: Array<{ name: string; data: Buffer | string }> = [{ name: 'README.txt', data: README }];
    const json = (name: string, value: unknown) => files.push({ name, data: `${JSON.stringify(value, null, 2)}\n` });
    // One snapshot: every read sees the same moment, even while the player plays on in another tab.
    await this.dataSource.transaction('REPEATABLE READ', async (m) => {
      const q = (sql: string, params: unknown[] = [user.id]) => m.query(sql, params) as Promise<Row[]>;
      const [account] = await q(`SELECT id, email, username, created_at, updated_at FROM users WHERE id = $1`);
      json('account.json', {
        exported_at: new Date().toISOString(),
        account,
        settings: (await q(`SELECT * FROM user_settings WHERE user_id = $1`))[0] ?? null,
        character_profile: (await q(`SELECT * FROM user_character_profiles WHERE user_id = $1`))[0] ?? null,
        subscription:
          (
            await q(
              `SELECT s.tier_id, t.name AS tier_name, s.status, s.credits, s.current_period_start, s.current_period_end, s.cancel_at_period_end, s.provider, s.created_at
                 FROM subscriptions s JOIN tiers t ON t.id = s.tier_id WHERE s.user_id = $1`,
            )
          )[0] ?? null,
        authenticator_apps: await q(`SELECT id, friendly_name, factor_type, status, created_at FROM mfa_factors WHERE user_id = $1 ORDER BY created_at`),
        sessions: await q(
          `SELECT created_at, last_refreshed_at, revoked_at, revoked_reason, user_agent, ip, aal, auth_method FROM sessions WHERE user_id = $1 ORDER BY created_at`,
        ),
      });
      json(
        'ledger.json',
        await q(`SELECT id, delta, balance_after, reason, reference_id, created_at FROM credit_transactions WHERE user_id = $1 ORDER BY created_at, id`),
      );
      for (const world of await q(`SELECT * FROM worlds WHERE owner_id = $1 ORDER BY created_at`)) {
        json(`worlds/${String(world.id)}.json`, world);
        if (world.image_media_id) {
          const [media] = await q(`SELECT mime, bytes FROM media WHERE id = $1`, [world.image_media_id]);
          if (media) files.push({ name: `worlds/${String(world.id)}.${EXT[String(media.mime)] ?? 'bin'}`, data: media.bytes as Buffer });
        }
      }
      for (const character of await q(`SELECT * FROM characters WHERE user_id = $1 ORDER BY created_at`)) {
        const id = [character.id];
        json(`characters/${String(character.id)}.json`, {
          character,
          chapters: await q(`SELECT * FROM chapters WHERE character_id = $1 ORDER BY "index", take`, id),
          missions: await q(`SELECT * FROM missions WHERE character_id = $1 ORDER BY created_at`, id),
          story_cards: await q(`SELECT * FROM story_cards WHERE character_id = $1 ORDER BY created_at`, id),
          branches: await q(`SELECT * FROM story_branches WHERE character_id = $1 ORDER BY created_at`, id),
          publication: (await q(`SELECT * FROM story_publications WHERE character_id = $1`, id))[0] ?? null,
        });
      }
      json('community.json', {
        liked_worlds: await q(`SELECT world_id, created_at FROM world_likes WHERE user_id = $1 ORDER BY created_at`),
        reports_filed: await q(
          `SELECT target_kind, target_id, reason, note, status, created_at FROM content_reports WHERE reporter_id = $1 ORDER BY created_at`,
        ),
      });
      json('support.json', await q(`SELECT * FROM support_messages WHERE user_id = $1 ORDER BY created_at`));
      json('payments.json', {
        subscriptions: await q(`SELECT * FROM local_subscriptions WHERE user_id = $1 ORDER BY created_at`),
        checkouts: await q(`SELECT id, tier_id, status, created_at FROM local_checkout_sessions WHERE user_id = $1 ORDER BY created_at`),
      });
      json('parties.json', {
        memberships: await q(`SELECT party_id, character_id, seat, joined_at FROM party_members WHERE user_id = $1 ORDER BY joined_at`),
        hosted: await q(`SELECT id, mode, status, story_character_id, created_at FROM parties WHERE host_user_id = $1 ORDER BY created_at`),
        actions: await q(`SELECT party_id, round, text, updated_at FROM party_actions WHERE user_id = $1 ORDER BY updated_at`),
        banned_from: await q(`SELECT party_id, created_at FROM party_bans WHERE user_id = $1 ORDER BY created_at`),
      });
    });
    const day = new Date().toISOString().slice(0, 10);
    return { filename: `taleforge-export-${day}.zip`, archive: zip(files) };
  }

  /**
   * Deletes the account after its password (and, with MFA, an aal2 session, which the caller's
   * authentication already required). In this order: the paid subscription is cancelled at the
   * provider (if that fails, nothing is deleted); then, in one transaction, the ledger rows lose their
   * owner (kept for the accounts, under a random reference), the audit trail forgets who it named,
   * reports about the player's content go with it, likes given are taken back from their counts, and
   * the account row goes with everything that cascades from it: sessions, profile, settings, worlds
   * (shared ones too: other players' characters in them keep their stories), characters with their
   * stories, missions, cards and published snapshots, likes, support messages, authenticators, tokens.
   */
  async deleteAccount(user: AuthUser, password: unknown, meta: RequestMeta = {}): Promise<void> {
    await this.deps.auth.checkCurrentPassword(user, password, meta, 'Enter your password to delete your account.');
    const cancelled = await this.deps.billing.cancelForDeletion(user.id).catch((err: unknown) => {
      this.deps.logger.error('account deletion: could not cancel the subscription', { err });
      throw new AppError('SERVICE_UNAVAILABLE', 'Your subscription could not be cancelled, so your account was not deleted. Please try again later.');
    });
    const { sessions, worlds } = await this.dataSource.transaction((m) => this.erase(m, user.id));
    this.deps.auth.sessionsEnded(sessions);
    for (const id of worlds) this.deps.worlds.changed(id);
    this.deps.billing.forgetCredits(user.id);
    this.deps.logger.info('account deleted', { subscriptionCancelled: !!cancelled });
  }

  private async erase(m: EntityManager, userId: string): Promise<{ sessions: string[]; worlds: string[] }> {
    const locked = (await m.query(`SELECT id FROM users WHERE id = $1 FOR UPDATE`, [userId])) as Row[];
    if (locked.length === 0) throw AppError.unauthenticated();
    const sessions = ((await m.query(`SELECT id FROM sessions WHERE user_id = $1 AND revoked_at IS NULL`, [userId])) as Array<{ id: string }>).map((r) => r.id);
    const worlds = ((await m.query(`SELECT id FROM worlds WHERE owner_id = $1`, [userId])) as Array<{ id: string }>).map((r) => r.id);
    const media = (
      (await m.query(`SELECT image_media_id AS id FROM worlds WHERE owner_id = $1 AND image_media_id IS NOT NULL`, [userId])) as Array<{ id: string }>
    ).map((r) => r.id);
    // The ledger stays (accounting), owned by nobody: a random reference groups the rows; idempotency
    // keys (which may embed ids of the account's subscription) go.
    await m.query(`UPDATE credit_transactions SET erased_account_ref = $2, idempotency_key = NULL WHERE user_id = $1`, [userId, crypto.randomUUID()]);
    // The operator audit trail keeps what was done, not to whom.
    await m.query(`UPDATE operator_actions SET target_id = 'erased account', detail = '{}'::jsonb WHERE target_kind = 'user' AND target_id = $1`, [userId]);
    // Reports about the player's worlds and published stories go with the content.
    await m.query(
      `DELETE FROM content_reports r
        WHERE (r.target_kind = 'world' AND r.target_id IN (SELECT id FROM worlds WHERE owner_id = $1))
           OR (r.target_kind = 'story' AND r.target_id IN (SELECT p.id FROM story_publications p JOIN characters c ON c.id = p.character_id WHERE c.user_id = $1))`,
      [userId],
    );
    // Likes the player gave leave the counts they added to.
    await m.query(
      `UPDATE worlds w SET like_count = GREATEST(w.like_count - 1, 0) FROM world_likes l WHERE l.world_id = w.id AND l.user_id = $1 AND w.owner_id <> $1`,
      [userId],
    );
    await m.query(`DELETE FROM users WHERE id = $1`, [userId]);
    // World images nothing else shows any more (a remix or a published snapshot may share one).
    if (media.length > 0) {
      await m.query(
        `DELETE FROM media d WHERE d.id = ANY($1::uuid[])
            AND NOT EXISTS (SELECT 1 FROM worlds w WHERE w.image_media_id = d.id)
            AND NOT EXISTS (SELECT 1 FROM story_publications p WHERE p.world_image_media_id = d.id)`,
        [media],
      );
    }
    return { sessions, worlds };
  }
}
