/**
 * Streams for tests: given draws first, so a test can put chosen symbols on the reels or cards in
 * the shoe, then (optionally) the fair stream. A draw d below the rejection limit makes
 * uniformInt(n) return d mod n, so a draw of s picks stop s on a strip longer than s.
 */
import { createFairRng, type Rng } from './fair';

export interface ScriptedRng extends Rng {
  /** How many draws were taken. */
  readonly taken: number;
}

export function scriptedRng(draws: readonly number[], then?: Rng): ScriptedRng {
  let taken = 0;
  return {
    nextUint32() {
      const draw = taken < draws.length ? draws[taken] : then?.nextUint32();
      if (draw === undefined) throw new Error('the script ran out of draws');
      taken++;
      return draw;
    },
    get taken() {
      return taken;
    },
  };
}

/** The given draws, then a fair stream of fixed test seeds. */
export function scriptedThenFair(draws: readonly number[], nonce = 0): ScriptedRng {
  return scriptedRng(draws, createFairRng({ serverSeed: 'scripted-then-fair', clientSeed: 'test', nonce }));
}
