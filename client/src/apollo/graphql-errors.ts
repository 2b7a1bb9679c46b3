import { CombinedGraphQLErrors, ServerError } from '@apollo/client/errors';

interface ErrorWithExtensions {
  message?: string;
  extensions?: Record<string, unknown> | null;
}

function codesOf(errors: ReadonlyArray<ErrorWithExtensions> | undefined): string[] {
  return (errors ?? []).map((e) => String(e.extensions?.code ?? ''));
}

/** The first `extensions.code` of an Apollo error (GraphQL errors, or a non-2xx body with errors). */
export function errorCode(error: unknown): string | undefined {
  if (CombinedGraphQLErrors.is(error)) return codesOf(error.errors)[0];
  if (ServerError.is(error)) {
    if (error.statusCode === 401) return 'UNAUTHENTICATED';
    try {
      const body = JSON.parse(error.bodyText) as { errors?: ErrorWithExtensions[] };
      return codesOf(body.errors)[0];
    } catch {
      return undefined;
    }
  }
  return undefined;
}

/** What the player can do about a failed generation (`extensions.hint`), if the server said. */
export function errorHint(error: unknown): string | undefined {
  if (!CombinedGraphQLErrors.is(error)) return undefined;
  const hint = error.errors[0]?.extensions?.hint;
  return typeof hint === 'string' && hint ? hint : undefined;
}

/** A failure message with the server's hint after it: "Failed to … Please try again. The storyteller is busy; …" */
export function withHint(message: string, hint: string | null | undefined): string {
  return hint ? `${message} ${hint}` : message;
}

/** The first GraphQL error's `extensions.reason` (what exactly was refused), if the server said. */
export function errorReason(error: unknown): string | undefined {
  if (!CombinedGraphQLErrors.is(error)) return undefined;
  const reason = error.errors[0]?.extensions?.reason;
  return typeof reason === 'string' ? reason : undefined;
}

/** The server's human message of the first GraphQL error, if any. */
export function errorMessage(error: unknown): string | undefined {
  if (CombinedGraphQLErrors.is(error)) return error.errors[0]?.message;
  return undefined;
}

export function resultIsUnauthenticated(result: { errors?: ReadonlyArray<ErrorWithExtensions> }): boolean {
  return codesOf(result.errors).includes('UNAUTHENTICATED');
}

export function errorIsUnauthenticated(error: unknown): boolean {
  if (ServerError.is(error) && error.statusCode === 401) return true;
  return errorCode(error) === 'UNAUTHENTICATED';
}
