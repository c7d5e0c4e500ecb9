/**
 * Live in-house games (issue 5; docs/live-games.md): crash and live roulette tables whose rounds
 * are shared by every player of a site.
 *
 * A table is a site's game by sysname whose engine is `crash` or `live-roulette`. Its rounds are
 * rows with times: betting until `betting_closes_at`, the climb (crash) or the spin (roulette)
 * until `result_at`, the result shown until `next_at`. The server seed of a round is drawn when the
 * round opens and its SHA-256 is shown from then; the seed is shown once the result is out. The
 * times decide: a bet is taken only while the server clock is in the betting window, a crash
 * cash-out only while the climb is below the crash point. Any process answers bets and cash-outs;
 * one process (holding the lease) advances the tables: settles rounds and opens the next.
 *
 * Money moves through the round-intake core: the stake player → house at placement
 * (`live:{roundId}:{betId}:bet`), a win house → player at the cash-out or the settlement
 * (`live:{roundId}:{betId}:win`). Demo bets use the fun balance like single-request games; an
 * anonymous visitor's demo bet moves no money.
 *
 * A round that was not settled when its process stopped is settled by the next advance, by the
 * result its seed decides: crash bets not cashed out win iff their automatic target ≤ the crash
 * point; roulette bets against the pocket. Nothing is refunded or lost in between.
 *
 * The use cases live in their own files, each a function given its dependencies (context.ts):
 * the table clock (table-clock.ts) and its lease (lease.ts), bets and cash-outs (bets.ts), and
 * what the tables show (state-views.ts). This file composes them into the service.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import type { Gambler } from '../round-intake';
import { cashOutLiveBet, placeLiveBet } from './bets';
import { DEFAULT_LIVE_CONFIG, tableOf, type LiveContext, type LiveGamesDeps, type LiveTable } from './context';
import { createLiveInterest } from './interest';
import { claimLease, releaseLease } from './lease';
import { overdueRounds, playerBets, playerTableState, tableState, verifyLiveRound } from './state-views';
import { advanceAllTables, advanceTable, hasOpenRounds, listLiveTables, type TableListCache } from './table-clock';

export { DEFAULT_LIVE_CONFIG, type LiveGamesConfig, type LiveGamesDeps, type LiveTable } from './context';
export { betView, type LiveBetView, type LivePhase, type LiveRoundView, type LiveState } from './state-views';
export type { LiveBetResult } from './bets';

export function createLiveGamesService(deps: LiveGamesDeps) {
  const ctx: LiveContext = {
    ...deps,
    config: { ...DEFAULT_LIVE_CONFIG, ...deps.config },
    clock: deps.clock ?? (() => Date.now()),
    drawServerSeed: deps.drawServerSeed ?? (() => randomBytes(32).toString('hex')),
    instanceId: randomUUID(),
  };
  const tablesCache: TableListCache = {};
  const interest = createLiveInterest(ctx.config.idleAfterMs, ctx.clock);
  /** A use case a player reaches at a table: it counts as someone at the tables. */
  const atTable =
    <A extends unknown[], R>(useCase: (...args: A) => R) =>
    (...args: A): R => {
      interest.touch();
      return useCase(...args);
    };

  return {
    config: ctx.config,
    /** A table's public state (and one gambler's bets): what the events stream sends. */
    stateOf: (table: LiveTable, who?: Gambler) => tableState(ctx, table, who),
    /** The live table of a site's game, or InvalidParameterException naming `sysname`. */
    tableFor: async (siteId: string, sysname: string): Promise<LiveTable> =>
      (await tableOf(ctx, { siteId, locale: 'en' }, sysname)).table,
    instanceId: ctx.instanceId,
    /** Every site's live tables (cached for half a minute: the catalogue rarely changes). */
    listTables: () => listLiveTables(ctx, tablesCache),
    /** Moves a table on; with nobody at the tables it finishes the round under way and opens no next one. */
    advanceTable: (table: LiveTable) => advanceTable(ctx, table, interest.isActive()),
    advanceAll: () => advanceAllTables(ctx, tablesCache, interest.isActive()),
    /** Whether any table has a round not yet settled. */
    hasOpenRounds: () => hasOpenRounds(ctx),
    /** Whether anyone is at the tables in this process (interest.ts). */
    isWatched: () => interest.isActive(),
    /** Runs `listener` when someone comes back to the tables after a quiet spell; returns the unsubscribe. */
    onWatched: (listener: () => void) => interest.onReturn(listener),
    /** An open event stream keeps the tables running until the returned release is called. */
    holdInterest: () => interest.hold(),
    claimLease: (holder?: string) => claimLease(ctx, holder),
    releaseLease: (holder?: string) => releaseLease(ctx, holder),
    /** games.placeLiveBet: a bet in the current round of a table, only while betting is open. */
    placeBet: atTable((who: Gambler, input: { sysname: string; mode: 'real' | 'demo'; bet: string; requestId: string }) =>
      placeLiveBet(ctx, who, input),
    ),
    /** games.cashOut: a crash bet taken out at the multiplier the server clock shows now. */
    cashOut: atTable((who: Gambler, betId: number) => cashOutLiveBet(ctx, who, betId)),
    /** games.getLiveState: the table now, its last results, the caller's bets in this round and balance. */
    getState: atTable((who: Gambler, sysname: string, mode?: 'real' | 'demo') => playerTableState(ctx, who, sysname, mode)),
    /** games.getLiveBets: the caller's last bets at a table, newest first, with their rounds' results. */
    getBets: atTable((who: Gambler, sysname: string, limit?: number) => playerBets(ctx, who, sysname, limit)),
    /** games.verifyLiveRound: a past round with its seed revealed once its result is out. */
    verifyRound: (who: Pick<Gambler, 'siteId'>, roundId: number) => verifyLiveRound(ctx, who, roundId),
    /** Open rounds whose result is out (a stopped process's leftovers): for tests and operators. */
    overdueRounds: () => overdueRounds(ctx),
  };
}

export type LiveGamesService = ReturnType<typeof createLiveGamesService>;
