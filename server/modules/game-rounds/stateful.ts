/**
 * Real and demo play of the stateful in-house games, mines and blackjack (issue 5; architecture
 * §5 money, §6 games): a round opens with one request and ends after several.
 *
 * - games.start locks the owner's seed pair, takes its nonce, lays the field or deals the cards
 *   from HMAC(server seed, client seed:nonce) and moves the stake (`round:{id}:bet`) in one
 *   transaction. One round per player and game is open at a time.
 * - games.act locks the round row, applies one action, moves any extra stake (double, split,
 *   insurance: `round:{id}:bet:2`, `:3` …) and, when the round ends, its win (`round:{id}:win`),
 *   all in one transaction. The state lives in the database between requests, so a round
 *   survives a restart of the process; games.getOpenRound gives it back to a reloaded page.
 * - A request id seen before returns the result it had (played again from the seeds) and moves
 *   nothing. An action out of turn, on a settled round or on someone else's round moves nothing.
 * - settleAbandoned (the `games.settleAbandoned` job, server/schedules.ts) ends rounds left
 *   alone for longer than the configured time by the open-round rule of stateful-engines.ts.
 */
import { createHash } from 'node:crypto';
import { and, asc, eq, inArray, lt } from 'drizzle-orm';
import { ApiError } from '#common/errors';
import { invalidParameter as invalid } from '#common/parameter-errors';
import { money, type Money } from '#common/money';
import type { Database } from '../../db/client';
import { inTransaction, type Executor } from '../../db/retry';
import type { GamesService } from '../games';
import { canonicalJson } from '#common/canonical-json';
import {
  ownerKeyOf,
  refuseExclusion,
  requireDemoOffered,
  requireSignedInForReal,
  type Gambler,
  type RoundIntake,
} from '../round-intake';
import { InsufficientFundsError, type PlayerBalances, type WalletService } from '../wallet';
import {
  drawNonce,
  newRoundColumns,
  roundMoneyOf,
  roundOfRequest,
  roundView,
  type GameRoundsService,
  type RoundView,
} from './service';
import {
  ActionError,
  applyAction,
  decodeState,
  encodeState,
  isOver,
  isStatefulEngine,
  normalAction,
  payoutMinor,
  prepareStatefulBet,
  publicView,
  replayActions,
  settleByTimeout,
  settledOutcome,
  startState,
  STATEFUL_ENGINES,
  totalStakeMinor,
  type RecordedAction,
  type SettledBy,
  type StatefulEngine,
} from './stateful-engines';
import { fairSeeds, gameRounds, type GameRoundMode } from './tables';
import type { StatefulResult } from '#common/contract';

export type { StatefulResult };

type RoundRow = typeof gameRounds.$inferSelect;

/** A round left without an action this long is settled by the open-round rule (default: 24 hours). */
export const DEFAULT_ABANDON_AFTER_MS = 24 * 60 * 60 * 1000;

export interface StatefulRoundsDeps {
  db: Database;
  wallet: WalletService;
  /** The round-intake core: every bet's checks, transfers and hooks. */
  intake: RoundIntake;
  games: Pick<GamesService, 'getGame'>;
  rounds: Pick<GameRoundsService, 'activeSeed' | 'lockActiveSeed'>;
  activeExclusion: (uid: number) => Promise<{ kind: string; endsAt: Date | null } | undefined>;
  /** How long an open round may wait for its player before settleAbandoned ends it. */
  abandonAfterMs?: number;
}

/** What the `state` column holds while a round is open. */
interface StoredState {
  game: unknown;
  actions: RecordedAction[];
  /** When the round was opened or last acted on (ISO): the abandon clock starts here. */
  touched_at: string;
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

function storedState(row: RoundRow): StoredState {
  return row.state as StoredState;
}

/** What an action request is compared by when its id comes again. */
const actionHash = (roundId: number, action: { action: string; params: Record<string, unknown> }) =>
  sha256(canonicalJson({ round_id: String(roundId), action: action.action, params: action.params }));

/**
 * The actions of a round, open (state) or settled (outcome). The outcome shown for recall
 * leaves the request hashes out; they are computed again from the action and its parameters.
 */
function actionsOf(row: RoundRow): RecordedAction[] {
  if (row.status === 'open') return storedState(row).actions;
  return ((row.outcome as { actions?: RecordedAction[] } | null)?.actions ?? []).map((item) => ({
    ...item,
    params: item.params ?? {},
    request_hash: actionHash(row.id, { action: item.action, params: item.params ?? {} }),
  }));
}

export function createStatefulRoundsService(deps: StatefulRoundsDeps) {
  const { db, wallet, intake } = deps;
  const abandonAfterMs = deps.abandonAfterMs ?? DEFAULT_ABANDON_AFTER_MS;

  async function seedsOf(executor: Executor, row: RoundRow) {
    const [seed] = await executor.select().from(fairSeeds).where(eq(fairSeeds.id, row.seedId));
    if (!seed) throw new Error(`the seed pair of round ${row.id} is missing`);
    return { serverSeed: seed.serverSeed, clientSeed: row.clientSeed, nonce: row.nonce };
  }

  function balanceOf(balances: PlayerBalances | undefined, mode: GameRoundMode, currency: string): Money | null {
    return balances ? money(mode === 'real' ? balances.main : balances.fun, currency) : null;
  }

  /** The balance played on and, for a real round while the player holds bonus money, the bonus balance (issue 13). */
  function balanceFields(balances: PlayerBalances | undefined, mode: GameRoundMode, currency: string) {
    const balance = balanceOf(balances, mode, currency);
    return balances && mode === 'real' && balances.bonus > 0n
      ? { balance, bonus_balance: money(balances.bonus, currency) }
      : { balance };
  }

  async function balancesFor(tx: Executor, row: RoundRow): Promise<PlayerBalances | undefined> {
    return row.userId ? wallet.balances(row.siteId, row.userId, row.currency, tx) : undefined;
  }

  /** The owner's catalogue game, checked to be a stateful one. */
  async function statefulGame(who: Gambler, sysname: string) {
    const game = await deps.games.getGame(who.siteId, who.locale, sysname);
    if (!isStatefulEngine(game.engine)) throw invalid('sysname', 'This game is not played with games.start');
    return { ...game, engine: game.engine };
  }

  /** One stake of a round: the opening one (`round:{id}:bet`), or `:bet:2`, `:bet:3` … for doubles, splits, insurance. */
  async function moveStake(tx: Executor, row: RoundRow, amountMinor: bigint, sequence: number, gameType?: string): Promise<void> {
    // An anonymous visitor's demo round moves no money.
    if (!row.userId || amountMinor <= 0n) return;
    const idempotencyKey = sequence === 1 ? `round:${row.id}:bet` : `round:${row.id}:bet:${sequence}`;
    await intake.stake(tx, roundMoneyOf(row, 'stateful', row.userId, gameType), { amountMinor, idempotencyKey });
  }

  /** The round's payout (`round:{id}:win`), once; the hooks hear of a lost round too. */
  async function movePayout(tx: Executor, row: RoundRow, amountMinor: bigint, actor: string): Promise<void> {
    if (!row.userId) return;
    await intake.settle(tx, roundMoneyOf(row, 'stateful', row.userId), {
      amountMinor,
      idempotencyKey: `round:${row.id}:win`,
      actor,
    });
  }

  /**
   * Writes the round after a change: still open (new state), or settled (outcome, payout paid).
   * Extra stake, when the change added any, moves first: a short balance refuses the action.
   */
  async function saveRound(
    tx: Executor,
    row: RoundRow,
    engine: StatefulEngine,
    state: ReturnType<typeof startState>,
    actions: RecordedAction[],
    settledBy: SettledBy | null,
    paidOverride?: bigint,
  ): Promise<RoundRow> {
    const stake = totalStakeMinor(engine, state);
    if (stake > row.stakeMinor)
      await moveStake(
        tx,
        row,
        stake - row.stakeMinor,
        1 + actions.filter((item) => ['double', 'split', 'insurance'].includes(item.action)).length,
      );
    if (!settledBy) {
      const [saved] = await tx
        .update(gameRounds)
        .set({
          stakeMinor: stake,
          state: { game: encodeState(state), actions, touched_at: new Date().toISOString() } satisfies StoredState,
        })
        .where(eq(gameRounds.id, row.id))
        .returning();
      if (!saved) throw new Error('the round could not be saved');
      return saved;
    }
    const paid = paidOverride ?? payoutMinor(engine, state);
    await movePayout(tx, row, paid, settledBy === 'timeout' ? 'system' : `player:${row.userId ?? 0}`);
    const [settled] = await tx
      .update(gameRounds)
      .set({
        stakeMinor: stake,
        payoutMinor: paid,
        state: null,
        status: 'settled',
        settledAt: new Date(),
        outcome: settledOutcome(engine, state, actions, settledBy, paid),
      })
      .where(eq(gameRounds.id, row.id))
      .returning();
    if (!settled) throw new Error('the round could not be settled');
    return settled;
  }

  /** The table a round shows now: the open state, or the settled outcome. */
  function gameView(row: RoundRow, engine: StatefulEngine): Record<string, unknown> {
    if (row.status === 'open') return publicView(engine, decodeState(storedState(row).game));
    return { ...((row.outcome ?? {}) as Record<string, unknown>) };
  }

  /** The owner's round, locked: another player's round and an unknown id look the same. */
  async function lockOwnRound(tx: Executor, who: Gambler, roundId: number): Promise<RoundRow> {
    const [row] = await tx
      .select()
      .from(gameRounds)
      .where(and(eq(gameRounds.id, roundId), eq(gameRounds.siteId, who.siteId), eq(gameRounds.ownerKey, ownerKeyOf(who))))
      .for('update');
    if (!row || !isStatefulEngine(row.engine)) throw invalid('round_id', 'There is no such round of yours');
    return row;
  }

  async function settleAbandonedRound(roundId: number, now: Date): Promise<boolean> {
    return inTransaction(db, async (tx) => {
      const [row] = await tx.select().from(gameRounds).where(eq(gameRounds.id, roundId)).for('update');
      if (!row || row.status !== 'open' || !isStatefulEngine(row.engine)) return false;
      const stored = storedState(row);
      if (now.getTime() - Date.parse(stored.touched_at) < abandonAfterMs) return false;
      const seeds = await seedsOf(tx, row);
      const ended = settleByTimeout(row.engine, decodeState(stored.game), seeds);
      await saveRound(tx, row, row.engine, ended.state, stored.actions, 'timeout', ended.payoutMinor);
      return true;
    });
  }

  return {
    abandonAfterMs,

    /** games.start: opens a round of mines or blackjack and moves its stake. */
    async start(
      who: Gambler,
      input: { sysname: string; mode: GameRoundMode; bet: string; requestId: string },
    ): Promise<StatefulResult> {
      requireSignedInForReal(who, input.mode);
      const game = await statefulGame(who, input.sysname);
      requireDemoOffered(game, input.mode);
      const engine = game.engine;
      const { prepared, currency, ownerKey, requestHash } = await intake.admitStake(who, input, game, () =>
        prepareStatefulBet(engine, input.bet),
      );
      await deps.rounds.activeSeed(who);
      try {
        return await inTransaction(db, async (tx) => {
          // The seed row is the owner's lock: starts queue on it, so the open-round check holds.
          const seed = await deps.rounds.lockActiveSeed(tx, who);
          const earlier = await roundOfRequest(tx, who, input.requestId);
          if (earlier) {
            if (earlier.requestHash !== requestHash || !isStatefulEngine(earlier.engine))
              throw invalid('request_id', 'This request id was used for another round');
            const first = publicView(
              earlier.engine,
              replayActions(earlier.engine, earlier.bet as Record<string, unknown>, [], await seedsOf(tx, earlier)),
            );
            return {
              round: roundView(earlier),
              game: first,
              is_replay: true,
              ...balanceFields(await balancesFor(tx, earlier), earlier.mode, earlier.currency),
            };
          }
          const [open] = await tx
            .select({ id: gameRounds.id })
            .from(gameRounds)
            .where(
              and(
                eq(gameRounds.siteId, who.siteId),
                eq(gameRounds.ownerKey, ownerKey),
                eq(gameRounds.sysname, input.sysname),
                eq(gameRounds.status, 'open'),
              ),
            )
            .limit(1);
          if (open)
            throw new ApiError('InvalidParameterException', 'Finish the open round of this game first', {
              field: 'sysname',
              errorType: 'wrongField',
              round_id: String(open.id),
            });

          const nonce = await drawNonce(tx, seed);
          const seeds = { serverSeed: seed.serverSeed, clientSeed: seed.clientSeed, nonce };
          const state = startState(engine, prepared.normal, seeds);
          const [opened] = await tx
            .insert(gameRounds)
            .values({
              ...newRoundColumns(
                who,
                {
                  sysname: input.sysname,
                  engine,
                  mode: input.mode,
                  currency,
                  stakeMinor: prepared.stakeMinor,
                  bet: prepared.normal,
                },
                seed,
                nonce,
              ),
              state: { game: encodeState(state), actions: [], touched_at: new Date().toISOString() } satisfies StoredState,
              status: 'open',
              requestKey: input.requestId,
              requestHash,
            })
            .returning();
          if (!opened) throw new Error('the round could not be recorded');
          await moveStake(tx, opened, prepared.stakeMinor, 1, game.type);
          // A blackjack dealt and decided at once (a natural, a dealer peek) settles now.
          const row = isOver(engine, state) ? await saveRound(tx, opened, engine, state, [], 'player') : opened;
          return {
            round: roundView(row),
            game: publicView(engine, state),
            is_replay: false,
            ...balanceFields(await balancesFor(tx, row), row.mode, currency),
          };
        });
      } catch (error) {
        if (error instanceof InsufficientFundsError) throw await intake.shortBalance(who, input.mode, currency, 'stake');
        throw error;
      }
    },

    /** games.act: one action on the player's open round (reveal, cashout, hit, stand, double, split, insurance, no-insurance). */
    async act(
      who: Gambler,
      input: { roundId: number; action: string; params: unknown; requestId: string },
    ): Promise<StatefulResult> {
      let mode: GameRoundMode = 'real';
      let currency = who.siteCurrency;
      // Read before the transaction: PGlite has one connection, a query outside tx would wait on it.
      const exclusion = who.uid > 0 ? await deps.activeExclusion(who.uid) : undefined;
      try {
        return await inTransaction(db, async (tx) => {
          const row = await lockOwnRound(tx, who, input.roundId);
          const engine = row.engine as StatefulEngine;
          mode = row.mode;
          currency = row.currency;
          let normal;
          try {
            normal = normalAction(engine, input.action, input.params);
          } catch (error) {
            if (error instanceof ActionError) throw invalid(error.field, error.message);
            throw error;
          }
          const requestHash = actionHash(row.id, normal);
          const actions = actionsOf(row);
          const index = actions.findIndex((item) => item.request_id === input.requestId);
          const seeds = await seedsOf(tx, row);
          if (index >= 0) {
            if (actions[index]?.request_hash !== requestHash)
              throw invalid('request_id', 'This request id was used for another action');
            const then = replayActions(engine, row.bet as Record<string, unknown>, actions, seeds, index + 1);
            const game =
              row.status === 'settled' && index === actions.length - 1 ? gameView(row, engine) : publicView(engine, then);
            return {
              round: roundView(row),
              game,
              is_replay: true,
              ...balanceFields(await balancesFor(tx, row), row.mode, row.currency),
            };
          }
          if (row.status !== 'open') throw invalid('action', 'This round is over');
          if (row.userId && row.mode === 'real' && exclusion) refuseExclusion(exclusion);
          const stored = storedState(row);
          let next;
          try {
            next = applyAction(engine, decodeState(stored.game), normal.action, normal.params, seeds);
          } catch (error) {
            if (error instanceof ActionError) throw invalid(error.field, error.message);
            throw error;
          }
          const recorded = [...stored.actions, { ...normal, request_id: input.requestId, request_hash: requestHash }];
          const saved = await saveRound(tx, row, engine, next, recorded, isOver(engine, next) ? 'player' : null);
          return {
            round: roundView(saved),
            game: saved.status === 'open' ? publicView(engine, next) : gameView(saved, engine),
            is_replay: false,
            ...balanceFields(await balancesFor(tx, saved), saved.mode, saved.currency),
          };
        });
      } catch (error) {
        if (error instanceof InsufficientFundsError) throw await intake.shortBalance(who, mode, currency, 'action');
        throw error;
      }
    },

    /** games.getOpenRound: the player's open round of a game (a reloaded page resumes it), or null. */
    async getOpenRound(
      who: Gambler,
      sysname: string,
    ): Promise<{ round: RoundView | null; game: Record<string, unknown> | null; balance: Money | null }> {
      const game = await statefulGame(who, sysname);
      const [row] = await db
        .select()
        .from(gameRounds)
        .where(
          and(
            eq(gameRounds.siteId, who.siteId),
            eq(gameRounds.ownerKey, ownerKeyOf(who)),
            eq(gameRounds.sysname, sysname),
            eq(gameRounds.status, 'open'),
          ),
        )
        .limit(1);
      if (!row) return { round: null, game: null, balance: null };
      const balances = row.userId ? await wallet.balances(row.siteId, row.userId, row.currency) : undefined;
      return { round: roundView(row), game: gameView(row, game.engine), balance: balanceOf(balances, row.mode, row.currency) };
    },

    /**
     * The job: settles every stateful round without an action for abandonAfterMs by the
     * open-round rule (blackjack stands, mines cashes out or refunds). Returns how many it ended.
     */
    async settleAbandoned(now = new Date(), limit = 200): Promise<number> {
      // A round opened more recently than the timeout cannot have waited that long.
      const candidates = await db
        .select({ id: gameRounds.id })
        .from(gameRounds)
        .where(
          and(
            eq(gameRounds.status, 'open'),
            inArray(gameRounds.engine, [...STATEFUL_ENGINES]),
            lt(gameRounds.createdAt, new Date(now.getTime() - abandonAfterMs)),
          ),
        )
        .orderBy(asc(gameRounds.id))
        .limit(limit);
      let settled = 0;
      for (const { id } of candidates) if (await settleAbandonedRound(id, now)) settled++;
      return settled;
    },
  };
}

export type StatefulRoundsService = ReturnType<typeof createStatefulRoundsService>;
