import { AppError } from './app-error';

/** How long clients are told to wait when the database cannot be reached (a restart or failover). */
const DATABASE_RETRY_AFTER_SECONDS = 5;

// Connection-level failures (the database is down, restarting, refusing connections or out of them),
// as opposed to a bad statement: those are ours to fix, these pass on their own.
const NODE_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH']);
// PostgreSQL SQLSTATEs: 08xxx connection exceptions, 57P01–57P03 shutdown / cannot connect now,
// 53300 too many connections.
const PG_CODES = new Set(['57P01', '57P02', '57P03', '53300']);
const MESSAGES =
  /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Connection is not established|the database system is (starting up|shutting down)/i;

/** Whether an error (or the driver error TypeORM wraps) says the database cannot be reached. */
export function isDatabaseUnavailable(err: unknown): boolean {
  for (let e = err as { code?: unknown; message?: unknown; driverError?: unknown; cause?: unknown } | null, depth = 0; e && depth < 4; depth++) {
    const code = typeof e.code === 'string' ? e.code : '';
    if (NODE_CODES.has(code) || PG_CODES.has(code) || /^08[0-9A-Z]{3}$/.test(code)) return true;
    if (typeof e.message === 'string' && MESSAGES.test(e.message)) return true;
    e = (e.driverError ?? e.cause) as typeof e;
  }
  return false;
}

/** The coded answer for it: 503 with Retry-After on REST, SERVICE_UNAVAILABLE on GraphQL. */
export function databaseUnavailable(): AppError {
  return new AppError('SERVICE_UNAVAILABLE', 'The service is briefly unavailable. Please try again in a moment.', {
    retryAfterSeconds: DATABASE_RETRY_AFTER_SECONDS,
  });
}
