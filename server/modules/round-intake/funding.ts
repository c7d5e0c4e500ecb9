/**
 * Where a real-money casino round's money comes from and goes to when it is not all the player's
 * main balance (issue 13): the bonus engine attaches here. A stake may draw on the active casino
 * bonus once real money is spent; the bonus's share of a stake takes the same share of its
 * payout back to the bonus balance; a round may complete the bonus's wagering, whose conversion
 * moves in the same batch as the round's own transfers.
 *
 * The funding runs inside the bet's transaction, before the transfers: what it writes commits
 * with the bet or not at all, and what it throws refuses the bet before any money moves.
 */
import type { Executor } from '../../db/retry';
import type { TransferInput } from '../wallet';
import type { PayoutShare, RoundMoney, StakeShare } from './transfers';

/** A stake the funding planned, for the round's transfers; `settled` carries it to the payout of a one-transaction round. */
export interface FundedStake {
  share: StakeShare;
  /** Opaque to the intake: what the funding needs to settle the same round in the same transaction. */
  carried: unknown;
}

export interface FundedPayout {
  share: PayoutShare;
  /** Transfers that follow the payout in the same batch (a conversion the round completed). */
  then: TransferInput[];
}

export interface RoundFunding {
  /**
   * A real-money stake of an in-house round (not a free spin), before it moves. Throws to refuse
   * it; answers undefined when the player's main balance pays it all and no bonus is wagered.
   * `settlesLater` when the payout comes in another transaction (a stateful or live round): the
   * funding then keeps what it needs to settle it.
   */
  fundStake(tx: Executor, round: RoundMoney, stakeMinor: bigint, settlesLater: boolean): Promise<FundedStake | undefined>;
  /**
   * The payout of a round whose stake the funding saw: `stake` for a one-transaction round,
   * undefined when the stake moved in an earlier transaction. Undefined when the funding has
   * nothing to do with this round (it all goes to main).
   */
  fundPayout(
    tx: Executor,
    round: RoundMoney,
    payoutMinor: bigint,
    stake: FundedStake | undefined,
  ): Promise<FundedPayout | undefined>;
}

/**
 * Only real-money in-house casino rounds draw on casino bonuses: demo, free spins and external
 * providers never do, and sports tickets use betting bonuses (bonuses/betting.ts) instead.
 */
export function isFundable(round: RoundMoney): boolean {
  return round.mode === 'real' && !round.freespinPack && round.path !== 'provider' && round.path !== 'sportsbook';
}
