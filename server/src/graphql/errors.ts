import { GraphQLError, type GraphQLFormattedError } from 'graphql';
import type { ApolloServerPlugin } from '@apollo/server';
import { unwrapResolverError } from '@apollo/server/errors';
import { isAppError } from '../common/app-error';
import { databaseUnavailable, isDatabaseUnavailable } from '../common/db-errors';
import { EDGE_TEXT_MESSAGE } from '../common/edge-text';
import { outageCause } from '../common/http';
import { noteRequestCause } from '../common/logger';

/** Codes Apollo itself produces for bad requests; their messages are safe and useful to clients. */
const APOLLO_CLIENT_CODES = new Set([
  'GRAPHQL_PARSE_FAILED',
  'GRAPHQL_VALIDATION_FAILED',
  'BAD_USER_INPUT',
  'BAD_REQUEST',
  'OPERATION_RESOLUTION_FAILURE',
  'PERSISTED_QUERY_NOT_FOUND',
  'PERSISTED_QUERY_NOT_SUPPORTED',
]);

/** What graphql-js says when an argument's value cannot be used (getArgumentValues). */
const ARGUMENT_COERCION = /^Argument "[^"]+" (of non-null type|of required type|has invalid value)/;

/**
 * Our AppErrors pass with their code and message; request errors from Apollo keep theirs; anything
 * else is logged and masked, so internals (SQL, stack traces) never reach a client.
 */
export function formatError(formatted: GraphQLFormattedError, error: unknown, log: (e: unknown) => void = console.error): GraphQLFormattedError {
  const original = unwrapResolverError(error);
  if (isAppError(original)) {
    return {
      message: original.message,
      locations: formatted.locations,
      path: formatted.path,
      extensions: { code: original.code, ...(original.details ?? {}) },
    };
  }
  // graphql-js's own argument coercion at execution (an explicit null for an argument with a default,
  // a variable that holds nothing): the caller's mistake, said as it is.
  if (original instanceof GraphQLError && !original.originalError && ARGUMENT_COERCION.test(original.message)) {
    return { message: original.message, locations: formatted.locations, path: formatted.path, extensions: { code: 'BAD_USER_INPUT' } };
  }
  // The edge rule's literal check runs as a validation rule, whose code Apollo sets: it is bad input all the same.
  if (formatted.message === EDGE_TEXT_MESSAGE) {
    return { message: formatted.message, locations: formatted.locations, path: formatted.path, extensions: { code: 'BAD_USER_INPUT' } };
  }
  const code = formatted.extensions?.code;
  if (typeof code === 'string' && APOLLO_CLIENT_CODES.has(code)) {
    return { message: formatted.message, locations: formatted.locations, path: formatted.path, extensions: { code } };
  }
  if (isDatabaseUnavailable(original) || formatted.extensions?.code === 'SERVICE_UNAVAILABLE') {
    // An outage is the operator's business: said once on the request's access line (logged here when
    // there is none, as on a WebSocket), and the client told when to retry.
    const cause = (original as { originalError?: unknown } | null)?.originalError ?? original;
    if (!noteRequestCause(outageCause(cause))) log(original);
    const e = databaseUnavailable();
    return { message: e.message, path: formatted.path, extensions: { code: e.code, ...e.details } };
  }
  // Apollo marks some request errors only with an HTTP 4xx (an APQ hash that does not match its query
  // has no code): the client's mistake, so its message and a client code, not a logged INTERNAL.
  const status = (original as { extensions?: { http?: { status?: unknown } } } | null)?.extensions?.http?.status;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    return { message: formatted.message, locations: formatted.locations, path: formatted.path, extensions: { code: 'BAD_USER_INPUT' } };
  }
  log(original);
  return { message: 'Internal server error', path: formatted.path, extensions: { code: 'INTERNAL' } };
}

/**
 * A rate-limited (or database-unavailable) GraphQL answer keeps HTTP 200 (its errors are per field)
 * but carries `Retry-After` like the REST one, so clients and proxies can back off without parsing it.
 */
export const retryAfterPlugin: ApolloServerPlugin = {
  async requestDidStart() {
    return {
      async willSendResponse({ response }) {
        if (response.body.kind !== 'single') return;
        let wait = 0;
        for (const e of response.body.singleResult.errors ?? []) {
          const s = e.extensions?.retryAfterSeconds;
          if ((e.extensions?.code === 'RATE_LIMITED' || e.extensions?.code === 'SERVICE_UNAVAILABLE') && typeof s === 'number')
            wait = Math.max(wait, Math.ceil(s));
        }
        if (wait > 0) response.http.headers.set('retry-after', String(wait));
      },
    };
  },
};
