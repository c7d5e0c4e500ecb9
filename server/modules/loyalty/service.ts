/**
 * Loyalty (spec §3 loyalty info and characters, §4 "success loads profile and loyalty info",
 * "loyalty characters are set on the server, then info is refetched"): a player's account in the
 * site's programme, the character they picked, and the points they earn by wagering real money.
 *
 * Points are earned by a job, not inside the bet's transaction: a bet must stay as short as the
 * ledger can make it, and a point a few seconds late harms no one. The job reads the wallet's
 * stakes after its cursor, adds each to the player's running total per currency and credits the
 * whole points the total has newly passed, all in one transaction with the cursor's move, so a
 * stake is counted once even if the job runs twice or stops half-way. A provider's rollback of a
 * bet lowers the total, and the points the total no longer covers are taken back (from what is
 * left, if some were spent), so a bet placed and rolled back earns nothing overall.
 */
import { and, eq, sql } from 'drizzle-orm';
import { ApiError } from '#common/errors';
import { invalidParameter } from '#common/parameter-errors';
import { levelOf, levelProgress, type LoyaltyCharacterList, type LoyaltyInfo } from '#common/loyalty-contract';
import type { Database } from '../../db/client';
import type { PlayerRowsCache } from '../../db/player-rows-cache';
import { inTransaction, type Executor } from '../../db/retry';
import type { WalletService } from '../wallet';
import { loyaltyProgramme, pointsForWagered, type LoyaltyProgramme } from './programme';
import { loyaltyAccounts, loyaltyAccrualCursor, loyaltyPointEntries, loyaltyWagerTotals } from './tables';

export { CHARACTERS_PAGE_MAX } from '#common/contract/loyalty';
/** Stakes read per accrual transaction. */
const ACCRUAL_BATCH = 500;
/** How old a stake must be before the accrual reads it (see wallet stakesAfter). */
export const DEFAULT_SETTLED_BEFORE_MS = 60_000;

type AccountRow = typeof loyaltyAccounts.$inferSelect;

/** A player's net stake in one currency over a batch of transfers, and the last transfer of it. */
interface WagerGroup {
  siteId: string;
  userId: number;
  currency: string;
  stakedMinor: bigint;
  lastTransferId: number;
}

function groupStakes(
  stakes: { transferId: number; siteId: string; userId: number | null; currency: string; stakedMinor: bigint }[],
): WagerGroup[] {
  const groups = new Map<string, WagerGroup>();
  for (const stake of stakes) {
    if (stake.userId === null) continue;
    const key = `${stake.siteId}:${stake.userId}:${stake.currency}`;
    const group = groups.get(key) ?? {
      siteId: stake.siteId,
      userId: stake.userId,
      currency: stake.currency,
      stakedMinor: 0n,
      lastTransferId: 0,
    };
    group.stakedMinor += stake.stakedMinor;
    group.lastTransferId = stake.transferId;
    groups.set(key, group);
  }
  return [...groups.values()];
}

export interface LoyaltyDeps {
  db: Database;
  wallet: Pick<WalletService, 'stakesAfter'>;
  siteSettings: (siteId: string) => Promise<Record<string, unknown>>;
  /** Every site's settings by site id (the accrual reads them before its transaction). */
  allSiteSettings: () => Promise<Record<string, Record<string, unknown>>>;
  /** The site's name for its points: the `pointsAlias` of its loyalty configuration section. */
  pointsAlias: (siteId: string) => Promise<string>;
  /** Where the account a page reads is kept between changes (issue 12). */
  playerRows?: PlayerRowsCache;
}

export function createLoyaltyService(deps: LoyaltyDeps) {
  const { db } = deps;
  const programmeOf = async (siteId: string): Promise<LoyaltyProgramme> => loyaltyProgramme(await deps.siteSettings(siteId));

  /** The player's account, opened on first use (players who signed up before the programme, or socially). */
  async function accountOf(
    executor: Executor,
    siteId: string,
    userId: number,
    characterId: number | null = null,
  ): Promise<AccountRow> {
    const find = async () =>
      (await executor.select().from(loyaltyAccounts).where(eq(loyaltyAccounts.userId, userId)).limit(1))[0];
    // Read first: the account exists on every look but the first, which opens it (a racing open loses quietly).
    let row = await find();
    if (!row) {
      await executor
        .insert(loyaltyAccounts)
        .values({ siteId, userId, characterId })
        .onConflictDoNothing({ target: loyaltyAccounts.userId });
      row = await find();
    }
    if (!row || row.siteId !== siteId) throw new ApiError('AccessDeniedException', 'Access denied');
    return row;
  }

  /** The account as a page reads it: kept between changes (issue 12); writers use accountOf. */
  function cachedAccountOf(siteId: string, userId: number): Promise<AccountRow> {
    const read = async () => Object.freeze(await accountOf(db, siteId, userId));
    if (!deps.playerRows) return read();
    return deps.playerRows.get(`loyalty:${siteId}:${userId}`, read, { ownerOf: () => userId });
  }

  function checkCharacter(programme: LoyaltyProgramme, characterId: number, field = 'id') {
    if (!programme.characters.some((item) => item.id === characterId)) throw invalidParameter(field);
  }

  /** Adds one player's net stake in one currency to the running total and credits the change in points. */
  async function creditWager(tx: Executor, programme: LoyaltyProgramme, stake: WagerGroup) {
    const account = await accountOf(tx, stake.siteId, stake.userId);
    const [total] = await tx
      .insert(loyaltyWagerTotals)
      .values({ accountId: account.id, currency: stake.currency, wageredMinor: stake.stakedMinor })
      .onConflictDoUpdate({
        target: [loyaltyWagerTotals.accountId, loyaltyWagerTotals.currency],
        set: { wageredMinor: sql`${loyaltyWagerTotals.wageredMinor} + ${stake.stakedMinor}` },
      })
      .returning();
    if (!total) return;
    const change = pointsForWagered(total.wageredMinor, programme.wagerMinorPerPoint[stake.currency]) - total.pointsEarned;
    if (change === 0n) return;
    await tx
      .update(loyaltyWagerTotals)
      .set({ pointsEarned: total.pointsEarned + change })
      .where(and(eq(loyaltyWagerTotals.accountId, account.id), eq(loyaltyWagerTotals.currency, stake.currency)));
    await tx.insert(loyaltyPointEntries).values({
      accountId: account.id,
      pointsDelta: change,
      experienceDelta: change,
      reason: change > 0n ? 'wager' : 'wager_rollback',
      entryKey: `wager:${stake.lastTransferId}`,
    });
    await tx
      .update(loyaltyAccounts)
      .set({
        points: sql`greatest(${loyaltyAccounts.points} + ${change}, 0)`,
        experience: sql`greatest(${loyaltyAccounts.experience} + ${change}, 0)`,
        updatedAt: new Date(),
      })
      .where(eq(loyaltyAccounts.id, account.id));
  }

  /**
   * One batch of the accrual: reads stakes after the cursor, credits each player's net stake per
   * currency, moves the cursor. Grouping keeps the transaction to a few statements per player, not
   * per bet: on the embedded database it holds the only connection while it runs.
   */
  async function accrueBatch(settledBeforeMs: number): Promise<number> {
    // Read before the transaction: on PGlite a read through `db` inside it would wait forever.
    const programmes = new Map(
      Object.entries(await deps.allSiteSettings()).map(([siteId, settings]) => [siteId, loyaltyProgramme(settings)]),
    );
    const credited = new Set<number>();
    const read = await inTransaction(db, async (tx) => {
      credited.clear(); // a retried transaction starts over
      await tx.insert(loyaltyAccrualCursor).values({ name: 'wagers', lastTransferId: 0 }).onConflictDoNothing();
      const [cursor] = await tx.select().from(loyaltyAccrualCursor).where(eq(loyaltyAccrualCursor.name, 'wagers')).for('update');
      const stakes = await deps.wallet.stakesAfter(cursor?.lastTransferId ?? 0, { limit: ACCRUAL_BATCH, settledBeforeMs }, tx);
      const last = stakes.at(-1);
      if (!last) return 0;
      for (const group of groupStakes(stakes)) {
        const programme = programmes.get(group.siteId);
        if (programme?.isEnabled && group.stakedMinor !== 0n) {
          await creditWager(tx, programme, group);
          credited.add(group.userId);
        }
      }
      await tx
        .update(loyaltyAccrualCursor)
        .set({ lastTransferId: last.transferId, updatedAt: new Date() })
        .where(eq(loyaltyAccrualCursor.name, 'wagers'));
      return stakes.length;
    });
    // The database's change notice reaches the cache a moment later; this process's next read must
    // not show the points from before the batch.
    for (const userId of credited) deps.playerRows?.forgetPlayer(userId);
    return read;
  }

  return {
    /** Opens the account at sign-up with the character the player picked (checked first: see checkCharacterId). */
    async openAccount(siteId: string, userId: number, characterId: number | null): Promise<void> {
      await accountOf(db, siteId, userId, characterId);
    },

    /** Refuses a character id the site's programme does not have (InvalidParameterException on `field`). */
    async checkCharacterId(siteId: string, characterId: number, field = 'id'): Promise<void> {
      checkCharacter(await programmeOf(siteId), characterId, field);
    },

    async info(siteId: string, userId: number): Promise<LoyaltyInfo> {
      const programme = await programmeOf(siteId);
      const pointsAlias = await deps.pointsAlias(siteId);
      const account = await cachedAccountOf(siteId, userId);
      const experience = Number(account.experience);
      return {
        id: account.id,
        uid: userId,
        is_active: programme.isEnabled,
        points: Number(account.points),
        experience,
        pointsAlias,
        character: programme.characters.find((item) => item.id === account.characterId) ?? null,
        levels: programme.levels,
        level: levelOf(programme.levels, experience),
        progress: levelProgress(programme.levels, experience),
      };
    },

    async characters(siteId: string, offset: number, limit: number): Promise<LoyaltyCharacterList> {
      const all = (await programmeOf(siteId)).characters;
      return { items: all.slice(offset, offset + limit), offset, limit, total: all.length };
    },

    /** Spec §7 setcharacter: answers 1; the site then refetches the info (§4). */
    async setCharacter(siteId: string, userId: number, characterId: number): Promise<1> {
      checkCharacter(await programmeOf(siteId), characterId);
      const account = await accountOf(db, siteId, userId);
      await db.update(loyaltyAccounts).set({ characterId, updatedAt: new Date() }).where(eq(loyaltyAccounts.id, account.id));
      return 1;
    },

    /** Credits every settled stake not yet counted; returns how many stakes were read. */
    async accrue(options: { settledBeforeMs?: number } = {}): Promise<number> {
      const settledBeforeMs = options.settledBeforeMs ?? DEFAULT_SETTLED_BEFORE_MS;
      let read = 0;
      for (;;) {
        const batch = await accrueBatch(settledBeforeMs);
        if (batch === 0) return read;
        read += batch;
      }
    },
  };
}

export type LoyaltyService = ReturnType<typeof createLoyaltyService>;
