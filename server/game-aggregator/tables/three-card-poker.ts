/**
 * Red Fox "Three Card Poker", a two-step round:
 * 1. `start({ ante, pairPlus? })` stakes the ante (and the optional pair plus), deals the player
 *    and the dealer three cards each from one fresh deck and shows the player's cards.
 * 2. `act(state, { action: 'play' | 'fold' })`: play stakes a second bet equal to the ante; fold
 *    gives up the ante. The dealer's cards are then shown and the round settles.
 *
 * Settlement when the player plays: a dealer without queen high or better does not qualify, the
 * ante pays 1 to 1 and the play bet is returned; a qualifying dealer is compared with the player:
 * the better hand wins ante and play at 1 to 1, equal hands return both. The ante bonus (straight
 * 1, three of a kind 4, straight flush 5 to 1) is paid on the ante whatever the dealer holds. Pair
 * plus (pair 1, flush 3, straight 6, three of a kind 30, straight flush 40 to 1) pays on the
 * player's cards alone, also after a fold.
 *
 * A round left after the ante (the player closed the game or never answered) is settled as a
 * fold — the casino rule for a hand not played on time: the ante is lost and a winning pair plus
 * is paid. The aggregator does it by calling `act(state, ABANDONED_ROUND_ACTION)`.
 */
import type { PlayerTitle, RoundStep, Rng } from '../title';
import { type Card, Shoe, isCard } from './cards';
import { ANTE_BONUS, PAIR_PLUS, dealerQualifies, evaluateHand } from './three-card-poker-rules';
import { isRecord, limitsOf, parseOptionalStake, parseStake } from './stakes';

/** The catalogue's min_bet / max_bet for three-card-poker, for the ante and for pair plus. */
export const THREE_CARD_POKER_LIMITS = limitsOf('1.00', '500.00');

/** What the aggregator sends for a round the player left after the ante. */
export const ABANDONED_ROUND_ACTION = { action: 'fold' } as const;

interface PokerState {
  ante: string;
  pairPlus: string;
  player: Card[];
  dealer: Card[];
}

function start(input: unknown, rng: Rng): RoundStep | undefined {
  if (!isRecord(input)) return undefined;
  for (const key of Object.keys(input)) if (key !== 'ante' && key !== 'pairPlus') return undefined;
  const ante = parseStake(input.ante, THREE_CARD_POKER_LIMITS);
  const pairPlus = parseOptionalStake(input.pairPlus, THREE_CARD_POKER_LIMITS);
  if (ante === undefined || pairPlus === undefined) return undefined;
  const shoe = new Shoe(rng, 1);
  const player = [shoe.draw(), shoe.draw(), shoe.draw()];
  const dealer = [shoe.draw(), shoe.draw(), shoe.draw()];
  const state: PokerState = { ante: ante.toString(), pairPlus: pairPlus.toString(), player, dealer };
  return {
    stakeMinor: ante + pairPlus,
    winMinor: 0n,
    done: false,
    view: {
      kind: 'three-card-poker',
      phase: 'decide',
      ante: state.ante,
      pairPlus: state.pairPlus,
      player,
      playerHand: evaluateHand(player).hand,
    },
    state,
  };
}

function readState(state: unknown): (PokerState & { anteMinor: bigint; pairPlusMinor: bigint }) | undefined {
  if (!isRecord(state)) return undefined;
  const { ante, pairPlus, player, dealer } = state;
  if (typeof ante !== 'string' || typeof pairPlus !== 'string' || !/^[0-9]{1,16}$/.test(ante) || !/^[0-9]{1,16}$/.test(pairPlus))
    return undefined;
  if (!Array.isArray(player) || !Array.isArray(dealer) || player.length !== 3 || dealer.length !== 3) return undefined;
  if (!player.every(isCard) || !dealer.every(isCard)) return undefined;
  return { ante, pairPlus, player, dealer, anteMinor: BigInt(ante), pairPlusMinor: BigInt(pairPlus) };
}

export interface PokerSettlement {
  pairPlusMinor: bigint;
  anteBonusMinor: bigint;
  anteMinor: bigint;
  playMinor: bigint;
  outcome: 'fold' | 'dealer-not-qualified' | 'win' | 'tie' | 'lose';
}

/** What each bet returns (stake included) when the player plays or folds. */
export function settlePoker(
  ante: bigint,
  pairPlus: bigint,
  player: readonly Card[],
  dealer: readonly Card[],
  plays: boolean,
): PokerSettlement {
  const mine = evaluateHand(player);
  const pairPlusOdds = PAIR_PLUS[mine.hand];
  const pairPlusMinor = pairPlus > 0n && pairPlusOdds !== undefined ? pairPlus * (pairPlusOdds + 1n) : 0n;
  if (!plays) return { pairPlusMinor, anteBonusMinor: 0n, anteMinor: 0n, playMinor: 0n, outcome: 'fold' };
  const anteBonusMinor = ante * (ANTE_BONUS[mine.hand] ?? 0n);
  if (!dealerQualifies(dealer))
    return { pairPlusMinor, anteBonusMinor, anteMinor: ante * 2n, playMinor: ante, outcome: 'dealer-not-qualified' };
  const theirs = evaluateHand(dealer);
  if (mine.score > theirs.score)
    return { pairPlusMinor, anteBonusMinor, anteMinor: ante * 2n, playMinor: ante * 2n, outcome: 'win' };
  if (mine.score === theirs.score) return { pairPlusMinor, anteBonusMinor, anteMinor: ante, playMinor: ante, outcome: 'tie' };
  return { pairPlusMinor, anteBonusMinor, anteMinor: 0n, playMinor: 0n, outcome: 'lose' };
}

function act(state: unknown, input: unknown): RoundStep | undefined {
  const round = readState(state);
  if (!round || !isRecord(input) || (input.action !== 'play' && input.action !== 'fold')) return undefined;
  const plays = input.action === 'play';
  const settled = settlePoker(round.anteMinor, round.pairPlusMinor, round.player, round.dealer, plays);
  const winMinor = settled.pairPlusMinor + settled.anteBonusMinor + settled.anteMinor + settled.playMinor;
  return {
    stakeMinor: plays ? round.anteMinor : 0n,
    winMinor,
    done: true,
    view: {
      kind: 'three-card-poker',
      phase: 'settled',
      ante: round.ante,
      pairPlus: round.pairPlus,
      play: plays ? round.ante : '0',
      player: round.player,
      dealer: round.dealer,
      playerHand: evaluateHand(round.player).hand,
      dealerHand: evaluateHand(round.dealer).hand,
      dealerQualifies: dealerQualifies(round.dealer),
      outcome: settled.outcome,
      returns: {
        ante: settled.anteMinor.toString(),
        play: settled.playMinor.toString(),
        anteBonus: settled.anteBonusMinor.toString(),
        pairPlus: settled.pairPlusMinor.toString(),
      },
      winMinor: winMinor.toString(),
    },
  };
}

export const threeCardPoker: PlayerTitle = {
  id: 'three-card-poker',
  provider: 'redfox',
  kind: 'three-card-poker',
  start,
  act,
};
