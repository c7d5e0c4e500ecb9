/**
 * The pooled random bytes behind the CSP nonce and the visitor id (issue 12): fresh bytes every
 * time, across the pool's refills, each call its own copy.
 */
import { describe, expect, it } from 'vitest';
import { pooledRandomBytes } from './random-pool';

describe('pooled random bytes', () => {
  it('hands out each draw once: 2 000 nonces across several refills of the pool are all different', () => {
    const drawn = Array.from({ length: 2_000 }, () => pooledRandomBytes(18).toString('base64'));
    expect(drawn.every((value) => Buffer.from(value, 'base64').length === 18)).toBe(true);
    expect(new Set(drawn).size).toBe(drawn.length);
  });

  it('gives each caller a copy: changing one draw changes no later draw', () => {
    const first = pooledRandomBytes(16);
    first.fill(0);
    const next = Array.from({ length: 300 }, () => pooledRandomBytes(16));
    expect(next.some((bytes) => bytes.equals(Buffer.alloc(16)))).toBe(false);
  });

  it('spreads its bytes over every value: no byte value is missing from 64 KB of draws', () => {
    const seen = new Set<number>();
    for (let draw = 0; draw < 4_096; draw++) for (const byte of pooledRandomBytes(16)) seen.add(byte);
    expect(seen.size).toBe(256);
  });

  it('refuses a draw larger than the pool', () => {
    expect(() => pooledRandomBytes(5_000)).toThrow(RangeError);
  });
});
