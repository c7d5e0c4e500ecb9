/** Test helpers: an rng that returns given values first, and the value that draws a given weighted item. */
import type { Rng } from '../title';
import { cryptoRng } from '../rng';

export function scripted(values: readonly number[], then: Rng = cryptoRng): Rng {
  let index = 0;
  return () => (index < values.length ? values[index++]! : then());
}

/** The rng value that makes pickWeighted choose `index`. */
export function valueFor(weights: readonly number[], index: number): number {
  const total = weights.reduce((sum, weight) => sum + weight, 0);
  const before = weights.slice(0, index).reduce((sum, weight) => sum + weight, 0);
  return (before + weights[index]! / 2) / total;
}

/**
 * A fast seeded generator (sfc32) for the RTP simulations: the same draws on every run, so a
 * simulation never fails by chance, and many times faster than reading node:crypto.
 */
export function seededRng(seed: number): Rng {
  let a = 0x9e3779b9 ^ seed;
  let b = 0x243f6a88 + seed;
  let c = 0xb7e15162 ^ (seed << 7);
  let d = 1;
  const next = () => {
    const t = (((a + b) | 0) + d) | 0;
    d = (d + 1) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    c = (c + t) | 0;
    return (t >>> 0) / 4294967296;
  };
  for (let warm = 0; warm < 20; warm++) next();
  return next;
}
