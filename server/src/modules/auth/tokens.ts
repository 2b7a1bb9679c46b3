import crypto from 'node:crypto';
import jwt from 'jsonwebtoken';

/** The one signing algorithm we accept: a token claiming another (or "none") is rejected. */
const ALGORITHM = 'HS256' as const;
const ISSUER = 'taleforge';
const AUDIENCE = 'authenticated';

export interface AccessClaims {
  sub: string;
  sid: string;
  email: string;
  username: string;
  /** GoTrue's assurance level and methods, which auth-js reads from the token (getAuthenticatorAssuranceLevel). */
  aal?: Aal;
  amr?: Array<{ method: string; timestamp: number }>;
}

export type Aal = 'aal1' | 'aal2';

export interface SignedAccessToken {
  token: string;
  expiresAt: number;
  expiresIn: number;
}

export class AccessTokens {
  /**
   * The secret as a KeyObject, made once: given a string, jsonwebtoken first tries (and fails) to
   * parse it as a public key on every verify, which cost more than the rest of a small request.
   */
  private readonly key: crypto.KeyObject;
  /**
   * Tokens already verified, until they expire: a signed-in page sends the same token with every
   * request, and the HMAC + JSON decoding cost as much as the rest of a small query. Keyed by the
   * whole token, so only a byte-identical, already-verified token can hit. Bounded (oldest first).
   */
  private readonly verified = new Map<string, { userId: string; sessionId: string; expMs: number }>();
  private static readonly MAX_VERIFIED = 20_000;

  constructor(
    secret: string,
    private readonly ttlSeconds: number,
  ) {
    this.key = crypto.createSecretKey(Buffer.from(secret));
  }

  sign(claims: AccessClaims, now = Math.floor(Date.now() / 1000)): SignedAccessToken {
    const expiresAt = now + this.ttlSeconds;
    const token = jwt.sign(
      {
        sub: claims.sub,
        session_id: claims.sid,
        email: claims.email,
        role: 'authenticated',
        user_metadata: { username: claims.username },
        aal: claims.aal ?? 'aal1',
        amr: claims.amr ?? [{ method: 'password', timestamp: now }],
        iat: now,
        exp: expiresAt,
      },
      this.key,
      { algorithm: ALGORITHM, issuer: ISSUER, audience: AUDIENCE },
    );
    return { token, expiresAt, expiresIn: this.ttlSeconds };
  }

  /** Returns the user and session ids, or null for any invalid, expired or foreign token. */
  verify(token: string, nowMs = Date.now()): { userId: string; sessionId: string } | null {
    const known = this.verified.get(token);
    if (known) {
      if (known.expMs > nowMs) return { userId: known.userId, sessionId: known.sessionId };
      this.verified.delete(token);
      return null;
    }
    try {
      const p = jwt.verify(token, this.key, { algorithms: [ALGORITHM], issuer: ISSUER, audience: AUDIENCE, clockTimestamp: Math.floor(nowMs / 1000) });
      if (typeof p !== 'object' || typeof p.sub !== 'string' || typeof p.session_id !== 'string' || typeof p.exp !== 'number') return null;
      if (this.verified.size >= AccessTokens.MAX_VERIFIED) this.verified.delete(this.verified.keys().next().value as string);
      this.verified.set(token, { userId: p.sub, sessionId: p.session_id, expMs: p.exp * 1000 });
      return { userId: p.sub, sessionId: p.session_id };
    } catch {
      return null;
    }
  }
}

/** Opaque refresh tokens: 256 random bits, URL-safe. Only their SHA-256 is stored. */
export function newRefreshToken(): string {
  return crypto.randomBytes(32).toString('base64url');
}

export function hashToken(token: string): string {
  return crypto.createHash('sha256').update(token).digest('hex');
}
