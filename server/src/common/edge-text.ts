import { AppError } from './app-error';

/**
 * The one rule every input meets at the edge, on every surface (REST bodies and query strings,
 * GraphQL literals and variables over HTTP and WebSocket): no NUL character (PostgreSQL cannot store
 * it in text or jsonb) and no unpaired surrogate (it is not text: encoders replace or refuse it).
 * Either is the caller's mistake, answered 400 / BAD_USER_INPUT before any service sees it.
 */
export const EDGE_TEXT_MESSAGE = 'Text must not contain NUL characters or unpaired surrogates.';

const BAD = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export function badText(s: string): boolean {
  return BAD.test(s);
}

/** Deeper than this, a JSON value is walked no further (the body limits bound its size anyway). */
const MAX_DEPTH = 64;

/** Where in `value` (keys included) the first bad text is, as a dotted path; null when there is none. */
export function findBadText(value: unknown, path = '', depth = 0): string | null {
  if (typeof value === 'string') return badText(value) ? path || '(value)' : null;
  if (value === null || typeof value !== 'object' || depth > MAX_DEPTH) return null;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = findBadText(value[i], `${path}[${i}]`, depth + 1);
      if (found) return found;
    }
    return null;
  }
  for (const [k, v] of Object.entries(value)) {
    const here = path ? `${path}.${k}` : k;
    if (badText(k)) return here;
    const found = findBadText(v, here, depth + 1);
    if (found) return found;
  }
  return null;
}

export function edgeTextError(field: string): AppError {
  return AppError.badInput(EDGE_TEXT_MESSAGE, field);
}
