/**
 * Punto banco as both baccarat titles play it (baccarat-royale alone, live-baccarat for a table):
 * eight decks, a fresh shoe each coup, the fixed third-card rules, and these bets:
 *
 * | spot | wins when | returns (stake included) |
 * | --- | --- | --- |
 * | player | player's total is higher | 2× (a tie returns the stake) |
 * | banker | banker's total is higher | 1.95× (5 % commission on the win, rounded down; a tie returns the stake) |
 * | tie | the totals are equal | 9× (8 to 1) |
 * | playerPair / bankerPair | that side's first two cards have the same rank | 12× (11 to 1) |
 */
import type { Rng } from '../title';
import { type Card, Shoe, isCard } from './cards';

export const BACCARAT_DECKS = 8;
export const BACCARAT_SPOTS = ['player', 'banker', 'tie', 'playerPair', 'bankerPair'] as const;
export type BaccaratSpot = (typeof BACCARAT_SPOTS)[number];

export interface BaccaratCoup {
  player: Card[];
  banker: Card[];
  playerTotal: number;
  bankerTotal: number;
  winner: 'player' | 'banker' | 'tie';
}

/** Ace counts 1, two to nine their pips, tens and court cards 0. */
export function baccaratValue(card: Card): number {
  return card.rank >= 10 ? 0 : card.rank;
}

export function baccaratTotal(cards: readonly Card[]): number {
  return cards.reduce((sum, card) => sum + baccaratValue(card), 0) % 10;
}

/**
 * Whether the banker draws, given the banker's two-card total and the value of the player's third
 * card (undefined when the player stood): the standard tableau.
 */
export function bankerDraws(bankerTotal: number, playerThird: number | undefined): boolean {
  if (playerThird === undefined) return bankerTotal <= 5;
  if (bankerTotal <= 2) return true;
  if (bankerTotal === 3) return playerThird !== 8;
  if (bankerTotal === 4) return playerThird >= 2 && playerThird <= 7;
  if (bankerTotal === 5) return playerThird >= 4 && playerThird <= 7;
  if (bankerTotal === 6) return playerThird === 6 || playerThird === 7;
  return false;
}

/** Deals one coup in the order player, banker, player, banker, then the third cards. */
export function dealCoup(draw: () => Card): BaccaratCoup {
  const player = [draw()];
  const banker = [draw()];
  player.push(draw());
  banker.push(draw());
  const natural = baccaratTotal(player) >= 8 || baccaratTotal(banker) >= 8;
  if (!natural) {
    let playerThird: number | undefined;
    if (baccaratTotal(player) <= 5) {
      const third = draw();
      player.push(third);
      playerThird = baccaratValue(third);
    }
    if (bankerDraws(baccaratTotal(banker), playerThird)) banker.push(draw());
  }
  const playerTotal = baccaratTotal(player);
  const bankerTotal = baccaratTotal(banker);
  return { player, banker, playerTotal, bankerTotal, winner: winnerOf(playerTotal, bankerTotal) };
}

function winnerOf(playerTotal: number, bankerTotal: number): BaccaratCoup['winner'] {
  return playerTotal > bankerTotal ? 'player' : bankerTotal > playerTotal ? 'banker' : 'tie';
}

export function drawCoup(rng: Rng): BaccaratCoup {
  const shoe = new Shoe(rng, BACCARAT_DECKS);
  return dealCoup(() => shoe.draw());
}

/** What a bet on one spot returns, stake included (0n when it loses). */
export function settleBaccaratSpot(spot: BaccaratSpot, stakeMinor: bigint, coup: BaccaratCoup): bigint {
  switch (spot) {
    case 'player':
      return coup.winner === 'player' ? stakeMinor * 2n : coup.winner === 'tie' ? stakeMinor : 0n;
    case 'banker':
      // 0.95 to 1: the commission is taken from the win, which is rounded down once.
      return coup.winner === 'banker' ? stakeMinor + (stakeMinor * 95n) / 100n : coup.winner === 'tie' ? stakeMinor : 0n;
    case 'tie':
      return coup.winner === 'tie' ? stakeMinor * 9n : 0n;
    case 'playerPair':
      return coup.player[0]!.rank === coup.player[1]!.rank ? stakeMinor * 12n : 0n;
    case 'bankerPair':
      return coup.banker[0]!.rank === coup.banker[1]!.rank ? stakeMinor * 12n : 0n;
  }
}

export function isBaccaratSpot(value: unknown): value is BaccaratSpot {
  return (BACCARAT_SPOTS as readonly unknown[]).includes(value);
}

/** Re-checks an outcome the aggregator kept (JSON), so settle never trusts a malformed one. */
export function isCoup(value: unknown): value is BaccaratCoup {
  if (typeof value !== 'object' || value === null) return false;
  const coup = value as Record<string, unknown>;
  return (
    Array.isArray(coup.player) &&
    Array.isArray(coup.banker) &&
    coup.player.length >= 2 &&
    coup.banker.length >= 2 &&
    coup.player.every(isCard) &&
    coup.banker.every(isCard) &&
    coup.winner === winnerOf(baccaratTotal(coup.player), baccaratTotal(coup.banker))
  );
}
