/**
 * Real and demo play of the single-request in-house games (issue 5; architecture §5, §6).
 *
 * A real round is one database transaction: the owner's active seed pair is locked and its nonce
 * advanced, the engine plays the bet on the fair stream, the round is written, the stake moves
 * player main → house game (`round:{id}:bet`) and a win house game → player main
 * (`round:{id}:win`). Any failure (funds, a crash before commit) leaves none of it. A signed-in
 * player's demo round is the same on the fun balance against the house fun issuer; an anonymous
 * visitor's demo round moves no money and is recorded as a round only. A client request id
 * played twice returns the first round and moves nothing.
 */
import { createHash, randomBytes } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import { and, desc, eq, isNull, sql } from 'drizzle-orm';
import { ApiError } from '#common/errors';
import { invalidParameter as invalid } from '#common/parameter-errors';
import { money, type Money } from '#common/money';
import type { Database } from '../../db/client';
import { inTransaction, type Executor } from '../../db/retry';
import type { GamesService } from '../games';
import { hasWageredBonusSql } from '../bonuses';
import {
  grantDemoCredit,
  ownerKeyOf,
  requireDemoOffered,
  requireSameRequest,
  requireSignedInForReal,
  type BetPath,
  type Gambler,
  type RoundIntake,
  type RoundMoney,
} from '../round-intake';
import { InsufficientFundsError, type PlayerBalances, type WalletService } from '../wallet';
import { isSingleRequestEngine, outcomeJson, prepareBet } from './engines';
import { isStatefulEngine, recomputeOutcome } from './stateful-engines';
import { fairSeeds, gameRounds, type GameRoundMode } from './tables';
import { enforceMinSpinDuration, isSlotEngine, type GamesJurisdiction } from './jurisdiction';
import { createSharedRounds } from './shared-rounds';
import type { CallSharingOptions } from '../../db/call-sharing';
import { RECALL_DEFAULT, RECALL_MAX } from '#common/contract/games';
import type { PlayResult, RoundView, SeedsView } from '#common/contract';

export type { PlayResult, RoundView, SeedsView };

export { RECALL_DEFAULT, RECALL_MAX };

// Who plays and under which owner key is the intake's; these names stay for this module's callers.
export { DEMO_CREDIT_MINOR, ownerKeyOf, playingCurrency, type Gambler } from '../round-intake';

export interface GameRoundsDeps {
  db: Database;
  wallet: WalletService;
  /** The round-intake core: every bet's checks, transfers and hooks. */
  intake: RoundIntake;
  games: Pick<GamesService, 'getGame'>;
  /** The site's jurisdiction rules for play (jurisdiction.ts); none when absent. */
  jurisdiction?: (siteId: string) => Promise<Pick<GamesJurisdiction, 'minSpinDurationMs'>>;
  /** Freespin packs (server/modules/freespins): pays a round with one spin of a pack, inside the round's transaction. */
  freespins?: { settleRound(tx: Executor, round: RoundRow, packId: number): Promise<PlayerBalances> };
  /**
   * Real-money rounds of several players sharing one transaction (shared-rounds.ts, issue 12):
   * its lanes and size, or false to play every round alone.
   */
  roundSharing?: Partial<CallSharingOptions> | false;
}

const CLIENT_SEED_PATTERN = /^[^\p{Cc}]{1,64}$/u;

type SeedRow = typeof fairSeeds.$inferSelect;
type RoundRow = typeof gameRounds.$inferSelect;

const newServerSeed = () => randomBytes(32).toString('hex');
const newClientSeed = () => randomBytes(10).toString('hex');
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

function seedsView(seed: SeedRow): SeedsView {
  return { server_seed_hash: seed.serverSeedHash, client_seed: seed.clientSeed, nonce: seed.nextNonce };
}

export function roundView(row: RoundRow): RoundView {
  return {
    id: String(row.id),
    sysname: row.sysname,
    engine: row.engine,
    mode: row.mode,
    status: row.status,
    stake: money(row.stakeMinor, row.currency),
    payout: money(row.payoutMinor, row.currency),
    bet: row.bet,
    outcome: row.outcome,
    server_seed_hash: row.serverSeedHash,
    client_seed: row.clientSeed,
    nonce: row.nonce,
    created_at: row.createdAt.toISOString(),
    settled_at: row.settledAt?.toISOString() ?? null,
  };
}

/** The round an owner already played under a request id (a retried request), if any. */
export async function roundOfRequest(tx: Executor, who: Gambler, requestId: string): Promise<RoundRow | undefined> {
  const [row] = await tx
    .select()
    .from(gameRounds)
    .where(
      and(eq(gameRounds.siteId, who.siteId), eq(gameRounds.ownerKey, ownerKeyOf(who)), eq(gameRounds.requestKey, requestId)),
    );
  return row;
}

/** A round's money on the ledger: `round:{id}`, the player's own (a timed-out round's payout is the system's). */
export function roundMoneyOf(row: RoundRow, path: BetPath, userId: number, gameType?: string): RoundMoney {
  return {
    path,
    siteId: row.siteId,
    userId,
    currency: row.currency,
    mode: row.mode,
    sysname: row.sysname,
    gameType,
    reference: `round:${row.id}`,
    actor: `player:${userId}`,
  };
}

/** Takes the next nonce of the owner's seed; call holding the seed's lock (lockActiveSeed). */
export async function drawNonce(tx: Executor, seed: SeedRow): Promise<number> {
  await tx
    .update(fairSeeds)
    .set({ nextNonce: seed.nextNonce + 1 })
    .where(eq(fairSeeds.id, seed.id));
  return seed.nextNonce;
}

/** The columns every new round starts with: who plays what, for which stake, on which seed and nonce. */
export function newRoundColumns(
  who: Gambler,
  round: Pick<RoundRow, 'sysname' | 'engine' | 'mode' | 'currency' | 'stakeMinor' | 'bet'>,
  seed: SeedRow,
  nonce: number,
) {
  return {
    siteId: who.siteId,
    ownerKey: ownerKeyOf(who),
    userId: who.uid > 0 ? who.uid : null,
    visitorId: who.uid > 0 ? null : who.visitorId,
    ...round,
    seedId: seed.id,
    serverSeedHash: seed.serverSeedHash,
    clientSeed: seed.clientSeed,
    nonce,
  };
}

export function createGameRoundsService(deps: GameRoundsDeps) {
  const { db, wallet, intake } = deps;
  const sharedRounds =
    deps.roundSharing === false ? undefined : createSharedRounds({ db, intake, wallet, roundView, options: deps.roundSharing });

  async function findActiveSeed(
    executor: Executor,
    siteId: string,
    ownerKey: string,
    forUpdate = false,
  ): Promise<SeedRow | undefined> {
    const query = executor
      .select()
      .from(fairSeeds)
      .where(and(eq(fairSeeds.siteId, siteId), eq(fairSeeds.ownerKey, ownerKey), isNull(fairSeeds.revealedAt)));
    const [row] = forUpdate ? await query.for('update') : await query;
    return row;
  }

  /** The owner's active seed pair, drawn on first use (the hash is shown before any round). */
  async function activeSeed(who: Gambler, executor: Executor = db): Promise<SeedRow> {
    const ownerKey = ownerKeyOf(who);
    const existing = await findActiveSeed(executor, who.siteId, ownerKey);
    if (existing) return existing;
    const serverSeed = newServerSeed();
    await executor
      .insert(fairSeeds)
      .values({
        siteId: who.siteId,
        ownerKey,
        userId: who.uid > 0 ? who.uid : null,
        serverSeed,
        serverSeedHash: sha256(serverSeed),
        clientSeed: newClientSeed(),
      })
      .onConflictDoNothing();
    const created = await findActiveSeed(executor, who.siteId, ownerKey);
    if (!created) throw new Error('the seed pair could not be opened');
    return created;
  }

  /**
   * Locks the owner's active seed pair: every round and rotation of one owner queues on this row.
   * A rotation that committed while we waited leaves the next pair to lock instead.
   */
  async function lockActiveSeed(tx: Executor, who: Gambler): Promise<SeedRow> {
    const ownerKey = ownerKeyOf(who);
    const locked = await findActiveSeed(tx, who.siteId, ownerKey, true);
    if (locked) return locked;
    await activeSeed(who, tx);
    const opened = await findActiveSeed(tx, who.siteId, ownerKey, true);
    if (!opened) throw new Error('the seed pair could not be locked');
    return opened;
  }

  /**
   * Locks the owner's active seed pair and finds the round of a request id in one statement. The
   * round is read in the statement's snapshot, taken before the lock wait: a twin request that
   * committed its round meanwhile is not seen here, and this one's round insert then fails on
   * game_rounds_request, which the transaction's retry (retry.ts) turns into a replay. A first
   * round, without a seed yet, takes the long way.
   */
  async function lockSeedWithRequest(
    tx: Executor,
    who: Gambler,
    requestId: string,
  ): Promise<{ seed: SeedRow; earlier: RoundRow | undefined; hasWageredBonus?: boolean }> {
    const ownerKey = ownerKeyOf(who);
    const [row] = await tx
      .select({
        fair_seeds: fairSeeds,
        game_rounds: gameRounds,
        // The bonus funding's question, asked in this statement (issue 13 without a statement more, issue 12).
        has_wagered_bonus: who.uid > 0 ? hasWageredBonusSql(who.siteId, who.uid) : sql<boolean>`false`,
      })
      .from(fairSeeds)
      .leftJoin(
        gameRounds,
        and(
          eq(gameRounds.siteId, fairSeeds.siteId),
          eq(gameRounds.ownerKey, fairSeeds.ownerKey),
          eq(gameRounds.requestKey, requestId),
        ),
      )
      .where(and(eq(fairSeeds.siteId, who.siteId), eq(fairSeeds.ownerKey, ownerKey), isNull(fairSeeds.revealedAt)))
      .for('update', { of: fairSeeds });
    if (row) return { seed: row.fair_seeds, earlier: row.game_rounds ?? undefined, hasWageredBonus: row.has_wagered_bonus };
    const seed = await lockActiveSeed(tx, who);
    return { seed, earlier: await roundOfRequest(tx, who, requestId) };
  }

  async function ownRound(who: Gambler, roundId: number): Promise<RoundRow> {
    const [row] = await db
      .select()
      .from(gameRounds)
      .where(and(eq(gameRounds.id, roundId), eq(gameRounds.siteId, who.siteId), eq(gameRounds.ownerKey, ownerKeyOf(who))));
    // Another owner's round and an unknown id look the same.
    if (!row) throw invalid('round_id');
    return row;
  }

  /**
   * The stake and, when the round paid, the win (`round:{id}:bet`, `round:{id}:win`), written as
   * one batch; the balance after it comes from the batch, not from another read.
   */
  async function settleMoney(
    tx: Executor,
    who: Gambler,
    round: RoundRow,
    game: { type: string; hasWageredBonus?: boolean },
  ): Promise<{ balance: Money; bonus_balance?: Money }> {
    const roundMoney = { ...roundMoneyOf(round, 'single-request', who.uid, game.type), hasWageredBonus: game.hasWageredBonus };
    const { balanceMinor, bonusBalanceMinor } = await intake.stakeAndSettle(
      tx,
      roundMoney,
      { amountMinor: round.stakeMinor, idempotencyKey: `round:${round.id}:bet` },
      { amountMinor: round.payoutMinor, idempotencyKey: `round:${round.id}:win` },
    );
    const balance = money(balanceMinor, round.currency);
    return bonusBalanceMinor === undefined ? { balance } : { balance, bonus_balance: money(bonusBalanceMinor, round.currency) };
  }

  function balanceOf(balances: PlayerBalances | undefined, mode: GameRoundMode, currency: string): Money | null {
    return balances ? money(mode === 'real' ? balances.main : balances.fun, currency) : null;
  }

  return {
    activeSeed,
    /** For the stateful games (stateful.ts): the same seed lock and demo credit as play. */
    lockActiveSeed,
    /** Tops the fun balance up for a demo stake, once a day across every game (round-intake demo-credit.ts). */
    grantDemoCredit: (tx: Executor, who: Gambler, currency: string, stakeMinor: bigint, now?: Date) =>
      grantDemoCredit(wallet, tx, who, currency, stakeMinor, now),

    /** Shared calls made, the rounds they carried and the calls that failed as a whole (tests read them). */
    sharedRoundStats: () => sharedRounds?.stats() ?? { calls: 0, rounds: 0, failedCalls: 0, staleRounds: 0 },
    /** Holds the shared calls (call-sharing.ts hold): tests put rounds side by side with it. */
    holdSharedRounds: () => sharedRounds?.hold(),

    /** games.getSeeds: the hash of the server seed the next round will use, the client seed, the next nonce. */
    async getSeeds(who: Gambler): Promise<SeedsView> {
      return seedsView(await activeSeed(who));
    },

    /** games.setClientSeed: the next rounds read the new pair; the nonce keeps counting, so no stream repeats. */
    async setClientSeed(who: Gambler, clientSeed: string): Promise<SeedsView> {
      if (!CLIENT_SEED_PATTERN.test(clientSeed)) throw invalid('client_seed');
      const seed = await activeSeed(who);
      const [updated] = await db
        .update(fairSeeds)
        .set({ clientSeed })
        .where(and(eq(fairSeeds.id, seed.id), isNull(fairSeeds.revealedAt)))
        .returning();
      return seedsView(updated ?? (await activeSeed(who)));
    },

    /** games.rotateSeeds: reveals the active server seed and commits to a new one. */
    async rotateSeeds(
      who: Gambler,
      clientSeed?: string,
    ): Promise<SeedsView & { previous: { server_seed: string; server_seed_hash: string; client_seed: string; rounds: number } }> {
      if (clientSeed !== undefined && !CLIENT_SEED_PATTERN.test(clientSeed)) throw invalid('client_seed');
      await activeSeed(who);
      const ownerKey = ownerKeyOf(who);
      return inTransaction(db, async (tx) => {
        const old = await lockActiveSeed(tx, who);
        // Revealing the seed of an open mines or blackjack round would show its field or shoe.
        const [open] = await tx
          .select({ id: gameRounds.id })
          .from(gameRounds)
          .where(and(eq(gameRounds.seedId, old.id), eq(gameRounds.status, 'open')))
          .limit(1);
        if (open)
          throw new ApiError('InvalidParameterException', 'Finish the open round before rotating the seeds', {
            field: 'round_id',
            errorType: 'wrongField',
            round_id: String(open.id),
          });
        await tx.update(fairSeeds).set({ revealedAt: new Date() }).where(eq(fairSeeds.id, old.id));
        const serverSeed = newServerSeed();
        const [created] = await tx
          .insert(fairSeeds)
          .values({
            siteId: who.siteId,
            ownerKey,
            userId: old.userId,
            serverSeed,
            serverSeedHash: sha256(serverSeed),
            clientSeed: clientSeed ?? old.clientSeed,
          })
          .returning();
        if (!created) throw new Error('the seed pair could not be opened');
        return {
          ...seedsView(created),
          previous: {
            server_seed: old.serverSeed,
            server_seed_hash: old.serverSeedHash,
            client_seed: old.clientSeed,
            rounds: old.nextNonce,
          },
        };
      });
    },

    /** games.play: one round of a single-request game, all-or-nothing. */
    async play(
      who: Gambler,
      input: { sysname: string; mode: GameRoundMode; bet: string; requestId: string; freespinPackId?: number },
    ): Promise<PlayResult> {
      requireSignedInForReal(who, input.mode);
      const game = await deps.games.getGame(who.siteId, who.locale, input.sysname);
      if (!isSingleRequestEngine(game.engine)) throw invalid('sysname', 'This game cannot be played here');
      requireDemoOffered(game, input.mode);
      // A free spin is a real round paid by its pack (freespins/service.ts settleRound).
      if (input.freespinPackId !== undefined && (input.mode !== 'real' || !deps.freespins))
        throw invalid('freespin_pack_id', 'Free spins are played for real money only');
      const engine = game.engine;
      // An absent freespin_pack_id is left out of the hash: a paid round hashes as before.
      const { prepared, currency, ownerKey, requestHash } = await intake.admitStake(
        who,
        input,
        game,
        () => prepareBet(engine, input.bet),
        { freespin_pack_id: input.freespinPackId },
      );
      // No seed read here: the transaction's lockActiveSeed opens the pair on a first round.
      const minSpinDurationMs =
        input.mode === 'real' && isSlotEngine(engine) && deps.jurisdiction
          ? (await deps.jurisdiction(who.siteId)).minSpinDurationMs
          : 0;
      // A plain real-money round shares its transaction with other players' rounds waiting at the same time.
      if (sharedRounds && input.mode === 'real' && input.freespinPackId === undefined && minSpinDurationMs === 0) {
        const shared = await sharedRounds.play({
          who,
          sysname: input.sysname,
          engine,
          gameType: game.type,
          currency,
          prepared,
          requestId: input.requestId,
          requestHash,
        });
        if (shared.status === 'played') return shared.result;
        if (shared.status === 'insufficient') throw await intake.shortBalance(who, input.mode, currency, 'stake');
      }
      try {
        return await inTransaction(db, async (tx) => {
          // The seed row is the owner's lock: one round at a time, each on its own nonce.
          const { seed, earlier, hasWageredBonus } = await lockSeedWithRequest(tx, who, input.requestId);
          if (earlier) {
            requireSameRequest(earlier, requestHash, 'This request id was used for another round');
            const balances = who.uid > 0 ? await wallet.balances(who.siteId, who.uid, earlier.currency, tx) : undefined;
            return { round: roundView(earlier), is_replay: true, balance: balanceOf(balances, earlier.mode, earlier.currency) };
          }
          // Jurisdiction: a real slot round no sooner than the site's minimum spin duration after the last (under the seed lock).
          await enforceMinSpinDuration(tx, who.siteId, ownerKey, minSpinDurationMs);

          // The nonce is the locked seed's; it advances in the statement that writes the round.
          const nonce = seed.nextNonce;
          const { payoutMinor, outcome } = prepared.play({ serverSeed: seed.serverSeed, clientSeed: seed.clientSeed, nonce });
          const advanceNonce = tx.$with('advance_nonce').as(
            tx
              .update(fairSeeds)
              .set({ nextNonce: nonce + 1 })
              .where(eq(fairSeeds.id, seed.id))
              .returning({ id: fairSeeds.id }),
          );
          // Written settled at once: it settles in this transaction or is not written at all, so
          // nobody can see it open, and a second statement to close it would only cost a round trip.
          const [settled] = await tx
            .with(advanceNonce)
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
              payoutMinor,
              outcome: outcomeJson(outcome),
              status: 'settled',
              settledAt: new Date(),
              requestKey: input.requestId,
              requestHash,
            })
            .returning();
          if (!settled) throw new Error('the round could not be recorded');

          if (who.uid <= 0) return { round: roundView(settled), is_replay: false, balance: null };
          // A free spin is paid by its pack: one spin consumed, nothing taken from the player.
          const balances =
            input.freespinPackId !== undefined && deps.freespins
              ? { balance: balanceOf(await deps.freespins.settleRound(tx, settled, input.freespinPackId), input.mode, currency) }
              : await settleMoney(tx, who, settled, { type: game.type, hasWageredBonus });
          return { round: roundView(settled), is_replay: false, ...balances };
        });
      } catch (error) {
        if (!(error instanceof InsufficientFundsError)) throw error;
        throw await intake.shortBalance(who, input.mode, currency, 'stake');
      }
    },

    /** games.getRounds: the owner's last rounds of a game, newest first, as they were played (game recall). */
    async getRounds(who: Gambler, sysname: string, count = RECALL_DEFAULT): Promise<RoundView[]> {
      await deps.games.getGame(who.siteId, who.locale, sysname);
      const rows = await db
        .select()
        .from(gameRounds)
        .where(and(eq(gameRounds.siteId, who.siteId), eq(gameRounds.ownerKey, ownerKeyOf(who)), eq(gameRounds.sysname, sysname)))
        .orderBy(desc(gameRounds.id))
        .limit(Math.min(Math.max(1, count), RECALL_MAX));
      return rows.map(roundView);
    },

    /**
     * games.verifyRound: the round with its server seed once revealed, and the outcome played again
     * from the seeds: `is_verified` is null until the player rotates the seed pair.
     */
    async verifyRound(who: Gambler, roundId: number) {
      const round = await ownRound(who, roundId);
      const [seed] = await db.select().from(fairSeeds).where(eq(fairSeeds.id, round.seedId));
      if (!seed?.revealedAt || round.status !== 'settled')
        return { round: roundView(round), server_seed: null, is_revealed: false, recomputed: null, is_verified: null };
      if (isStatefulEngine(round.engine)) {
        const replayed = recomputeOutcome(round.engine, round.bet as Record<string, unknown>, round.outcome, {
          serverSeed: seed.serverSeed,
          clientSeed: round.clientSeed,
          nonce: round.nonce,
        });
        return {
          round: roundView(round),
          server_seed: seed.serverSeed,
          is_revealed: true,
          recomputed: replayed,
          is_verified: sha256(seed.serverSeed) === round.serverSeedHash && isDeepStrictEqual(replayed, round.outcome),
        };
      }
      if (!isSingleRequestEngine(round.engine)) throw invalid('round_id', 'This round cannot be verified here');
      const recomputed = outcomeJson(
        prepareBet(round.engine, round.bet).play({
          serverSeed: seed.serverSeed,
          clientSeed: round.clientSeed,
          nonce: round.nonce,
        }).outcome,
      );
      return {
        round: roundView(round),
        server_seed: seed.serverSeed,
        is_revealed: true,
        recomputed,
        is_verified: sha256(seed.serverSeed) === round.serverSeedHash && isDeepStrictEqual(recomputed, round.outcome),
      };
    },
  };
}

export type GameRoundsService = ReturnType<typeof createGameRoundsService>;
