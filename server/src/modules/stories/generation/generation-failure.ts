/**
 * What a player is told when a chapter fails: the SPEC message, plus a reason they can act on,
 * carried as `reason` (and `retryAfterSeconds`, `hint`) next to the GENERATION_FAILED code — in
 * GraphQL extensions, REST error bodies and failed chapter-stream events alike.
 */
import { AppError, isAppError } from '../../../common/app-error';

export const CHAPTER_FAILED = 'Failed to generate story chapter. Please try again.';
/** Not in the SPEC (stopping is ours): what a reader of a stopped chapter is told. */
export const CHAPTER_STOPPED = 'The chapter was stopped before it was finished; nothing of it was kept.';

/**
 * A chapter the player stopped: CONFLICT (the request's chapter will not come), with reason
 * `stopped` so a waiting caller can tell it from a takeover.
 */
export function stoppedError(): AppError {
  return new AppError('CONFLICT', CHAPTER_STOPPED, { reason: 'stopped' });
}

type FailureReason = 'timeout' | 'busy' | 'unavailable' | 'misconfigured' | 'invalid_output' | 'failed';

interface FailureDetails {
  reason: FailureReason;
  hint: string;
  retryAfterSeconds?: number;
}

/** The player's reason from a provider's error (its details: reason, status, retryAfterSeconds). */
function failureDetails(e: unknown): FailureDetails {
  const d = (isAppError(e) ? e.details : undefined) ?? {};
  const status = typeof d.status === 'number' ? d.status : null;
  const after = typeof d.retryAfterSeconds === 'number' && d.retryAfterSeconds > 0 ? Math.ceil(d.retryAfterSeconds) : undefined;
  if (d.reason === 'timeout') return { reason: 'timeout', hint: 'The storyteller took too long to answer.' };
  if (d.reason === 'http' && status === 429) {
    return {
      reason: 'busy',
      hint: after ? `The storyteller is busy; try again in ${after} s.` : 'The storyteller is busy; try again in a moment.',
      ...(after ? { retryAfterSeconds: after } : {}),
    };
  }
  if (d.reason === 'connection' || (d.reason === 'http' && status !== null && (status >= 500 || status === 408))) {
    return { reason: 'unavailable', hint: 'The storyteller cannot be reached right now.', ...(after ? { retryAfterSeconds: after } : {}) };
  }
  if (d.reason === 'http') return { reason: 'misconfigured', hint: 'The storyteller is not set up correctly; please tell support.' };
  if (d.reason === 'invalid_output') return { reason: 'invalid_output', hint: "The storyteller's answer could not be used." };
  return { reason: 'failed', hint: '' };
}

/** The error a failed generation ends with: refusals pass through; anything else is GENERATION_FAILED. */
export function generationError(e: unknown): AppError {
  if (isAppError(e) && (e.code === 'CONFLICT' || e.code === 'NOT_FOUND' || e.code === 'BAD_USER_INPUT')) return e;
  const { reason, hint, retryAfterSeconds } = failureDetails(e);
  return new AppError('GENERATION_FAILED', CHAPTER_FAILED, { reason, ...(hint ? { hint } : {}), ...(retryAfterSeconds ? { retryAfterSeconds } : {}) });
}
