import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { base32Decode, base32Encode, hotp, matchTotp, totpCode, TOTP_STEP_S } from './totp';

// RFC 6238 appendix B: the SHA-1 seed "12345678901234567890"; 8-digit values, of which the
// last 6 digits are the 6-digit code.
const RFC_SECRET = base32Encode(Buffer.from('12345678901234567890'));
const RFC_VECTORS: [number, string][] = [
  [59, '94287082'],
  [1111111109, '07081804'],
  [1111111111, '14050471'],
  [1234567890, '89005924'],
  [2000000000, '69279037'],
];

describe('TOTP (RFC 6238, architecture §4: 30 s steps)', () => {
  it('matches the RFC test vectors', () => {
    for (const [seconds, eight] of RFC_VECTORS) expect(totpCode(RFC_SECRET, seconds * 1000)).toBe(eight.slice(-6));
  });
  it('round-trips base32', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 1, maxLength: 40 }), (bytes) => {
        expect([...base32Decode(base32Encode(bytes))]).toEqual([...bytes]);
      }),
    );
  });
  it('accepts one step of drift either way and nothing further', () => {
    const now = 1_800_000_000_000;
    const step = Math.floor(now / 1000 / TOTP_STEP_S);
    expect(matchTotp(RFC_SECRET, hotp(RFC_SECRET, step - 1), now, null)).toBe(step - 1);
    expect(matchTotp(RFC_SECRET, hotp(RFC_SECRET, step + 1), now, null)).toBe(step + 1);
    expect(matchTotp(RFC_SECRET, hotp(RFC_SECRET, step - 2), now, null)).toBeNull();
  });
  it('a code works once: the same or an earlier step is refused after use', () => {
    const now = 1_800_000_000_000;
    const code = totpCode(RFC_SECRET, now);
    const used = matchTotp(RFC_SECRET, code, now, null);
    expect(used).not.toBeNull();
    expect(matchTotp(RFC_SECRET, code, now, used)).toBeNull();
    expect(matchTotp(RFC_SECRET, 'abcdef', now, null)).toBeNull();
  });
});
