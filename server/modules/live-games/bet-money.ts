/** A live bet's money on the ledger (`live:{roundId}`), moved through the round-intake core. */
import type { Executor } from '../../db/retry';
import type { RoundMoney } from '../round-intake';
import type { LiveContext } from './context';
import type { LiveBetRow, LiveRoundRow } from './tables';

export function liveBetMoney(
  bet: Pick<LiveBetRow, 'id' | 'siteId' | 'currency' | 'mode'>,
  userId: number,
  round: Pick<LiveRoundRow, 'id' | 'sysname'>,
): RoundMoney {
  return {
    path: 'live',
    siteId: bet.siteId,
    userId,
    currency: bet.currency,
    mode: bet.mode,
    sysname: round.sysname,
    // Live tables count as live games toward a bonus's wagering; each bet pairs its stake with its payout.
    gameType: 'live',
    reference: `live:${round.id}`,
    stakeRef: `live:${round.id}:${bet.id}`,
    actor: `player:${userId}`,
  };
}

/** Settles a bet's payout (idempotent by key; nothing moves for nothing); an anonymous visitor's bet moves no money. */
export async function payLiveWin(
  ctx: Pick<LiveContext, 'intake'>,
  tx: Executor,
  bet: LiveBetRow,
  round: LiveRoundRow,
  payoutMinor: bigint,
  actor: string,
): Promise<void> {
  if (bet.userId === null) return;
  await ctx.intake.settle(tx, liveBetMoney(bet, bet.userId, round), {
    amountMinor: payoutMinor,
    idempotencyKey: `live:${round.id}:${bet.id}:win`,
    actor,
  });
}
