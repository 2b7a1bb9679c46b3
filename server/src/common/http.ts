import type { ErrorRequestHandler, Request, Response } from 'express';
import { AppError, httpStatusFor, isAppError } from './app-error';
import { databaseUnavailable, isDatabaseUnavailable } from './db-errors';
import type { RequestMeta } from '../modules/auth/auth.service';

export function requestMeta(req: Request): RequestMeta {
  const ua = req.headers['user-agent'];
  return { ip: req.ip, userAgent: typeof ua === 'string' ? ua : undefined };
}

/** Maps express/body-parser failures (malformed JSON, oversized body) to our coded errors. */
export function toAppError(err: unknown): AppError | null {
  if (isAppError(err)) return err;
  const type = (err as { type?: string } | null)?.type;
  if (type === 'entity.parse.failed') return new AppError('BAD_USER_INPUT', 'Malformed JSON body.');
  if (type === 'entity.too.large') return new AppError('PAYLOAD_TOO_LARGE', 'Request body is too large.');
  if (type === 'encoding.unsupported' || type === 'charset.unsupported') {
    return new AppError('BAD_USER_INPUT', 'Unsupported request encoding.');
  }
  if (isDatabaseUnavailable(err)) return databaseUnavailable();
  // The router decodes path parameters; a broken escape (`%E0%A4%A`) is the client's mistake.
  if (err instanceof URIError) return new AppError('BAD_USER_INPUT', 'Malformed percent-encoding in the URL.');
  return null;
}

/** The REST error body of the product API: `{ error, code }` with the code's HTTP status. */
export function sendError(res: Response, e: AppError): void {
  if ((e.code === 'RATE_LIMITED' || e.code === 'SERVICE_UNAVAILABLE') && typeof e.details?.retryAfterSeconds === 'number') {
    res.setHeader('Retry-After', String(e.details.retryAfterSeconds));
  }
  res.status(httpStatusFor(e.code)).json({ error: e.message, code: e.code, ...(e.details ?? {}) });
}

export function restErrorHandler(log: (e: unknown) => void): ErrorRequestHandler {
  return (err, _req, res, next) => {
    if (res.headersSent) return next(err);
    const e = toAppError(err);
    if (e?.code === 'SERVICE_UNAVAILABLE') log(err); // an outage is the operator's business: logged, then 503
    if (e) return sendError(res, e);
    log(err);
    sendError(res, new AppError('INTERNAL', 'Internal server error'));
  };
}

/** The content codings an Accept-Encoding header takes (lower-cased; those refused with q=0 left out). */
export function acceptedEncodings(header: string | string[] | undefined): Set<string> {
  const value = Array.isArray(header) ? header.join(',') : (header ?? '');
  return new Set(
    value
      .split(',')
      .map((part) => part.trim().split(/\s*;\s*/))
      .filter(([name, q]) => name !== '' && (!q || !/^q=0(\.0*)?$/.test(q)))
      .map(([name]) => name.toLowerCase()),
  );
}
