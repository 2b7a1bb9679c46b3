import express, { type ErrorRequestHandler, type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import { AppError, httpStatusFor, isAppError } from './app-error';
import { databaseUnavailable, isDatabaseUnavailable } from './db-errors';
import { edgeTextError, findBadText } from './edge-text';
import { noteRequestCause } from './logger';
import type { RequestMeta } from '../modules/auth/auth.service';

export function requestMeta(req: Request): RequestMeta {
  const ua = req.headers['user-agent'];
  const origin = req.headers.origin;
  return { ip: req.ip, userAgent: typeof ua === 'string' ? ua : undefined, origin: typeof origin === 'string' ? origin : undefined };
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
  // express's own HTTP errors (a file not found by sendFile or static) keep their 4xx meaning.
  const status = (err as { status?: unknown; statusCode?: unknown } | null)?.status ?? (err as { statusCode?: unknown } | null)?.statusCode;
  if (status === 404) return new AppError('NOT_FOUND', 'Not found');
  if (typeof status === 'number' && status >= 400 && status < 500 && status !== 401 && status !== 403)
    return new AppError(status === 413 ? 'PAYLOAD_TOO_LARGE' : 'BAD_USER_INPUT', 'Bad request.');
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
    // An outage is the operator's business: said on the request's access line (or logged here when
    // there is none), then 503.
    if (isDatabaseUnavailable(err) && !noteRequestCause(outageCause(err))) log(err);
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

/**
 * The edge rule for REST (common/edge-text.ts): the query string and the parsed body hold no NUL and
 * no unpaired surrogate. After the body parser (JSON, or multer's fields); errors go to the router's
 * own error handler, so each API answers in its own shape.
 */
export function edgeText(req: Request, _res: Response, next: NextFunction): void {
  const bad = findBadText(req.query, 'query') ?? findBadText(req.body);
  next(bad ? edgeTextError(bad) : undefined);
}

/** A REST router's JSON body parser followed by the edge rule. */
export function jsonBody(limitBytes: number): RequestHandler[] {
  return [express.json({ limit: limitBytes }), edgeText];
}

/** What the access line says of an outage: the database's own words. */
export function outageCause(err: unknown): string {
  return `database unavailable: ${err instanceof Error ? err.message : String(err)}`;
}
