/**
 * The one error type services throw. `code` is stable and machine-readable; `message` is for humans.
 * GraphQL carries the code in `extensions.code`; REST maps it to a status (see httpStatusFor).
 */
export type ErrorCode =
  | 'UNAUTHENTICATED'
  | 'INVALID_CREDENTIALS'
  | 'FORBIDDEN'
  | 'NOT_FOUND'
  | 'BAD_USER_INPUT'
  | 'PAYLOAD_TOO_LARGE'
  | 'INSUFFICIENT_CREDITS'
  | 'RATE_LIMITED'
  | 'CONFLICT'
  /** Shared content the moderation check refused (details.categories says why). */
  | 'CONTENT_REJECTED'
  | 'GENERATION_FAILED'
  | 'SERVICE_UNAVAILABLE'
  | 'INTERNAL';

export class AppError extends Error {
  constructor(
    public readonly code: ErrorCode,
    message: string,
    /** Extra machine-readable detail, e.g. the offending field or retryAfterSeconds. */
    public readonly details?: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'AppError';
  }

  static badInput(message: string, field?: string): AppError {
    return new AppError('BAD_USER_INPUT', message, field ? { field } : undefined);
  }

  static notFound(what = 'Resource'): AppError {
    return new AppError('NOT_FOUND', `${what} not found`);
  }

  static unauthenticated(message = 'You must be signed in.'): AppError {
    return new AppError('UNAUTHENTICATED', message);
  }
}

export function isAppError(e: unknown): e is AppError {
  return e instanceof AppError;
}

export function httpStatusFor(code: ErrorCode): number {
  switch (code) {
    case 'UNAUTHENTICATED':
      return 401;
    case 'INVALID_CREDENTIALS':
      return 400;
    case 'FORBIDDEN':
    case 'INSUFFICIENT_CREDITS':
      return 403;
    case 'NOT_FOUND':
      return 404;
    case 'BAD_USER_INPUT':
      return 400;
    case 'PAYLOAD_TOO_LARGE':
      return 413;
    case 'RATE_LIMITED':
      return 429;
    case 'CONFLICT':
      return 409;
    case 'CONTENT_REJECTED':
      return 422;
    case 'GENERATION_FAILED':
      return 502;
    case 'SERVICE_UNAVAILABLE':
      return 503;
    case 'INTERNAL':
      return 500;
    default: {
      const exhaustive: never = code;
      return exhaustive;
    }
  }
}
