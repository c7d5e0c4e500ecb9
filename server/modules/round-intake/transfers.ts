/**
 * The transfer half of the intake, pure: the ledger transfer of a round's stake, payout or
 * refund. Kinds, postings, references and idempotency keys are persisted data a replay is
 * compared with, so they are written here once and never change shape:
 * - in-house rounds and live bets: player main ↔ house game (`game_bet`, `game_win`), or player
 *   fun ↔ house fun issuer in demo (`demo_bet`, `demo_win`);
 * - free spins: house bonus cost → house game (`freespin_bet`), the win house game → player main
 *   (`freespin_win`) or, for the pack's winnings bonus, back to the house bonus cost
 *   (`bonus_freespin_win`), from where the bonus engine grants it;
 * - external providers: player main ↔ house game (`provider_bet`, `provider_win`, `provider_rollback`);
 * - sports tickets: player main ↔ house game (`sport_bet`, `sport_win`, `sport_rollback` for a void).
 */
import { house, move, player, type AccountRef, type Leg, type TransferInput } from '../wallet';
import type { BetPath, RoundMoneyEvent } from './hooks';

/** A round's money on the ledger: whose, in what, on which path, and under which reference. */
export interface RoundMoney {
  path: BetPath;
  siteId: string;
  userId: number;
  currency: string;
  mode: 'real' | 'demo';
  sysname: string;
  /** The game's type (slot, casino, live, fast) when the caller knows it: a bonus's wagering counts by it. */
  gameType?: string;
  reference: string;
  /**
   * What pairs a stake with its payout when they move in different transactions: the round's
   * reference, or the bet's where one round holds several players' bets (`live:{round}:{bet}`).
   */
  stakeRef?: string;
  /** False when the bet's first statement found no active casino bonus: the funding then reads nothing (issue 12). */
  hasWageredBonus?: boolean;
  /** Who moves it: `player:12`, `provider:acme`, `system`. */
  actor: string;
  /** A free spin's pack: it pays the stake, and says where the win goes. */
  freespinPack?: { id: number; winBalance: 'main' | 'bonus' };
}

/** Where a stake's money comes from (the bonus funding's split; funding.ts). */
export interface StakeShare {
  fromMain: bigint;
  fromBonus: bigint;
}

/** Where a payout goes: real money, back to the bonus, or (a bonus that ended meanwhile) to the house. */
export interface PayoutShare {
  toMain: bigint;
  toBonus: bigint;
  toHouse: bigint;
}

/** One movement of a round: its amount, its idempotency key and, when not the round's, who made it. */
export interface RoundMovement {
  amountMinor: bigint;
  idempotencyKey: string;
  actor?: string;
}

function playerSide(round: RoundMoney): AccountRef {
  return player(round.userId, round.mode === 'real' ? 'main' : 'fun');
}

/** The player's account a paid round plays on: main for real money, fun for demo. */
export function roundPlayerAccount(round: Pick<RoundMoney, 'mode'>): { type: 'main' | 'fun' } {
  return { type: round.mode === 'real' ? 'main' : 'fun' };
}

function houseSide(round: RoundMoney): AccountRef {
  return house(round.mode === 'real' ? 'game' : 'fun_issuer', round.userId);
}

function kindOf(round: RoundMoney, direction: 'bet' | 'win' | 'rollback'): string {
  if (round.path === 'provider') return `provider_${direction}`;
  if (round.path === 'sportsbook') return `sport_${direction}`;
  if (round.freespinPack)
    return direction === 'bet'
      ? 'freespin_bet'
      : round.freespinPack.winBalance === 'bonus'
        ? 'bonus_freespin_win'
        : 'freespin_win';
  return `${round.mode === 'real' ? 'game' : 'demo'}_${direction}`;
}

function transferOf(round: RoundMoney, movement: RoundMovement, kind: string, legs: TransferInput['legs'], reason: string) {
  return {
    siteId: round.siteId,
    userId: round.userId,
    kind,
    currency: round.currency,
    amountMinor: movement.amountMinor,
    legs,
    idempotencyKey: movement.idempotencyKey,
    reference: round.reference,
    actor: movement.actor ?? round.actor,
    reason,
  } satisfies TransferInput;
}

/** Legs with an amount: a share of nothing is no posting. */
const nonZero = (legs: Leg[]) => legs.filter((part) => part.amountMinor !== 0n);

/**
 * The stake: from the player (or a free spin's pack) to the house. With a share, the part the
 * active bonus pays comes from the player's bonus balance (issue 13: real money first).
 */
export function stakeTransfer(round: RoundMoney, movement: RoundMovement, share?: StakeShare): TransferInput {
  const { amountMinor } = movement;
  if (round.freespinPack) {
    const legs = move(house('bonus_cost', round.userId), house('game', round.userId), amountMinor);
    return transferOf(round, movement, kindOf(round, 'bet'), legs, `${round.sysname} free spin (pack ${round.freespinPack.id})`);
  }
  const legs = share
    ? nonZero([
        { account: playerSide(round), amountMinor: -share.fromMain },
        { account: player(round.userId, 'bonus'), amountMinor: -share.fromBonus },
        { account: houseSide(round), amountMinor },
      ])
    : move(playerSide(round), houseSide(round), amountMinor);
  return transferOf(round, movement, kindOf(round, 'bet'), legs, `${round.sysname} bet`);
}

/**
 * The payout: from the house to the player (a free spin's win to the balance its pack names).
 * With a share, the bonus's part of it goes back to the bonus balance, or to the house's bonus
 * cost when the bonus ended while the round was open.
 */
export function payoutTransfer(round: RoundMoney, movement: RoundMovement, share?: PayoutShare): TransferInput {
  const { amountMinor } = movement;
  if (share && !round.freespinPack) {
    const legs = nonZero([
      { account: houseSide(round), amountMinor: -amountMinor },
      { account: playerSide(round), amountMinor: share.toMain },
      { account: player(round.userId, 'bonus'), amountMinor: share.toBonus },
      { account: house('bonus_cost', round.userId), amountMinor: share.toHouse },
    ]);
    return transferOf(round, movement, kindOf(round, 'win'), legs, `${round.sysname} win`);
  }
  if (round.freespinPack) {
    // Bonus wins are held on the house's bonus cost; the pack's bonus takes them onto the bonus balance (bonuses freespin-wins.ts).
    const winAccount =
      round.freespinPack.winBalance === 'bonus' ? house('bonus_cost', round.userId) : player(round.userId, 'main');
    const legs = move(house('game', round.userId), winAccount, amountMinor);
    return transferOf(
      round,
      movement,
      kindOf(round, 'win'),
      legs,
      `${round.sysname} free spin win (pack ${round.freespinPack.id})`,
    );
  }
  const legs = move(houseSide(round), playerSide(round), amountMinor);
  return transferOf(round, movement, kindOf(round, 'win'), legs, `${round.sysname} win`);
}

/** A stake given back: from the house to the player. */
export function refundTransfer(round: RoundMoney, movement: RoundMovement): TransferInput {
  const legs = move(houseSide(round), playerSide(round), movement.amountMinor);
  return transferOf(round, movement, kindOf(round, 'rollback'), legs, `${round.sysname} bet rolled back`);
}

export function moneyEvent(round: RoundMoney, amountMinor: bigint): RoundMoneyEvent {
  const { path, siteId, userId, currency, mode, sysname, reference } = round;
  return { path, siteId, userId, currency, mode, sysname, reference, amountMinor };
}
