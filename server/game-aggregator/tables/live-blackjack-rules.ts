/**
 * Common-draw blackjack, the shared-round form of LiveWave "Live Blackjack VIP": every seat bets on
 * one and the same player hand, which the dealer plays by a posted chart, so a round is one deal
 * for the whole table and each player chooses only the stake (and the pairs side bet).
 *
 * Rules: eight decks, a fresh shoe each round; dealt hand, dealer up card, hand, dealer hole card.
 * A dealer blackjack beats everything but a hand blackjack (a push). A hand blackjack pays 3 to 2.
 * Otherwise the hand follows the chart (`chartAction`): hit/stand by basic strategy, and on a
 * two-card hard 11 against 2–10 or hard 10 against 2–9 it doubles: it takes exactly one card.
 * Nobody can be asked for a second stake in a shared round, so the double costs the seats
 * nothing: a doubled hand that wins pays 3 to 2 (returns 2.5× the stake), a push returns the
 * stake, a loss costs only the stake. (A free double paying 2 to 1 would return about 101.8 %.)
 * The dealer then draws to 17 and stands on all 17s, soft ones too.
 */
import type { Rng } from '../title';
import { type Card, Shoe, isCard, isRed } from './cards';

export const BLACKJACK_DECKS = 8;

export function cardPoints(card: Card): number {
  return card.rank === 1 ? 11 : Math.min(10, card.rank);
}

export function handTotal(cards: readonly Card[]): { total: number; soft: boolean } {
  let total = 0;
  let aces = 0;
  for (const card of cards) {
    total += cardPoints(card);
    if (card.rank === 1) aces++;
  }
  while (total > 21 && aces > 0) {
    total -= 10;
    aces--;
  }
  return { total, soft: aces > 0 };
}

export function isBlackjack(cards: readonly Card[]): boolean {
  return cards.length === 2 && handTotal(cards).total === 21;
}

/** The posted chart the dealer plays the common hand by (dealer up card as points, ace = 11). */
export function chartAction(cards: readonly Card[], dealerUp: Card): 'hit' | 'stand' | 'double' {
  const { total, soft } = handTotal(cards);
  const up = cardPoints(dealerUp);
  if (cards.length === 2 && !soft) {
    if (total === 11 && up <= 10) return 'double';
    if (total === 10 && up <= 9) return 'double';
  }
  if (soft) return total >= 19 || (total === 18 && up <= 8) ? 'stand' : 'hit';
  if (total >= 17) return 'stand';
  if (total >= 13) return up <= 6 ? 'stand' : 'hit';
  if (total === 12) return up >= 4 && up <= 6 ? 'stand' : 'hit';
  return 'hit';
}

export interface CommonDrawRound {
  kind: 'blackjack';
  hand: Card[];
  dealer: Card[];
  doubled: boolean;
  handTotal: number;
  dealerTotal: number;
  result: 'blackjack' | 'win' | 'push' | 'lose';
}

export function playCommonDraw(rng: Rng): CommonDrawRound {
  const shoe = new Shoe(rng, BLACKJACK_DECKS);
  const hand = [shoe.draw()];
  const dealer = [shoe.draw()];
  hand.push(shoe.draw());
  dealer.push(shoe.draw());
  let doubled = false;
  const finish = (result: CommonDrawRound['result']): CommonDrawRound => ({
    kind: 'blackjack',
    hand,
    dealer,
    doubled,
    handTotal: handTotal(hand).total,
    dealerTotal: handTotal(dealer).total,
    result,
  });
  if (isBlackjack(dealer)) return finish(isBlackjack(hand) ? 'push' : 'lose');
  if (isBlackjack(hand)) return finish('blackjack');
  for (;;) {
    const action = chartAction(hand, dealer[0]!);
    if (action === 'stand') break;
    hand.push(shoe.draw());
    if (action === 'double') {
      doubled = true;
      break;
    }
    if (handTotal(hand).total >= 21) break;
  }
  const mine = handTotal(hand).total;
  if (mine > 21) return finish('lose');
  while (handTotal(dealer).total < 17) dealer.push(shoe.draw());
  const theirs = handTotal(dealer).total;
  return finish(theirs > 21 || mine > theirs ? 'win' : mine === theirs ? 'push' : 'lose');
}

/** The hand bet's return: blackjack and a doubled win 5/2 (rounded down), win 2×, push 1×. */
export function settleHand(stakeMinor: bigint, round: CommonDrawRound): bigint {
  switch (round.result) {
    case 'blackjack':
      return (stakeMinor * 5n) / 2n;
    case 'win':
      return round.doubled ? (stakeMinor * 5n) / 2n : stakeMinor * 2n;
    case 'push':
      return stakeMinor;
    case 'lose':
      return 0n;
  }
}

/** Pairs side bet on the hand's first two cards: perfect 25, coloured 12, mixed 6 to 1. */
export function settlePairs(stakeMinor: bigint, round: CommonDrawRound): bigint {
  const [first, second] = round.hand as [Card, Card];
  if (first.rank !== second.rank) return 0n;
  if (first.suit === second.suit) return stakeMinor * 26n;
  if (isRed(first) === isRed(second)) return stakeMinor * 13n;
  return stakeMinor * 7n;
}

export function isCommonDrawRound(value: unknown): value is CommonDrawRound {
  if (typeof value !== 'object' || value === null) return false;
  const round = value as Record<string, unknown>;
  return (
    Array.isArray(round.hand) &&
    Array.isArray(round.dealer) &&
    round.hand.length >= 2 &&
    round.hand.every(isCard) &&
    round.dealer.every(isCard) &&
    typeof round.doubled === 'boolean' &&
    ['blackjack', 'win', 'push', 'lose'].includes(round.result as string)
  );
}
