/**
 * Bets and cash-outs at a live table. A bet passes the round-intake core and joins the current
 * round only while its betting window is open; its stake moves player → house
 * (`live:{roundId}:{betId}:bet`). A crash bet is cashed out at the multiplier the server clock
 * shows, while it is below the crash point (`live:{roundId}:{betId}:win`).
 */
import { and, eq } from 'drizzle-orm';
import { crashMultiplierAt, settleCrash, CRASH_MIN_CASH_OUT_HUNDREDTHS } from '#common/games/crash';
import { invalidParameter as invalid } from '#common/parameter-errors';
import { inTransaction, type Executor } from '../../db/retry';
import {
  ownerKeyOf,
  requireDemoOffered,
  requireSameRequest,
  requireSignedInForReal,
  type BetRequest,
  type Gambler,
} from '../round-intake';
import { InsufficientFundsError, type PlayerBalances } from '../wallet';
import { liveBetMoney, payLiveWin } from './bet-money';
import { balanceOf, crashPointOf, latestRound, tableOf, type LiveContext, type LiveTable } from './context';
import { prepareLiveBet, type PreparedLiveBet } from './rules';
import type { LiveBetResult } from '#common/contract';
import { betView } from './state-views';
import { liveBets, liveRounds, type LiveBetRow, type LiveRoundRow } from './tables';

export type { LiveBetResult };

/** A bet the intake let in, on its way into a round. */
interface AdmittedLiveBet {
  request: BetRequest;
  table: LiveTable;
  prepared: PreparedLiveBet;
  currency: string;
  ownerKey: string;
  requestHash: string;
}

/** The gambler's own bet: another owner's bet and an unknown id look the same. */
async function findOwnBet(executor: Executor, who: Gambler, betId: number, lock = false): Promise<LiveBetRow> {
  const query = executor
    .select()
    .from(liveBets)
    .where(and(eq(liveBets.id, betId), eq(liveBets.siteId, who.siteId), eq(liveBets.ownerKey, ownerKeyOf(who))));
  const [row] = lock ? await query.for('update') : await query;
  if (!row) throw invalid('bet_id');
  return row;
}

/** The bet a request id placed before, answered again; undefined for a new request id. */
async function replayedBet(
  ctx: LiveContext,
  tx: Executor,
  who: Gambler,
  bet: AdmittedLiveBet,
): Promise<LiveBetResult | undefined> {
  const [earlier] = await tx
    .select()
    .from(liveBets)
    .where(
      and(eq(liveBets.siteId, who.siteId), eq(liveBets.ownerKey, bet.ownerKey), eq(liveBets.requestKey, bet.request.requestId)),
    );
  if (!earlier) return undefined;
  requireSameRequest(earlier, bet.requestHash, 'This request id was used for another bet');
  const [earlierRound] = await tx.select().from(liveRounds).where(eq(liveRounds.id, earlier.roundId));
  const balances =
    earlier.userId !== null ? await ctx.wallet.balances(who.siteId, earlier.userId, earlier.currency, tx) : undefined;
  return {
    bet: betView(earlier, earlierRound ?? { roundNo: 0, sysname: bet.request.sysname }),
    is_replay: true,
    balance: balanceOf(balances, earlier.mode, earlier.currency),
  };
}

/** The round taking bets now, share-locked so it cannot be settled while a bet joins it. */
async function roundTakingBets(ctx: LiveContext, tx: Executor, table: LiveTable): Promise<LiveRoundRow> {
  const round = await latestRound(tx, table, 'share');
  const now = ctx.clock();
  if (!round || round.status !== 'open' || now < round.bettingOpensAt.getTime() || now >= round.bettingClosesAt.getTime())
    throw invalid('round', 'Betting is closed: wait for the next round');
  return round;
}

/** Writes the bet into the round and moves its stake. */
async function joinRound(
  ctx: LiveContext,
  tx: Executor,
  who: Gambler,
  bet: AdmittedLiveBet,
  round: LiveRoundRow,
): Promise<LiveBetResult> {
  const { request, prepared, currency } = bet;
  if (bet.table.engine === 'crash') {
    const [mine] = await tx
      .select({ id: liveBets.id })
      .from(liveBets)
      .where(and(eq(liveBets.roundId, round.id), eq(liveBets.ownerKey, bet.ownerKey)));
    if (mine) throw invalid('bet', 'You already have a bet in this round');
  }
  const [created] = await tx
    .insert(liveBets)
    .values({
      roundId: round.id,
      siteId: who.siteId,
      ownerKey: bet.ownerKey,
      userId: who.uid > 0 ? who.uid : null,
      visitorId: who.uid > 0 ? null : who.visitorId,
      mode: request.mode,
      currency,
      stakeMinor: prepared.stakeMinor,
      bet: prepared.normal,
      autoCashOut: prepared.autoCashOut,
      requestKey: request.requestId,
      requestHash: bet.requestHash,
    })
    .returning();
  if (!created) throw new Error('the bet could not be recorded');
  let balances: PlayerBalances | undefined;
  if (who.uid > 0) {
    await ctx.intake.stake(tx, liveBetMoney(created, who.uid, round), {
      amountMinor: prepared.stakeMinor,
      idempotencyKey: `live:${round.id}:${created.id}:bet`,
      at: new Date(ctx.clock()),
    });
    balances = await ctx.wallet.balances(who.siteId, who.uid, currency, tx);
  }
  return { bet: betView(created, round), is_replay: false, balance: balanceOf(balances, request.mode, currency) };
}

/** games.placeLiveBet: a bet in the current round of a table, only while betting is open. */
export async function placeLiveBet(ctx: LiveContext, who: Gambler, request: BetRequest): Promise<LiveBetResult> {
  requireSignedInForReal(who, request.mode);
  const { game, table } = await tableOf(ctx, who, request.sysname);
  requireDemoOffered(game, request.mode);
  const admitted = await ctx.intake.admitStake(who, request, game, () => prepareLiveBet(table.engine, request.bet));
  const bet: AdmittedLiveBet = { request, table, ...admitted };
  try {
    return await inTransaction(ctx.db, async (tx) => {
      const replay = await replayedBet(ctx, tx, who, bet);
      if (replay) return replay;
      return joinRound(ctx, tx, who, bet, await roundTakingBets(ctx, tx, table));
    });
  } catch (error) {
    if (!(error instanceof InsufficientFundsError)) throw error;
    throw await ctx.intake.shortBalance(who, request.mode, admitted.currency, 'stake');
  }
}

/**
 * games.cashOut: takes a crash bet out at the multiplier the server clock shows now, while it
 * is below the crash point. A bet cashed out already answers its cash-out again.
 */
export async function cashOutLiveBet(ctx: LiveContext, who: Gambler, betId: number): Promise<LiveBetResult> {
  const found = await findOwnBet(ctx.db, who, betId);
  return inTransaction(ctx.db, async (tx) => {
    const [round] = await tx.select().from(liveRounds).where(eq(liveRounds.id, found.roundId)).for('share');
    const bet = await findOwnBet(tx, who, betId, true);
    if (!round || round.engine !== 'crash') throw invalid('bet_id', 'Only a crash bet can be cashed out');
    const balance = async () =>
      bet.userId !== null
        ? balanceOf(await ctx.wallet.balances(who.siteId, bet.userId, bet.currency, tx), bet.mode, bet.currency)
        : null;
    if (bet.cashOut !== null) return { bet: betView(bet, round), is_replay: true, balance: await balance() };
    const now = ctx.clock();
    if (now < round.bettingClosesAt.getTime()) throw invalid('cash_out', 'The round has not started yet');
    const multiplier = crashMultiplierAt(now - round.bettingClosesAt.getTime());
    const crashPoint = crashPointOf(round);
    if (bet.status !== 'open' || now >= round.resultAt.getTime() || multiplier > crashPoint)
      throw invalid('cash_out', 'Too late: the round has crashed');
    if (multiplier < CRASH_MIN_CASH_OUT_HUNDREDTHS) throw invalid('cash_out', 'The multiplier has not reached 1.01× yet');
    const cashOut = bet.autoCashOut !== null ? Math.min(bet.autoCashOut, multiplier) : multiplier;
    const { payoutMinor } = settleCrash({ stakeMinor: bet.stakeMinor, cashOutHundredths: cashOut }, crashPoint);
    const [updated] = await tx
      .update(liveBets)
      .set({ status: 'won', cashOut, payoutMinor, settledAt: new Date(now) })
      .where(eq(liveBets.id, bet.id))
      .returning();
    await payLiveWin(ctx, tx, bet, round, payoutMinor, `player:${who.uid}`);
    return { bet: betView(updated ?? bet, round), is_replay: false, balance: await balance() };
  });
}
