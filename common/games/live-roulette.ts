/**
 * Live roulette: one shared wheel spun on a schedule for every player at the table. Its rules,
 * payouts and RTP (97.30 %) are European roulette's (roulette.ts); only the seeds differ: a
 * shared spin cannot take each player's client seed, so a spin reads the stream of the table's
 * round (its server seed committed before betting opens, a public client seed, the round number
 * as nonce). The schedule (betting window, spin, results) is the server's; this is the outcome.
 */
import type { Rng } from './fair';
import {
  pocketColor,
  settleRoulette,
  spinRoulettePocket,
  validateRouletteBets,
  type PocketColor,
  type RouletteBet,
  type RouletteOutcome,
} from './roulette';

export interface LiveRouletteSpin {
  pocket: number;
  color: PocketColor;
}

/** The table's spin: one draw, uniformInt(37), as in roulette.ts. */
export function spinLiveRoulette(rng: Rng): LiveRouletteSpin {
  const pocket = spinRoulettePocket(rng);
  return { pocket, color: pocketColor(pocket) };
}

/** One player's bets at the table, checked when placed, before the wheel spins. */
export function validateLiveRouletteBets(bets: readonly RouletteBet[]): void {
  validateRouletteBets(bets);
}

/** One player's bets against the shared spin. */
export function settleLiveRoulette(bets: readonly RouletteBet[], spin: LiveRouletteSpin): RouletteOutcome {
  return settleRoulette(bets, spin.pocket);
}
