/**
 * Party play (issue 34): one storyline — the story character's, owned by the player who started the
 * party — played by up to six players, each with their own saved character in the same world.
 *
 * Every rule and permission is here; the resolver and the REST adapter only parse and present.
 * Chapters go through the stories module's one generation path (StoryService.startChapter) as the
 * story owner's, answering the round's composed action ("Mira: climbs the bell tower. Tom: …").
 *
 * Concurrency: a round (live) or turn (by post) changes state only through a conditional UPDATE on
 * the party row that names the round it saw (`round = $n AND round_state = 'collecting'`), so two
 * requests, or the sweeps of two instances, never close, skip or advance one twice; joins and
 * actions take the party row's lock so they never land in a round that has just closed.
 */
import { In, type DataSource, type EntityManager } from 'typeorm';
import { AppError, isAppError } from '../../common/app-error';
import { escapeHtml } from '../../common/html';
import type { Logger } from '../../common/logger';
import type { Config } from '../../config/env';
import type { Realtime } from '../../realtime/pubsub';
import type { CreditChange, CreditsService } from '../billing/credits.service';
import type { Character } from '../characters/character.entity';
import { findOwnedCharacter } from '../characters/owned-character';
import type { Mailer } from '../mail/mailer';
import { isUuid, text } from '../shared/input';
import { STORY_CARD_DESCRIPTION_MAX, STORY_CARD_NAME_MAX } from '../shared/limits';
import type { StoryService, StorylineView, StreamEvent } from '../stories/story.service';
import { parseStorylinePage } from '../stories/story-input';
import type { PartyRoundInput } from '../stories/stakes/party-checks';
import { Party, PartyInvite, type PartyMode, type PartyStatus, type RoundState } from './party.entity';
import {
  chapterGist,
  composeRoundAction,
  inviteCodeEnd,
  inviteCodeHash,
  inviteCodeHashes,
  maskedInviteCode,
  newInviteCode,
  nextInTurn,
  PARTY_ACTION_MAX,
  PARTY_INVITES_MAX,
  PARTY_MAX_MEMBERS,
  PARTY_ROUND_ACTION_MAX,
  parseMode,
  seconds,
} from './party-rules';

/** The channel of a party's live state (published per party id). */
const PARTY_TOPIC = 'taleforge:parties:updated';
/** A round still "writing" this long after it started belongs to an instance that died: the sweep reopens it. */
const WRITING_STALE_MS = 15 * 60_000;

interface PartyMemberView {
  userId: string;
  username: string;
  characterId: string;
  characterName: string;
  /**
   * The member's stats in this party: their own, grown by their own checks (the story owner's: the
   * story character's; everyone else's: party_members.stats, copied from their saved character at joining).
   */
  stats: Record<string, number>;
  seat: number;
  isHost: boolean;
  /** The member whose character's storyline is the party story. */
  isStoryOwner: boolean;
  /** Acted in the current round (live), or acted for the current turn (by post). */
  hasActed: boolean;
  joinedAt: string;
}

/** What the join screen shows of an invite before joining (PartyService.previewInvite). */
export interface InvitePreview {
  worldId: string;
  worldName: string | null;
  hostUsername: string;
  memberCount: number;
  maxMembers: number;
  mode: string;
  hostPays: boolean;
  chapterCredits: number;
  full: boolean;
  locked: boolean;
  ended: boolean;
  expired: boolean;
  revoked: boolean;
  memberOfPartyId: string | null;
}

/** A party as members see it; JSON-safe (dates as ISO strings), so it crosses Redis unchanged. */
export interface PartyView {
  id: string;
  mode: PartyMode;
  status: PartyStatus;
  hostUserId: string;
  storyCharacterId: string;
  storyOwnerId: string;
  worldId: string;
  hostPays: boolean;
  locked: boolean;
  roundSeconds: number;
  turnSeconds: number;
  round: number;
  roundState: RoundState;
  turnUserId: string | null;
  deadlineAt: string | null;
  lastError: string | null;
  members: PartyMemberView[];
  createdAt: string;
}

export interface PartyUpdateMessage {
  partyId: string;
  /** What happened: snapshot, joined, acted, round_closed, chapter_written, chapter_failed, turn_skipped, story_changed, kicked, banned, left, locked, host_changed, settings, ended, removed. */
  reason: string;
  /** Null only in the last event a removed member receives (reason removed). */
  party: PartyView | null;
}

export interface PartyInviteCode {
  id: string;
  /** Shown once: only its hash is kept. */
  code: string;
  expiresAt: Date;
}

export interface PartyInviteInfo {
  id: string;
  /** •••••-•XXXX: the code's last 4 symbols (null for an invite made before they were kept). */
  maskedCode: string | null;
  createdAt: Date;
  expiresAt: Date;
  revokedAt: Date | null;
  working: boolean;
}

export interface PreviouslyEntry {
  index: number;
  playerChoice: string | null;
  gist: string;
}

interface MemberRow {
  userId: string;
  characterId: string;
  seat: number;
  seenThroughIndex: number;
  joinedAt: Date;
  username: string;
  email: string;
  characterName: string;
  stats: Record<string, number>;
}

interface RoundActionRow {
  userId: string;
  text: string;
  name: string;
  seat: number;
}

type CloseCause = 'all_acted' | 'host' | 'timer' | 'turn';

export interface PartyDeps {
  config: Config;
  credits: CreditsService;
  /** Read at each use: the stories service may be replaced (tests swap in a scripted storyteller). */
  stories: () => StoryService;
  mailer: Mailer;
  realtime: Realtime;
  logger: Logger;
}

export class PartyService {
  /** The service's clock: deadlines are set and compared with it (tests move it instead of waiting). */
  clock: () => Date = () => new Date();
  private sweepTimer: NodeJS.Timeout | undefined;
  /** Round chapters this instance is waiting on, by party id. */
  private readonly writing = new Map<string, Promise<void>>();
  private readonly publishing = new Map<string, Promise<void>>();

  constructor(
    private readonly dataSource: DataSource,
    private readonly deps: PartyDeps,
  ) {}

  // Lifecycle

  /** Starts the sweep (PARTY_SWEEP_SECONDS): due live rounds close, missed turns are skipped. */
  start(): void {
    const s = this.deps.config.party.sweepSeconds;
    if (s <= 0 || this.sweepTimer) return;
    this.sweepTimer = setInterval(() => void this.sweep().catch((err: unknown) => this.deps.logger.error('party sweep failed', { err })), s * 1000);
    this.sweepTimer.unref();
  }

  /** Stops the sweep and waits for round chapters and publishes in flight (before the database closes). */
  async stop(): Promise<void> {
    if (this.sweepTimer) clearInterval(this.sweepTimer);
    this.sweepTimer = undefined;
    await this.idle();
  }

  /** Settles when no round chapter or publish of this instance is in flight. */
  async idle(): Promise<void> {
    while (this.writing.size > 0 || this.publishing.size > 0) {
      await Promise.allSettled([...this.writing.values(), ...this.publishing.values()]);
    }
  }

  // Creating, inviting, joining

  /** Starts a party on the caller's own saved character's storyline; the caller is its host (seat 0). */
  async create(userId: string, raw: Record<string, unknown>): Promise<PartyView> {
    const c = await findOwnedCharacter(this.dataSource, userId, raw.characterId);
    if (!c.worldId) throw AppError.badInput("This character's world is gone; a party needs a world.", 'characterId');
    const mode = parseMode(raw.mode);
    const cfg = this.deps.config.party;
    const roundSeconds = seconds(raw.roundSeconds, 'roundSeconds', cfg.roundSeconds, 5, 7 * 86_400);
    const turnSeconds = seconds(raw.turnSeconds, 'turnSeconds', cfg.turnSeconds, 60, 30 * 86_400);
    const hostPays = raw.hostPays === undefined || raw.hostPays === null ? false : Boolean(raw.hostPays);
    const now = this.clock();
    const id = await this.dataSource.transaction(async (m) => {
      // One open party per storyline: two would write into the same story at once.
      await m.query(`SELECT id FROM characters WHERE id = $1 FOR UPDATE`, [c.id]);
      const open = (await m.query(`SELECT id FROM parties WHERE story_character_id = $1 AND status = 'open'`, [c.id])) as unknown[];
      if (open.length > 0) throw new AppError('CONFLICT', 'This storyline already has an open party.', { reason: 'party_exists' });
      const party = await m.getRepository(Party).save(
        m.getRepository(Party).create({
          hostUserId: userId,
          storyCharacterId: c.id,
          storyOwnerId: userId,
          worldId: c.worldId!,
          mode,
          hostPays,
          roundSeconds,
          turnSeconds,
          turnUserId: mode === 'post' ? userId : null,
          deadlineAt: mode === 'post' ? new Date(now.getTime() + turnSeconds * 1000) : null,
        }),
      );
      await m.query(`INSERT INTO party_members (party_id, user_id, character_id, seat, seen_through_index) VALUES ($1, $2, $3, 0, $4)`, [
        party.id,
        userId,
        c.id,
        await latestIndex(m, c.id),
      ]);
      return party.id;
    });
    return this.view(await this.partyRow(id));
  }

  /** A new invite code for the party (host only), working for PARTY_INVITE_HOURS unless `hours` says less or more. */
  async createInvite(userId: string, partyId: unknown, hoursRaw?: unknown): Promise<PartyInviteCode> {
    const { party } = await this.asHost(userId, partyId);
    assertOpen(party);
    const hours = seconds(hoursRaw, 'hours', this.deps.config.party.inviteHours, 1, 30 * 24);
    const now = this.clock();
    const [working] = (await this.dataSource.query(
      `SELECT count(*)::int AS n FROM party_invites WHERE party_id = $1 AND revoked_at IS NULL AND expires_at > $2`,
      [party.id, now],
    )) as Array<{ n: number }>;
    if ((working?.n ?? 0) >= PARTY_INVITES_MAX) {
      throw new AppError('CONFLICT', `A party has at most ${PARTY_INVITES_MAX} working invites; revoke one first.`, { reason: 'too_many_invites' });
    }
    const code = newInviteCode();
    const expiresAt = new Date(now.getTime() + hours * 3600_000);
    const invite = await this.dataSource
      .getRepository(PartyInvite)
      .save(
        this.dataSource
          .getRepository(PartyInvite)
          .create({ partyId: party.id, codeHash: (await inviteCodeHash(code))!, codeEnd: inviteCodeEnd(code), expiresAt, revokedAt: null }),
      );
    return { id: invite.id, code, expiresAt };
  }

  /** The party's invites, newest first (host only): when each expires and whether it was revoked; never the codes. */
  async invites(userId: string, partyId: unknown): Promise<PartyInviteInfo[]> {
    const { party } = await this.asHost(userId, partyId);
    const now = this.clock().getTime();
    const rows = await this.dataSource.getRepository(PartyInvite).find({ where: { partyId: party.id }, order: { createdAt: 'DESC' }, take: 100 });
    return rows.map((r) => ({
      id: r.id,
      maskedCode: maskedInviteCode(r.codeEnd),
      createdAt: r.createdAt,
      expiresAt: r.expiresAt,
      revokedAt: r.revokedAt,
      working: !r.revokedAt && r.expiresAt.getTime() > now,
    }));
  }

  /** Revokes an invite (host only); true when it was working until now. */
  async revokeInvite(userId: string, inviteId: unknown): Promise<boolean> {
    if (!isUuid(inviteId)) throw AppError.notFound('Invite');
    const invite = await this.dataSource.getRepository(PartyInvite).findOne({ where: { id: inviteId } });
    if (!invite) throw AppError.notFound('Invite');
    await this.asHost(userId, invite.partyId).catch((e: unknown) => {
      // A member who is not the host learns it; anyone else sees no invite at all.
      throw isAppError(e) && e.code === 'FORBIDDEN' ? e : AppError.notFound('Invite');
    });
    const [rows] = (await this.dataSource.query(`UPDATE party_invites SET revoked_at = $2 WHERE id = $1 AND revoked_at IS NULL RETURNING id`, [
      invite.id,
      this.clock(),
    ])) as [unknown[], number];
    return rows.length > 0;
  }

  /**
   * Joins the party of an invite code with one of the caller's saved characters in the party's
   * world. Refusals: NOT_FOUND (no such code), FORBIDDEN with reason invite_expired, invite_revoked
   * or banned; CONFLICT with reason ended, locked, full or already_member (with another character).
   */
  async join(userId: string, code: unknown, characterId: unknown): Promise<PartyView> {
    const hashes = await inviteCodeHashes(code);
    const invite = hashes ? await this.dataSource.getRepository(PartyInvite).findOne({ where: { codeHash: In(hashes) } }) : null;
    if (!invite) throw AppError.notFound('Invite');
    if (invite.revokedAt) throw new AppError('FORBIDDEN', 'This invite was revoked by the host.', { reason: 'invite_revoked' });
    if (invite.expiresAt.getTime() <= this.clock().getTime()) throw new AppError('FORBIDDEN', 'This invite has expired.', { reason: 'invite_expired' });
    const c = await findOwnedCharacter(this.dataSource, userId, characterId);
    const partyId = invite.partyId;
    const joined = await this.dataSource.transaction(async (m) => {
      const [party] = (await m.query(`SELECT status, locked, world_id, story_character_id FROM parties WHERE id = $1 FOR UPDATE`, [partyId])) as Array<{
        status: PartyStatus;
        locked: boolean;
        world_id: string;
        story_character_id: string;
      }>;
      if (!party) throw AppError.notFound('Invite');
      const banned = (await m.query(`SELECT 1 FROM party_bans WHERE party_id = $1 AND user_id = $2`, [partyId, userId])) as unknown[];
      if (banned.length > 0) throw new AppError('FORBIDDEN', 'You cannot join this party.', { reason: 'banned' });
      if (party.status !== 'open') throw new AppError('CONFLICT', 'This party has ended.', { reason: 'ended' });
      const members = (await m.query(`SELECT user_id, character_id, seat FROM party_members WHERE party_id = $1`, [partyId])) as Array<{
        user_id: string;
        character_id: string;
        seat: number;
      }>;
      const mine = members.find((x) => x.user_id === userId);
      if (mine) {
        if (mine.character_id === c.id) return false; // already in, with this character: nothing to do
        throw new AppError('CONFLICT', 'You are already in this party with another character.', { reason: 'already_member' });
      }
      if (party.locked) throw new AppError('CONFLICT', 'The host has locked this party: nobody new can join.', { reason: 'locked' });
      if (members.length >= PARTY_MAX_MEMBERS) throw new AppError('CONFLICT', `A party has at most ${PARTY_MAX_MEMBERS} players.`, { reason: 'full' });
      if (c.worldId !== party.world_id) throw AppError.badInput("Choose one of your characters in the party's world.", 'characterId');
      if (c.id === party.story_character_id) throw AppError.badInput('That character is the party story itself.', 'characterId');
      const seat = Math.max(-1, ...members.map((x) => x.seat)) + 1;
      // Their stats in the party start as their saved character's; the party's rounds grow these, never the character's.
      await m.query(
        `INSERT INTO party_members (party_id, user_id, character_id, seat, seen_through_index, stats)
         VALUES ($1, $2, $3, $4, $5, (SELECT stats FROM characters WHERE id = $3))`,
        [partyId, userId, c.id, seat, await latestIndex(m, party.story_character_id)],
      );
      return true;
    });
    if (joined) {
      await this.addToCast(await this.partyRow(partyId), c);
      this.publish(partyId, 'joined');
    }
    return this.view(await this.partyRow(partyId));
  }

  /**
   * A joining member's character becomes a pinned character card of the party story (the shared cast),
   * so the storyteller knows who acts beside the hero; it stays when they leave — the story remembers
   * them. Best effort: a story at its card limit, or a card of that name already there, joins all the same.
   */
  private async addToCast(party: Party, c: Character): Promise<void> {
    const description = [c.description, c.special?.name ? `Special: ${c.special.name} — ${c.special.description}` : '']
      .filter(Boolean)
      .join('\n')
      .slice(0, STORY_CARD_DESCRIPTION_MAX);
    try {
      await this.deps.stories().createStoryCard(party.storyOwnerId, party.storyCharacterId, {
        kind: 'character',
        name: c.name.slice(0, STORY_CARD_NAME_MAX),
        description,
        role: 'party member (played by another player)',
        pinned: true,
      });
    } catch (err) {
      this.deps.logger.info('a party member was not added to the story cards', { partyId: party.id, err: isAppError(err) ? err.message : err });
    }
  }

  // Reads

  /**
   * What an invite code leads to, before joining (the join screen): the party's world, host, size and
   * mode, whether the code still works, and the party when the caller is already in it. Null for no
   * such code. Nothing of the party's story.
   */
  async previewInvite(userId: string, code: unknown): Promise<InvitePreview | null> {
    const hashes = await inviteCodeHashes(code);
    if (!hashes) return null;
    const invite = await this.dataSource.getRepository(PartyInvite).findOne({ where: { codeHash: In(hashes) } });
    if (!invite) return null;
    const [row] = (await this.dataSource.query(
      `SELECT p.id AS party_id, p.world_id, w.name AS world_name, u.username AS host_username, p.mode, p.host_pays, p.locked, p.status,
              (SELECT COUNT(*)::int FROM party_members m WHERE m.party_id = p.id) AS member_count,
              EXISTS (SELECT 1 FROM party_members m WHERE m.party_id = p.id AND m.user_id = $2) AS is_member
         FROM parties p
         LEFT JOIN worlds w ON w.id = p.world_id
         LEFT JOIN users u ON u.id = COALESCE(p.host_user_id, p.story_owner_id)
        WHERE p.id = $1`,
      [invite.partyId, userId],
    )) as Array<{
      party_id: string;
      world_id: string;
      world_name: string | null;
      host_username: string | null;
      member_count: number;
      mode: string;
      host_pays: boolean;
      locked: boolean;
      status: string;
      is_member: boolean;
    }>;
    if (!row) return null;
    const count = Number(row.member_count);
    return {
      worldId: row.world_id,
      worldName: row.world_name,
      hostUsername: row.host_username ?? '',
      memberCount: count,
      maxMembers: PARTY_MAX_MEMBERS,
      mode: row.mode,
      hostPays: row.host_pays,
      chapterCredits: this.deps.config.party.chapterCredits,
      full: count >= PARTY_MAX_MEMBERS,
      locked: row.locked,
      ended: row.status !== 'open',
      expired: invite.expiresAt.getTime() <= this.clock().getTime(),
      revoked: invite.revokedAt !== null,
      memberOfPartyId: row.is_member ? row.party_id : null,
    };
  }

  /** The party, for its members only (anyone else: NOT_FOUND, as for an id that does not exist). */
  async get(userId: string, partyId: unknown): Promise<PartyView> {
    const { party, members } = await this.asMember(userId, partyId);
    return this.view(party, members);
  }

  /** The caller's parties: open ones first, newest first. */
  async mine(userId: string): Promise<PartyView[]> {
    const ids = (await this.dataSource.query(
      `SELECT p.id FROM parties p JOIN party_members m ON m.party_id = p.id
        WHERE m.user_id = $1 ORDER BY (p.status = 'open') DESC, p.created_at DESC LIMIT 50`,
      [userId],
    )) as Array<{ id: string }>;
    return Promise.all(ids.map(async (r) => this.view(await this.partyRow(r.id))));
  }

  /** The party story's storyline (a page, as the stories module pages it), for members only. */
  async storyline(userId: string, partyId: unknown, page: { limit?: unknown; beforeIndex?: unknown }, requestScope: object): Promise<StorylineView> {
    const { party } = await this.asMember(userId, partyId);
    const c = await findOwnedCharacter(this.dataSource, party.storyOwnerId, party.storyCharacterId);
    return this.deps.stories().storylineOf(c, parseStorylinePage(page), requestScope);
  }

  /**
   * The party story's chapter stream (the one being written, or the given chapter), for members only.
   * A member removed meanwhile (kicked, banned, left) reads no further: their stream ends with it.
   */
  async openStream(userId: string, partyId: unknown, chapterId?: unknown, signal?: AbortSignal): Promise<AsyncGenerator<StreamEvent>> {
    if (!isUuid(partyId)) throw AppError.notFound('Party');
    // Listen before the membership check, so a removal right after it is not missed.
    const updates = this.deps.realtime.pubSub.subscribe(PARTY_TOPIC, partyId);
    const stop = new AbortController();
    const onAbort = () => stop.abort();
    signal?.addEventListener('abort', onAbort, { once: true });
    const release = async () => {
      signal?.removeEventListener('abort', onAbort);
      await updates.return?.();
    };
    let stream: AsyncGenerator<StreamEvent>;
    try {
      const { party } = await this.asMember(userId, partyId);
      stream = await this.deps.stories().openStream(party.storyOwnerId, party.storyCharacterId, chapterId, stop.signal);
    } catch (e) {
      await release();
      throw e;
    }
    void (async () => {
      for (;;) {
        const r = await updates.next();
        if (r.done) return;
        const m = r.value as PartyUpdateMessage;
        if (m?.partyId === partyId && (!m.party || !m.party.members.some((x) => x.userId === userId))) return stop.abort();
      }
    })().catch(() => undefined);
    return (async function* () {
      try {
        yield* stream;
      } finally {
        await release();
      }
    })();
  }

  /** "Previously…": the chapters written since the caller's last turn (or since they joined). */
  async previously(userId: string, partyId: unknown): Promise<PreviouslyEntry[]> {
    const { party, me } = await this.asMember(userId, partyId);
    const rows = (await this.dataSource.query(
      `SELECT index, player_choice, text FROM chapters
        WHERE character_id = $1 AND is_selected AND status = 'complete' AND index > $2
        ORDER BY index LIMIT 200`,
      [party.storyCharacterId, me.seenThroughIndex],
    )) as Array<{ index: number; player_choice: string | null; text: string }>;
    return rows.map((r) => ({ index: r.index, playerChoice: r.player_choice, gist: chapterGist(r.text) }));
  }

  // Playing

  /**
   * The caller's action. Live: one per member per round (sending again replaces it); the round closes
   * when every member has acted. By post: only on the caller's turn, and it closes the turn.
   * Closing writes one chapter through the story's generation path, paid by the acting player (or
   * the host with hostPays); returns once the chapter has started.
   */
  async act(userId: string, partyId: unknown, actionRaw: unknown): Promise<PartyView> {
    const action = text(actionRaw, 'action', {
      required: 'Please choose or type an action.',
      max: PARTY_ACTION_MAX,
      tooLong: `Your action can be at most ${PARTY_ACTION_MAX} characters.`,
    });
    const { party } = await this.asMember(userId, partyId);
    assertOpen(party);
    const now = this.clock();
    const round = await this.dataSource.transaction(async (m) => {
      const [p] = (await m.query(`SELECT round, round_state, mode, turn_user_id, deadline_at, round_seconds, status FROM parties WHERE id = $1 FOR UPDATE`, [
        party.id,
      ])) as Array<{ round: number; round_state: RoundState; mode: PartyMode; turn_user_id: string | null; status: PartyStatus }>;
      if (!p || p.status !== 'open') throw new AppError('CONFLICT', 'This party has ended.', { reason: 'ended' });
      const still = (await m.query(`SELECT 1 FROM party_members WHERE party_id = $1 AND user_id = $2`, [party.id, userId])) as unknown[];
      if (still.length === 0) throw AppError.notFound('Party');
      if (p.round_state !== 'collecting') {
        throw new AppError('CONFLICT', "The round's chapter is being written; act again when it is done.", { reason: 'writing' });
      }
      if (p.mode === 'post' && p.turn_user_id !== userId) throw new AppError('CONFLICT', 'It is not your turn.', { reason: 'not_your_turn' });
      await m.query(
        `INSERT INTO party_actions (party_id, round, user_id, text) VALUES ($1, $2, $3, $4)
         ON CONFLICT (party_id, round, user_id) DO UPDATE SET text = EXCLUDED.text, updated_at = now()`,
        [party.id, p.round, userId, action],
      );
      // A live round's timer starts with its first action, so a quiet party does not churn empty rounds.
      if (p.mode === 'live') {
        await m.query(`UPDATE parties SET deadline_at = $2 WHERE id = $1 AND deadline_at IS NULL`, [
          party.id,
          new Date(now.getTime() + party.roundSeconds * 1000),
        ]);
      }
      return p.round;
    });
    if (party.mode === 'post') {
      await this.closeRound(party.id, round, 'turn', userId);
    } else if (await this.everyoneActed(party.id, round)) {
      await this.closeRound(party.id, round, 'all_acted', userId);
    } else {
      this.publish(party.id, 'acted');
    }
    return this.view(await this.partyRow(party.id));
  }

  /** Host: closes the live round now, with the actions sent so far (at least one). The host pays. */
  async closeRoundNow(userId: string, partyId: unknown): Promise<PartyView> {
    const { party } = await this.asHost(userId, partyId);
    assertOpen(party);
    if (party.mode !== 'live') throw AppError.badInput('Only a live party has rounds to close; by post, each turn closes itself.', 'partyId');
    if (party.roundState !== 'collecting') throw new AppError('CONFLICT', "The round's chapter is being written already.", { reason: 'writing' });
    if ((await this.roundActions(party.id, party.round)).length === 0) throw AppError.badInput('Nobody has acted in this round yet.', 'partyId');
    await this.closeRound(party.id, party.round, 'host', userId);
    return this.view(await this.partyRow(party.id));
  }

  /**
   * Closes a round: claims it (one winner across requests and instances), composes its action,
   * charges the payer and starts the chapter. The chapter's end (success or failure) is handled in
   * the background; a refusal to start (credits, a chapter already being written) reopens the round
   * and is thrown to the caller.
   */
  private async closeRound(partyId: string, round: number, cause: CloseCause, closerId: string | null): Promise<boolean> {
    const now = this.clock();
    const [claimed] = (await this.dataSource.query(
      `UPDATE parties SET round_state = 'writing', writing_since = $3, deadline_at = NULL, updated_at = now()
        WHERE id = $1 AND round = $2 AND round_state = 'collecting' AND status = 'open'
        RETURNING id`,
      [partyId, round, now],
    )) as [unknown[], number];
    if (claimed.length === 0) return false; // closed already (another member's action, the host, or another instance's sweep)
    const party = await this.partyRow(partyId);
    const actions = await this.roundActions(partyId, round);
    if (actions.length === 0) {
      await this.reopen(party, round, null);
      return false;
    }
    const payer = this.payerOf(party, closerId, actions);
    const cost = this.deps.config.party.chapterCredits;
    let spent: CreditChange | null = null;
    let done: Promise<{ index: number }>;
    try {
      if (cost > 0) spent = await this.deps.credits.spendPending(payer, cost, party.mode === 'live' ? 'party_round' : 'party_turn');
      const handle = await this.deps
        .stories()
        .startChapter(party.storyOwnerId, { characterId: party.storyCharacterId, userChoice: composeRoundAction(actions) }, 'next', {
          actionMax: PARTY_ROUND_ACTION_MAX,
          party: await this.roundInput(party, round, actions),
        });
      done = handle.done.then((o) => ({ index: o.chapter.index }));
    } catch (e) {
      if (spent) await this.deps.credits.refund(payer, spent, cost);
      await this.reopen(party, round, isAppError(e) ? e.message : 'The chapter could not be started.');
      throw e;
    }
    this.deps.logger.info('a party round closed; its chapter is being written', { partyId, round, cause, payer });
    this.publish(partyId, cause === 'turn' ? 'turn_taken' : 'round_closed');
    const finishing = done
      .then(
        (written) => this.written(party, round, actions, written.index, spent),
        async (e: unknown) => {
          if (spent) await this.deps.credits.refund(payer, spent, cost);
          this.deps.logger.warn('a party chapter failed; its payer was refunded and the round reopened', { partyId, round, err: e });
          await this.reopen(party, round, isAppError(e) ? e.message : 'Failed to generate story chapter. Please try again.');
        },
      )
      .catch((err: unknown) => this.deps.logger.error('party round bookkeeping failed', { partyId, round, err }))
      .finally(() => {
        if (this.writing.get(partyId) === finishing) this.writing.delete(partyId);
      });
    this.writing.set(partyId, finishing);
    return true;
  }

  /**
   * Each member's own part of the round for the engine (stakes/party-checks.ts): the story owner's is
   * the hero's; every other member's is judged and rolled on their own party stats.
   */
  private async roundInput(party: Party, round: number, actions: RoundActionRow[]): Promise<PartyRoundInput> {
    const stats = new Map((await this.members(party.id)).map((x) => [x.userId, x.stats]));
    return {
      partyId: party.id,
      round,
      heroAction: actions.find((a) => a.userId === party.storyOwnerId)?.text ?? null,
      companions: actions
        .filter((a) => a.userId !== party.storyOwnerId)
        .map((a) => ({ userId: a.userId, name: a.name, action: a.text, stats: stats.get(a.userId) ?? {} })),
    };
  }

  /**
   * Who pays a round's chapter (hostPays: always the host). Otherwise the acting player: by post the
   * member whose turn it was; live, the member whose action closed the round (everyone had acted),
   * the host when they closed it early, and the last member to act when the timer closed it.
   */
  private payerOf(party: Party, closerId: string | null, actions: RoundActionRow[]): string {
    if (party.hostPays) return hostOf(party);
    // The timer's closer is the last member to act (lastActor), as is a removal that completes a round.
    if (closerId) return closerId;
    return actions[actions.length - 1]!.userId;
  }

  /** The round's chapter is written: the charge stands, the next round (or turn) begins. */
  private async written(party: Party, round: number, actions: RoundActionRow[], index: number, spent: CreditChange | null): Promise<void> {
    if (spent) await this.deps.credits.settle(spent);
    const now = this.clock();
    const members = await this.members(party.id);
    let next: MemberRow | null = null;
    if (party.mode === 'post') {
      const actor = members.find((x) => x.userId === actions[0]!.userId);
      next = nextInTurn(members, actor ? actor.seat : actions[0]!.seat);
    }
    // A party ended while its chapter was written still takes the chapter, but starts no timer and mails no one.
    const [advanced] = (await this.dataSource.query(
      `UPDATE parties SET round = round + 1, round_state = 'collecting', writing_since = NULL, last_error = NULL,
              turn_user_id = $3, deadline_at = CASE WHEN status = 'open' THEN $4::timestamptz END, updated_at = now()
        WHERE id = $1 AND round = $2 AND round_state = 'writing'
        RETURNING status`,
      [party.id, round, next?.userId ?? null, next ? new Date(now.getTime() + party.turnSeconds * 1000) : null],
    )) as [Array<{ status: PartyStatus }>, number];
    for (const a of actions) {
      await this.dataSource.query(`UPDATE party_members SET seen_through_index = $3 WHERE party_id = $1 AND user_id = $2`, [party.id, a.userId, index]);
    }
    if (advanced.length === 0) return;
    if (advanced[0]!.status === 'open' && next && next.userId !== actions[0]!.userId) await this.mailTurn(party, next);
    this.publish(party.id, 'chapter_written');
  }

  /** The round's chapter was not written: its actions stay, and members may act (or resend) again. */
  private async reopen(party: Party, round: number, error: string | null): Promise<void> {
    const deadline = party.mode === 'post' ? new Date(this.clock().getTime() + party.turnSeconds * 1000) : null;
    await this.dataSource.query(
      `UPDATE parties SET round_state = 'collecting', writing_since = NULL, last_error = $3, deadline_at = $4, updated_at = now()
        WHERE id = $1 AND round = $2 AND round_state = 'writing'`,
      [party.id, round, error, deadline],
    );
    this.publish(party.id, error ? 'chapter_failed' : 'round_reopened');
  }

  /**
   * One pass of the timers, safe on every instance at once: live rounds past their deadline close
   * (paid by the last member to act), missed turns are skipped (the next player is mailed), and
   * rounds left "writing" by an instance that died reopen. Returns how many parties it moved.
   */
  async sweep(): Promise<number> {
    const now = this.clock();
    let moved = 0;
    const due = (await this.dataSource.query(
      `SELECT id, round, mode FROM parties WHERE status = 'open' AND round_state = 'collecting' AND deadline_at <= $1 ORDER BY deadline_at LIMIT 100`,
      [now],
    )) as Array<{ id: string; round: number; mode: PartyMode }>;
    for (const p of due) {
      try {
        if (p.mode === 'post') {
          if (await this.skipTurn(p.id, p.round, now)) moved++;
          continue;
        }
        const last = await this.lastActor(p.id, p.round);
        if (!last) {
          // Its only actor left: the timer waits for the next first action.
          await this.dataSource.query(`UPDATE parties SET deadline_at = NULL WHERE id = $1 AND round = $2 AND round_state = 'collecting'`, [p.id, p.round]);
          continue;
        }
        if (await this.closeRound(p.id, p.round, 'timer', last)) moved++;
      } catch (err) {
        this.deps.logger.warn('a due party round could not be closed', { partyId: p.id, err });
      }
    }
    const [stale] = (await this.dataSource.query(
      `UPDATE parties SET round_state = 'collecting', writing_since = NULL, last_error = 'The chapter was not finished; please act again.'
        WHERE status = 'open' AND round_state = 'writing' AND writing_since <= $1 AND NOT (id = ANY($2::uuid[]))
        RETURNING id`,
      [new Date(now.getTime() - WRITING_STALE_MS), [...this.writing.keys()]],
    )) as [Array<{ id: string }>, number];
    for (const s of stale) this.publish(s.id, 'chapter_failed');
    return moved + stale.length;
  }

  /** Skips a missed turn (by post): the turn passes to the next seat, who is mailed. One instance wins. */
  private async skipTurn(partyId: string, round: number, now: Date): Promise<boolean> {
    const party = await this.partyRow(partyId);
    const members = await this.members(partyId);
    const current = members.find((x) => x.userId === party.turnUserId);
    const next = nextInTurn(members, current ? current.seat : null);
    if (!next) return false;
    const [won] = (await this.dataSource.query(
      `UPDATE parties SET round = round + 1, turn_user_id = $3, deadline_at = $4, last_error = NULL, updated_at = now()
        WHERE id = $1 AND round = $2 AND round_state = 'collecting' AND status = 'open' AND deadline_at <= $5
        RETURNING id`,
      [partyId, round, next.userId, new Date(now.getTime() + party.turnSeconds * 1000), now],
    )) as [unknown[], number];
    if (won.length === 0) return false;
    this.deps.logger.info('a missed party turn was skipped', { partyId, skipped: party.turnUserId, next: next.userId });
    if (next.userId !== party.turnUserId) await this.mailTurn(party, next);
    this.publish(partyId, 'turn_skipped');
    return true;
  }

  // Host controls and leaving

  /** Host: removes a member now (their next call is refused); they may rejoin with a working code unless banned. */
  async kick(userId: string, partyId: unknown, targetId: unknown): Promise<PartyView> {
    const { party, members } = await this.asHost(userId, partyId);
    const target = this.removable(party, members, targetId, userId);
    await this.remove(party, target);
    this.publish(party.id, 'kicked');
    return this.view(await this.partyRow(party.id));
  }

  /** Host: removes a member (if they are one) and refuses them with every code from now on. */
  async ban(userId: string, partyId: unknown, targetId: unknown): Promise<PartyView> {
    const { party, members } = await this.asHost(userId, partyId);
    if (!isUuid(targetId)) throw AppError.notFound('Player');
    if (targetId === userId) throw AppError.badInput('You cannot ban yourself.', 'userId');
    if (targetId === party.storyOwnerId)
      throw new AppError('FORBIDDEN', 'The party story is their storyline: they cannot be banned from it.', { reason: 'story_owner' });
    const known = (await this.dataSource.query(`SELECT 1 FROM users WHERE id = $1`, [targetId])) as unknown[];
    if (known.length === 0) throw AppError.notFound('Player');
    await this.dataSource.query(`INSERT INTO party_bans (party_id, user_id) VALUES ($1, $2) ON CONFLICT DO NOTHING`, [party.id, targetId]);
    const target = members.find((x) => x.userId === targetId);
    if (target) await this.remove(party, target);
    this.publish(party.id, 'banned');
    return this.view(await this.partyRow(party.id));
  }

  /** Host: no new joins while locked (codes keep working once unlocked). */
  async lock(userId: string, partyId: unknown, locked: unknown): Promise<PartyView> {
    const { party } = await this.asHost(userId, partyId);
    const on = locked === undefined || locked === null ? true : Boolean(locked);
    await this.dataSource.query(`UPDATE parties SET locked = $2, updated_at = now() WHERE id = $1`, [party.id, on]);
    this.publish(party.id, 'locked');
    return this.view(await this.partyRow(party.id));
  }

  /** Host: hands the host's controls to another member. */
  async transferHost(userId: string, partyId: unknown, targetId: unknown): Promise<PartyView> {
    const { party, members } = await this.asHost(userId, partyId);
    const target = members.find((x) => x.userId === targetId);
    if (!target) throw AppError.badInput('The new host must be a member of the party.', 'userId');
    await this.dataSource.query(`UPDATE parties SET host_user_id = $2, updated_at = now() WHERE id = $1 AND coalesce(host_user_id, story_owner_id) = $3`, [
      party.id,
      target.userId,
      userId,
    ]);
    this.publish(party.id, 'host_changed');
    return this.view(await this.partyRow(party.id));
  }

  /** Host: hostPays and the timers (they apply from the next round or turn). */
  async updateSettings(userId: string, partyId: unknown, raw: Record<string, unknown>): Promise<PartyView> {
    const { party } = await this.asHost(userId, partyId);
    const hostPays = raw.hostPays === undefined || raw.hostPays === null ? party.hostPays : Boolean(raw.hostPays);
    const roundSeconds = seconds(raw.roundSeconds, 'roundSeconds', party.roundSeconds, 5, 7 * 86_400);
    const turnSeconds = seconds(raw.turnSeconds, 'turnSeconds', party.turnSeconds, 60, 30 * 86_400);
    await this.dataSource.query(`UPDATE parties SET host_pays = $2, round_seconds = $3, turn_seconds = $4, updated_at = now() WHERE id = $1`, [
      party.id,
      hostPays,
      roundSeconds,
      turnSeconds,
    ]);
    this.publish(party.id, 'settings');
    return this.view(await this.partyRow(party.id));
  }

  /** Host: ends the party for everyone (its story stays its owner's; members can still read it here). */
  async end(userId: string, partyId: unknown): Promise<PartyView> {
    const { party } = await this.asHost(userId, partyId);
    await this.endParty(party.id);
    return this.view(await this.partyRow(party.id));
  }

  /**
   * Leaves the party. The host's controls pass to the next seat; when the story's owner leaves, the
   * party ends (it is their storyline); the last member leaving ends it too.
   */
  async leave(userId: string, partyId: unknown): Promise<boolean> {
    const { party, members, me } = await this.asMember(userId, partyId);
    if (userId === party.storyOwnerId) {
      await this.dataSource.query(`DELETE FROM party_members WHERE party_id = $1 AND user_id = $2`, [party.id, userId]);
      await this.endParty(party.id);
      return true;
    }
    await this.remove(party, me);
    if (hostOf(party) === userId) {
      const heir = nextInTurn(
        members.filter((x) => x.userId !== userId),
        me.seat,
      );
      if (heir) await this.dataSource.query(`UPDATE parties SET host_user_id = $2 WHERE id = $1 AND host_user_id = $3`, [party.id, heir.userId, userId]);
    }
    this.publish(party.id, 'left');
    return true;
  }

  private async endParty(partyId: string): Promise<void> {
    await this.dataSource.query(`UPDATE parties SET status = 'ended', deadline_at = NULL, locked = true, updated_at = now() WHERE id = $1`, [partyId]);
    this.publish(partyId, 'ended');
  }

  private removable(party: Party, members: MemberRow[], targetId: unknown, hostId: string): MemberRow {
    const target = members.find((x) => x.userId === targetId);
    if (!target) throw AppError.badInput('That player is not in the party.', 'userId');
    if (target.userId === hostId) throw AppError.badInput('You cannot remove yourself: leave the party instead.', 'userId');
    if (target.userId === party.storyOwnerId)
      throw new AppError('FORBIDDEN', 'The party story is their storyline: they cannot be removed from it.', { reason: 'story_owner' });
    return target;
  }

  /**
   * Takes a member out at once: their row and their action in the open round go. By post, if it was
   * their turn it passes on; live, the round closes if everyone left has acted.
   */
  private async remove(party: Party, target: MemberRow): Promise<void> {
    await this.dataSource.query(`DELETE FROM party_members WHERE party_id = $1 AND user_id = $2`, [party.id, target.userId]);
    await this.dataSource.query(`DELETE FROM party_actions WHERE party_id = $1 AND round = $2 AND user_id = $3`, [party.id, party.round, target.userId]);
    if (party.status !== 'open' || party.roundState !== 'collecting') return;
    if (party.mode === 'post' && party.turnUserId === target.userId) {
      const next = nextInTurn(await this.members(party.id), target.seat);
      const [moved] = (await this.dataSource.query(
        `UPDATE parties SET round = round + 1, turn_user_id = $3, deadline_at = $4, updated_at = now()
          WHERE id = $1 AND round = $2 AND round_state = 'collecting' RETURNING id`,
        [party.id, party.round, next?.userId ?? null, next ? new Date(this.clock().getTime() + party.turnSeconds * 1000) : null],
      )) as [unknown[], number];
      if (moved.length > 0 && next) await this.mailTurn(party, next);
    } else if (party.mode === 'live' && (await this.roundActions(party.id, party.round)).length > 0 && (await this.everyoneActed(party.id, party.round))) {
      await this.closeRound(party.id, party.round, 'timer', await this.lastActor(party.id, party.round)).catch((err: unknown) =>
        this.deps.logger.warn('closing a round after a member left failed', { partyId: party.id, err }),
      );
    }
  }

  // Live updates

  /**
   * The story's owner changed a party story from the story screen (undo, a rewind, a return to a
   * branch): its open party's round and members' stats may have moved with it (stories/state/party-rounds.ts),
   * so its members are sent the party as it is now (reason story_changed). Best effort.
   */
  async storyChanged(characterId: string): Promise<void> {
    const open = (await this.dataSource.query(`SELECT id FROM parties WHERE story_character_id = $1 AND status = 'open'`, [characterId])) as Array<{
      id: string;
    }>;
    for (const p of open) this.publish(p.id, 'story_changed');
  }

  /**
   * The party's live state for a member: a snapshot first, then every change. A member removed
   * meanwhile gets one last event (reason removed, no party) and the stream ends.
   */
  async watch(userId: string, partyId: unknown): Promise<AsyncGenerator<PartyUpdateMessage>> {
    if (!isUuid(partyId)) throw AppError.notFound('Party');
    const inner = this.deps.realtime.pubSub.subscribe(PARTY_TOPIC, partyId);
    // Listen now, not after the snapshot is read and delivered: a change meanwhile is not lost.
    let pending: Promise<IteratorResult<unknown>> | null = inner.next();
    pending.catch(() => undefined);
    let first: PartyView;
    try {
      first = await this.get(userId, partyId);
    } catch (e) {
      await inner.return?.();
      throw e;
    }
    return (async function* () {
      try {
        yield { partyId, reason: 'snapshot', party: first };
        for (;;) {
          const r = await (pending ?? inner.next());
          pending = null;
          if (r.done) return;
          const m = r.value as PartyUpdateMessage;
          if (m?.partyId !== partyId) continue;
          if (!m.party || !m.party.members.some((x) => x.userId === userId)) {
            yield { partyId, reason: 'removed', party: null };
            return;
          }
          yield m;
        }
      } finally {
        await inner.return?.();
      }
    })();
  }

  /** Publishes the party's state (in order per party, so a subscriber never ends on an older one). */
  private publish(partyId: string, reason: string): void {
    const previous = this.publishing.get(partyId) ?? Promise.resolve();
    const current = previous
      .then(async () => {
        const party = await this.view(await this.partyRow(partyId));
        this.deps.realtime.pubSub.publish(PARTY_TOPIC, partyId, { partyId, reason, party } satisfies PartyUpdateMessage);
      })
      .catch((err: unknown) => this.deps.logger.warn('party update publish failed', { err, partyId }))
      .finally(() => {
        if (this.publishing.get(partyId) === current) this.publishing.delete(partyId);
      });
    this.publishing.set(partyId, current);
  }

  // Mail

  /** "Your turn" to the member whose turn starts, with a link to the party (through the mail budget and outbox). */
  private async mailTurn(party: Party, next: MemberRow): Promise<void> {
    const link = `${this.deps.config.publicUrl}/parties/${party.id}`;
    const hours = Math.round(party.turnSeconds / 360) / 10;
    const body = `It is your turn in your party, as ${next.characterName}. You have ${hours} hours to act before your turn passes on.`;
    try {
      await this.deps.mailer.send({
        to: next.email,
        subject: 'Your turn in your Taleforge party',
        text: `${body}\n\nAct here (and read "Previously…" to catch up): ${link}\n`,
        html: `<p>${escapeHtml(body)}</p><p><a href="${escapeHtml(link)}">Take your turn</a> (and read “Previously…” to catch up).</p>`,
        link,
      });
    } catch (err) {
      // The turn stands either way: the mail is a courtesy, the party's state is the truth.
      this.deps.logger.warn('the your-turn mail could not be sent', { partyId: party.id, err });
    }
  }

  // Reads behind the rules

  private async partyRow(id: string): Promise<Party> {
    const p = await this.dataSource.getRepository(Party).findOne({ where: { id } });
    if (!p) throw AppError.notFound('Party');
    return p;
  }

  private async members(partyId: string): Promise<MemberRow[]> {
    const rows = (await this.dataSource.query(
      `SELECT m.user_id, m.character_id, m.seat, m.seen_through_index, m.joined_at, u.username, u.email, c.name AS character_name,
              COALESCE(m.stats, c.stats) AS stats
         FROM party_members m JOIN users u ON u.id = m.user_id JOIN characters c ON c.id = m.character_id
        WHERE m.party_id = $1 ORDER BY m.seat`,
      [partyId],
    )) as Array<Record<string, unknown>>;
    return rows.map((r) => ({
      userId: r.user_id as string,
      characterId: r.character_id as string,
      seat: r.seat as number,
      seenThroughIndex: r.seen_through_index as number,
      joinedAt: new Date(r.joined_at as string | Date),
      username: r.username as string,
      email: r.email as string,
      characterName: r.character_name as string,
      stats: (r.stats as Record<string, number>) ?? {},
    }));
  }

  /** The round's actions of current members, in seat order. */
  private async roundActions(partyId: string, round: number): Promise<RoundActionRow[]> {
    const rows = (await this.dataSource.query(
      `SELECT a.user_id, a.text, c.name, m.seat
         FROM party_actions a
         JOIN party_members m ON m.party_id = a.party_id AND m.user_id = a.user_id
         JOIN characters c ON c.id = m.character_id
        WHERE a.party_id = $1 AND a.round = $2 ORDER BY m.seat`,
      [partyId, round],
    )) as Array<{ user_id: string; text: string; name: string; seat: number }>;
    return rows.map((r) => ({ userId: r.user_id, text: r.text, name: r.name, seat: r.seat }));
  }

  private async lastActor(partyId: string, round: number): Promise<string | null> {
    const rows = (await this.dataSource.query(
      `SELECT a.user_id FROM party_actions a JOIN party_members m ON m.party_id = a.party_id AND m.user_id = a.user_id
        WHERE a.party_id = $1 AND a.round = $2 ORDER BY a.updated_at DESC, a.id DESC LIMIT 1`,
      [partyId, round],
    )) as Array<{ user_id: string }>;
    return rows[0]?.user_id ?? null;
  }

  private async everyoneActed(partyId: string, round: number): Promise<boolean> {
    const [r] = (await this.dataSource.query(
      `SELECT count(*)::int AS waiting FROM party_members m
        WHERE m.party_id = $1 AND NOT EXISTS (SELECT 1 FROM party_actions a WHERE a.party_id = m.party_id AND a.round = $2 AND a.user_id = m.user_id)`,
      [partyId, round],
    )) as Array<{ waiting: number }>;
    return (r?.waiting ?? 1) === 0;
  }

  /** The party and its members when the caller is one; NOT_FOUND otherwise (no probing of other parties). */
  private async asMember(userId: string, partyId: unknown): Promise<{ party: Party; members: MemberRow[]; me: MemberRow }> {
    if (!isUuid(partyId)) throw AppError.notFound('Party');
    const party = await this.dataSource.getRepository(Party).findOne({ where: { id: partyId } });
    if (!party) throw AppError.notFound('Party');
    const members = await this.members(party.id);
    const me = members.find((x) => x.userId === userId);
    if (!me) throw AppError.notFound('Party');
    return { party, members, me };
  }

  /** As asMember, and FORBIDDEN for a member who is not the host. */
  private async asHost(userId: string, partyId: unknown): Promise<{ party: Party; members: MemberRow[]; me: MemberRow }> {
    const found = await this.asMember(userId, partyId);
    if (hostOf(found.party) !== userId) throw new AppError('FORBIDDEN', 'Only the host can do this.', { reason: 'not_host' });
    return found;
  }

  private async view(party: Party, members?: MemberRow[]): Promise<PartyView> {
    const ms = members ?? (await this.members(party.id));
    const acted = new Set(
      (
        (await this.dataSource.query(`SELECT user_id FROM party_actions WHERE party_id = $1 AND round = $2`, [party.id, party.round])) as Array<{
          user_id: string;
        }>
      ).map((r) => r.user_id),
    );
    return {
      id: party.id,
      mode: party.mode,
      status: party.status,
      hostUserId: hostOf(party),
      storyCharacterId: party.storyCharacterId,
      storyOwnerId: party.storyOwnerId,
      worldId: party.worldId,
      hostPays: party.hostPays,
      locked: party.locked,
      roundSeconds: party.roundSeconds,
      turnSeconds: party.turnSeconds,
      round: party.round,
      roundState: party.roundState,
      turnUserId: party.turnUserId,
      deadlineAt: party.deadlineAt ? party.deadlineAt.toISOString() : null,
      lastError: party.lastError,
      createdAt: party.createdAt.toISOString(),
      members: ms.map((x) => ({
        userId: x.userId,
        username: x.username,
        characterId: x.characterId,
        characterName: x.characterName,
        stats: x.stats,
        seat: x.seat,
        isHost: x.userId === hostOf(party),
        isStoryOwner: x.userId === party.storyOwnerId,
        hasActed: acted.has(x.userId),
        joinedAt: x.joinedAt.toISOString(),
      })),
    };
  }
}

/** The host: the story's owner holds the controls once the host's account is gone. */
function hostOf(party: Party): string {
  return party.hostUserId ?? party.storyOwnerId;
}

function assertOpen(party: Party): void {
  if (party.status !== 'open') throw new AppError('CONFLICT', 'This party has ended.', { reason: 'ended' });
}

/** The index of the story's latest chapter (-1 before the first). */
async function latestIndex(m: EntityManager | DataSource, characterId: string): Promise<number> {
  const [r] = (await m.query(`SELECT coalesce(max(index), -1)::int AS latest FROM chapters WHERE character_id = $1 AND is_selected AND status = 'complete'`, [
    characterId,
  ])) as Array<{ latest: number }>;
  return r?.latest ?? -1;
}
