import { errorCode, errorMessage, errorReason } from '../../apollo/graphql-errors';

/** The codes whose message the server writes for the player (why a party action was refused). */
const SAID = new Set(['BAD_USER_INPUT', 'CONFLICT', 'FORBIDDEN', 'NOT_FOUND', 'INSUFFICIENT_CREDITS', 'RATE_LIMITED', 'PAYLOAD_TOO_LARGE', 'CONTENT_REJECTED']);

/**
 * What a failed party call tells the player: the server's message when its code says the player can
 * act on it (refused: locked, full, not your turn…), with the code after it; otherwise the fallback.
 */
export function partyError(err: unknown, fallback: string): string {
  const code = errorCode(err);
  const message = code && SAID.has(code) ? errorMessage(err) : undefined;
  if (!message) return fallback;
  const reason = errorReason(err);
  return `${message} (${reason ?? code})`;
}
