import { ApolloLink } from '@apollo/client/link';
import { from, mergeMap, Observable, of, tap, catchError, throwError } from 'rxjs';
import { errorIsUnauthenticated, resultIsUnauthenticated } from './graphql-errors';
import type { TokenManager } from './token-manager';

declare module '@apollo/client' {
  interface DefaultContext {
    /** Send the request without a bearer token and without refresh handling (sign in / sign up). */
    skipAuth?: boolean;
    /** Send this bearer token as is, without refresh handling: the second step of an MFA sign-in. */
    bearer?: string;
  }
}

function withToken(operation: ApolloLink.Operation, token: string | null): ApolloLink.Operation {
  operation.setContext(({ headers }) => {
    const next: Record<string, string> = { ...(headers as Record<string, string> | undefined) };
    if (token) next.authorization = `Bearer ${token}`;
    else delete next.authorization;
    return { headers: next };
  });
  return operation;
}

/**
 * Attaches `Authorization: Bearer …` (refreshing first when the token expires within 5 minutes) and,
 * when the server answers UNAUTHENTICATED, refreshes once and retries once. If the refresh fails, or
 * the retry is refused again, the session is cleared and the token manager reports the auth failure
 * (the app then navigates to /auth).
 */
export function createAuthLink(tokens: TokenManager): ApolloLink {
  return new ApolloLink((operation, forward) => {
    const context = operation.getContext();
    if (context.bearer) return forward(withToken(operation, context.bearer));
    if (context.skipAuth) return forward(withToken(operation, null));

    const retry = (usedToken: string, original: Observable<ApolloLink.Result>) =>
      from(tokens.recoverFromUnauthenticated(usedToken)).pipe(
        mergeMap((session) => {
          if (!session) return original; // session gone; the auth failure has been reported
          return forward(withToken(operation, session.accessToken)).pipe(
            tap({
              next: (result) => {
                if (resultIsUnauthenticated(result)) tokens.fail();
              },
              error: (error: unknown) => {
                if (errorIsUnauthenticated(error)) tokens.fail();
              },
            }),
          );
        }),
      );

    return from(tokens.getAccessToken()).pipe(
      mergeMap((token) => {
        let first = true;
        return forward(withToken(operation, token)).pipe(
          mergeMap((result) => {
            const isFirst = first;
            first = false;
            if (token && isFirst && resultIsUnauthenticated(result)) return retry(token, of(result));
            return of(result);
          }),
          catchError((error: unknown) => {
            if (token && first && errorIsUnauthenticated(error)) {
              first = false;
              return retry(
                token,
                throwError(() => error),
              );
            }
            return throwError(() => error);
          }),
        );
      }),
    );
  });
}
