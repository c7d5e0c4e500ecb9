/**
 * Cards and shoes of the aggregator's table titles. A shoe is drawn lazily with a sparse
 * Fisher–Yates: the k-th card dealt is uniform over the cards not yet dealt, and a round that
 * deals six cards from eight decks touches six slots instead of shuffling 416.
 */
import type { Rng } from '../title';

export const SUITS = ['spades', 'hearts', 'diamonds', 'clubs'] as const;
export type Suit = (typeof SUITS)[number];

/** Rank 1 = ace … 11 = jack, 12 = queen, 13 = king. JSON-safe, so it is also what views carry. */
export interface Card {
  rank: number;
  suit: Suit;
}

export function cardOf(index: number): Card {
  const inDeck = index % 52;
  return { rank: (inDeck % 13) + 1, suit: SUITS[Math.floor(inDeck / 13)]! };
}

/** An integer uniform in [0, n) from one float of the RNG (n is far below 2⁵³, so the bias is nil). */
export function uniformInt(rng: Rng, n: number): number {
  const value = Math.floor(rng() * n);
  // A generator returning exactly 1 would break the range; clamp rather than trust it.
  return Math.min(n - 1, Math.max(0, value));
}

export class Shoe {
  private readonly swapped = new Map<number, number>();
  private dealt = 0;
  private readonly size: number;

  constructor(
    private readonly rng: Rng,
    decks: number,
  ) {
    this.size = decks * 52;
  }

  draw(): Card {
    if (this.dealt >= this.size) throw new RangeError('the shoe is empty');
    const pick = this.dealt + uniformInt(this.rng, this.size - this.dealt);
    const at = (slot: number) => this.swapped.get(slot) ?? slot;
    const card = at(pick);
    this.swapped.set(pick, at(this.dealt));
    this.dealt++;
    return cardOf(card);
  }
}

export function isCard(value: unknown): value is Card {
  if (typeof value !== 'object' || value === null) return false;
  const { rank, suit } = value as Record<string, unknown>;
  return Number.isInteger(rank) && (rank as number) >= 1 && (rank as number) <= 13 && SUITS.includes(suit as Suit);
}

export function isRed(card: Card): boolean {
  return card.suit === 'hearts' || card.suit === 'diamonds';
}
