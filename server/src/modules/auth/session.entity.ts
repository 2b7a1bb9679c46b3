import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';
import { User } from './user.entity';

/**
 * A sign-in: one family of rotated refresh tokens. Access tokens carry its id (`sid`), so revoking
 * the session (sign-out, or reuse of a spent refresh token) ends every token of the family at once.
 */
@Entity('sessions')
export class Session {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Index('ix_sessions_user')
  @Column({ type: 'uuid' })
  userId: string;

  @ManyToOne(() => User, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id' })
  user?: User;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;

  @Column({ type: 'timestamptz' })
  lastRefreshedAt: Date;

  @Column({ type: 'timestamptz', nullable: true })
  revokedAt: Date | null;

  /** 'sign_out' | 'refresh_token_reuse' | 'expired' */
  @Column({ type: 'varchar', length: 32, nullable: true })
  revokedReason: string | null;

  @Column({ type: 'varchar', length: 256, nullable: true })
  userAgent: string | null;

  @Column({ type: 'varchar', length: 64, nullable: true })
  ip: string | null;

  /**
   * A session opened by a password-reset link: until this time it may set a new password without
   * the current one (which its player has forgotten). Cleared once the password is set.
   */
  @Column({ type: 'timestamptz', nullable: true })
  recoveryUntil: Date | null;

  /**
   * GoTrue's assurance level: 'aal1' after a password, a mailed code or a reset link; 'aal2' once a
   * TOTP code was verified in this session. An account with a verified factor is served only at aal2.
   */
  @Column({ type: 'varchar', length: 8, default: 'aal1' })
  aal: string;

  /** How the session was opened, for the token's `amr` claim: 'password' | 'otp' | 'recovery' (then 'totp' once upgraded). */
  @Column({ type: 'varchar', length: 16, default: 'password' })
  authMethod: string;

  /**
   * When this session last proved the password (signing in with it, or entering it again). Adding an
   * authenticator needs a recent proof: a stolen access token alone cannot put a thief's factor on
   * the account.
   */
  @Column({ type: 'timestamptz', nullable: true })
  reauthenticatedAt: Date | null;
}

/** A TOTP authenticator (RFC 6238) of an account: 'unverified' until its first code is entered. */
@Entity('mfa_factors')
export class MfaFactor {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Index('ix_mfa_factors_user')
  @Column({ type: 'uuid' })
  userId: string;

  @ManyToOne(() => User, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id' })
  user?: User;

  @Column({ type: 'varchar', length: 64, nullable: true })
  friendlyName: string | null;

  /** 'totp' */
  @Column({ type: 'varchar', length: 16, default: 'totp' })
  factorType: string;

  /** The shared secret, base32. */
  @Column({ type: 'varchar', length: 64 })
  secret: string;

  /** 'unverified' | 'verified' */
  @Column({ type: 'varchar', length: 16, default: 'unverified' })
  status: string;

  /** The last 30-second step whose code was accepted: a code is never accepted twice (replay). */
  @Column({ type: 'bigint', nullable: true })
  lastUsedStep: string | null;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt: Date;
}

/** A GoTrue MFA challenge: a code for its factor is accepted against it once, within 5 minutes. */
@Entity('mfa_challenges')
export class MfaChallenge {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Index('ix_mfa_challenges_factor')
  @Column({ type: 'uuid' })
  factorId: string;

  @ManyToOne(() => MfaFactor, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'factor_id' })
  factor?: MfaFactor;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;

  @Column({ type: 'timestamptz' })
  expiresAt: Date;

  @Column({ type: 'timestamptz', nullable: true })
  verifiedAt: Date | null;
}

/**
 * A single-use, short-lived token mailed to a player (a password-reset link), stored only as its
 * SHA-256. `usedAt` marks it spent; a new request for the same account spends the older ones.
 */
@Entity('auth_tokens')
export class AuthToken {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Index('ix_auth_tokens_user')
  @Column({ type: 'uuid' })
  userId: string;

  @ManyToOne(() => User, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id' })
  user?: User;

  /** 'recovery' (a reset link) | 'otp' (a mailed sign-in code) | 'email_change' (a link to the new address) */
  @Column({ type: 'varchar', length: 16 })
  kind: string;

  /** For 'email_change': the address the link confirms. */
  @Column({ type: 'varchar', length: 254, nullable: true })
  newEmail: string | null;

  @Index('uq_auth_tokens_hash', { unique: true })
  @Column({ type: 'char', length: 64 })
  tokenHash: string;

  @Column({ type: 'timestamptz' })
  expiresAt: Date;

  @Column({ type: 'timestamptz', nullable: true })
  usedAt: Date | null;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;
}

/** One opaque refresh token, stored only as its SHA-256. Single use: `usedAt` marks it spent. */
@Entity('refresh_tokens')
export class RefreshToken {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Index('ix_refresh_tokens_session')
  @Column({ type: 'uuid' })
  sessionId: string;

  @ManyToOne(() => Session, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'session_id' })
  session?: Session;

  @Index('uq_refresh_tokens_hash', { unique: true })
  @Column({ type: 'char', length: 64 })
  tokenHash: string;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;

  @Column({ type: 'timestamptz' })
  expiresAt: Date;

  @Column({ type: 'timestamptz', nullable: true })
  usedAt: Date | null;
}
