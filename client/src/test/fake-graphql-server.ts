/**
 * A scripted stand-in for the /graphql endpoint, used as the `fetch` of the real Apollo client and of
 * the refresh request. Each operation name gets a handler; every call is recorded with the bearer
 * token it carried, so tests can assert exactly what went over the wire.
 */
interface RecordedCall {
  operationName: string;
  variables: Record<string, unknown>;
  authorization: string | null;
}

export type GraphQLBody = { data?: unknown; errors?: Array<{ message: string; extensions?: { code: string; [k: string]: unknown } }> };
export type Handler = (call: RecordedCall) => GraphQLBody | Promise<GraphQLBody> | { networkError: true };

export function unauthenticated(message = 'Not signed in'): GraphQLBody {
  return { data: null, errors: [{ message, extensions: { code: 'UNAUTHENTICATED' } }] };
}

export function gqlError(code: string, message: string, extensions: Record<string, unknown> = {}): GraphQLBody {
  return { data: null, errors: [{ message, extensions: { ...extensions, code } }] };
}

function fakeResponse(body: unknown, status = 200) {
  const text = JSON.stringify(body);
  return {
    ok: status >= 200 && status < 300,
    status,
    headers: { get: (name: string) => (name.toLowerCase() === 'content-type' ? 'application/json' : null) },
    text: async () => text,
    json: async () => JSON.parse(text),
  } as unknown as Response;
}

export function createFakeServer(handlers: Record<string, Handler>) {
  const calls: RecordedCall[] = [];
  const fetch = jest.fn(async (_url: RequestInfo | URL, init?: RequestInit) => {
    const body = JSON.parse(String(init?.body)) as { operationName: string; variables?: Record<string, unknown> };
    const headers = (init?.headers ?? {}) as Record<string, string>;
    const call: RecordedCall = {
      operationName: body.operationName,
      variables: body.variables ?? {},
      authorization: headers.authorization ?? headers.Authorization ?? null,
    };
    calls.push(call);
    const handler = handlers[body.operationName];
    if (!handler) throw new Error(`Unexpected operation ${body.operationName}`);
    const result = await handler(call);
    if ('networkError' in result) throw new TypeError('Failed to fetch');
    return fakeResponse(result);
  });
  return { fetch: fetch as unknown as typeof globalThis.fetch, calls, mock: fetch };
}

export const nowSeconds = () => Math.floor(Date.now() / 1000);

/**
 * An AuthSession as the server answers it, __typename included: Apollo Client adds __typename to
 * every selection it sends, and returns a fragment's fields (the operations select the session
 * through AuthSessionFields) only for an object whose __typename matches the fragment's type —
 * without it, `data.signUp` would come back as `{}`.
 */
export function sessionPayload(n: number, expiresInSeconds = 3600, username = 'aria') {
  return {
    __typename: 'AuthSession',
    accessToken: `access-${n}`,
    refreshToken: `refresh-${n}`,
    expiresAt: nowSeconds() + expiresInSeconds,
    expiresIn: expiresInSeconds,
    tokenType: 'bearer',
    user: { __typename: 'User', id: 'user-1', email: 'aria@example.com', username, createdAt: '2025-01-02T03:04:05.000Z' },
  };
}

/** A promise with its resolve function exposed, to hold a response until the test releases it. */
export function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}
