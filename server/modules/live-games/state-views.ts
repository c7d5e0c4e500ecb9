/**
 * What a live table shows: a round as the clock says it is (the crash point and the seed stay
 * hidden until the result is out), the bets, a table's state, a player's bets, a round's proof.
 */
import { createHash } from 'node:crypto';
import { and, count, desc, eq, lte } from 'drizzle-orm';
import { crashMultiplierAt } from '#common/games/crash';
import { minorToAmount, money, type Money } from '#common/money';
import { invalidParameter as invalid } from '#common/parameter-errors';
import type { Executor } from '../../db/retry';
import { ownerKeyOf, type Gambler } from '../round-intake';
import { balanceOf, resultOf, tableOf, type LiveContext, type LiveTable } from './context';
import type { LiveEngine } from './rules';
import { liveBets, liveRounds, type LiveBetRow, type LiveRoundRow } from './tables';

import type { LiveBetView, LivePhase, LiveRoundView, LiveState } from '#common/contract';

// The wire shapes are the contract's (common/contract/games.ts); this file builds them.
export type { LiveBetView, LivePhase, LiveRoundView, LiveState };

const HISTORY_SIZE = 12;

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const hundredthsText = (value: number | null) => (value === null ? null : minorToAmount(BigInt(value)));

export function betView(row: LiveBetRow, round: Pick<LiveRoundRow, 'roundNo' | 'sysname'>): LiveBetView {
  return {
    id: String(row.id),
    round_id: String(row.roundId),
    round_no: round.roundNo,
    sysname: round.sysname,
    mode: row.mode,
    status: row.status,
    stake: money(row.stakeMinor, row.currency),
    payout: money(row.payoutMinor, row.currency),
    bet: row.bet,
    auto_cash_out: hundredthsText(row.autoCashOut),
    cash_out: hundredthsText(row.cashOut),
    created_at: row.createdAt.toISOString(),
  };
}

export function phaseOf(round: LiveRoundRow, now: number): LivePhase {
  if (now < round.bettingClosesAt.getTime()) return 'betting';
  if (now < round.resultAt.getTime()) return 'running';
  return 'result';
}

export function roundView(round: LiveRoundRow, now: number, betsCount: number): LiveRoundView {
  const phase = phaseOf(round, now);
  const isOut = phase === 'result';
  const isCrash = round.engine === 'crash';
  return {
    id: String(round.id),
    round_no: round.roundNo,
    sysname: round.sysname,
    engine: round.engine as LiveEngine,
    phase,
    server_seed_hash: round.serverSeedHash,
    client_seed: round.clientSeed,
    nonce: round.roundNo,
    betting_opens_at: round.bettingOpensAt.toISOString(),
    betting_closes_at: round.bettingClosesAt.toISOString(),
    result_at: !isCrash || isOut ? round.resultAt.toISOString() : null,
    next_at: !isCrash || isOut ? round.nextAt.toISOString() : null,
    multiplier: isCrash && phase === 'running' ? crashMultiplierAt(now - round.bettingClosesAt.getTime()) : null,
    result: isOut ? resultOf(round) : null,
    server_seed: isOut ? round.serverSeed : null,
    bets_count: betsCount,
    settled: round.status === 'settled',
  };
}

async function betsCount(executor: Executor, roundId: number): Promise<number> {
  const [row] = await executor.select({ n: count() }).from(liveBets).where(eq(liveBets.roundId, roundId));
  return Number(row?.n ?? 0);
}

/** A table's public state (and one gambler's bets): what the events stream sends. */
export async function tableState(ctx: LiveContext, table: LiveTable, who?: Gambler): Promise<LiveState> {
  const { db } = ctx;
  const now = ctx.clock();
  const recent = await db
    .select()
    .from(liveRounds)
    .where(and(eq(liveRounds.siteId, table.siteId), eq(liveRounds.sysname, table.sysname)))
    .orderBy(desc(liveRounds.roundNo))
    .limit(HISTORY_SIZE + 1);
  const [current] = recent;
  const history = recent.filter((round) => now >= round.resultAt.getTime());
  let myBets: LiveBetView[] = [];
  if (current && who) {
    const rows = await db
      .select()
      .from(liveBets)
      .where(and(eq(liveBets.roundId, current.id), eq(liveBets.ownerKey, ownerKeyOf(who))))
      .orderBy(liveBets.id);
    myBets = rows.map((row) => betView(row, current));
  }
  return {
    table: { sysname: table.sysname, engine: table.engine },
    server_time: new Date(now).toISOString(),
    round: current ? roundView(current, now, await betsCount(db, current.id)) : null,
    history: history.slice(0, HISTORY_SIZE).map((round) => roundView(round, now, 0)),
    my_bets: myBets,
  };
}

/** games.getLiveState: the table now, its last results, the caller's bets in this round and balance. */
export async function playerTableState(
  ctx: LiveContext,
  who: Gambler,
  sysname: string,
  mode?: 'real' | 'demo',
): Promise<LiveState & { balance: Money | null }> {
  const { table } = await tableOf(ctx, who, sysname);
  const state = await tableState(ctx, table, who);
  if (who.uid <= 0 || !mode) return { ...state, balance: null };
  const currency = (await ctx.findUser(who.uid))?.currency ?? who.siteCurrency;
  return { ...state, balance: balanceOf(await ctx.wallet.balances(who.siteId, who.uid, currency), mode, currency) };
}

/** games.getLiveBets: the caller's last bets at a table, newest first, with their rounds' results. */
export async function playerBets(
  ctx: LiveContext,
  who: Gambler,
  sysname: string,
  limit = 10,
): Promise<Array<LiveBetView & { round: LiveRoundView }>> {
  const { table } = await tableOf(ctx, who, sysname);
  const rows = await ctx.db
    .select({ bet: liveBets, round: liveRounds })
    .from(liveBets)
    .innerJoin(liveRounds, eq(liveRounds.id, liveBets.roundId))
    .where(and(eq(liveBets.siteId, who.siteId), eq(liveBets.ownerKey, ownerKeyOf(who)), eq(liveRounds.sysname, table.sysname)))
    .orderBy(desc(liveBets.id))
    .limit(Math.min(Math.max(1, limit), 100));
  const now = ctx.clock();
  return rows.map((row) => ({ ...betView(row.bet, row.round), round: roundView(row.round, now, 0) }));
}

/** games.verifyLiveRound: a past round with its seed revealed once its result is out. */
export async function verifyLiveRound(ctx: LiveContext, who: Pick<Gambler, 'siteId'>, roundId: number) {
  const [round] = await ctx.db
    .select()
    .from(liveRounds)
    .where(and(eq(liveRounds.id, roundId), eq(liveRounds.siteId, who.siteId)));
  if (!round) throw invalid('round_id');
  const view = roundView(round, ctx.clock(), await betsCount(ctx.db, round.id));
  if (view.phase !== 'result') return { round: view, is_revealed: false, is_verified: null };
  return { round: view, is_revealed: true, is_verified: sha256(round.serverSeed) === round.serverSeedHash };
}

/** Open rounds whose result is out (a stopped process's leftovers): for tests and operators. */
export async function overdueRounds(ctx: LiveContext): Promise<number> {
  const [row] = await ctx.db
    .select({ n: count() })
    .from(liveRounds)
    .where(and(eq(liveRounds.status, 'open'), lte(liveRounds.resultAt, new Date(ctx.clock()))));
  return Number(row?.n ?? 0);
}
