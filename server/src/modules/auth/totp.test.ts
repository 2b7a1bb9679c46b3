import { base32Decode, base32Encode, matchTotp, totpCode, totpStep } from './totp';

// RFC 6238 appendix B (SHA-1 seed "12345678901234567890"), last 6 of the 8 digits.
const SEED = base32Encode(Buffer.from('12345678901234567890'));

describe('TOTP', () => {
  it('matches the RFC 6238 test vectors', () => {
    expect(totpCode(SEED, 59_000)).toBe('287082');
    expect(totpCode(SEED, 1111111109_000)).toBe('081804');
    expect(totpCode(SEED, 1234567890_000)).toBe('005924');
    expect(totpCode(SEED, 2000000000_000)).toBe('279037');
  });

  it('base32 round-trips and reads the spaced, lower-case form apps show', () => {
    expect(base32Decode(SEED).toString()).toBe('12345678901234567890');
    expect(base32Decode(SEED.toLowerCase().replace(/(.{4})/g, '$1 ')).toString()).toBe('12345678901234567890');
  });

  it('accepts one step of drift either side, never a step already used, never a malformed code', () => {
    const now = 1234567890_000;
    const step = totpStep(now);
    expect(matchTotp(SEED, totpCode(SEED, now), null, now)).toBe(step);
    expect(matchTotp(SEED, totpCode(SEED, now - 30_000), null, now)).toBe(step - 1);
    expect(matchTotp(SEED, totpCode(SEED, now + 30_000), null, now)).toBe(step + 1);
    expect(matchTotp(SEED, totpCode(SEED, now - 60_000), null, now)).toBeNull();
    expect(matchTotp(SEED, totpCode(SEED, now), step, now)).toBeNull();
    expect(matchTotp(SEED, '12345', null, now)).toBeNull();
    expect(matchTotp(SEED, 'abcdef', null, now)).toBeNull();
  });
});
