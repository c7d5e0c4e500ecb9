/**
 * Three-card poker hands. Ranks, best first: straight flush, three of a kind, straight, flush,
 * pair, high card (three cards make a straight more valuable than a flush). Aces are high, and
 * low only in A-2-3, the lowest straight.
 */
import type { Card } from './cards';

export const HAND_CLASSES = ['high', 'pair', 'flush', 'straight', 'trips', 'straightFlush'] as const;
export type HandClass = (typeof HAND_CLASSES)[number];

export interface HandValue {
  hand: HandClass;
  /** Comparable score: a higher score is a better hand; equal scores tie. */
  score: number;
}

/** Ace is 14 for ordering. */
function highRank(card: Card): number {
  return card.rank === 1 ? 14 : card.rank;
}

export function evaluateHand(cards: readonly Card[]): HandValue {
  const ranks = cards.map(highRank).sort((a, b) => b - a);
  const [a, b, c] = ranks as [number, number, number];
  const flush = cards.every((card) => card.suit === cards[0]!.suit);
  const wheel = a === 14 && b === 3 && c === 2;
  const straight = (a - b === 1 && b - c === 1) || wheel;
  // The straight's top card: 3 for A-2-3.
  const straightTop = wheel ? 3 : a;
  let hand: HandClass;
  let kickers: number[];
  if (straight && flush) [hand, kickers] = ['straightFlush', [straightTop]];
  else if (a === c) [hand, kickers] = ['trips', [a]];
  else if (straight) [hand, kickers] = ['straight', [straightTop]];
  else if (flush) [hand, kickers] = ['flush', [a, b, c]];
  else if (a === b || b === c) {
    const pair = b;
    const kicker = a === b ? c : a;
    [hand, kickers] = ['pair', [pair, kicker]];
  } else [hand, kickers] = ['high', [a, b, c]];
  const padded = [...kickers, 0, 0].slice(0, 3);
  const score = HAND_CLASSES.indexOf(hand) * 15 ** 3 + padded[0]! * 15 ** 2 + padded[1]! * 15 + padded[2]!;
  return { hand, score };
}

/** The dealer plays only with queen high or better. */
export function dealerQualifies(dealer: readonly Card[]): boolean {
  const value = evaluateHand(dealer);
  return value.hand !== 'high' || Math.max(...dealer.map(highRank)) >= 12;
}

/** Ante bonus, paid to ante when the player plays, whatever the dealer holds (to one). */
export const ANTE_BONUS: Partial<Record<HandClass, bigint>> = { straight: 1n, trips: 4n, straightFlush: 5n };

/** Pair plus, paid on the player's three cards alone, also when the player folds (to one). */
export const PAIR_PLUS: Partial<Record<HandClass, bigint>> = {
  pair: 1n,
  flush: 3n,
  straight: 6n,
  trips: 30n,
  straightFlush: 40n,
};

/** The optimal strategy (and the one the RTP is quoted for): play queen-six-four or better. */
export function optimalPlays(player: readonly Card[]): boolean {
  const value = evaluateHand(player);
  return (
    value.score >=
    evaluateHand([
      { rank: 12, suit: 'spades' },
      { rank: 6, suit: 'hearts' },
      { rank: 4, suit: 'clubs' },
    ]).score
  );
}
