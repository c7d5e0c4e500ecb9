/**
 * Random bytes for the per-request values every answer makes (the CSP nonce, a new visitor's id)
 * drawn from one buffer the CSPRNG fills a few kilobytes at a time: asking the CSPRNG for 16–18
 * bytes on every request was a twentieth of account.getInfo's CPU (issue 12). Node's randomUUID
 * keeps such a cache for the same reason. Each byte is handed out once.
 */
import { randomFillSync } from 'node:crypto';

const POOL_BYTES = 4096;

const pool = Buffer.alloc(POOL_BYTES);
let offset = POOL_BYTES;

/** `size` fresh random bytes (at most the pool's size), as a Buffer of its own. */
export function pooledRandomBytes(size: number): Buffer {
  if (size > POOL_BYTES) throw new RangeError(`at most ${POOL_BYTES} pooled random bytes at once`);
  if (offset + size > POOL_BYTES) {
    randomFillSync(pool);
    offset = 0;
  }
  const bytes = Buffer.from(pool.subarray(offset, offset + size));
  offset += size;
  return bytes;
}
