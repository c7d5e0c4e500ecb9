/**
 * Cashback (issue 13): a scheduled job pays back a percent of each player's real-money net loss
 * per period. The schedule queues one job per site and completed period (the job queue's key
 * makes it once however many processes queue it); the job reads the period's play from the
 * ledger and creates the cashbacks, one per player, currency and period by a unique key, so a
 * job run twice or on two processes creates each once. Creating one moves no money: the player
 * takes it with cashbacks.payout inside its receiving window, as real money from the house's
 * bonus cost or as a bonus of the bonus engine, in one transaction keyed by the cashback's id.
 * An unpaid one expires at the end of its window (or when the player removes it); then it can
 * no longer be paid, and nothing has moved.
 */
import { and, asc, count, desc, eq, gt, inArray, lte, or, type SQL } from 'drizzle-orm';
import { ApiError } from '#common/errors';
import { invalidParameter } from '#common/parameter-errors';
import type { CashbackPage, CashbackSort, CashbackStatusView, CashbackView } from '#common/contract';
import type { Locale } from '#common/locale';
import { money } from '#common/money';
import { z } from 'zod';
import type { Database } from '../../db/client';
import { inTransaction, type Executor } from '../../db/retry';
import { BonusGrantError, type BonusProgramme, type BonusService } from '../bonuses';
import { house, move, player, type WalletService } from '../wallet';
import {
  cashbackAmountMinor,
  cashbackProgramme,
  duePeriods,
  isWithinProgramme,
  payoutOf,
  percentHundredths,
  periodContaining,
  type CashbackSettings,
} from './programme';
import { cashbacks, type CashbackRow } from './tables';

/** The job that computes one site's period. */
export const CASHBACK_PERIOD_JOB = 'cashbacks.computePeriod';
/** How long after a period's end it is computed: every transaction open at the end has committed. */
export const SETTLE_MS = 15 * 60_000;
/** How far back the schedule looks for periods it has not computed: a process down for a while catches up. */
export const CATCH_UP_MS = 3 * 24 * 3_600_000;
const INSERT_BATCH = 500;
const EXPIRY_BATCH = 1_000;

/** The codes of the cashback error table (translations cashback.error.{CODE}), as error_data.cashback_id. */
export type CashbackErrorCode = 'NOT_FOUND' | 'EXPIRED' | 'ALREADY_PAID' | 'NOT_ACTIVE';

export function cashbackError(code: CashbackErrorCode): ApiError {
  return new ApiError('InvalidParameterException', `Invalid parameter: cashback_id (${code})`, {
    field: 'cashback_id',
    cashback_id: [code],
  });
}

export interface CashbackServiceDeps {
  db: Database;
  wallet: Pick<WalletService, 'transfer' | 'realMoneyPlayBetween' | 'recordAction'>;
  bonuses: Pick<BonusService, 'grantAndActivate' | 'programmeOf'>;
  siteSettings: (siteId: string) => Promise<Record<string, unknown> | undefined>;
  allSiteSettings: () => Promise<Record<string, Record<string, unknown>>>;
  /** The job queue's enqueue: a keyed job is created once. */
  enqueue: (kind: string, payload: unknown, options: { key: string; maxAttempts: number }) => Promise<unknown>;
  now?: () => Date;
}

const periodJobPayload = z.object({ siteId: z.string().min(1), start: z.string().datetime({ offset: true }) });

export function createCashbackService(deps: CashbackServiceDeps) {
  const { db } = deps;
  const now = deps.now ?? (() => new Date());
  const programmeOf = async (siteId: string) => cashbackProgramme(siteId, await deps.siteSettings(siteId));

  /**
   * The schedule's step: queues the computation of every period of every site's programme
   * that ended in the catch-up time (so a process that was down catches up; the job key makes
   * each one once), and expires what is past its receiving window.
   */
  async function computeDue(): Promise<{ queued: number; expired: number }> {
    const moment = now();
    let queued = 0;
    for (const [siteId, settings] of Object.entries(await deps.allSiteSettings())) {
      const programme = cashbackProgramme(siteId, settings);
      if (!programme) continue;
      for (const period of duePeriods(programme, moment, SETTLE_MS, CATCH_UP_MS)) {
        const start = period.start.toISOString();
        await deps.enqueue(
          CASHBACK_PERIOD_JOB,
          { siteId, start },
          { key: `${CASHBACK_PERIOD_JOB}:${siteId}:${start}`, maxAttempts: 10 },
        );
        queued++;
      }
    }
    return { queued, expired: await expireDue() };
  }

  /** The period job: creates the period's cashbacks; safe to run again, or twice at once. */
  async function computePeriodJob(payload: unknown): Promise<void> {
    const { siteId, start } = periodJobPayload.parse(payload);
    await computePeriod(siteId, new Date(start));
  }

  async function computePeriod(siteId: string, start: Date): Promise<{ created: number }> {
    const programme = await programmeOf(siteId);
    if (!programme) return { created: 0 };
    const period = periodContaining(start, programme.period, programme.time_zone);
    // The programme changed its period or time zone since the job was queued: that period no longer exists.
    if (period.start.getTime() !== start.getTime() || !isWithinProgramme(programme, period)) return { created: 0 };
    if (period.end.getTime() + SETTLE_MS > now().getTime())
      throw new Error(`the cashback period from ${start.toISOString()} has not settled`);
    await refuseUnpayableBonus(siteId, programme);
    const play = await deps.wallet.realMoneyPlayBetween(siteId, period.start, period.end);
    const createdAt = now();
    const rows = play.flatMap((row) => {
      const netLossMinor = row.stakedMinor - row.returnedMinor;
      const amountMinor = cashbackAmountMinor(programme, row.currency, netLossMinor);
      if (amountMinor <= 0n) return [];
      return [
        newCashback(
          programme,
          { siteId, userId: row.userId, currency: row.currency },
          period,
          netLossMinor,
          amountMinor,
          createdAt,
        ),
      ];
    });
    let created = 0;
    for (let index = 0; index < rows.length; index += INSERT_BATCH) {
      const inserted = await db
        .insert(cashbacks)
        .values(rows.slice(index, index + INSERT_BATCH))
        .onConflictDoNothing()
        .returning({ id: cashbacks.id });
      created += inserted.length;
    }
    return { created };
  }

  /**
   * A bonus payout needs a deposit_percent template of the bonus engine: the job fails (and is
   * retried, so the failure shows in the queue) rather than create cashbacks that cannot be paid.
   */
  async function refuseUnpayableBonus(siteId: string, programme: CashbackSettings): Promise<void> {
    const payout = payoutOf(programme);
    if (payout.kind !== 'bonus') return;
    const template = (await deps.bonuses.programmeOf(siteId)).templates.get(payout.templateId);
    if (template?.amount.kind !== 'deposit_percent')
      throw new Error(
        `cashback of ${siteId} pays with bonus template ${payout.templateId}, which is not a deposit_percent template`,
      );
  }

  /** An unpaid cashback past its window expires: a status only, no money has moved. */
  async function expireDue(): Promise<number> {
    const moment = now();
    const due = db
      .select({ id: cashbacks.id })
      .from(cashbacks)
      .where(and(eq(cashbacks.status, 'active'), lte(cashbacks.receivingExpiresAt, moment)))
      .orderBy(asc(cashbacks.id))
      .limit(EXPIRY_BATCH);
    const expired = await db
      .update(cashbacks)
      .set({ status: 'expired', endedAt: moment })
      .where(and(inArray(cashbacks.id, due), eq(cashbacks.status, 'active')))
      .returning({ id: cashbacks.id });
    return expired.length;
  }

  async function list(
    siteId: string,
    userId: number,
    query: {
      offset: number;
      count: number;
      sort: CashbackSort;
      order: 'asc' | 'desc';
      statuses: CashbackStatusView[];
      locale: Locale;
    },
  ): Promise<CashbackPage> {
    const moment = now();
    const filter = and(
      eq(cashbacks.siteId, siteId),
      eq(cashbacks.userId, userId),
      query.statuses.length > 0 ? or(...query.statuses.map((status) => statusIs(status, moment))) : undefined,
    );
    const column = SORT_COLUMNS[query.sort];
    const direction = query.order === 'asc' ? asc : desc;
    const [rows, [total], programme] = await Promise.all([
      db
        .select()
        .from(cashbacks)
        .where(filter)
        .orderBy(direction(column), direction(cashbacks.id))
        .offset(query.offset)
        .limit(query.count),
      db.select({ n: count() }).from(cashbacks).where(filter),
      programmeOf(siteId),
    ]);
    return { items: rows.map((row) => cashbackView(row, programme, query.locale, moment)), total: total?.n ?? 0 };
  }

  /** The player's newest cashback that can still be paid, if any. */
  async function newestActiveId(siteId: string, userId: number): Promise<number | undefined> {
    const [row] = await db
      .select({ id: cashbacks.id })
      .from(cashbacks)
      .where(and(eq(cashbacks.siteId, siteId), eq(cashbacks.userId, userId), statusIs('active', now())))
      .orderBy(desc(cashbacks.periodEnd), desc(cashbacks.id))
      .limit(1);
    return row?.id;
  }

  /**
   * Pays one of the player's cashbacks (the newest active one when none is named). The row is
   * locked first, its status checked, the money moved under the key `cashback:{id}:payout` (or
   * the bonus granted under the source ref `cashback:{id}`) and the status written, all in one
   * transaction: a second payout, in parallel or later, finds it paid and moves nothing.
   */
  async function payout(siteId: string, userId: number, cashbackId: number | undefined, locale: Locale): Promise<CashbackView> {
    const id = cashbackId ?? (await newestActiveId(siteId, userId));
    if (id === undefined) throw cashbackError('NOT_FOUND');
    // Read before the transaction: the grant reads the site's settings, which on the embedded
    // database must not wait behind the transaction holding its only connection.
    const bonusProgramme = await deps.bonuses.programmeOf(siteId);
    const programme = await programmeOf(siteId);
    const row = await inTransaction(db, async (tx) => {
      const locked = await lockOwnCashback(tx, siteId, userId, id);
      if (locked.status === 'paid_out') throw cashbackError('ALREADY_PAID');
      if (locked.status === 'expired' || (locked.status === 'active' && locked.receivingExpiresAt <= now()))
        throw cashbackError('EXPIRED');
      if (locked.status !== 'active') throw cashbackError('NOT_ACTIVE');
      const paidWith = await payOut(tx, locked, bonusProgramme);
      return updateCashback(tx, locked.id, { status: 'paid_out', paidOutAt: now(), paidWith, endedAt: now() });
    });
    return cashbackView(row, programme, locale, now());
  }

  async function payOut(tx: Executor, row: CashbackRow, bonusProgramme: BonusProgramme): Promise<string> {
    if (row.payout.kind === 'bonus') {
      const { row: bonus } = await grantOrRefuse(
        {
          siteId: row.siteId,
          userId: row.userId,
          currency: row.currency,
          templateId: row.payout.templateId,
          source: 'cashback',
          sourceRef: `cashback:${row.id}`,
          depositMinor: row.amountMinor,
        },
        tx,
        bonusProgramme,
      );
      return `bonus:${bonus.id}`;
    }
    const { transferId } = await deps.wallet.transfer(
      {
        siteId: row.siteId,
        userId: row.userId,
        kind: 'cashback_payout',
        currency: row.currency,
        amountMinor: row.amountMinor,
        legs: move(house('bonus_cost', row.userId), player(row.userId, 'main'), row.amountMinor),
        idempotencyKey: `cashback:${row.id}:payout`,
        reference: `cashback:${row.id}`,
        actor: `player:${row.userId}`,
        reason: `${row.period} cashback of ${row.periodStart.toISOString()}`,
      },
      tx,
    );
    return `transfer:${transferId}`;
  }

  /** The player claimed it: the bonus is activated at once when the site's rules allow, else it waits available. */
  async function grantOrRefuse(...args: Parameters<CashbackServiceDeps['bonuses']['grantAndActivate']>) {
    try {
      return await deps.bonuses.grantAndActivate(...args);
    } catch (error) {
      // The operator's template no longer pays this (removed, another currency): nothing moves, the cashback stays active.
      if (error instanceof BonusGrantError) {
        console.warn(`cashback ${args[0].sourceRef} cannot be paid as a bonus: ${error.message}`);
        throw new ApiError('UnknownErrorException', 'This cashback cannot be paid at the moment');
      }
      throw error;
    }
  }

  /**
   * The operator's cashback for a player (back office): the programme's percent of a net loss the
   * operator assessed (rounds a provider booked late, a complaint upheld), for the last completed
   * period, created as the period job creates one, so the player takes it the same way. There is
   * no clock to wind on a live site; this is how an operator (and a browser test) makes one now.
   * One per player, currency and period like the job's: a resent request, or a period the job
   * already paid back, answers the existing cashback with isNew false. Recorded in the audit log.
   */
  async function grantByOperator(request: {
    siteId: string;
    userId: number;
    currency: string;
    netLossMinor: bigint;
    operator: string;
    reason: string;
  }): Promise<{ row: CashbackRow; isNew: boolean }> {
    const programme = await programmeOf(request.siteId);
    if (!programme) throw new ApiError('InvalidRequestException', 'This site runs no cashback programme');
    const moment = now();
    const current = periodContaining(moment, programme.period, programme.time_zone);
    const period = periodContaining(new Date(current.start.getTime() - 1), programme.period, programme.time_zone);
    if (!isWithinProgramme(programme, period))
      throw new ApiError('InvalidRequestException', 'The cashback programme had not started in the last period');
    const amountMinor = cashbackAmountMinor(programme, request.currency, request.netLossMinor);
    if (amountMinor <= 0n) throw invalidParameter('net_loss', 'The net loss pays back less than the minimum cashback');
    await refuseUnpayableBonus(request.siteId, programme);
    const owner = { siteId: request.siteId, userId: request.userId, currency: request.currency };
    return inTransaction(db, async (tx) => {
      const [inserted] = await tx
        .insert(cashbacks)
        .values(newCashback(programme, owner, period, request.netLossMinor, amountMinor, moment))
        .onConflictDoNothing()
        .returning();
      if (!inserted) return { row: await periodCashback(tx, owner, period.start), isNew: false };
      await deps.wallet.recordAction(
        {
          stream: `player:${inserted.userId}`,
          actor: `operator:${request.operator}`,
          action: 'cashback.grant',
          subject: `cashback:${inserted.id}`,
          reason: request.reason,
          payload: {
            cashbackId: inserted.id,
            netLossMinor: inserted.netLossMinor.toString(),
            amountMinor: inserted.amountMinor.toString(),
          },
        },
        tx,
      );
      return { row: inserted, isNew: true };
    });
  }

  /** cashbacks.remove: the player dismisses their newest active cashback; it can no longer be paid. */
  async function remove(siteId: string, userId: number): Promise<1> {
    const id = await newestActiveId(siteId, userId);
    if (id === undefined) throw cashbackError('NOT_FOUND');
    await inTransaction(db, async (tx) => {
      const locked = await lockOwnCashback(tx, siteId, userId, id);
      if (locked.status !== 'active' || locked.receivingExpiresAt <= now()) throw cashbackError('NOT_ACTIVE');
      await updateCashback(tx, locked.id, { status: 'removed', endedAt: now() });
    });
    return 1;
  }

  return { computeDue, computePeriod, computePeriodJob, expireDue, grantByOperator, list, payout, remove };
}

export type CashbackService = ReturnType<typeof createCashbackService>;

const SORT_COLUMNS = {
  end_date: cashbacks.periodEnd,
  id: cashbacks.id,
  amount: cashbacks.amountMinor,
  receiving_expired_at: cashbacks.receivingExpiresAt,
  paid_out_at: cashbacks.paidOutAt,
} satisfies Record<CashbackSort, unknown>;

/** A status as the player sees it: an active cashback past its window is expired before the sweep marks it. */
function statusIs(status: CashbackStatusView, moment: Date): SQL | undefined {
  if (status === 'active') return and(eq(cashbacks.status, 'active'), gt(cashbacks.receivingExpiresAt, moment));
  if (status === 'expired')
    return or(eq(cashbacks.status, 'expired'), and(eq(cashbacks.status, 'active'), lte(cashbacks.receivingExpiresAt, moment)));
  return eq(cashbacks.status, status);
}

function viewStatus(row: CashbackRow, moment: Date): CashbackStatusView {
  return row.status === 'active' && row.receivingExpiresAt <= moment ? 'expired' : row.status;
}

function newCashback(
  programme: CashbackSettings,
  owner: { siteId: string; userId: number; currency: string },
  period: { start: Date; end: Date },
  netLossMinor: bigint,
  amountMinor: bigint,
  createdAt: Date,
): typeof cashbacks.$inferInsert {
  return {
    ...owner,
    status: 'active',
    period: programme.period,
    periodStart: period.start,
    periodEnd: period.end,
    netLossMinor,
    percentHundredths: percentHundredths(programme),
    amountMinor,
    payout: payoutOf(programme),
    // The window runs from when the cashback exists, so a late job never shortens it.
    receivingExpiresAt: new Date(createdAt.getTime() + programme.receiving_hours * 3_600_000),
    createdAt,
  };
}

/**
 * Reads and locks one of the player's cashbacks. Another player's answers AccessDenied and says
 * nothing of it; another site's is not found.
 */
async function lockOwnCashback(tx: Executor, siteId: string, userId: number, id: number): Promise<CashbackRow> {
  const [row] = await tx.select().from(cashbacks).where(eq(cashbacks.id, id)).for('update');
  if (!row || row.siteId !== siteId) throw cashbackError('NOT_FOUND');
  if (row.userId !== userId) throw new ApiError('AccessDeniedException', 'Access denied');
  return row;
}

/** The cashback a player already has for a period in a currency (the unique key's row). */
async function periodCashback(
  tx: Executor,
  owner: { siteId: string; userId: number; currency: string },
  periodStart: Date,
): Promise<CashbackRow> {
  const [row] = await tx
    .select()
    .from(cashbacks)
    .where(
      and(
        eq(cashbacks.siteId, owner.siteId),
        eq(cashbacks.userId, owner.userId),
        eq(cashbacks.currency, owner.currency),
        eq(cashbacks.periodStart, periodStart),
      ),
    );
  if (!row) throw new Error('a cashback that conflicted on its period key is not there');
  return row;
}

async function updateCashback(tx: Executor, id: number, changes: Partial<typeof cashbacks.$inferInsert>): Promise<CashbackRow> {
  const [row] = await tx.update(cashbacks).set(changes).where(eq(cashbacks.id, id)).returning();
  if (!row) throw new Error(`cashback ${id} vanished inside its own transaction`);
  return row;
}

function cashbackView(row: CashbackRow, programme: CashbackSettings | undefined, locale: Locale, moment: Date): CashbackView {
  const texts = programme?.texts?.[locale] ?? programme?.texts?.en;
  const percent = row.percentHundredths / 100;
  return {
    id: row.id,
    status: viewStatus(row, moment),
    description: { title: texts?.title ?? `Cashback ${percent}%`, text: texts?.text ?? '' },
    amount: money(row.amountMinor, row.currency),
    net_loss: money(row.netLossMinor, row.currency),
    percent,
    payout: row.payout.kind,
    period: row.period,
    start_date: row.periodStart.toISOString(),
    end_date: row.periodEnd.toISOString(),
    receiving_expired_at: row.receivingExpiresAt.toISOString(),
    paid_out_at: row.paidOutAt?.toISOString() ?? null,
    created_at: row.createdAt.toISOString(),
  };
}
