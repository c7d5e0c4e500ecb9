/**
 * LiveWave "Live Blackjack VIP" as a shared round: common-draw blackjack (live-blackjack-rules.ts).
 * Spots: `hand` (the common hand against the dealer) and `pairs` (the hand's first two cards).
 */
import type { SharedTable } from '../title';
import { LIVE_BETTING_MS, LIVE_RESULT_MS, parseLiveBet } from './live-bet';
import { isCommonDrawRound, playCommonDraw, settleHand, settlePairs } from './live-blackjack-rules';
import { limitsOf } from './stakes';

export const LIVE_BLACKJACK_LIMITS = limitsOf('5.00', '5000.00');
export const BLACKJACK_SPOTS = ['hand', 'pairs'] as const;

export const liveBlackjackVip: SharedTable = {
  id: 'live-blackjack-vip',
  provider: 'livewave',
  kind: 'live-table',
  bettingMs: LIVE_BETTING_MS,
  resultMs: LIVE_RESULT_MS,
  spots: BLACKJACK_SPOTS,
  parseBet: (input) => parseLiveBet(input, BLACKJACK_SPOTS, LIVE_BLACKJACK_LIMITS),
  draw: (rng) => playCommonDraw(rng),
  settle(bet, outcome) {
    if (!isCommonDrawRound(outcome)) throw new TypeError('live-blackjack-vip: not an outcome of this table');
    if (bet.spot === 'hand') return settleHand(bet.stakeMinor, outcome);
    if (bet.spot === 'pairs') return settlePairs(bet.stakeMinor, outcome);
    throw new TypeError(`live-blackjack-vip: unknown spot ${bet.spot}`);
  },
};
