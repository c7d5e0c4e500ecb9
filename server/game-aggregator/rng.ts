/**
 * The aggregator's own RNG: uniform doubles in [0, 1) from node:crypto, 48 random bits each,
 * read from a pool of random bytes so a slot's many draws cost one system call per 680 of them.
 */
import { randomFillSync } from 'node:crypto';
import type { Rng } from './title';

const POOL = Buffer.alloc(4096 - (4096 % 6));
let offset = POOL.length;

export const cryptoRng: Rng = () => {
  if (offset >= POOL.length) {
    randomFillSync(POOL);
    offset = 0;
  }
  const value = POOL.readUIntBE(offset, 6);
  offset += 6;
  return value / 2 ** 48;
};
