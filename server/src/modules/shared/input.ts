/**
 * Input rules shared by every service. Services take `unknown` from both surfaces (GraphQL already
 * checked scalar types; REST has checked nothing), so each value is type-checked here before it is
 * used, and every refusal is a BAD_USER_INPUT naming its field.
 */
import { AppError } from '../../common/app-error';

// PostgreSQL cannot store NUL in text/jsonb (it would surface as a 500), and other control
// characters have no business in prose; newlines and tabs are fine.
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/;
// Markup-looking text ("<script", "</div", "<!--", "<img") is refused rather than stored: every
// page renders these fields as text, but a field that can never hold markup can never leak it into
// a third-party client that renders HTML. A lone "<" in prose ("a < b") is still fine.
const MARKUP = /<\/?[a-z!?]/i;
// Names: letters and digits of any script, spaces and a little punctuation (a superset of what
// account usernames allow, since a character may be named after its player); no semicolons,
// braces, quotes-as-code or markup.
const NAME = /^[\p{L}\p{N}\p{M}](?:[\p{L}\p{N}\p{M} _'’.,:!?&()#-]*[\p{L}\p{N}\p{M}.!?)])?$/u;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Length as PostgreSQL's char_length counts it (code points), so our limits and the CHECKs agree. */
export function charLength(s: string): number {
  let n = 0;
  for (const _ of s) n++;
  return n;
}

export interface TextRule {
  /** Message when missing or blank (SPEC wording where the SPEC has one). */
  required?: string;
  max: number;
  /** Message when over max; default "<field> must be at most <max> characters." */
  tooLong?: string;
  /** Names are one line with a restricted alphabet. */
  name?: boolean;
}

/** A trimmed string; '' when optional and absent/blank. */
export function text(value: unknown, field: string, rule: TextRule): string {
  if (value === undefined || value === null) {
    if (rule.required) throw AppError.badInput(rule.required, field);
    return '';
  }
  if (typeof value !== 'string') throw AppError.badInput(`${field} must be a string.`, field);
  const s = value.trim();
  if (s === '') {
    if (rule.required) throw AppError.badInput(rule.required, field);
    return '';
  }
  if (charLength(s) > rule.max) throw AppError.badInput(rule.tooLong ?? `${field} must be at most ${rule.max} characters.`, field);
  if (CONTROL.test(s)) throw AppError.badInput(`${field} contains control characters.`, field);
  if (MARKUP.test(s)) throw AppError.badInput(`${field} must be plain text, not HTML.`, field);
  if (rule.name) {
    const one = s.replace(/\s+/g, ' ');
    if (!NAME.test(one)) throw AppError.badInput(`${field} may contain letters, numbers, spaces and _ . , : ! ? & ( ) # ' - only.`, field);
    return one;
  }
  return s;
}

/** A list of strings (each checked by `rule`), at most `maxItems` long. Blank entries stay ''. */
export function textList(value: unknown, field: string, maxItems: number, rule: Omit<TextRule, 'required'>): string[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw AppError.badInput(`${field} must be a list of strings.`, field);
  if (value.length > maxItems) throw AppError.badInput(`${field} may have at most ${maxItems} entries.`, field);
  return value.map((v) => {
    if (typeof v !== 'string') throw AppError.badInput(`${field} must be a list of strings.`, field);
    return text(v, field, rule);
  });
}

export function bool(value: unknown, field: string): boolean {
  if (typeof value !== 'boolean') throw AppError.badInput(`${field} must be true or false.`, field);
  return value;
}

export function int(value: unknown, field: string, min: number, max: number): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    throw AppError.badInput(`${field} must be a whole number between ${min} and ${max}.`, field);
  }
  return value;
}

/** Ids that are not UUIDs cannot exist: they answer NOT_FOUND like any unknown id (no probing). */
export function isUuid(value: unknown): value is string {
  return typeof value === 'string' && UUID.test(value);
}

export function object(value: unknown, field: string): Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw AppError.badInput(`${field} must be an object.`, field);
  return value as Record<string, unknown>;
}

/** REST sends lists inside form fields and query strings as JSON text (SPEC §7). */
export function jsonList(value: unknown, field: string): unknown {
  if (value === undefined || value === null || value === '') return [];
  if (Array.isArray(value)) return value;
  if (typeof value !== 'string') throw AppError.badInput(`${field} must be a JSON list.`, field);
  try {
    const parsed: unknown = JSON.parse(value);
    if (!Array.isArray(parsed)) throw new Error('not a list');
    return parsed;
  } catch {
    throw AppError.badInput(`${field} must be a JSON list of strings.`, field);
  }
}
