/**
 * The bonus engine on the bet path (issue 13), attached to the round intake as its funding
 * (round-intake/funding.ts). For a real-money in-house round while a casino bonus is active:
 *
 * - the stake: refused above the bonus's maximum stake; drawn from real money first, then from
 *   the bonus (rules.ts splitStake; with isolation the bonus is frozen while real money remains);
 * - the payout: the bonus's share of the stake takes the same share of the payout back to the
 *   bonus balance; the stake counts toward wagering by the game's contribution; a round that
 *   completes the wagering converts the bonus in the round's own batch of transfers.
 *
 * Bonuses are wagered one at a time, oldest first: the oldest active casino bonus is the one a
 * stake draws on and counts for (under isolation it is the only one). Its row is locked before
 * anything else the bonus engine touches, as every bonus step locks it (lifecycle.ts), so a bet
 * racing a forfeit, an expiry or a conversion runs before or after it, never between.
 */
import { and, asc, eq, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import { ApiError } from '#common/errors';
import type { Executor } from '../../db/retry';
import type { FundedPayout, FundedStake, RoundFunding, StakeShare } from '../round-intake';
import { InsufficientFundsError, type TransferInput, type WalletService } from '../wallet';
import { conversionOf, updateBonus } from './lifecycle';
import {
  BonusRuleError,
  checkMaxStake,
  contributionPercent,
  conversionOf as conversionShares,
  splitPayout,
  splitStake,
  wageringContributionMinor,
} from './rules';
import { bonusStakes, bonuses, type BonusRow } from './tables';

export interface BonusFundingDeps {
  wallet: WalletService;
  now: () => Date;
  /** The site's settings read in the bet's transaction (a cache reload outside it would wait for it on one connection). */
  siteSettingsIn: (tx: Executor, siteId: string) => Promise<Record<string, unknown> | undefined>;
}

/** What a one-transaction round carries from its stake to its payout. */
interface Carried {
  row: BonusRow;
  share: StakeShare;
  stakeMinor: bigint;
}

/** The round as the funding sees it (round-intake's RoundMoney). */
type Round = Parameters<RoundFunding['fundStake']>[1];

/** A refusal the game shows as such (gamePlay.error.bonusMaxStake / bonusFrozen). */
function refusal(error: BonusRuleError, row: BonusRow): ApiError {
  const maxStake = row.terms.max_stake?.[row.currency];
  return new ApiError('InvalidParameterException', error.message, {
    field: 'stake',
    errorType: error.code === 'STAKE_ABOVE_MAX' ? 'bonusMaxStake' : 'bonusFrozen',
    ...(maxStake ? { max_stake: maxStake, currency: row.currency } : {}),
  });
}

/**
 * Whether a player has an active casino bonus, as a column a caller's own statement can carry
 * (the single-request round reads it with its seed lock, so a round without a bonus costs no
 * statement more). A bonus activated after that statement began is not seen: the round is then
 * the same as one placed just before the activation.
 */
export function hasWageredBonusSql(siteId: SQLWrapper | string, userId: SQLWrapper | number): SQL<boolean> {
  return sql<boolean>`exists (select 1 from ${bonuses} where ${bonuses.siteId} = ${siteId} and ${bonuses.userId} = ${userId} and ${bonuses.status} = 'active' and ${bonuses.type} = 'casino')`;
}

export function createBonusFunding(deps: BonusFundingDeps): RoundFunding {
  /** The bonus being wagered: the player's oldest active casino bonus in the round's currency, locked. */
  async function wageredBonus(tx: Executor, round: Round): Promise<BonusRow | undefined> {
    const [row] = await tx
      .select()
      .from(bonuses)
      .where(
        and(
          eq(bonuses.siteId, round.siteId),
          eq(bonuses.userId, round.userId),
          eq(bonuses.status, 'active'),
          eq(bonuses.type, 'casino'),
          eq(bonuses.currency, round.currency),
        ),
      )
      .orderBy(asc(bonuses.id))
      .limit(1)
      .for('update');
    return row;
  }

  async function shareOf(tx: Executor, round: Round, row: BonusRow, stakeMinor: bigint): Promise<StakeShare> {
    const { main } = await deps.wallet.balances(round.siteId, round.userId, round.currency, tx);
    // Isolation matters only when real money remains and does not cover the stake: read it then.
    const isolation =
      stakeMinor > main && main > 0n && (await deps.siteSettingsIn(tx, round.siteId))?.is_bonus_isolation_enabled === true;
    const share = splitStake(stakeMinor, { mainMinor: main, bonusMinor: row.balanceMinor }, isolation);
    // Neither covers it: the same answer as a short balance without a bonus.
    if (!share) throw new InsufficientFundsError('main');
    return share;
  }

  /** What a settled stake adds to the bonus's wagering: its contribution by game. */
  function contributionOf(row: BonusRow, round: Round, gameType: string | null | undefined, stakeMinor: bigint): bigint {
    const percent = contributionPercent(row.terms, { sysname: round.sysname, type: gameType ?? '' });
    return wageringContributionMinor(stakeMinor, percent);
  }

  /**
   * Settles the bonus's side of a round: its share of the payout back, the stake's wagering,
   * the conversion when it completes. `spentNow` is what the stake took from the bonus in this
   * same transaction (a one-transaction round); 0 when the stake's transaction already took it.
   */
  async function settleActive(
    tx: Executor,
    row: BonusRow,
    payout: { toBonus: bigint; spentNow: bigint; contribution: bigint },
  ): Promise<TransferInput[]> {
    const balanceMinor = row.balanceMinor - payout.spentNow + payout.toBonus;
    const wageredMinor = row.wageredMinor + payout.contribution;
    if (wageredMinor >= row.wageringRequiredMinor) {
      const conversion = conversionOf(row, balanceMinor, deps.now());
      await updateBonus(tx, row.id, { ...conversion.columns, wageredMinor });
      return conversion.transfer ? [conversion.transfer] : [];
    }
    await updateBonus(tx, row.id, { balanceMinor, wageredMinor });
    return [];
  }

  /**
   * A bonus that ended while one of its rounds was open gets no money back: its share goes to
   * the player only when it was converted, and then only as far as the conversion cap still
   * allows (converted money never above the cap); otherwise to the house, as its balance did.
   */
  async function lateShare(tx: Executor, row: BonusRow, toBonus: bigint): Promise<{ toMain: bigint; toHouse: bigint }> {
    if (row.status !== 'converted' || toBonus === 0n) return { toMain: 0n, toHouse: toBonus };
    const room = conversionShares(row.terms, row.currency, row.convertedMinor + toBonus).toMain - row.convertedMinor;
    const toMain = room > 0n ? room : 0n;
    if (toMain > 0n) await updateBonus(tx, row.id, { convertedMinor: row.convertedMinor + toMain });
    return { toMain, toHouse: toBonus - toMain };
  }

  return {
    async fundStake(tx, round, stakeMinor, settlesLater): Promise<FundedStake | undefined> {
      // The caller's own statement already said there is none (hasWageredBonusSql).
      if (round.hasWageredBonus === false) return undefined;
      const row = await wageredBonus(tx, round);
      if (!row) return undefined;
      let share: StakeShare;
      try {
        checkMaxStake(row.terms, row.currency, stakeMinor);
        share = await shareOf(tx, round, row, stakeMinor);
      } catch (error) {
        if (error instanceof BonusRuleError) throw refusal(error, row);
        throw error;
      }
      if (settlesLater) await recordOpenStake(tx, round, row, stakeMinor, share);
      return { share, carried: { row, share, stakeMinor } satisfies Carried };
    },

    async fundPayout(tx, round, payoutMinor, stake): Promise<FundedPayout | undefined> {
      if (stake) {
        const { row, share, stakeMinor } = stake.carried as Carried;
        const { toMain, toBonus } = splitPayout(payoutMinor, share);
        const contribution = contributionOf(row, round, round.gameType, stakeMinor);
        const then = await settleActive(tx, row, { toBonus, spentNow: share.fromBonus, contribution });
        return { share: { toMain, toBonus, toHouse: 0n }, then };
      }
      const open = await takeOpenStake(tx, round);
      if (!open) return undefined;
      const [row] = await tx.select().from(bonuses).where(eq(bonuses.id, open.bonusId)).for('update');
      if (!row) return undefined;
      const share = { fromMain: open.stakeMinor - open.fromBonusMinor, fromBonus: open.fromBonusMinor };
      const { toMain, toBonus } = splitPayout(payoutMinor, share);
      if (row.status !== 'active') {
        const late = await lateShare(tx, row, toBonus);
        return { share: { toMain: toMain + late.toMain, toBonus: 0n, toHouse: late.toHouse }, then: [] };
      }
      const contribution = contributionOf(row, round, open.gameType, open.stakeMinor);
      const then = await settleActive(tx, row, { toBonus, spentNow: 0n, contribution });
      return { share: { toMain, toBonus, toHouse: 0n }, then };
    },
  };

  /**
   * A stake of a round settled later: the bonus's balance drops now, as the ledger's does, and
   * the round remembers what the bonus paid (a stateful round's later stakes add to it).
   */
  async function recordOpenStake(tx: Executor, round: Round, row: BonusRow, stakeMinor: bigint, share: StakeShare) {
    if (share.fromBonus > 0n) await updateBonus(tx, row.id, { balanceMinor: row.balanceMinor - share.fromBonus });
    await tx
      .insert(bonusStakes)
      .values({
        siteId: round.siteId,
        stakeRef: round.stakeRef ?? round.reference,
        bonusId: row.id,
        gameType: round.gameType ?? null,
        stakeMinor,
        fromBonusMinor: share.fromBonus,
      })
      .onConflictDoUpdate({
        target: [bonusStakes.siteId, bonusStakes.stakeRef],
        set: {
          stakeMinor: sql`${bonusStakes.stakeMinor} + ${stakeMinor}`,
          fromBonusMinor: sql`${bonusStakes.fromBonusMinor} + ${share.fromBonus}`,
        },
      });
  }

  /** The open stake of a round now settling, taken off the list in the same statement. */
  async function takeOpenStake(tx: Executor, round: Round) {
    const [open] = await tx
      .delete(bonusStakes)
      .where(and(eq(bonusStakes.siteId, round.siteId), eq(bonusStakes.stakeRef, round.stakeRef ?? round.reference)))
      .returning();
    return open;
  }
}
