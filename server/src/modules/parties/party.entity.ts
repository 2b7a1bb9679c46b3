import { Check, Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';
import { User } from '../auth/user.entity';
import { Character } from '../characters/character.entity';

export type PartyMode = 'live' | 'post';
export type PartyStatus = 'open' | 'ended';
/** collecting: members act; writing: the round's chapter is being written (no actions until it is done). */
export type RoundState = 'collecting' | 'writing';

/**
 * A party (issue 34): several players on one storyline — the story character's chapters, owned by
 * the player who started the party. Every change of round or turn is a conditional UPDATE on `round`
 * (and `round_state`), so two requests or two instances never close, skip or advance the same one twice.
 */
@Entity('parties')
@Index('ix_parties_due', ['status', 'roundState', 'deadlineAt'])
@Check('ck_parties_mode', `"mode" IN ('live', 'post')`)
@Check('ck_parties_status', `"status" IN ('open', 'ended')`)
@Check('ck_parties_round_state', `"round_state" IN ('collecting', 'writing')`)
export class Party {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  /** Null once the host's account is deleted: the story's owner then holds the host's controls. */
  @Column({ type: 'uuid', nullable: true })
  hostUserId: string | null;

  @ManyToOne(() => User, { onDelete: 'SET NULL', nullable: true })
  @JoinColumn({ name: 'host_user_id' })
  host?: User | null;

  /** The party story: this character's storyline (its owner started the party). */
  @Column({ type: 'uuid' })
  storyCharacterId: string;

  @ManyToOne(() => Character, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'story_character_id' })
  storyCharacter?: Character;

  /** The story character's owner: chapters are written as theirs (the host may change, the story's owner does not). */
  @Column({ type: 'uuid' })
  storyOwnerId: string;

  @Column({ type: 'uuid' })
  worldId: string;

  @Column({ type: 'varchar', length: 8 })
  mode: PartyMode;

  @Column({ type: 'varchar', length: 8, default: 'open' })
  status: PartyStatus;

  /** The host pays for every chapter instead of the acting player. */
  @Column({ type: 'boolean', default: false })
  hostPays: boolean;

  /** No new joins while locked. */
  @Column({ type: 'boolean', default: false })
  locked: boolean;

  /** Live: how long a round stays open after its first action. */
  @Column({ type: 'integer' })
  roundSeconds: number;

  /** By post: how long a member has for their turn. */
  @Column({ type: 'integer' })
  turnSeconds: number;

  /** The round (live) or turn (by post) number; every transition bumps it. */
  @Column({ type: 'integer', default: 0 })
  round: number;

  @Column({ type: 'varchar', length: 12, default: 'collecting' })
  roundState: RoundState;

  /** By post: whose turn it is (null once their account is deleted: the sweep passes the turn on). */
  @Column({ type: 'uuid', nullable: true })
  turnUserId: string | null;

  @ManyToOne(() => User, { onDelete: 'SET NULL', nullable: true })
  @JoinColumn({ name: 'turn_user_id' })
  turnUser?: User | null;

  /** When the live round closes by its timer, or the by-post turn is skipped; null: no timer running. */
  @Column({ type: 'timestamptz', nullable: true })
  deadlineAt: Date | null;

  /** When the round started being written (a writer that died is noticed by the sweep). */
  @Column({ type: 'timestamptz', nullable: true })
  writingSince: Date | null;

  /** Why the last round's chapter was not written (null after a success). */
  @Column({ type: 'text', nullable: true })
  lastError: string | null;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt: Date;
}

/** A player in a party, with the saved character they play (their own, in the party's world). */
@Entity('party_members')
@Index('uq_party_members_user', ['partyId', 'userId'], { unique: true })
@Index('ix_party_members_user', ['userId'])
export class PartyMember {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ type: 'uuid' })
  partyId: string;

  @ManyToOne(() => Party, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'party_id' })
  party?: Party;

  @Column({ type: 'uuid' })
  userId: string;

  @ManyToOne(() => User, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id' })
  user?: User;

  @Column({ type: 'uuid' })
  characterId: string;

  @ManyToOne(() => Character, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'character_id' })
  character?: Character;

  /** Turn order (by post) and the order of a live round's actions. */
  @Column({ type: 'integer' })
  seat: number;

  /**
   * The member's stats in this party (issue 34, step 7): copied from their saved character when they
   * join, and grown by their own checks in the party's rounds — never their saved character's, so
   * their own stories are untouched. Null for the story's owner: their hero is the story character,
   * whose stats live on it.
   */
  @Column({ type: 'jsonb', nullable: true })
  stats: Record<string, number> | null;

  /** The latest chapter this member has seen: at joining, then their own turn's ("Previously…" is what came after). */
  @Column({ type: 'integer', default: -1 })
  seenThroughIndex: number;

  @CreateDateColumn({ type: 'timestamptz' })
  joinedAt: Date;
}

/** A banned player cannot rejoin the party with any code. */
@Entity('party_bans')
export class PartyBan {
  @PrimaryColumn({ type: 'uuid' })
  partyId: string;

  @PrimaryColumn({ type: 'uuid' })
  userId: string;

  @ManyToOne(() => Party, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'party_id' })
  party?: Party;

  @ManyToOne(() => User, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id' })
  user?: User;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;
}

/** An invite code: only its SHA-256 is kept; it expires and the host can revoke it. */
@Entity('party_invites')
@Index('uq_party_invites_hash', ['codeHash'], { unique: true })
@Index('ix_party_invites_party', ['partyId'])
export class PartyInvite {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ type: 'uuid' })
  partyId: string;

  @ManyToOne(() => Party, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'party_id' })
  party?: Party;

  @Column({ type: 'char', length: 64 })
  codeHash: string;

  /** The code's last 4 symbols, to tell codes apart in the host's list (null: made before they were kept). */
  @Column({ type: 'varchar', length: 4, nullable: true })
  codeEnd: string | null;

  @Column({ type: 'timestamptz' })
  expiresAt: Date;

  @Column({ type: 'timestamptz', nullable: true })
  revokedAt: Date | null;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;
}

/** A member's action in a round (resubmitting replaces it). */
@Entity('party_actions')
@Index('uq_party_actions_round_user', ['partyId', 'round', 'userId'], { unique: true })
export class PartyAction {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ type: 'uuid' })
  partyId: string;

  @ManyToOne(() => Party, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'party_id' })
  party?: Party;

  @Column({ type: 'integer' })
  round: number;

  @Column({ type: 'uuid' })
  userId: string;

  @ManyToOne(() => User, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id' })
  user?: User;

  @Column({ type: 'text' })
  text: string;

  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt: Date;
}
