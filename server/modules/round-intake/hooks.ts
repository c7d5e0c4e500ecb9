/**
 * Where the bonus engine, tournaments, jackpots and responsible gaming attach to play
 * (architecture §3: every bet of every game passes one round-intake core).
 *
 * Each hook runs inside the bet's database transaction and gets its executor: what a hook writes
 * commits with the bet or not at all, and a hook that throws refuses the bet, so nothing of it
 * (round, bet row, ledger transfer) is written. None is attached by default, so a bet costs no
 * statement more than the ledger's own until one is.
 */
import type { Executor } from '../../db/retry';

/** The ways a bet reaches the ledger. */
export type BetPath = 'single-request' | 'stateful' | 'live' | 'freespin' | 'provider' | 'sportsbook';

/** One movement of a round's money, as the hooks see it. */
export interface RoundMoneyEvent {
  path: BetPath;
  siteId: string;
  userId: number;
  currency: string;
  mode: 'real' | 'demo';
  sysname: string;
  /** The round on the ledger: `round:{id}`, `live:{roundId}`, `provider:{provider}:round:{id}`. */
  reference: string;
  /** The stake, the payout (0 for a lost round) or the amount refunded. */
  amountMinor: bigint;
}

export interface RoundHooks {
  /** Before a stake leaves the player (or a free spin's pack): may refuse it by throwing. */
  beforeStake?(tx: Executor, stake: RoundMoneyEvent): Promise<void> | void;
  /**
   * After a round (an in-house round, a live bet) ends or a provider reports a win, with what it
   * paid, also when that is nothing: wagering, tournament scores and jackpot contributions count here.
   */
  afterSettle?(tx: Executor, settlement: RoundMoneyEvent): Promise<void> | void;
  /** After a stake went back to the player (a provider's rollback): what counted for it no longer does. */
  afterRefund?(tx: Executor, refund: RoundMoneyEvent): Promise<void> | void;
}

export type HookPoint = keyof RoundHooks;

/** Calls one hook point of every attached set, in the order they were attached. */
export async function runHooks(
  attached: readonly RoundHooks[],
  point: HookPoint,
  tx: Executor,
  event: RoundMoneyEvent,
): Promise<void> {
  for (const hooks of attached) await hooks[point]?.(tx, event);
}
