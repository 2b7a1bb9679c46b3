import type { Request } from 'express';
import { AppError } from '../../common/app-error';
import { bearerToken } from '../../graphql/context';
import type { AuthUser } from '../auth/auth.service';
import type { Services } from '../../services';

/** The signed-in caller of a REST adapter, or UNAUTHENTICATED (401). */
export async function restUser(services: Services, req: Request): Promise<AuthUser> {
  const user = await services.auth.authenticate(bearerToken(req.headers.authorization));
  if (!user) throw AppError.unauthenticated();
  return user;
}

/** Public reads: the caller when signed in, else null. */
export async function optionalRestUser(services: Services, req: Request): Promise<AuthUser | null> {
  return services.auth.authenticate(bearerToken(req.headers.authorization));
}

/** The JSON object body of a request (absent body → {}); arrays and scalars are refused. */
export function body(req: Request): Record<string, unknown> {
  const b: unknown = req.body;
  if (b === undefined || b === null) return {};
  if (typeof b !== 'object' || Array.isArray(b)) throw AppError.badInput('Expected a JSON object body.');
  return b as Record<string, unknown>;
}

/** One query-string value: repeated parameters are refused rather than guessed at. */
export function queryValue(req: Request, name: string): string | undefined {
  const v = req.query[name];
  if (v === undefined) return undefined;
  if (typeof v !== 'string') throw AppError.badInput(`${name} must be given once, as text.`, name);
  return v;
}

export function isoDate(d: Date | null | undefined): string | null {
  return d ? d.toISOString() : null;
}
