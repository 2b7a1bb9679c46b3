import express from 'express';
import { Kind, parse, type OperationDefinitionNode } from 'graphql';
import { AppError } from '../common/app-error';

/** The mutations whose variables carry an image or a card PNG as a data URL (≤ 5 MB decoded). */
const UPLOAD_FIELDS = new Set(['submitWorld', 'importCharacterCard']);

export interface GraphQLBodyOptions {
  /** Every /graphql body: small enough that parsing and coercing it never stalls the event loop. */
  limitBytes: number;
  /** Bodies of signed-in players' upload operations (UPLOAD_FIELDS) may be this large. */
  uploadLimitBytes: number;
  /** Cheap signature-only check of an Authorization header: is this a signed-in player? */
  signedIn: (authorization: string | undefined) => boolean;
}

/**
 * express.json for /graphql, in two sizes. Who asks decides before a byte is read: anonymous callers
 * (and bad tokens) get the small limit, so their large bodies are refused from Content-Length alone
 * (413) without being parsed. Signed-in players may send up to the upload limit, but a body past the
 * small limit must be an upload operation, checked right after parsing and before Apollo coerces its
 * variables (the costly part).
 */
export function graphqlBodyParser(o: GraphQLBodyOptions): express.RequestHandler[] {
  const remember: Parameters<typeof express.json>[0] = {
    verify: (req, _res, buf) => {
      (req as { bodyBytes?: number }).bodyBytes = buf.length;
    },
  };
  const small = express.json({ ...remember, limit: o.limitBytes });
  const large = express.json({ ...remember, limit: o.uploadLimitBytes });
  return [
    (req, res, next) => (o.signedIn(req.headers.authorization) ? large : small)(req, res, next),
    (req, _res, next) => {
      const bytes = (req as { bodyBytes?: number }).bodyBytes ?? 0;
      if (bytes <= o.limitBytes || isUpload(req.body)) return next();
      next(
        new AppError(
          'PAYLOAD_TOO_LARGE',
          `Request body is too large: only world images and character cards may exceed ${Math.round(o.limitBytes / 1024)} KiB.`,
        ),
      );
    },
  ];
}

/** Whether the request's operation selects only upload fields at its root (a mutation). */
function isUpload(body: unknown): boolean {
  const b = body as { query?: unknown; operationName?: unknown } | null;
  if (!b || typeof b.query !== 'string' || b.query.length > 10_000) return false;
  try {
    const ops = parse(b.query, { maxTokens: 500 }).definitions.filter((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION);
    const op = typeof b.operationName === 'string' ? ops.find((d) => d.name?.value === b.operationName) : ops.length === 1 ? ops[0] : undefined;
    if (!op || op.operation !== 'mutation') return false;
    return op.selectionSet.selections.every((s) => s.kind === Kind.FIELD && UPLOAD_FIELDS.has(s.name.value));
  } catch {
    return false;
  }
}
