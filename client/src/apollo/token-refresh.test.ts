import { AuthProvider_meDocument, ProfilePage_meDocument } from '../gql/graphql';
import { createFakeServer, deferred, gqlError, nowSeconds, sessionPayload, unauthenticated, type GraphQLBody } from '../test/fake-graphql-server';
import { createAppClient } from './client';
import { clearSession, readSession, toSession, writeSession } from './session-store';
import { createTokenManager, REFRESH_MARGIN_SECONDS, RefreshRejectedError } from './token-manager';

const meBody = (username = 'aria'): GraphQLBody => ({
  data: { me: { id: 'user-1', email: 'aria@example.com', username, createdAt: '2025-01-02T03:04:05.000Z' } },
});

function storeSession(n: number, expiresIn: number) {
  writeSession(toSession(sessionPayload(n, expiresIn)));
}

beforeEach(() => clearSession());

describe('token manager', () => {
  it('keeps the token while it has more than 300 s left', async () => {
    storeSession(1, REFRESH_MARGIN_SECONDS + 60);
    const refresh = jest.fn();
    const tokens = createTokenManager({ refresh });
    await expect(tokens.getAccessToken()).resolves.toBe('access-1');
    expect(refresh).not.toHaveBeenCalled();
  });

  it('refreshes first when the token expires within 300 s, and stores the rotated session', async () => {
    storeSession(1, REFRESH_MARGIN_SECONDS - 10);
    const refresh = jest.fn(async () => toSession(sessionPayload(2)));
    const tokens = createTokenManager({ refresh });
    await expect(tokens.getAccessToken()).resolves.toBe('access-2');
    expect(refresh).toHaveBeenCalledWith('refresh-1');
    expect(readSession()?.refreshToken).toBe('refresh-2');
  });

  it('shares one in-flight refresh between concurrent callers (a refresh token is spent once)', async () => {
    storeSession(1, 30);
    const gate = deferred<void>();
    const refresh = jest.fn(async () => {
      await gate.promise;
      return toSession(sessionPayload(2));
    });
    const tokens = createTokenManager({ refresh });
    const all = Promise.all([tokens.getAccessToken(), tokens.getAccessToken(), tokens.recoverFromUnauthenticated('access-1')]);
    gate.resolve();
    const [a, b, c] = await all;
    expect([a, b, c?.accessToken]).toEqual(['access-2', 'access-2', 'access-2']);
    expect(refresh).toHaveBeenCalledTimes(1);
  });

  it('adopts a session another tab already rotated instead of spending the old refresh token', async () => {
    storeSession(1, 3600);
    const refresh = jest.fn();
    const tokens = createTokenManager({ refresh });
    storeSession(2, 3600); // the other tab wrote localStorage
    const session = await tokens.recoverFromUnauthenticated('access-1');
    expect(session?.accessToken).toBe('access-2');
    expect(refresh).not.toHaveBeenCalled();
  });

  it('clears the session and reports the failure when the refresh is rejected', async () => {
    storeSession(1, 10);
    const onAuthFailure = jest.fn();
    const tokens = createTokenManager({
      refresh: async () => {
        throw new RefreshRejectedError();
      },
      onAuthFailure,
    });
    await expect(tokens.getAccessToken()).resolves.toBeNull();
    expect(readSession()).toBeNull();
    expect(onAuthFailure).toHaveBeenCalledTimes(1);
  });

  it('keeps a not-yet-expired token when the refresh only failed transiently (offline)', async () => {
    storeSession(1, 100);
    const onAuthFailure = jest.fn();
    const tokens = createTokenManager({
      refresh: async () => {
        throw new TypeError('Failed to fetch');
      },
      onAuthFailure,
    });
    await expect(tokens.getAccessToken()).resolves.toBe('access-1');
    expect(readSession()?.accessToken).toBe('access-1');
    expect(onAuthFailure).not.toHaveBeenCalled();
  });
});

describe('Apollo auth link (real client, scripted /graphql)', () => {
  function setup(handlers: Parameters<typeof createFakeServer>[0]) {
    const server = createFakeServer(handlers);
    const onAuthFailure = jest.fn();
    const { client } = createAppClient({ onAuthFailure, fetch: server.fetch, uri: 'http://test/graphql' });
    const queryMe = () => client.query({ query: ProfilePage_meDocument, fetchPolicy: 'network-only' });
    return { ...server, onAuthFailure, queryMe, client };
  }

  it('sends the bearer token without refreshing while the token is fresh', async () => {
    storeSession(1, 3600);
    const { calls, queryMe } = setup({ ProfilePage_me: () => meBody() });
    const result = await queryMe();
    expect(result.data?.me?.username).toBe('aria');
    expect(calls.map((c) => [c.operationName, c.authorization])).toEqual([['ProfilePage_me', 'Bearer access-1']]);
  });

  it('refreshes proactively before the request when the token expires within 300 s', async () => {
    storeSession(1, 120);
    const { calls, queryMe } = setup({
      TokenRefresh_refreshSession: (c) => {
        expect(c.variables).toEqual({ refreshToken: 'refresh-1' });
        return { data: { refreshSession: sessionPayload(2) } };
      },
      ProfilePage_me: () => meBody(),
    });
    await queryMe();
    expect(calls.map((c) => [c.operationName, c.authorization])).toEqual([
      ['TokenRefresh_refreshSession', null],
      ['ProfilePage_me', 'Bearer access-2'],
    ]);
  });

  it('after UNAUTHENTICATED: one refresh, one retry with the new token', async () => {
    storeSession(1, 3600);
    const { calls, queryMe, onAuthFailure } = setup({
      ProfilePage_me: (c) => (c.authorization === 'Bearer access-1' ? unauthenticated() : meBody('renewed')),
      TokenRefresh_refreshSession: () => ({ data: { refreshSession: sessionPayload(2) } }),
    });
    const result = await queryMe();
    expect(result.data?.me?.username).toBe('renewed');
    expect(calls.map((c) => [c.operationName, c.authorization])).toEqual([
      ['ProfilePage_me', 'Bearer access-1'],
      ['TokenRefresh_refreshSession', null],
      ['ProfilePage_me', 'Bearer access-2'],
    ]);
    expect(readSession()?.refreshToken).toBe('refresh-2');
    expect(onAuthFailure).not.toHaveBeenCalled();
  });

  it('two requests refused at once trigger a single refresh', async () => {
    storeSession(1, 3600);
    const byToken = (c: { authorization: string | null }) => (c.authorization === 'Bearer access-1' ? unauthenticated() : meBody());
    const { calls, queryMe, client } = setup({
      ProfilePage_me: byToken,
      AuthProvider_me: byToken,
      TokenRefresh_refreshSession: async () => {
        await new Promise((r) => setTimeout(r, 10));
        return { data: { refreshSession: sessionPayload(2) } };
      },
    });
    await Promise.all([queryMe(), client.query({ query: AuthProvider_meDocument, fetchPolicy: 'network-only' })]);
    expect(calls.filter((c) => c.authorization === 'Bearer access-1')).toHaveLength(2);
    expect(calls.filter((c) => c.operationName === 'TokenRefresh_refreshSession')).toHaveLength(1);
    expect(calls.filter((c) => c.authorization === 'Bearer access-2')).toHaveLength(2);
  });

  it('does not retry more than once: refused again after the refresh → session cleared, /auth', async () => {
    storeSession(1, 3600);
    const { calls, queryMe, onAuthFailure } = setup({
      ProfilePage_me: () => unauthenticated(),
      TokenRefresh_refreshSession: () => ({ data: { refreshSession: sessionPayload(2) } }),
    });
    await expect(queryMe()).rejects.toThrow('Not signed in');
    expect(calls.map((c) => c.operationName)).toEqual(['ProfilePage_me', 'TokenRefresh_refreshSession', 'ProfilePage_me']);
    expect(readSession()).toBeNull();
    expect(onAuthFailure).toHaveBeenCalledTimes(1);
  });

  it('when the refresh fails: the session is cleared and the app is sent to /auth', async () => {
    storeSession(1, 3600);
    const { calls, queryMe, onAuthFailure } = setup({
      ProfilePage_me: () => unauthenticated(),
      TokenRefresh_refreshSession: () => gqlError('UNAUTHENTICATED', 'Refresh token revoked'),
    });
    await expect(queryMe()).rejects.toThrow('Not signed in');
    expect(calls.map((c) => c.operationName)).toEqual(['ProfilePage_me', 'TokenRefresh_refreshSession']);
    expect(readSession()).toBeNull();
    expect(onAuthFailure).toHaveBeenCalledTimes(1);
  });

  it('anonymous requests carry no token and are never refreshed', async () => {
    const { calls, queryMe, onAuthFailure } = setup({ ProfilePage_me: () => ({ data: { me: null } }) });
    const result = await queryMe();
    expect(result.data?.me).toBeNull();
    expect(calls).toEqual([{ operationName: 'ProfilePage_me', variables: {}, authorization: null }]);
    expect(onAuthFailure).not.toHaveBeenCalled();
    expect(nowSeconds()).toBeGreaterThan(0);
  });
});
