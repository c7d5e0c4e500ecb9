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
 * Money moves through the ledger: the stake player → house at placement
 * (`live:{roundId}:{betId}:bet`), a win house → player at the cash-out or the settlement
 * (`live:{roundId}:{betId}:win`). Demo bets use the fun balance like single-request games; an
 * anonymous visitor's demo bet moves no money.
 *
 * A round that was not settled when its process stopped is settled by the next advance, by the
 * result its seed decides: crash bets not cashed out win iff their automatic target ≤ the crash
 * point; roulette bets against the pocket. Nothing is refunded or lost in between.
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { and, count, desc, eq, lt, lte, or } from 'drizzle-orm';
import { ApiError } from '#common/errors';
import { invalidParameter as invalid } from '../../api/require-valid';
import { checkStake } from '../games/stake-limits';
import { minorToAmount, money, type Money } from '#common/money';
import { crashMultiplierAt, settleCrash, CRASH_MIN_CASH_OUT_HUNDREDTHS } from '#common/games/crash';
import { settleLiveRoulette } from '#common/games/live-roulette';
import type { Database } from '../../db/client';
import { inTransaction, type Executor } from '../../db/retry';
import type { GamesService } from '../games/service';
import type { SiteService } from '../sites/service';
import { canonicalJson } from '../wallet/audit';
import { house, move, player } from '../wallet/postings';
import { InsufficientFundsError, type PlayerBalances, type WalletService } from '../wallet/service';
import { BetParamError } from '../game-rounds/engines';
import { ownerKeyOf, playingCurrency, type Gambler, type GameRoundsService } from '../game-rounds/service';
import {
  crashDurationMs,
  isLiveEngine,
  liveResult,
  prepareLiveBet,
  rouletteBetsOf,
  type LiveEngine,
  type LiveResult,
  type PreparedLiveBet,
} from './rules';
import { liveBets, liveLeases, liveRounds, type LiveBetRow, type LiveRoundRow } from './tables';

export interface LiveGamesConfig {
  /** How long betting stays open each round. */
  bettingMs: number;
  /** How long the live roulette wheel spins after betting closes. */
  spinMs: number;
  /** How long a result stays on the table before the next round opens. */
  resultMs: number;
  /** How long a process holds the scheduler lease without renewing it. */
  leaseMs: number;
}

export const DEFAULT_LIVE_CONFIG: LiveGamesConfig = { bettingMs: 8_000, spinMs: 4_000, resultMs: 3_000, leaseMs: 5_000 };

function envMs(value: string | undefined, fallback: number): number {
  const parsed = Number(value);
  return value !== undefined && value !== '' && Number.isInteger(parsed) && parsed >= 0 && parsed <= 600_000 ? parsed : fallback;
}

/** LIVE_GAMES_BETTING_MS, LIVE_GAMES_SPIN_MS, LIVE_GAMES_RESULT_MS, LIVE_GAMES_LEASE_MS. */
export function liveConfigFromEnv(env: NodeJS.ProcessEnv = process.env): LiveGamesConfig {
  return {
    bettingMs: envMs(env.LIVE_GAMES_BETTING_MS, DEFAULT_LIVE_CONFIG.bettingMs),
    spinMs: envMs(env.LIVE_GAMES_SPIN_MS, DEFAULT_LIVE_CONFIG.spinMs),
    resultMs: envMs(env.LIVE_GAMES_RESULT_MS, DEFAULT_LIVE_CONFIG.resultMs),
    leaseMs: envMs(env.LIVE_GAMES_LEASE_MS, DEFAULT_LIVE_CONFIG.leaseMs),
  };
}

export interface LiveGamesDeps {
  db: Database;
  wallet: WalletService;
  games: Pick<GamesService, 'getGame' | 'listGames'>;
  sites: Pick<SiteService, 'listSites'>;
  findUser: (uid: number) => Promise<{ currency: string } | undefined>;
  activeExclusion: (uid: number) => Promise<{ kind: string; endsAt: Date | null } | undefined>;
  /** The demo top-up of the in-house games (game-rounds/service.ts): one a day across all games. */
  grantDemoCredit: GameRoundsService['grantDemoCredit'];
  config?: Partial<LiveGamesConfig>;
  /** The server clock (tests pass their own). */
  clock?: () => number;
  /** Draws a round's server seed (tests pass their own). */
  drawServerSeed?: (table: LiveTable, roundNo: number) => string;
}

export interface LiveTable {
  siteId: string;
  sysname: string;
  engine: LiveEngine;
}

export type LivePhase = 'betting' | 'running' | 'result';

export interface LiveRoundView {
  id: string;
  round_no: number;
  sysname: string;
  engine: LiveEngine;
  phase: LivePhase;
  server_seed_hash: string;
  client_seed: string;
  /** The nonce of the round's stream. */
  nonce: number;
  betting_opens_at: string;
  betting_closes_at: string;
  /** Roulette: when the ball stops. Crash: null until the crash (it would tell the crash point). */
  result_at: string | null;
  next_at: string | null;
  /** Crash while running: the multiplier now, in hundredths. */
  multiplier: number | null;
  result: LiveResult | null;
  /** Revealed with the result. */
  server_seed: string | null;
  bets_count: number;
}

export interface LiveBetView {
  id: string;
  round_id: string;
  round_no: number;
  sysname: string;
  mode: 'real' | 'demo';
  status: string;
  stake: Money;
  payout: Money;
  bet: unknown;
  auto_cash_out: string | null;
  cash_out: string | null;
  created_at: string;
}

export interface LiveState {
  table: { sysname: string; engine: LiveEngine };
  server_time: string;
  round: LiveRoundView | null;
  /** The last settled rounds, newest first, with their results and revealed seeds. */
  history: LiveRoundView[];
  /** The caller's bets in the current round. */
  my_bets: LiveBetView[];
}

export interface LiveBetResult {
  bet: LiveBetView;
  is_replay: boolean;
  balance: Money | null;
}

const HISTORY_SIZE = 12;
const LEASE_NAME = 'live-games';

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

export function createLiveGamesService(deps: LiveGamesDeps) {
  const { db, wallet } = deps;
  const config: LiveGamesConfig = { ...DEFAULT_LIVE_CONFIG, ...deps.config };
  const clock = deps.clock ?? (() => Date.now());
  const drawServerSeed = deps.drawServerSeed ?? (() => randomBytes(32).toString('hex'));
  const instanceId = randomUUID();

  const seedsOf = (round: LiveRoundRow) => ({ serverSeed: round.serverSeed, clientSeed: round.clientSeed, nonce: round.roundNo });
  const resultOf = (round: LiveRoundRow) => liveResult(round.engine as LiveEngine, seedsOf(round));
  const crashPointOf = (round: LiveRoundRow) => (resultOf(round) as { crash_point: number }).crash_point;

  function phaseOf(round: LiveRoundRow, now: number): LivePhase {
    if (now < round.bettingClosesAt.getTime()) return 'betting';
    if (now < round.resultAt.getTime()) return 'running';
    return 'result';
  }

  function roundView(round: LiveRoundRow, now: number, betsCount: number): LiveRoundView {
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
    };
  }

  async function tableOf(who: Pick<Gambler, 'siteId' | 'locale'>, sysname: string) {
    const game = await deps.games.getGame(who.siteId, who.locale, sysname);
    if (!isLiveEngine(game.engine)) throw invalid('sysname', 'This game is not a live table');
    return { game, table: { siteId: who.siteId, sysname, engine: game.engine } satisfies LiveTable };
  }

  async function latestRound(
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

  async function betsCount(executor: Executor, roundId: number): Promise<number> {
    const [row] = await executor.select({ n: count() }).from(liveBets).where(eq(liveBets.roundId, roundId));
    return Number(row?.n ?? 0);
  }

  async function balancesOf(executor: Executor, siteId: string, uid: number, currency: string): Promise<PlayerBalances> {
    return wallet.balances(siteId, uid, currency, executor);
  }

  const balanceOf = (balances: PlayerBalances | undefined, mode: 'real' | 'demo', currency: string): Money | null =>
    balances ? money(mode === 'real' ? balances.main : balances.fun, currency) : null;

  /** Pays a bet's win (idempotent by key); nothing for an anonymous visitor or a zero payout. */
  async function payWin(tx: Executor, bet: LiveBetRow, round: LiveRoundRow, payoutMinor: bigint, actor: string): Promise<void> {
    if (bet.userId === null || payoutMinor <= 0n) return;
    const isReal = bet.mode === 'real';
    await wallet.transfer(
      {
        siteId: bet.siteId,
        userId: bet.userId,
        kind: isReal ? 'game_win' : 'demo_win',
        currency: bet.currency,
        amountMinor: payoutMinor,
        legs: move(house(isReal ? 'game' : 'fun_issuer', bet.userId), player(bet.userId, isReal ? 'main' : 'fun'), payoutMinor),
        idempotencyKey: `live:${round.id}:${bet.id}:win`,
        reference: `live:${round.id}`,
        actor,
        reason: `${round.sysname} win`,
      },
      tx,
    );
  }

  /** Settles every open bet of a round by the result its seed decides, and the round. */
  async function settleRound(tx: Executor, round: LiveRoundRow): Promise<void> {
    const result = resultOf(round);
    const open = await tx
      .select()
      .from(liveBets)
      .where(and(eq(liveBets.roundId, round.id), eq(liveBets.status, 'open')))
      .orderBy(liveBets.id)
      .for('update');
    const settledAt = new Date(clock());
    for (const bet of open) {
      let payoutMinor = 0n;
      let cashOut: number | null = null;
      if ('crash_point' in result) {
        if (bet.autoCashOut !== null) {
          const settlement = settleCrash({ stakeMinor: bet.stakeMinor, cashOutHundredths: bet.autoCashOut }, result.crash_point);
          payoutMinor = settlement.payoutMinor;
          if (settlement.isWin) cashOut = bet.autoCashOut;
        }
      } else {
        payoutMinor = settleLiveRoulette(rouletteBetsOf(bet.bet), { pocket: result.pocket, color: result.color }).payoutMinor;
      }
      await tx
        .update(liveBets)
        .set({ status: payoutMinor > 0n ? 'won' : 'lost', payoutMinor, cashOut, settledAt })
        .where(eq(liveBets.id, bet.id));
      await payWin(tx, bet, round, payoutMinor, 'system');
    }
    await tx.update(liveRounds).set({ status: 'settled', result, settledAt }).where(eq(liveRounds.id, round.id));
  }

  /** Crash while climbing: pays the automatic cash-outs the multiplier has reached. */
  async function runAutoCashOuts(tx: Executor, round: LiveRoundRow, now: number): Promise<void> {
    const reached = Math.min(crashMultiplierAt(now - round.bettingClosesAt.getTime()), crashPointOf(round));
    if (reached < CRASH_MIN_CASH_OUT_HUNDREDTHS) return;
    const due = await tx
      .select()
      .from(liveBets)
      .where(and(eq(liveBets.roundId, round.id), eq(liveBets.status, 'open'), lte(liveBets.autoCashOut, reached)))
      .orderBy(liveBets.id)
      .for('update');
    for (const bet of due) {
      const cashOut = bet.autoCashOut ?? reached;
      const { payoutMinor } = settleCrash({ stakeMinor: bet.stakeMinor, cashOutHundredths: cashOut }, crashPointOf(round));
      await tx
        .update(liveBets)
        .set({ status: 'won', cashOut, payoutMinor, settledAt: new Date(now) })
        .where(eq(liveBets.id, bet.id));
      await payWin(tx, bet, round, payoutMinor, 'system');
    }
  }

  async function openRound(tx: Executor, table: LiveTable, roundNo: number, now: number): Promise<void> {
    const serverSeed = drawServerSeed(table, roundNo);
    const clientSeed = `${table.siteId}:${table.sysname}`;
    const closes = now + config.bettingMs;
    const result = liveResult(table.engine, { serverSeed, clientSeed, nonce: roundNo });
    const runMs = 'crash_point' in result ? crashDurationMs(result.crash_point) : config.spinMs;
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
        nextAt: new Date(closes + runMs + config.resultMs),
      })
      .onConflictDoNothing();
  }

  /**
   * Moves one table on to where the clock says it is: settles a round whose result is out (also
   * one left by a stopped process), pays reached automatic cash-outs, opens the next round.
   * Returns when it next has something to do. Safe to run from several processes at once: the
   * table's newest round row is locked, and each step checks the state it changes.
   */
  async function advanceTable(table: LiveTable): Promise<number> {
    return inTransaction(db, async (tx) => {
      const now = clock();
      const round = await latestRound(tx, table, 'update');
      if (!round) {
        await openRound(tx, table, 1, now);
        return now + config.bettingMs;
      }
      if (round.status === 'open') {
        if (now < round.bettingClosesAt.getTime()) return round.bettingClosesAt.getTime();
        if (now < round.resultAt.getTime()) {
          if (round.engine !== 'crash') return round.resultAt.getTime();
          await runAutoCashOuts(tx, round, now);
          return Math.min(round.resultAt.getTime(), now + 100);
        }
        await settleRound(tx, round);
      }
      if (now >= round.nextAt.getTime()) {
        await openRound(tx, table, round.roundNo + 1, now);
        return now + config.bettingMs;
      }
      return round.nextAt.getTime();
    });
  }

  let tablesCache: { at: number; tables: LiveTable[] } | undefined;

  /** Every site's live tables (cached for half a minute: the catalogue rarely changes). */
  async function listTables(): Promise<LiveTable[]> {
    if (tablesCache && Date.now() - tablesCache.at < 30_000) return tablesCache.tables;
    const tables: LiveTable[] = [];
    for (const site of await deps.sites.listSites()) {
      for (const game of await deps.games.listGames(site.id, 'en')) {
        if (isLiveEngine(game.engine)) tables.push({ siteId: site.id, sysname: game.sysname, engine: game.engine });
      }
    }
    tables.sort((a, b) => `${a.siteId}/${a.sysname}`.localeCompare(`${b.siteId}/${b.sysname}`));
    tablesCache = { at: Date.now(), tables };
    return tables;
  }

  /** Takes or renews the scheduler lease; true when this process holds it now. */
  async function claimLease(holder = instanceId): Promise<boolean> {
    const now = clock();
    const expiresAt = new Date(now + config.leaseMs);
    const rows = await db
      .insert(liveLeases)
      .values({ name: LEASE_NAME, holder, expiresAt })
      .onConflictDoUpdate({
        target: liveLeases.name,
        set: { holder, expiresAt },
        setWhere: or(eq(liveLeases.holder, holder), lt(liveLeases.expiresAt, new Date(now))),
      })
      .returning({ holder: liveLeases.holder });
    return rows[0]?.holder === holder;
  }

  async function releaseLease(holder = instanceId): Promise<void> {
    await db.delete(liveLeases).where(and(eq(liveLeases.name, LEASE_NAME), eq(liveLeases.holder, holder)));
  }

  /** Advances every table once; returns when the earliest of them next has work. */
  async function advanceAll(): Promise<number> {
    let next = clock() + 1000;
    for (const table of await listTables()) next = Math.min(next, await advanceTable(table));
    return next;
  }

  async function findBet(executor: Executor, who: Gambler, betId: number, lock = false): Promise<LiveBetRow> {
    const query = executor
      .select()
      .from(liveBets)
      .where(and(eq(liveBets.id, betId), eq(liveBets.siteId, who.siteId), eq(liveBets.ownerKey, ownerKeyOf(who))));
    const [row] = lock ? await query.for('update') : await query;
    // Another owner's bet and an unknown id look the same.
    if (!row) throw invalid('bet_id');
    return row;
  }

  /** A table's public state (and one gambler's bets): what the events stream sends. */
  async function stateOf(table: LiveTable, who?: Gambler): Promise<LiveState> {
    const now = clock();
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

  return {
    config,
    stateOf,
    /** The live table of a site's game, or InvalidParameterException naming `sysname`. */
    tableFor: async (siteId: string, sysname: string): Promise<LiveTable> =>
      (await tableOf({ siteId, locale: 'en' }, sysname)).table,
    instanceId,
    listTables,
    advanceTable,
    advanceAll,
    claimLease,
    releaseLease,

    /** games.placeLiveBet: a bet in the current round of a table, only while betting is open. */
    async placeBet(
      who: Gambler,
      input: { sysname: string; mode: 'real' | 'demo'; bet: string; requestId: string },
    ): Promise<LiveBetResult> {
      if (input.mode === 'real' && who.uid <= 0) throw new ApiError('AuthorizationException', 'Sign in to play for real money');
      const { game, table } = await tableOf(who, input.sysname);
      if (input.mode === 'demo' && !game.has_demo) throw invalid('mode', 'This game has no demo mode');
      let prepared: PreparedLiveBet;
      try {
        prepared = prepareLiveBet(table.engine, input.bet);
      } catch (error) {
        if (error instanceof BetParamError) throw invalid(error.field, error.message);
        throw error;
      }
      checkStake(game.game_params, prepared.stakeMinor);
      const currency = await playingCurrency(who, deps);
      const ownerKey = ownerKeyOf(who);
      const requestHash = sha256(canonicalJson({ sysname: input.sysname, mode: input.mode, bet: prepared.normal }));

      try {
        return await inTransaction(db, async (tx) => {
          const [earlier] = await tx
            .select()
            .from(liveBets)
            .where(
              and(eq(liveBets.siteId, who.siteId), eq(liveBets.ownerKey, ownerKey), eq(liveBets.requestKey, input.requestId)),
            );
          if (earlier) {
            if (earlier.requestHash !== requestHash) throw invalid('request_id', 'This request id was used for another bet');
            const [earlierRound] = await tx.select().from(liveRounds).where(eq(liveRounds.id, earlier.roundId));
            const balances =
              earlier.userId !== null ? await balancesOf(tx, who.siteId, earlier.userId, earlier.currency) : undefined;
            return {
              bet: betView(earlier, earlierRound ?? { roundNo: 0, sysname: input.sysname }),
              is_replay: true,
              balance: balanceOf(balances, earlier.mode, earlier.currency),
            };
          }
          // Shared lock: the round cannot be settled while a bet joins it.
          const round = await latestRound(tx, table, 'share');
          const now = clock();
          if (
            !round ||
            round.status !== 'open' ||
            now < round.bettingOpensAt.getTime() ||
            now >= round.bettingClosesAt.getTime()
          ) {
            throw invalid('round', 'Betting is closed: wait for the next round');
          }
          if (table.engine === 'crash') {
            const [mine] = await tx
              .select({ id: liveBets.id })
              .from(liveBets)
              .where(and(eq(liveBets.roundId, round.id), eq(liveBets.ownerKey, ownerKey)));
            if (mine) throw invalid('bet', 'You already have a bet in this round');
          }
          const [created] = await tx
            .insert(liveBets)
            .values({
              roundId: round.id,
              siteId: who.siteId,
              ownerKey,
              userId: who.uid > 0 ? who.uid : null,
              visitorId: who.uid > 0 ? null : who.visitorId,
              mode: input.mode,
              currency,
              stakeMinor: prepared.stakeMinor,
              bet: prepared.normal,
              autoCashOut: prepared.autoCashOut,
              requestKey: input.requestId,
              requestHash,
            })
            .returning();
          if (!created) throw new Error('the bet could not be recorded');
          let balances: PlayerBalances | undefined;
          if (who.uid > 0) {
            const isReal = input.mode === 'real';
            if (!isReal) await deps.grantDemoCredit(tx, who, currency, prepared.stakeMinor, new Date(clock()));
            await wallet.transfer(
              {
                siteId: who.siteId,
                userId: who.uid,
                kind: isReal ? 'game_bet' : 'demo_bet',
                currency,
                amountMinor: prepared.stakeMinor,
                legs: move(
                  player(who.uid, isReal ? 'main' : 'fun'),
                  house(isReal ? 'game' : 'fun_issuer', who.uid),
                  prepared.stakeMinor,
                ),
                idempotencyKey: `live:${round.id}:${created.id}:bet`,
                reference: `live:${round.id}`,
                actor: `player:${who.uid}`,
                reason: `${round.sysname} bet`,
              },
              tx,
            );
            balances = await balancesOf(tx, who.siteId, who.uid, currency);
          }
          return { bet: betView(created, round), is_replay: false, balance: balanceOf(balances, input.mode, currency) };
        });
      } catch (error) {
        if (!(error instanceof InsufficientFundsError)) throw error;
        const balances = await wallet.balances(who.siteId, who.uid, currency);
        if (input.mode === 'real' && balances.main === 0n)
          throw new ApiError('UserNeedDepositException', 'Make a deposit to play for real money');
        throw invalid(
          'stake',
          input.mode === 'real' ? 'The stake is above your balance' : 'The stake is above your demo balance',
        );
      }
    },

    /**
     * games.cashOut: takes a crash bet out at the multiplier the server clock shows now, while it
     * is below the crash point. A bet cashed out already answers its cash-out again.
     */
    async cashOut(who: Gambler, betId: number): Promise<LiveBetResult> {
      const found = await findBet(db, who, betId);
      return inTransaction(db, async (tx) => {
        const [round] = await tx.select().from(liveRounds).where(eq(liveRounds.id, found.roundId)).for('share');
        const bet = await findBet(tx, who, betId, true);
        if (!round || round.engine !== 'crash') throw invalid('bet_id', 'Only a crash bet can be cashed out');
        const balance = async () =>
          bet.userId !== null
            ? balanceOf(await balancesOf(tx, who.siteId, bet.userId, bet.currency), bet.mode, bet.currency)
            : null;
        if (bet.cashOut !== null) return { bet: betView(bet, round), is_replay: true, balance: await balance() };
        const now = clock();
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
        await payWin(tx, bet, round, payoutMinor, `player:${who.uid}`);
        return { bet: betView(updated ?? bet, round), is_replay: false, balance: await balance() };
      });
    },

    /** games.getLiveState: the table now, its last results, the caller's bets in this round and balance. */
    async getState(who: Gambler, sysname: string, mode?: 'real' | 'demo'): Promise<LiveState & { balance: Money | null }> {
      const { table } = await tableOf(who, sysname);
      const state = await stateOf(table, who);
      if (who.uid <= 0 || !mode) return { ...state, balance: null };
      const currency = (await deps.findUser(who.uid))?.currency ?? who.siteCurrency;
      return { ...state, balance: balanceOf(await wallet.balances(who.siteId, who.uid, currency), mode, currency) };
    },

    /** games.getLiveBets: the caller's last bets at a table, newest first, with their rounds' results. */
    async getBets(who: Gambler, sysname: string, limit = 10): Promise<Array<LiveBetView & { round: LiveRoundView }>> {
      const { table } = await tableOf(who, sysname);
      const rows = await db
        .select({ bet: liveBets, round: liveRounds })
        .from(liveBets)
        .innerJoin(liveRounds, eq(liveRounds.id, liveBets.roundId))
        .where(
          and(eq(liveBets.siteId, who.siteId), eq(liveBets.ownerKey, ownerKeyOf(who)), eq(liveRounds.sysname, table.sysname)),
        )
        .orderBy(desc(liveBets.id))
        .limit(Math.min(Math.max(1, limit), 100));
      const now = clock();
      return rows.map((row) => ({ ...betView(row.bet, row.round), round: roundView(row.round, now, 0) }));
    },

    /** games.verifyLiveRound: a past round with its seed revealed once its result is out. */
    async verifyRound(who: Pick<Gambler, 'siteId'>, roundId: number) {
      const [round] = await db
        .select()
        .from(liveRounds)
        .where(and(eq(liveRounds.id, roundId), eq(liveRounds.siteId, who.siteId)));
      if (!round) throw invalid('round_id');
      const now = clock();
      const view = roundView(round, now, await betsCount(db, round.id));
      if (view.phase !== 'result') return { round: view, is_revealed: false, is_verified: null };
      return { round: view, is_revealed: true, is_verified: sha256(round.serverSeed) === round.serverSeedHash };
    },

    /** Open rounds whose result is out (a stopped process's leftovers): for tests and operators. */
    async overdueRounds(): Promise<number> {
      const [row] = await db
        .select({ n: count() })
        .from(liveRounds)
        .where(and(eq(liveRounds.status, 'open'), lte(liveRounds.resultAt, new Date(clock()))));
      return Number(row?.n ?? 0);
    },
  };
}

export type LiveGamesService = ReturnType<typeof createLiveGamesService>;
