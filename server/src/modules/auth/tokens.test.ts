import jwt from 'jsonwebtoken';
import { AccessTokens } from './tokens';

describe('AccessTokens.verify', () => {
  const claims = { sub: 'user-1', sid: 'session-1', email: 'a@example.com', username: 'A' };

  it('a token verified once stays valid only until its expiry, even when remembered', () => {
    const tokens = new AccessTokens('s'.repeat(48), 60);
    const now = Math.floor(Date.now() / 1000);
    const { token } = tokens.sign(claims, now);
    expect(tokens.verify(token, now * 1000)).toEqual({ userId: 'user-1', sessionId: 'session-1' });
    expect(tokens.verify(token, (now + 59) * 1000)).toEqual({ userId: 'user-1', sessionId: 'session-1' });
    expect(tokens.verify(token, (now + 60) * 1000)).toBeNull();
  });

  it('only the byte-identical token hits what was remembered: a tampered or foreign one is checked and refused', () => {
    const tokens = new AccessTokens('s'.repeat(48), 60);
    const { token } = tokens.sign(claims);
    expect(tokens.verify(token)).not.toBeNull();
    const [h, , sig] = token.split('.');
    const forged = `${h}.${Buffer.from(JSON.stringify({ sub: 'user-2', session_id: 'session-2', exp: 9e9 })).toString('base64url')}.${sig}`;
    expect(tokens.verify(forged)).toBeNull();
    const foreign = jwt.sign({ sub: 'user-1', session_id: 'session-1' }, 'another secret of enough length', {
      algorithm: 'HS256',
      expiresIn: 60,
      issuer: 'taleforge',
      audience: 'authenticated',
    });
    expect(tokens.verify(foreign)).toBeNull();
  });
});
