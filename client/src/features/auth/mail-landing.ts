/** What a followed mail link put in the address's fragment (GoTrue's implicit flow), read once. */
export type Landing =
  | {
      kind: 'session';
      accessToken: string;
      refreshToken: string;
      expiresAt: number;
      user: { id: string; email: string; username: string };
      /** The account has an authenticator: its code comes first (the session reaches nothing else before). */
      mfaRequired: boolean;
    }
  | { kind: 'invalid' }
  | { kind: 'none' };

/** Reads a landing of this `type` (recovery: a reset link; signup: a confirmation link) from a fragment. */
export function readLanding(hash: string, type: 'recovery' | 'signup'): Landing {
  const p = new URLSearchParams(hash.replace(/^#/, ''));
  if (p.get('error') || p.get('error_code')) return { kind: 'invalid' };
  const accessToken = p.get('access_token');
  const refreshToken = p.get('refresh_token');
  if (!accessToken || !refreshToken || p.get('type') !== type) return { kind: 'none' };
  try {
    // The access token's claims name the account; the session check verifies it with the server.
    const claims = JSON.parse(atob(accessToken.split('.')[1]!.replace(/-/g, '+').replace(/_/g, '/'))) as {
      sub: string;
      email: string;
      user_metadata?: { username?: string };
    };
    return {
      kind: 'session',
      accessToken,
      refreshToken,
      expiresAt: Number(p.get('expires_at')) || 0,
      mfaRequired: p.get('mfa_required') === '1',
      user: { id: claims.sub, email: claims.email, username: claims.user_metadata?.username ?? '' },
    };
  } catch {
    return { kind: 'invalid' };
  }
}
