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
import { and, desc, eq, isNull } from 'drizzle-orm';
import { ApiError } from '#common/errors';
import { invalidParameter as invalid } from '../../api/require-valid';
import { checkStake } from '../games/stake-limits';
import type { Locale } from '#common/locale';
import { money, type Money } from '#common/money';
import type { Database } from '../../db/client';
import { inTransaction, type Executor } from '../../db/retry';
import type { GamesService } from '../games/service';
import { canonicalJson } from '../wallet/audit';
import { house, move, player } from '../wallet/postings';
import { IdempotencyConflictError, InsufficientFundsError, type PlayerBalances } from '../wallet/service';
import type { createWalletService } from '../wallet/service';
import { BetParamError, isSingleRequestEngine, outcomeJson, prepareBet, type PreparedBet } from './engines';
import { isStatefulEngine, recomputeOutcome } from './stateful-engines';
import { fairSeeds, gameRounds, type GameRoundMode } from './tables';
import { enforceMinSpinDuration, isSlotEngine, type GamesJurisdiction } from './jurisdiction';

type WalletService = ReturnType<typeof createWalletService>;

/** Who plays: a signed-in player (uid > 0) or an anonymous visitor (demo only). */
export interface Gambler {
  siteId: string;
  uid: number;
  visitorId: string;
  locale: Locale;
  /** The currency of an anonymous visitor's demo rounds: the site's default. */
  siteCurrency: string;
}

export interface GameRoundsDeps {
  db: Database;
  wallet: WalletService;
  games: Pick<GamesService, 'getGame'>;
  findUser: (uid: number) => Promise<{ currency: string } | undefined>;
  activeExclusion: (uid: number) => Promise<{ kind: string; endsAt: Date | null } | undefined>;
  /** The site's jurisdiction rules for play (jurisdiction.ts); none when absent. */
  jurisdiction?: (siteId: string) => Promise<Pick<GamesJurisdiction, 'minSpinDurationMs'>>;
  /** Freespin packs (server/modules/freespins): pays a round with one spin of a pack, inside the round's transaction. */
  freespins?: { settleRound(tx: Executor, round: RoundRow, packId: number): Promise<PlayerBalances> };
}

/**
 * The currency a gambler plays in: the account's, or the site's for an anonymous visitor's demo
 * play. Refuses a player who is gone or excluded from play, before any stake moves.
 */
export async function playingCurrency(who: Gambler, deps: Pick<GameRoundsDeps, 'findUser' | 'activeExclusion'>): Promise<string> {
  if (who.uid <= 0) return who.siteCurrency;
  const user = await deps.findUser(who.uid);
  if (!user) throw new ApiError('AuthorizationException', 'Sign in to continue');
  const exclusion = await deps.activeExclusion(who.uid);
  if (exclusion)
    throw new ApiError('AccessDeniedException', 'The account is excluded from play', {
      exclusion: exclusion.kind,
      until: exclusion.endsAt?.toISOString() ?? null,
    });
  return user.currency;
}

/** What a demo player's fun balance is topped up to, once a day, when it cannot cover a stake. */
export const DEMO_CREDIT_MINOR = 100_000n;
export const RECALL_DEFAULT = 10;
export const RECALL_MAX = 100;
const CLIENT_SEED_PATTERN = /^[^\p{Cc}]{1,64}$/u;

export interface SeedsView {
  server_seed_hash: string;
  client_seed: string;
  /** The nonce of the next round. */
  nonce: number;
}

export interface RoundView {
  id: string;
  sysname: string;
  engine: string;
  mode: GameRoundMode;
  status: string;
  stake: Money;
  payout: Money;
  bet: unknown;
  outcome: unknown;
  server_seed_hash: string;
  client_seed: string;
  nonce: number;
  created_at: string;
  settled_at: string | null;
}

export interface PlayResult {
  round: RoundView;
  /** True when the request id was played before: the first round, nothing moved now. */
  is_replay: boolean;
  /** The balance the round was played on (main for real, fun for demo), after it; null for an anonymous visitor. */
  balance: Money | null;
}

type SeedRow = typeof fairSeeds.$inferSelect;
type RoundRow = typeof gameRounds.$inferSelect;

export const ownerKeyOf = (who: Gambler) => (who.uid > 0 ? `user:${who.uid}` : `visitor:${who.visitorId}`);
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
  const { db, wallet } = deps;

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

  async function ownRound(who: Gambler, roundId: number): Promise<RoundRow> {
    const [row] = await db
      .select()
      .from(gameRounds)
      .where(and(eq(gameRounds.id, roundId), eq(gameRounds.siteId, who.siteId), eq(gameRounds.ownerKey, ownerKeyOf(who))));
    // Another owner's round and an unknown id look the same.
    if (!row) throw invalid('round_id');
    return row;
  }

  /** Fun balance below the stake: top it up to DEMO_CREDIT_MINOR, at most once a day. */
  /** Tops the fun balance up for a demo stake, once a day across every game (live tables pass their clock's day). */
  async function grantDemoCredit(
    tx: Executor,
    who: Gambler,
    currency: string,
    stakeMinor: bigint,
    now = new Date(),
  ): Promise<void> {
    const fun = (await wallet.balances(who.siteId, who.uid, currency, tx)).fun;
    if (fun >= stakeMinor || fun >= DEMO_CREDIT_MINOR) return;
    const day = now.toISOString().slice(0, 10);
    try {
      await wallet.transfer(
        {
          siteId: who.siteId,
          userId: who.uid,
          kind: 'demo_credit',
          currency,
          amountMinor: DEMO_CREDIT_MINOR - fun,
          legs: move(house('fun_issuer', who.uid), player(who.uid, 'fun'), DEMO_CREDIT_MINOR - fun),
          idempotencyKey: `demo-credit:${who.siteId}:${who.uid}:${currency}:${day}`,
          actor: 'system',
          reason: 'demo credit',
        },
        tx,
      );
    } catch (error) {
      // Granted already today (for another amount): the stake then finds the balance short.
      if (!(error instanceof IdempotencyConflictError)) throw error;
    }
  }

  async function settleMoney(tx: Executor, who: Gambler, round: RoundRow): Promise<PlayerBalances> {
    const isReal = round.mode === 'real';
    const account = player(who.uid, isReal ? 'main' : 'fun');
    const houseAccount = house(isReal ? 'game' : 'fun_issuer', who.uid);
    const common = {
      siteId: who.siteId,
      userId: who.uid,
      currency: round.currency,
      reference: `round:${round.id}`,
      actor: `player:${who.uid}`,
    };
    await wallet.transfer(
      {
        ...common,
        kind: isReal ? 'game_bet' : 'demo_bet',
        amountMinor: round.stakeMinor,
        legs: move(account, houseAccount, round.stakeMinor),
        idempotencyKey: `round:${round.id}:bet`,
        reason: `${round.sysname} bet`,
      },
      tx,
    );
    if (round.payoutMinor > 0n) {
      await wallet.transfer(
        {
          ...common,
          kind: isReal ? 'game_win' : 'demo_win',
          amountMinor: round.payoutMinor,
          legs: move(houseAccount, account, round.payoutMinor),
          idempotencyKey: `round:${round.id}:win`,
          reason: `${round.sysname} win`,
        },
        tx,
      );
    }
    return wallet.balances(who.siteId, who.uid, round.currency, tx);
  }

  function balanceOf(balances: PlayerBalances | undefined, mode: GameRoundMode, currency: string): Money | null {
    return balances ? money(mode === 'real' ? balances.main : balances.fun, currency) : null;
  }

  return {
    activeSeed,
    /** For the stateful games (stateful.ts): the same seed lock and demo credit as play. */
    lockActiveSeed,
    grantDemoCredit,

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
      if (input.mode === 'real' && who.uid <= 0) throw new ApiError('AuthorizationException', 'Sign in to play for real money');
      const game = await deps.games.getGame(who.siteId, who.locale, input.sysname);
      if (!isSingleRequestEngine(game.engine)) throw invalid('sysname', 'This game cannot be played here');
      if (input.mode === 'demo' && !game.has_demo) throw invalid('mode', 'This game has no demo mode');
      // A free spin is a real round paid by its pack (freespins/service.ts settleRound).
      if (input.freespinPackId !== undefined && (input.mode !== 'real' || !deps.freespins))
        throw invalid('freespin_pack_id', 'Free spins are played for real money only');
      const engine = game.engine;

      let prepared: PreparedBet;
      try {
        prepared = prepareBet(engine, input.bet);
      } catch (error) {
        if (error instanceof BetParamError) throw invalid(error.field, error.message);
        throw error;
      }
      checkStake(game.game_params, prepared.stakeMinor);

      const currency = await playingCurrency(who, deps);

      const ownerKey = ownerKeyOf(who);
      // canonicalJson drops an undefined freespin_pack_id: a paid round hashes as before.
      const requestHash = sha256(
        canonicalJson({ sysname: input.sysname, mode: input.mode, bet: prepared.normal, freespin_pack_id: input.freespinPackId }),
      );
      await activeSeed(who);
      const minSpinDurationMs =
        input.mode === 'real' && isSlotEngine(engine) && deps.jurisdiction
          ? (await deps.jurisdiction(who.siteId)).minSpinDurationMs
          : 0;
      try {
        return await inTransaction(db, async (tx) => {
          // The seed row is the owner's lock: one round at a time, each on its own nonce.
          const seed = await lockActiveSeed(tx, who);
          const earlier = await roundOfRequest(tx, who, input.requestId);
          if (earlier) {
            if (earlier.requestHash !== requestHash) throw invalid('request_id', 'This request id was used for another round');
            const balances = who.uid > 0 ? await wallet.balances(who.siteId, who.uid, earlier.currency, tx) : undefined;
            return { round: roundView(earlier), is_replay: true, balance: balanceOf(balances, earlier.mode, earlier.currency) };
          }
          // Jurisdiction: a real slot round no sooner than the site's minimum spin duration after the last (under the seed lock).
          await enforceMinSpinDuration(tx, who.siteId, ownerKey, minSpinDurationMs);

          const nonce = await drawNonce(tx, seed);
          const { payoutMinor, outcome } = prepared.play({ serverSeed: seed.serverSeed, clientSeed: seed.clientSeed, nonce });
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
              payoutMinor,
              outcome: outcomeJson(outcome),
              status: 'open',
              requestKey: input.requestId,
              requestHash,
            })
            .returning();
          if (!opened) throw new Error('the round could not be recorded');

          let balances: PlayerBalances | undefined;
          if (who.uid > 0) {
            if (input.mode === 'demo') await grantDemoCredit(tx, who, currency, prepared.stakeMinor);
            // A free spin is paid by its pack: one spin consumed, nothing taken from the player.
            balances =
              input.freespinPackId !== undefined && deps.freespins
                ? await deps.freespins.settleRound(tx, opened, input.freespinPackId)
                : await settleMoney(tx, who, opened);
          }
          const [settled] = await tx
            .update(gameRounds)
            .set({ status: 'settled', settledAt: new Date() })
            .where(eq(gameRounds.id, opened.id))
            .returning();
          return { round: roundView(settled ?? opened), is_replay: false, balance: balanceOf(balances, input.mode, currency) };
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
