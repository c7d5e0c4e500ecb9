/**
 * What every live-games use case works with: the service's dependencies, its clock and phase
 * lengths, and the pure reading of a round from its seed.
 */
import { and, desc, eq } from 'drizzle-orm';
import { money, type Money } from '#common/money';
import { invalidParameter as invalid } from '#common/parameter-errors';
import type { Database } from '../../db/client';
import type { Executor } from '../../db/retry';
import type { GamesService } from '../games';
import type { Gambler, RoundIntake } from '../round-intake';
import type { SiteService } from '../sites';
import type { PlayerBalances, WalletService } from '../wallet';
import { isLiveEngine, liveResult, type LiveEngine } from './rules';
import { liveRounds, type LiveRoundRow } from './tables';

export interface LiveGamesConfig {
  /** How long betting stays open each round. */
  bettingMs: number;
  /** How long the live roulette wheel spins after betting closes. */
  spinMs: number;
  /** How long a result stays on the table before the next round opens. */
  resultMs: number;
  /** How long a process holds the scheduler lease without renewing it. */
  leaseMs: number;
  /**
   * With nobody at any table of the process for this long, the tables finish the rounds under way
   * and open no new ones until someone comes back (interest.ts); 0 keeps them always running.
   */
  idleAfterMs: number;
}

export const DEFAULT_LIVE_CONFIG: LiveGamesConfig = {
  bettingMs: 8_000,
  spinMs: 4_000,
  resultMs: 3_000,
  leaseMs: 5_000,
  idleAfterMs: 0,
};

export interface LiveTable {
  siteId: string;
  sysname: string;
  engine: LiveEngine;
}

export interface LiveGamesDeps {
  db: Database;
  wallet: WalletService;
  /** The round-intake core: every bet's checks, transfers and hooks. */
  intake: RoundIntake;
  games: Pick<GamesService, 'getGame' | 'listGames'>;
  sites: Pick<SiteService, 'listSites'>;
  findUser: (uid: number) => Promise<{ currency: string } | undefined>;
  config?: Partial<LiveGamesConfig>;
  /** The server clock (tests pass their own). */
  clock?: () => number;
  /** Draws a round's server seed (tests pass their own). */
  drawServerSeed?: (table: LiveTable, roundNo: number) => string;
}

/** The service's dependencies with its settings resolved: what the use cases are given. */
export interface LiveContext extends Omit<LiveGamesDeps, 'config' | 'clock' | 'drawServerSeed'> {
  config: LiveGamesConfig;
  clock: () => number;
  drawServerSeed: (table: LiveTable, roundNo: number) => string;
  /** This process's name on the scheduler lease. */
  instanceId: string;
}

export const seedsOf = (round: LiveRoundRow) => ({
  serverSeed: round.serverSeed,
  clientSeed: round.clientSeed,
  nonce: round.roundNo,
});
export const resultOf = (round: LiveRoundRow) => liveResult(round.engine as LiveEngine, seedsOf(round));
export const crashPointOf = (round: LiveRoundRow) => (resultOf(round) as { crash_point: number }).crash_point;

export const balanceOf = (balances: PlayerBalances | undefined, mode: 'real' | 'demo', currency: string): Money | null =>
  balances ? money(mode === 'real' ? balances.main : balances.fun, currency) : null;

/** The live table of a site's game, or InvalidParameterException naming `sysname`. */
export async function tableOf(ctx: Pick<LiveContext, 'games'>, who: Pick<Gambler, 'siteId' | 'locale'>, sysname: string) {
  const game = await ctx.games.getGame(who.siteId, who.locale, sysname);
  if (!isLiveEngine(game.engine)) throw invalid('sysname', 'This game is not a live table');
  return { game, table: { siteId: who.siteId, sysname, engine: game.engine } satisfies LiveTable };
}

/** A table's newest round, locked when asked: the row every step of the table queues on. */
export async function latestRound(
  executor: Executor,
  table: Pick<LiveTable, 'siteId' | 'sysname'>,
  lock?: 'update' | 'share',
): Promise<LiveRoundRow | undefined> {
  const query = executor
    .select()
    .from(liveRounds)
    .where(and(eq(liveRounds.siteId, table.siteId), eq(liveRounds.sysname, table.sysname)))
    .orderBy(desc(liveRounds.roundNo))
    .limit(1);
  const [row] = lock ? await query.for(lock) : await query;
  return row;
}
