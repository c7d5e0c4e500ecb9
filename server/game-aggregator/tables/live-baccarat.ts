/**
 * LiveWave "Live Baccarat": the punto banco of baccarat-rules.ts dealt once per round for the
 * whole table. Each bet names one spot (player, banker, tie, playerPair, bankerPair).
 */
import type { SharedTable } from '../title';
import { BACCARAT_SPOTS, drawCoup, isBaccaratSpot, isCoup, settleBaccaratSpot } from './baccarat-rules';
import { LIVE_BETTING_MS, LIVE_RESULT_MS, parseLiveBet } from './live-bet';
import { limitsOf } from './stakes';

export const LIVE_BACCARAT_LIMITS = limitsOf('1.00', '2000.00');

export const liveBaccarat: SharedTable = {
  id: 'live-baccarat',
  provider: 'livewave',
  kind: 'live-table',
  bettingMs: LIVE_BETTING_MS,
  resultMs: LIVE_RESULT_MS,
  spots: BACCARAT_SPOTS,
  parseBet: (input) => parseLiveBet(input, BACCARAT_SPOTS, LIVE_BACCARAT_LIMITS),
  draw: (rng) => ({ kind: 'baccarat', ...drawCoup(rng) }),
  settle(bet, outcome) {
    if (!isBaccaratSpot(bet.spot) || !isCoup(outcome)) throw new TypeError('live-baccarat: not a bet or outcome of this table');
    return settleBaccaratSpot(bet.spot, bet.stakeMinor, outcome);
  },
};
