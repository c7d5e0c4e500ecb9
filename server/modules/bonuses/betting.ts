/**
 * Betting bonuses on the sportsbook's bet path (issue 13 "Betting bonuses"): the service the
 * sportsbook calls inside its bet's transaction, as the casino's rounds call the funding.
 *
 * - A free bet is one bet of its whole amount at or above its minimum odds; a winning free bet
 *   pays only what it returns above its stake, as real money; win or lose, the free bet is then
 *   used (converted, with what it paid).
 * - Betting bonus money stakes from the betting bonus balance; the payout of such a bet goes back
 *   to it; a settled bet at or above the minimum odds counts its stake toward wagering; complete,
 *   the balance converts to real money up to the cap, in the settling transaction.
 *
 * The stake is remembered in bonus_stakes (`bet:{ref}`) until the bet settles, and the bonus row
 * is locked first on both steps, as every bonus step locks it.
 */
import { and, eq } from 'drizzle-orm';
import { invalidParameter } from '#common/parameter-errors';
import type { Executor } from '../../db/retry';
import { house, move, player, InsufficientFundsError, type TransferInput, type WalletService } from '../wallet';
import { bonusError, conversionOf, lockOwnBonus, updateBonus, type LifecycleDeps } from './lifecycle';
import { bettingBetCounts, conversionOf as conversionShares } from './rules';
import { bonusStakes, bonuses, type BonusRow } from './tables';

export interface BettingBonusStake {
  siteId: string;
  userId: number;
  currency: string;
  bonusId: number;
  /** The sportsbook's bet id: the stake and its settlement are keyed by it. */
  betRef: string;
  stakeMinor: bigint;
  /** The bet's total odds when placed. */
  odds: number;
}

export interface BettingBonusSettlement {
  siteId: string;
  userId: number;
  betRef: string;
  /** What the bet returns (stake × odds for a win, 0 for a loss, the stake for a void). */
  payoutMinor: bigint;
  /** The odds it settled at (a void leg lowers them). */
  odds: number;
}

const stakeRefOf = (betRef: string) => `bet:${betRef}`;

export function createBettingBonuses(deps: { wallet: WalletService; lifecycle: LifecycleDeps }) {
  const { wallet, lifecycle } = deps;

  function betTransfer(row: BonusRow, step: 'stake' | 'win', legs: TransferInput['legs'], amountMinor: bigint, betRef: string) {
    return {
      siteId: row.siteId,
      userId: row.userId,
      kind: step === 'stake' ? 'betting_bonus_bet' : 'betting_bonus_win',
      currency: row.currency,
      amountMinor,
      legs,
      idempotencyKey: `${stakeRefOf(betRef)}:bonus-${step}`,
      reference: stakeRefOf(betRef),
      actor: `player:${row.userId}`,
      reason: `${row.terms.texts?.en?.title ?? 'Betting bonus'}: bet ${betRef} ${step === 'stake' ? 'placed' : 'returned'}`,
    } satisfies TransferInput;
  }

  /** Refuses a stake the bonus's rules do not allow: below a free bet's odds, or not its whole amount. */
  function checkStake(row: BonusRow, stake: BettingBonusStake): void {
    if (row.terms.free_bet) {
      if (!bettingBetCounts(row.terms, stake.odds))
        throw invalidParameter('odds', `A free bet needs odds of at least ${row.terms.min_odds}`);
      if (stake.stakeMinor !== row.balanceMinor) throw invalidParameter('stake', 'A free bet is placed for its whole amount');
    }
    if (stake.stakeMinor <= 0n) throw invalidParameter('stake');
    if (stake.stakeMinor > row.balanceMinor) throw new InsufficientFundsError('betting_bonus');
  }

  /** A bonus's share of a settled bet when the bonus ended while the bet was open: see funding.ts lateShare. */
  async function lateShare(tx: Executor, row: BonusRow, returned: bigint): Promise<{ toMain: bigint; toHouse: bigint }> {
    if (row.status !== 'converted' || row.terms.free_bet) return { toMain: 0n, toHouse: returned };
    const room = conversionShares(row.terms, row.currency, row.convertedMinor + returned).toMain - row.convertedMinor;
    const toMain = room > 0n ? room : 0n;
    if (toMain > 0n) await updateBonus(tx, row.id, { convertedMinor: row.convertedMinor + toMain });
    return { toMain, toHouse: returned - toMain };
  }

  return {
    /** Whether the player's bonus is a free bet: the sportsbook quotes and records its return as winnings only. */
    async isFreeBet(executor: Executor, bonus: { siteId: string; userId: number; bonusId: number }): Promise<boolean> {
      const [row] = await executor
        .select({ terms: bonuses.terms })
        .from(bonuses)
        .where(and(eq(bonuses.id, bonus.bonusId), eq(bonuses.siteId, bonus.siteId), eq(bonuses.userId, bonus.userId)));
      return row?.terms.free_bet === true;
    },

    /** The sportsbook places a bet with a betting bonus (free bet or bonus money): the stake leaves the betting bonus balance. */
    async stake(tx: Executor, stake: BettingBonusStake): Promise<void> {
      const row = await lockOwnBonus(tx, { siteId: stake.siteId, userId: stake.userId, bonusId: stake.bonusId, type: 'betting' });
      if (row.status !== 'active') throw bonusError('NOT_ACTIVE');
      if (row.currency !== stake.currency) throw invalidParameter('currency', `The bonus is in ${row.currency}`);
      checkStake(row, stake);
      const legs = move(player(row.userId, 'betting_bonus'), house('game', row.userId), stake.stakeMinor);
      await wallet.transfer(betTransfer(row, 'stake', legs, stake.stakeMinor, stake.betRef), tx);
      await updateBonus(tx, row.id, { balanceMinor: row.balanceMinor - stake.stakeMinor });
      await tx.insert(bonusStakes).values({
        siteId: stake.siteId,
        stakeRef: stakeRefOf(stake.betRef),
        bonusId: row.id,
        gameType: 'sport',
        stakeMinor: stake.stakeMinor,
        fromBonusMinor: stake.stakeMinor,
      });
    },

    /**
     * The sportsbook settles a bet placed with a betting bonus: the payout goes where the bonus's
     * rules say, the stake counts toward wagering, and a complete bonus converts. A bet placed
     * without one is not the bonus's (nothing happens, false).
     */
    async settle(tx: Executor, settlement: BettingBonusSettlement): Promise<boolean> {
      const [open] = await tx
        .delete(bonusStakes)
        .where(and(eq(bonusStakes.siteId, settlement.siteId), eq(bonusStakes.stakeRef, stakeRefOf(settlement.betRef))))
        .returning();
      if (!open) return false;
      const [row] = await tx.select().from(bonuses).where(eq(bonuses.id, open.bonusId)).for('update');
      if (!row || row.userId !== settlement.userId) throw new Error(`bet ${settlement.betRef} names another player's bonus`);
      const payout = settlement.payoutMinor;
      if (row.terms.free_bet) return settleFreeBet(tx, row, open.stakeMinor, payout, settlement.betRef);
      const split = row.status === 'active' ? { toMain: 0n, toHouse: 0n } : await lateShare(tx, row, payout);
      const toBonus = payout - split.toMain - split.toHouse;
      if (payout > 0n) {
        const legs = [
          { account: house('game', row.userId), amountMinor: -payout },
          { account: player(row.userId, 'betting_bonus'), amountMinor: toBonus },
          { account: player(row.userId, 'main'), amountMinor: split.toMain },
          { account: house('bonus_cost', row.userId), amountMinor: split.toHouse },
        ].filter((part) => part.amountMinor !== 0n);
        await wallet.transfer(betTransfer(row, 'win', legs, payout, settlement.betRef), tx);
      }
      if (row.status !== 'active') return true;
      const counted = bettingBetCounts(row.terms, settlement.odds) ? open.stakeMinor : 0n;
      const balanceMinor = row.balanceMinor + toBonus;
      const wageredMinor = row.wageredMinor + counted;
      if (wageredMinor < row.wageringRequiredMinor) {
        await updateBonus(tx, row.id, { balanceMinor, wageredMinor });
        return true;
      }
      const conversion = conversionOf(row, balanceMinor, lifecycle.now());
      if (conversion.transfer) await wallet.transfer(conversion.transfer, tx);
      await updateBonus(tx, row.id, { ...conversion.columns, wageredMinor });
      return true;
    },
  };

  /** A free bet settles once: its winnings above the stake are real money, and the free bet is used. */
  async function settleFreeBet(tx: Executor, row: BonusRow, stakeMinor: bigint, payoutMinor: bigint, betRef: string) {
    const winnings = payoutMinor > stakeMinor ? payoutMinor - stakeMinor : 0n;
    if (winnings > 0n) {
      const legs = move(house('game', row.userId), player(row.userId, 'main'), winnings);
      await wallet.transfer(betTransfer(row, 'win', legs, winnings, betRef), tx);
    }
    if (row.status === 'active')
      await updateBonus(tx, row.id, {
        status: 'converted',
        balanceMinor: 0n,
        wageredMinor: row.wageredMinor + stakeMinor,
        convertedMinor: winnings,
        endedAt: lifecycle.now(),
        endedBy: null,
      });
    return true;
  }
}
