/**
 * The table clock: moves each table on to where the server clock says it is. A round opens with
 * its seed drawn, takes bets until betting closes, climbs or spins until its result, shows it
 * until the next opens. One process (holding the lease, lease.ts) runs this; any may, safely.
 */
import { createHash } from 'node:crypto';
import { and, eq, gt, lte, min } from 'drizzle-orm';
import { crashElapsedMsAt, crashMultiplierAt, settleCrash, CRASH_MIN_CASH_OUT_HUNDREDTHS } from '#common/games/crash';
import { settleLiveRoulette } from '#common/games/live-roulette';
import { inTransaction, type Executor } from '../../db/retry';
import { payLiveWin } from './bet-money';
import { crashPointOf, latestRound, resultOf, type LiveContext, type LiveTable } from './context';
import { crashDurationMs, isLiveEngine, liveResult, rouletteBetsOf } from './rules';
import { liveBets, liveRounds, type LiveRoundRow } from './tables';

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** What the bet won by the round's result: a crash bet's automatic target against the crash point, a roulette bet against the pocket. */
function settledBet(bet: typeof liveBets.$inferSelect, result: ReturnType<typeof resultOf>) {
  if (!('crash_point' in result)) {
    const { payoutMinor } = settleLiveRoulette(rouletteBetsOf(bet.bet), { pocket: result.pocket, color: result.color });
    return { payoutMinor, cashOut: null };
  }
  if (bet.autoCashOut === null) return { payoutMinor: 0n, cashOut: null };
  const settlement = settleCrash({ stakeMinor: bet.stakeMinor, cashOutHundredths: bet.autoCashOut }, result.crash_point);
  return { payoutMinor: settlement.payoutMinor, cashOut: settlement.isWin ? bet.autoCashOut : null };
}

/** Settles every open bet of a round by the result its seed decides, and the round. */
export async function settleLiveRound(ctx: LiveContext, tx: Executor, round: LiveRoundRow): Promise<void> {
  const result = resultOf(round);
  const open = await tx
    .select()
    .from(liveBets)
    .where(and(eq(liveBets.roundId, round.id), eq(liveBets.status, 'open')))
    .orderBy(liveBets.id)
    .for('update');
  const settledAt = new Date(ctx.clock());
  for (const bet of open) {
    const { payoutMinor, cashOut } = settledBet(bet, result);
    await tx
      .update(liveBets)
      .set({ status: payoutMinor > 0n ? 'won' : 'lost', payoutMinor, cashOut, settledAt })
      .where(eq(liveBets.id, bet.id));
    await payLiveWin(ctx, tx, bet, round, payoutMinor, 'system');
  }
  await tx.update(liveRounds).set({ status: 'settled', result, settledAt }).where(eq(liveRounds.id, round.id));
}

/**
 * Crash while climbing: pays the automatic cash-outs the multiplier has reached, and returns when
 * the next open bet's target will be reached (or the crash, if none will): bets join only before
 * betting closes, under the round's row lock the clock holds here, so the targets are all known
 * and the clock sleeps until the next one instead of looking every 100 ms (issue 12, idle cost).
 */
export async function runAutoCashOuts(ctx: LiveContext, tx: Executor, round: LiveRoundRow, now: number): Promise<number> {
  const crashPoint = crashPointOf(round);
  const reached = Math.min(crashMultiplierAt(now - round.bettingClosesAt.getTime()), crashPoint);
  if (reached >= CRASH_MIN_CASH_OUT_HUNDREDTHS) {
    const due = await tx
      .select()
      .from(liveBets)
      .where(and(eq(liveBets.roundId, round.id), eq(liveBets.status, 'open'), lte(liveBets.autoCashOut, reached)))
      .orderBy(liveBets.id)
      .for('update');
    for (const bet of due) {
      const cashOut = bet.autoCashOut ?? reached;
      const { payoutMinor } = settleCrash({ stakeMinor: bet.stakeMinor, cashOutHundredths: cashOut }, crashPoint);
      await tx
        .update(liveBets)
        .set({ status: 'won', cashOut, payoutMinor, settledAt: new Date(now) })
        .where(eq(liveBets.id, bet.id));
      await payLiveWin(ctx, tx, bet, round, payoutMinor, 'system');
    }
  }
  return nextAutoCashOutAt(tx, round, reached, crashPoint);
}

/** When the climb reaches the lowest target still open below the crash point; else the crash. */
async function nextAutoCashOutAt(tx: Executor, round: LiveRoundRow, reached: number, crashPoint: number): Promise<number> {
  const [next] = await tx
    .select({ target: min(liveBets.autoCashOut) })
    .from(liveBets)
    .where(
      and(
        eq(liveBets.roundId, round.id),
        eq(liveBets.status, 'open'),
        gt(liveBets.autoCashOut, reached),
        lte(liveBets.autoCashOut, crashPoint),
      ),
    );
  const crashAt = round.resultAt.getTime();
  if (next?.target === null || next?.target === undefined) return crashAt;
  return Math.min(crashAt, round.bettingClosesAt.getTime() + crashElapsedMsAt(next.target));
}

/** Opens a table's round `roundNo` now: its seed drawn, its hash shown, its times fixed. */
export async function openLiveRound(
  ctx: LiveContext,
  tx: Executor,
  table: LiveTable,
  roundNo: number,
  now: number,
): Promise<void> {
  const serverSeed = ctx.drawServerSeed(table, roundNo);
  const clientSeed = `${table.siteId}:${table.sysname}`;
  const closes = now + ctx.config.bettingMs;
  const result = liveResult(table.engine, { serverSeed, clientSeed, nonce: roundNo });
  const runMs = 'crash_point' in result ? crashDurationMs(result.crash_point) : ctx.config.spinMs;
  await tx
    .insert(liveRounds)
    .values({
      siteId: table.siteId,
      sysname: table.sysname,
      engine: table.engine,
      roundNo,
      serverSeed,
      serverSeedHash: sha256(serverSeed),
      clientSeed,
      bettingOpensAt: new Date(now),
      bettingClosesAt: new Date(closes),
      resultAt: new Date(closes + runMs),
      nextAt: new Date(closes + runMs + ctx.config.resultMs),
    })
    .onConflictDoNothing();
}

/** What advanceTable answers for a table with nothing under way and no round to open: nothing is due. */
export const QUIET = Number.POSITIVE_INFINITY;

/**
 * Moves one table on to where the clock says it is: settles a round whose result is out (also
 * one left by a stopped process), pays reached automatic cash-outs, opens the next round unless
 * `opensNext` is false (nobody at the tables: the round under way still finishes). Returns when
 * it next has something to do, QUIET when nothing. Safe to run from several processes at once:
 * the table's newest round row is locked, and each step checks the state it changes.
 */
export async function advanceTable(ctx: LiveContext, table: LiveTable, opensNext = true): Promise<number> {
  const { config } = ctx;
  return inTransaction(ctx.db, async (tx) => {
    const now = ctx.clock();
    const round = await latestRound(tx, table, 'update');
    if (!round) {
      if (!opensNext) return QUIET;
      await openLiveRound(ctx, tx, table, 1, now);
      return now + config.bettingMs;
    }
    if (round.status === 'open') {
      // Roulette has nothing to do until its result; crash looks at its bets' targets at take-off.
      if (now < round.bettingClosesAt.getTime())
        return round.engine === 'crash' ? round.bettingClosesAt.getTime() : round.resultAt.getTime();
      if (now < round.resultAt.getTime()) {
        if (round.engine !== 'crash') return round.resultAt.getTime();
        return runAutoCashOuts(ctx, tx, round, now);
      }
      await settleLiveRound(ctx, tx, round);
    }
    if (!opensNext) return QUIET;
    if (now >= round.nextAt.getTime()) {
      await openLiveRound(ctx, tx, table, round.roundNo + 1, now);
      return now + config.bettingMs;
    }
    return round.nextAt.getTime();
  });
}

/** The catalogue's live tables, remembered for half a minute: the catalogue rarely changes. */
export interface TableListCache {
  current?: { at: number; tables: LiveTable[] };
}

/** Every site's live tables. */
export async function listLiveTables(ctx: LiveContext, cache: TableListCache): Promise<LiveTable[]> {
  if (cache.current && Date.now() - cache.current.at < 30_000) return cache.current.tables;
  const tables: LiveTable[] = [];
  for (const site of await ctx.sites.listSites()) {
    for (const game of await ctx.games.listGames(site.id, 'en')) {
      if (isLiveEngine(game.engine)) tables.push({ siteId: site.id, sysname: game.sysname, engine: game.engine });
    }
  }
  tables.sort((a, b) => `${a.siteId}/${a.sysname}`.localeCompare(`${b.siteId}/${b.sysname}`));
  cache.current = { at: Date.now(), tables };
  return tables;
}

/** Advances every table once; returns when the earliest of them next has work. */
export async function advanceAllTables(ctx: LiveContext, cache: TableListCache, opensNext = true): Promise<number> {
  let next = ctx.clock() + 1000;
  for (const table of await listLiveTables(ctx, cache)) next = Math.min(next, await advanceTable(ctx, table, opensNext));
  return next;
}

/** Whether any table has a round not yet settled (a quiet process still owes its bets a result). */
export async function hasOpenRounds(ctx: LiveContext): Promise<boolean> {
  const [row] = await ctx.db.select({ id: liveRounds.id }).from(liveRounds).where(eq(liveRounds.status, 'open')).limit(1);
  return row !== undefined;
}
