/**
 * Freespin packs (issue 5; spec §3 games state freespins, §7 freespins.get): the operator awards a
 * pack of spins on one slot at a fixed stake; the player plays them in that slot.
 *
 * Money, as a regulated operator books it (architecture §5):
 * - a free spin takes nothing from the player: its stake is the house's marketing cost, moved
 *   bonus_cost → game (`round:{id}:bet`), so the game's takings stay comparable with paid rounds;
 * - its win is paid game → player (`round:{id}:win`). A pack with a wagering multiplier of 0 is
 *   wager-free and pays to the main balance; a pack with a multiplier above 0 pays bonus money to
 *   the bonus balance and records the wagering it creates (win × multiplier) on the pack, for the
 *   bonus rules that release bonus money (not built yet: bonus money stays on the bonus balance).
 * A spin is consumed in the transaction of its round (server/modules/game-rounds/service.ts
 * play): the pack row is locked, remaining_count goes down by one (never below zero: a CHECK and
 * a guarded update), the spin is recorded against the round id (unique), and the money moves; a
 * refusal (expired, used up, another game, another stake) rolls the whole round back. The round's
 * request id makes a replay return the first round without consuming a second spin.
 */
import { and, asc, desc, eq, gt, inArray, isNull, sql } from 'drizzle-orm';
import { invalidParameter as invalid } from '#common/parameter-errors';
import { stakeLimits, type GamesService } from '../games';
import type { Locale } from '#common/locale';
import { amountToMinor, minorToAmount, money } from '#common/money';
import type { Database } from '../../db/client';
import { inTransaction, type Executor } from '../../db/retry';
import type { RoundIntake } from '../round-intake';
import type { FreespinWin } from '../bonuses';
import type { PlayerBalances, WalletService } from '../wallet';
import { freespinPacks, freespinSpins, type FreespinPackRow } from './tables';
import { FREESPINS_PAGE_MAX } from '#common/contract/freespins';
import type { FreespinPackView } from '#common/contract';

export type { FreespinPackView };

export { FREESPINS_PAGE_MAX };

/** What a free spin needs of the round it pays (a game-rounds round row, just written). */
export interface FreespinRound {
  id: number;
  siteId: string;
  userId: number | null;
  mode: 'real' | 'demo';
  sysname: string;
  currency: string;
  stakeMinor: bigint;
  payoutMinor: bigint;
}

export const AWARD_MAX_COUNT = 500;
export const AWARD_MAX_VALID_DAYS = 365;
export const WAGERING_MAX = 100;

export type FreespinStatus = 'active' | 'used' | 'expired' | 'cancelled';

export interface AwardInput {
  siteId: string;
  userId: number;
  sysname: string;
  count: number;
  /** The stake per spin as an amount ("0.20"); the game's minimum bet when absent. */
  stake?: string;
  validDays: number;
  wageringMultiplier: number;
  /** The awarder's key: the same award made twice gives one pack. */
  awardKey: string;
  /** `operator:alice`, `system`. */
  actor: string;
  reason: string;
}

export interface FreespinsDeps {
  db: Database;
  wallet: WalletService;
  /** The round-intake core: a free spin's stake and win move through it like any bet's. */
  intake: RoundIntake;
  games: Pick<GamesService, 'getGame' | 'listGames'>;
  findUser: (uid: number) => Promise<{ siteId: string; currency: string; locale: string } | undefined>;
  /** A win of a pack with wagering becomes bonus money: the bonus engine adds it to the pack's bonus (issue 13). */
  creditWinToBonus: (tx: Executor, win: FreespinWin) => Promise<void>;
}

export function packStatus(row: FreespinPackRow, now = new Date()): FreespinStatus {
  if (row.cancelledAt) return 'cancelled';
  if (row.remainingCount <= 0) return 'used';
  if (row.expiresAt <= now) return 'expired';
  return 'active';
}

const TITLES: Record<Locale, (count: number, name: string) => string> = {
  en: (count, name) => `${count} free spins on ${name}`,
  it: (count, name) => `${count} giri gratis su ${name}`,
};

function packView(row: FreespinPackRow, gameName: string, locale: Locale, withDescription: boolean): FreespinPackView {
  const view: FreespinPackView = {
    id: String(row.id),
    game: { sysname: row.sysname, name: gameName },
    remaining_count: row.remainingCount,
    total_count: row.totalCount,
    stake: money(row.stakeMinor, row.currency),
    win: money(row.winMinor, row.currency),
    wagering_multiplier: row.wageringMultiplier,
    win_balance: row.wageringMultiplier > 0 ? 'bonus' : 'main',
    expires_at: row.expiresAt.toISOString(),
    status: packStatus(row),
    created_at: row.createdAt.toISOString(),
  };
  if (withDescription) view.description = { title: (TITLES[locale] ?? TITLES.en)(row.totalCount, gameName) };
  return view;
}

export function createFreespinsService(deps: FreespinsDeps) {
  const { db, wallet, intake } = deps;

  async function gameNames(siteId: string, locale: Locale): Promise<Map<string, string>> {
    return new Map((await deps.games.listGames(siteId, locale)).map((game) => [game.sysname, game.name]));
  }

  return {
    /**
     * Gives a player a pack (an operator in the back office, or a campaign). Only in-house slots
     * take freespins; the stake must be one the game accepts. Idempotent by award key: the same
     * key with other terms is refused.
     */
    async award(input: AwardInput): Promise<FreespinPackView & { is_new: boolean }> {
      const user = await deps.findUser(input.userId);
      if (!user || user.siteId !== input.siteId) throw invalid('user_id', 'No such player on this site');
      const locale = (user.locale === 'it' ? 'it' : 'en') as Locale;
      const game = await deps.games.getGame(input.siteId, locale, input.sysname);
      if (!game.engine?.startsWith('slot-')) throw invalid('sysname', 'Free spins are given on in-house slots only');
      if (!Number.isInteger(input.count) || input.count < 1 || input.count > AWARD_MAX_COUNT)
        throw invalid('count', `From 1 to ${AWARD_MAX_COUNT} spins`);
      if (!Number.isInteger(input.validDays) || input.validDays < 1 || input.validDays > AWARD_MAX_VALID_DAYS)
        throw invalid('valid_days', `From 1 to ${AWARD_MAX_VALID_DAYS} days`);
      if (!Number.isInteger(input.wageringMultiplier) || input.wageringMultiplier < 0 || input.wageringMultiplier > WAGERING_MAX)
        throw invalid('wagering_multiplier', `From 0 to ${WAGERING_MAX}`);
      if (!/^[\w:.-]{1,100}$/.test(input.awardKey)) throw invalid('award_key');
      const { minMinor: minBet, maxMinor: maxBet } = stakeLimits(game.game_params);
      const stakeText = input.stake ?? (minBet !== undefined ? minorToAmount(minBet) : undefined);
      if (!stakeText || !/^\d{1,9}(\.\d{1,2})?$/.test(stakeText)) throw invalid('stake');
      const stakeMinor = amountToMinor(stakeText);
      if (stakeMinor <= 0n || (minBet !== undefined && stakeMinor < minBet) || (maxBet !== undefined && stakeMinor > maxBet))
        throw invalid('stake', 'The stake is outside the game’s limits');

      return inTransaction(db, async (tx) => {
        const [created] = await tx
          .insert(freespinPacks)
          .values({
            siteId: input.siteId,
            userId: input.userId,
            sysname: input.sysname,
            currency: user.currency,
            stakeMinor,
            totalCount: input.count,
            remainingCount: input.count,
            wageringMultiplier: input.wageringMultiplier,
            expiresAt: new Date(Date.now() + input.validDays * 86_400_000),
            awardKey: input.awardKey,
            awardedBy: input.actor,
            reason: input.reason,
          })
          .onConflictDoNothing()
          .returning();
        if (created) {
          await wallet.recordAction(
            {
              stream: 'operators',
              actor: input.actor,
              action: 'freespins.award',
              subject: `freespin_pack:${created.id}`,
              reason: input.reason,
              payload: {
                userId: input.userId,
                sysname: input.sysname,
                count: input.count,
                stakeMinor,
                currency: user.currency,
                wageringMultiplier: input.wageringMultiplier,
                expiresAt: created.expiresAt,
              },
            },
            tx,
          );
          return { ...packView(created, game.name, locale, true), is_new: true };
        }
        const [existing] = await tx
          .select()
          .from(freespinPacks)
          .where(and(eq(freespinPacks.siteId, input.siteId), eq(freespinPacks.awardKey, input.awardKey)));
        if (!existing) throw new Error('the pack was neither created nor found by its key');
        const isSame =
          existing.userId === input.userId &&
          existing.sysname === input.sysname &&
          existing.totalCount === input.count &&
          existing.stakeMinor === stakeMinor &&
          existing.wageringMultiplier === input.wageringMultiplier;
        if (!isSame) throw invalid('award_key', 'This award key was used for another award');
        return { ...packView(existing, game.name, locale, true), is_new: false };
      });
    },

    /** freespins.get: the player's packs, newest first; `active` keeps the ones that can still be played. */
    async list(
      siteId: string,
      userId: number,
      options: { locale: Locale; status: 'active' | 'all'; offset: number; count: number; withDescription: boolean },
    ): Promise<{ items: FreespinPackView[]; total: number }> {
      const where = [eq(freespinPacks.siteId, siteId), eq(freespinPacks.userId, userId)];
      if (options.status === 'active')
        where.push(
          gt(freespinPacks.remainingCount, 0),
          gt(freespinPacks.expiresAt, new Date()),
          isNull(freespinPacks.cancelledAt),
        );
      const condition = and(...where);
      // Active packs: the one expiring first is the one to play first.
      const order =
        options.status === 'active' ? [asc(freespinPacks.expiresAt), asc(freespinPacks.id)] : [desc(freespinPacks.id)];
      const rows = await db
        .select()
        .from(freespinPacks)
        .where(condition)
        .orderBy(...order)
        .offset(options.offset)
        .limit(Math.min(options.count, FREESPINS_PAGE_MAX));
      const [total] = await db
        .select({ n: sql<number>`count(*)::int` })
        .from(freespinPacks)
        .where(condition);
      const names = await gameNames(siteId, options.locale);
      return {
        items: rows.map((row) => packView(row, names.get(row.sysname) ?? row.sysname, options.locale, options.withDescription)),
        total: total?.n ?? 0,
      };
    },

    /**
     * The game-rounds hook: pays `round` (just written, in `tx`) with one spin of the pack. Throws
     * InvalidParameterException when the pack cannot pay it; the caller's transaction then rolls
     * the round back. Returns the player's balances after it.
     */
    async settleRound(tx: Executor, round: FreespinRound, packId: number): Promise<PlayerBalances> {
      const userId = round.userId;
      if (!userId || round.mode !== 'real') throw invalid('freespin_pack_id', 'Free spins are played for real only');
      // The lock queues concurrent spins of one pack; the seed lock already queues one player's rounds.
      const [pack] = await tx
        .select()
        .from(freespinPacks)
        .where(and(eq(freespinPacks.id, packId), eq(freespinPacks.siteId, round.siteId), eq(freespinPacks.userId, userId)))
        .for('update');
      // Another player's pack and an unknown id look the same.
      if (!pack) throw invalid('freespin_pack_id', 'No such free spins');
      const status = packStatus(pack);
      if (status === 'expired') throw invalid('freespin_pack_id', 'These free spins have expired');
      if (status === 'used') throw invalid('freespin_pack_id', 'No free spins are left in this pack');
      if (status === 'cancelled') throw invalid('freespin_pack_id', 'These free spins were withdrawn');
      if (pack.sysname !== round.sysname) throw invalid('freespin_pack_id', 'These free spins are for another game');
      if (pack.currency !== round.currency) throw invalid('freespin_pack_id', 'These free spins are in another currency');
      if (pack.stakeMinor !== round.stakeMinor)
        throw invalid('stake', `A free spin of this pack stakes ${minorToAmount(pack.stakeMinor)}`);

      const payoutMinor = round.payoutMinor;
      const [updated] = await tx
        .update(freespinPacks)
        .set({
          remainingCount: sql`${freespinPacks.remainingCount} - 1`,
          winMinor: sql`${freespinPacks.winMinor} + ${payoutMinor}`,
          wagerRequiredMinor: sql`${freespinPacks.wagerRequiredMinor} + ${payoutMinor * BigInt(pack.wageringMultiplier)}`,
        })
        .where(and(eq(freespinPacks.id, pack.id), gt(freespinPacks.remainingCount, 0)))
        .returning({ remainingCount: freespinPacks.remainingCount });
      if (!updated) throw invalid('freespin_pack_id', 'No free spins are left in this pack');
      await tx
        .insert(freespinSpins)
        .values({ packId: pack.id, roundId: round.id, spinNumber: pack.totalCount - updated.remainingCount, payoutMinor });

      const roundMoney = {
        path: 'freespin' as const,
        siteId: round.siteId,
        userId,
        currency: round.currency,
        mode: round.mode,
        sysname: round.sysname,
        reference: `round:${round.id}`,
        actor: `player:${userId}`,
        freespinPack: { id: pack.id, winBalance: pack.wageringMultiplier > 0 ? ('bonus' as const) : ('main' as const) },
      };
      await intake.stake(tx, roundMoney, { amountMinor: round.stakeMinor, idempotencyKey: `round:${round.id}:bet` });
      await intake.settle(tx, roundMoney, { amountMinor: payoutMinor, idempotencyKey: `round:${round.id}:win` });
      if (pack.wageringMultiplier > 0)
        await deps.creditWinToBonus(tx, {
          siteId: round.siteId,
          userId,
          currency: round.currency,
          packId: pack.id,
          roundId: round.id,
          multiplier: pack.wageringMultiplier,
          winMinor: payoutMinor,
        });
      return wallet.balances(round.siteId, userId, round.currency, tx);
    },

    /** Which of these rounds a free spin paid for (history shows them as such). */
    async paidRoundIds(roundIds: number[]): Promise<Set<number>> {
      if (roundIds.length === 0) return new Set();
      const rows = await db
        .select({ roundId: freespinSpins.roundId })
        .from(freespinSpins)
        .where(inArray(freespinSpins.roundId, roundIds));
      return new Set(rows.map((row) => row.roundId));
    },

    /** The operator withdraws the spins still left in a pack (the ones played stay played). */
    async cancel(siteId: string, packId: number, actor: string, reason: string): Promise<void> {
      await inTransaction(db, async (tx) => {
        const [row] = await tx
          .update(freespinPacks)
          .set({ cancelledAt: new Date() })
          .where(and(eq(freespinPacks.id, packId), eq(freespinPacks.siteId, siteId), isNull(freespinPacks.cancelledAt)))
          .returning();
        if (!row) throw invalid('id', 'No such active pack');
        await wallet.recordAction(
          {
            stream: 'operators',
            actor,
            action: 'freespins.cancel',
            subject: `freespin_pack:${row.id}`,
            reason,
            payload: { userId: row.userId, remainingCount: row.remainingCount },
          },
          tx,
        );
      });
    },
  };
}

export type FreespinsService = ReturnType<typeof createFreespinsService>;
