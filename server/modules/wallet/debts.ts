/**
 * Players' debts (issue 14 "Settlement": a rollback reverses a settlement "and its payout, even if
 * the player already spent it — the balance may not go negative, so the difference is recorded as
 * a debt the next deposit clears, or the operator's policy configured per site").
 *
 * - reclaim: takes an amount back to a house account in one transfer: what the main balance holds
 *   from it, the rest from the house's `player_debt` account (which goes negative: the house is
 *   owed it) and a `player_debts` row for the operator. Under the `write_off` policy the shortfall
 *   is written off at once (house `adjustment` → `player_debt`), still recorded, as written off.
 * - clearDebts: a deposit's transaction repays the player's open debts first, oldest first, from
 *   the main balance it has just credited.
 * - writeOff: the operator forgives what is left of a debt.
 * - collectBeforeWithdrawal: under the `collect` policy a withdrawal repays the open debts from
 *   the main balance first and may take only what is left.
 *
 * The main account's row is locked before its balance is read, so a deposit and a reversal for
 * the same player queue on it: whichever comes second sees the other's balance and debts.
 * Invariant (ledger-check.ts): per site and currency, what open debts still owe equals minus the
 * `player_debt` accounts' balance.
 */
import { and, asc, desc, eq, sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import type { Executor } from '../../db/retry';
import { inTransaction } from '../../db/retry';
import { house, player, type AccountRef, type Leg } from './postings';
import type { WalletService } from './service';
import { ledgerAccounts, ledgerTransfers, playerDebts, type PlayerDebtRow } from './tables';

export type DebtPolicy = 'collect' | 'write_off';

/** The site's policy for a shortfall (settings.wallet.debt_policy): collect from the next deposits (default) or write it off. */
export function debtPolicyOf(settings: Record<string, unknown> | undefined): DebtPolicy {
  const policy = (settings?.wallet as { debt_policy?: unknown } | undefined)?.debt_policy;
  return policy === 'write_off' ? 'write_off' : 'collect';
}

/** A withdrawal the main balance cannot cover once the open debts are repaid from it (the `collect` policy). */
export class OpenDebtError extends Error {
  constructor(
    readonly owedMinor: bigint,
    readonly availableMinor: bigint,
  ) {
    super(`${owedMinor} is owed: at most ${availableMinor} can be withdrawn`);
  }
}

export interface ReclaimInput {
  siteId: string;
  userId: number;
  currency: string;
  amountMinor: bigint;
  /** Where the money goes back to (the house's game account for a sports payout). */
  to: AccountRef;
  kind: string;
  idempotencyKey: string;
  reference: string;
  actor: string;
  reason: string;
}

export interface Reclaimed {
  /** What the main balance paid. */
  takenMinor: bigint;
  /** What it could not pay: a debt (open, or written off under that policy). */
  debtMinor: bigint;
  isReplay: boolean;
}

/** Locks the player's main account and reads its balance (an account never opened holds nothing). */
async function lockedMain(tx: Executor, siteId: string, userId: number, currency: string): Promise<bigint> {
  const [row] = await tx
    .select({ balanceMinor: ledgerAccounts.balanceMinor })
    .from(ledgerAccounts)
    .where(
      and(
        eq(ledgerAccounts.siteId, siteId),
        eq(ledgerAccounts.ownerKind, 'player'),
        eq(ledgerAccounts.userId, userId),
        eq(ledgerAccounts.type, 'main'),
        eq(ledgerAccounts.currency, currency),
        eq(ledgerAccounts.shard, 0),
      ),
    )
    .for('update');
  return row?.balanceMinor ?? 0n;
}

async function isApplied(tx: Executor, key: string): Promise<boolean> {
  const [row] = await tx.select({ id: ledgerTransfers.id }).from(ledgerTransfers).where(eq(ledgerTransfers.idempotencyKey, key));
  return row !== undefined;
}

const nonZero = (legs: Leg[]) => legs.filter((leg) => leg.amountMinor !== 0n);

/** The player's open debts in a currency. */
function openDebtsOf(siteId: string, userId: number, currency: string) {
  return and(
    eq(playerDebts.siteId, siteId),
    eq(playerDebts.userId, userId),
    eq(playerDebts.currency, currency),
    eq(playerDebts.status, 'open'),
  );
}

/** What a player still owes in a currency, summed over the open debts (locked for a transaction that may repay them). */
async function owedIn(executor: Executor, siteId: string, userId: number, currency: string, lock: boolean): Promise<bigint> {
  const query = executor
    .select({
      left: sql<string>`(${playerDebts.amountMinor} - ${playerDebts.clearedMinor} - ${playerDebts.writtenOffMinor})::text`,
    })
    .from(playerDebts)
    .where(openDebtsOf(siteId, userId, currency))
    .orderBy(asc(playerDebts.id));
  const open = lock ? await query.for('update') : await query;
  return open.reduce((sum, debt) => sum + BigInt(debt.left), 0n);
}

export function createDebts(wallet: WalletService, db: Database) {
  async function writeOffIn(tx: Executor, debt: PlayerDebtRow, amountMinor: bigint, actor: string, reason: string) {
    await wallet.transfer(
      {
        siteId: debt.siteId,
        userId: debt.userId,
        kind: 'debt_write_off',
        currency: debt.currency,
        amountMinor,
        legs: [
          { account: house('adjustment', debt.userId), amountMinor: -amountMinor },
          { account: house('player_debt', debt.userId), amountMinor },
        ],
        idempotencyKey: `debt:${debt.id}:write-off`,
        reference: `debt:${debt.id}`,
        actor,
        reason,
      },
      tx,
    );
    await tx
      .update(playerDebts)
      .set({ writtenOffMinor: debt.writtenOffMinor + amountMinor, status: 'written_off', closedAt: new Date() })
      .where(eq(playerDebts.id, debt.id));
    return { ...debt, writtenOffMinor: debt.writtenOffMinor + amountMinor, status: 'written_off' as const };
  }

  /**
   * Repays the player's open debts in this currency from the main balance, oldest first, up
   * to `upToMinor` (a deposit's amount): one transfer keyed by the deposit. Returns what it repaid.
   */
  async function clearDebts(
    tx: Executor,
    input: { siteId: string; userId: number; currency: string; upToMinor: bigint; idempotencyKey: string; actor: string },
  ): Promise<bigint> {
    const open = await tx
      .select()
      .from(playerDebts)
      .where(openDebtsOf(input.siteId, input.userId, input.currency))
      .orderBy(asc(playerDebts.id))
      .for('update');
    if (open.length === 0 || (await isApplied(tx, input.idempotencyKey))) return 0n;
    const owed = open.reduce((sum, debt) => sum + debt.amountMinor - debt.clearedMinor - debt.writtenOffMinor, 0n);
    const balance = await lockedMain(tx, input.siteId, input.userId, input.currency);
    let repay = [owed, input.upToMinor, balance].reduce((low, item) => (item < low ? item : low));
    if (repay <= 0n) return 0n;
    await wallet.transfer(
      {
        siteId: input.siteId,
        userId: input.userId,
        kind: 'debt_repayment',
        currency: input.currency,
        amountMinor: repay,
        legs: [
          { account: player(input.userId, 'main'), amountMinor: -repay },
          { account: house('player_debt', input.userId), amountMinor: repay },
        ],
        idempotencyKey: input.idempotencyKey,
        reference: `debts:${input.userId}`,
        actor: input.actor,
        reason: 'debt repaid from a deposit',
      },
      tx,
    );
    const total = repay;
    for (const debt of open) {
      if (repay === 0n) break;
      const left = debt.amountMinor - debt.clearedMinor - debt.writtenOffMinor;
      const part = left < repay ? left : repay;
      repay -= part;
      const done = part === left;
      await tx
        .update(playerDebts)
        .set({ clearedMinor: debt.clearedMinor + part, ...(done ? { status: 'cleared' as const, closedAt: new Date() } : {}) })
        .where(eq(playerDebts.id, debt.id));
    }
    return total;
  }

  return {
    /** Takes `amountMinor` back from the player: the main balance first, the rest as a debt (or written off). Idempotent by key. */
    async reclaim(tx: Executor, input: ReclaimInput, policy: DebtPolicy): Promise<Reclaimed> {
      if (await isApplied(tx, input.idempotencyKey)) {
        const [debt] = await tx.select().from(playerDebts).where(eq(playerDebts.reference, input.idempotencyKey));
        const debtMinor = debt?.amountMinor ?? 0n;
        return { takenMinor: input.amountMinor - debtMinor, debtMinor, isReplay: true };
      }
      const balance = await lockedMain(tx, input.siteId, input.userId, input.currency);
      const takenMinor = balance < input.amountMinor ? balance : input.amountMinor;
      const debtMinor = input.amountMinor - takenMinor;
      await wallet.transfer(
        {
          siteId: input.siteId,
          userId: input.userId,
          kind: input.kind,
          currency: input.currency,
          amountMinor: input.amountMinor,
          legs: nonZero([
            { account: player(input.userId, 'main'), amountMinor: -takenMinor },
            { account: house('player_debt', input.userId), amountMinor: -debtMinor },
            { account: input.to, amountMinor: input.amountMinor },
          ]),
          idempotencyKey: input.idempotencyKey,
          reference: input.reference,
          actor: input.actor,
          reason: debtMinor > 0n ? `${input.reason}; ${debtMinor} owed` : input.reason,
        },
        tx,
      );
      if (debtMinor === 0n) return { takenMinor, debtMinor, isReplay: false };
      const [debt] = await tx
        .insert(playerDebts)
        .values({
          siteId: input.siteId,
          userId: input.userId,
          currency: input.currency,
          amountMinor: debtMinor,
          status: 'open',
          reference: input.idempotencyKey,
          reason: input.reason,
        })
        .returning();
      if (!debt) throw new Error('the debt could not be recorded');
      if (policy === 'write_off') await writeOffIn(tx, debt, debtMinor, 'system', 'written off by the site policy');
      return { takenMinor, debtMinor, isReplay: false };
    },

    clearDebts,

    /**
     * Before a withdrawal leaves the main balance (in its transaction): under the `collect` policy
     * the open debts are repaid from the balance first (one `debt_repayment` keyed by the
     * withdrawal), and a withdrawal larger than what is left is refused (OpenDebtError) with
     * nothing moved. Under `write_off` the site forgives shortfalls, and debts hold nothing back.
     * The main account is locked before the debts, as a deposit locks them (its credit, then
     * clearDebts), so a withdrawal and a deposit's collection queue on it and never deadlock.
     */
    async collectBeforeWithdrawal(
      tx: Executor,
      input: { siteId: string; userId: number; currency: string; amountMinor: bigint; idempotencyKey: string; actor: string },
      policy: DebtPolicy,
    ): Promise<bigint> {
      if (policy === 'write_off') return 0n;
      const balance = await lockedMain(tx, input.siteId, input.userId, input.currency);
      const owed = await owedIn(tx, input.siteId, input.userId, input.currency, true);
      if (owed === 0n) return 0n;
      const available = balance > owed ? balance - owed : 0n;
      if (input.amountMinor > available) throw new OpenDebtError(owed, available);
      return clearDebts(tx, { ...input, upToMinor: owed });
    },

    /** The operator forgives what is left of an open debt (recorded under their name). */
    writeOff(debtId: number, siteId: string, operator: string, reason: string): Promise<PlayerDebtRow | undefined> {
      return inTransaction(db, async (tx) => {
        const [debt] = await tx.select().from(playerDebts).where(eq(playerDebts.id, debtId)).for('update');
        if (!debt || debt.siteId !== siteId) return undefined;
        if (debt.status !== 'open') return debt;
        const left = debt.amountMinor - debt.clearedMinor - debt.writtenOffMinor;
        return writeOffIn(tx, debt, left, `operator:${operator}`, reason);
      });
    },

    /** Debts for the operator, newest first: of one player or all, open only or all. */
    list(siteId: string, filter: { userId?: number; status?: 'open' | 'all'; count: number }) {
      return db
        .select()
        .from(playerDebts)
        .where(
          and(
            eq(playerDebts.siteId, siteId),
            filter.userId === undefined ? undefined : eq(playerDebts.userId, filter.userId),
            filter.status === 'all' ? undefined : eq(playerDebts.status, 'open'),
          ),
        )
        .orderBy(desc(playerDebts.id))
        .limit(filter.count);
    },

    /** What a player still owes in a currency. */
    owed(siteId: string, userId: number, currency: string): Promise<bigint> {
      return owedIn(db, siteId, userId, currency, false);
    },
  };
}

export type Debts = ReturnType<typeof createDebts>;
