/**
 * Withdrawals: the amount is reserved at once (main → withdrawal_pending) and stays there until
 * the operator decides (back-office.ts) or the player cancels. Open debts are repaid first, per
 * the site's debt policy (collectDebts).
 */
import { and, desc, eq, inArray } from 'drizzle-orm';
import { ApiError } from '#common/errors';
import { minorToAmount } from '#common/money';
import type { WithdrawalView } from '#common/cashier-contract';
import { validateSum } from '#common/validators';
import { requireValid } from '#common/parameter-errors';
import { inTransaction, type Executor } from '../../db/retry';
import type { UserRow } from '../account';
import type { Site } from '../sites';
import { debtPolicyOf, InsufficientFundsError, move, OpenDebtError, player } from '../wallet';
import { cashierSettings } from './settings';
import { payments } from './tables';
import { findMethod, checkRequisites, listMethods, type CashierDeps, type PlayerRequest } from './cashier-deps';
import {
  COUNTED_WITHDRAWAL,
  OPEN_WITHDRAWAL,
  newPaymentId,
  startOfUtcDay,
  lockPlayer,
  sumPayments,
  withdrawalView,
  ownPayment,
  setStatus,
  type PaymentRow,
} from './payment-rows';

/** Moves a reserved withdrawal back to the main balance (cancel, decline, failed payout). */
export async function releaseWithdrawal(
  deps: CashierDeps,
  tx: Executor,
  row: PaymentRow,
  key: string,
  actor: string,
  reason: string,
) {
  const { wallet } = deps;
  await wallet.transfer(
    {
      siteId: row.siteId,
      userId: row.userId,
      kind: 'withdrawal_release',
      currency: row.currency,
      amountMinor: row.amountMinor,
      legs: move(player(row.userId, 'withdrawal_pending'), player(row.userId, 'main'), row.amountMinor),
      idempotencyKey: `${key}:${row.id}`,
      reference: row.id,
      actor,
      reason,
    },
    tx,
  );
}

/** The withdrawal page: balance, bounds, the day's limit, what is pending. */
export async function withdrawSettings(deps: CashierDeps, request: PlayerRequest) {
  const { db, wallet } = deps;
  const { site, user } = request;
  const settings = cashierSettings(site.settings);
  const methods = await listMethods(deps, request, 'withdrawal');
  const balances = await wallet.balances(site.id, user.id, user.currency);
  // Under the `collect` debt policy what the player owes is repaid first: it is not available to withdraw.
  const owed = debtPolicyOf(site.settings) === 'collect' ? await deps.debts.owed(site.id, user.id, user.currency) : 0n;
  const available = balances.main > owed ? balances.main - owed : 0n;
  const today = startOfUtcDay(new Date());
  const used = await sumPayments(db, user.id, 'withdrawal', COUNTED_WITHDRAWAL, today);
  const open = await db
    .select()
    .from(payments)
    .where(
      and(eq(payments.userId, user.id), eq(payments.direction, 'withdrawal'), inArray(payments.status, [...OPEN_WITHDRAWAL])),
    )
    .orderBy(desc(payments.createdAt));
  const minMinor = methods.reduce(
    (least, method) => (method.minMinor < least ? method.minMinor : least),
    methods[0]?.minMinor ?? 0n,
  );
  const maxMinor = methods.reduce((most, method) => (method.maxMinor > most ? method.maxMinor : most), 0n);
  return {
    currency: user.currency,
    available_amount: minorToAmount(available),
    min_amount: minorToAmount(minMinor),
    max_amount: minorToAmount(maxMinor),
    period_limit: {
      period: 'day' as const,
      limit_amount: minorToAmount(settings.dailyWithdrawalLimitMinor(user.currency)),
      used_amount: minorToAmount(used),
      resets_at: new Date(today.getTime() + 86_400_000).toISOString(),
    },
    is_kyc_required: settings.isKycRequiredForWithdrawal || user.isKycBlockEnabled,
    is_verified: user.isVerified,
    has_confirmed_contact: await deps.accounts.hasConfirmedContact(user.id),
    pending: open.map(withdrawalView),
  };
}

/**
 * Withdrawing while a bonus is active (issue 13): refused until the player confirms burning the
 * bonuses (the burn-bonuses dialog), then they are forfeited in the withdrawal's transaction.
 * Only bonus money goes; real money is never held back by a bonus.
 */
async function settleActiveBonuses(deps: CashierDeps, tx: Executor, request: PlayerRequest, burn: boolean): Promise<void> {
  const { site, user } = request;
  if (burn) {
    await deps.bonuses.forfeitActive(site.id, user.id, `player:${user.id}`, tx);
    return;
  }
  const active = await deps.bonuses.activeBonusIds(site.id, user.id, tx);
  if (active.length > 0) {
    throw new ApiError('WithdrawalDeclinedException', 'Withdrawing now forfeits your active bonuses: confirm to continue', {
      reason: 'ACTIVE_BONUSES',
      bonus_ids: active,
    });
  }
}

/**
 * What the player owes (a payout a rollback took back after they spent it, issue 14) comes before
 * a withdrawal, per the site's settings.wallet.debt_policy: under `collect` it is repaid from the
 * main balance in the withdrawal's transaction, and a withdrawal above what is left is refused
 * (WithdrawalDeclinedException OPEN_DEBT, naming what is owed and what can be withdrawn).
 */
async function collectDebts(deps: CashierDeps, tx: Executor, request: PlayerRequest, amountMinor: bigint, id: string) {
  const { site, user } = request;
  try {
    await deps.debts.collectBeforeWithdrawal(
      tx,
      {
        siteId: site.id,
        userId: user.id,
        currency: user.currency,
        amountMinor,
        idempotencyKey: `withdrawal:${id}:debts`,
        actor: `player:${user.id}`,
      },
      debtPolicyOf(site.settings),
    );
  } catch (error) {
    if (!(error instanceof OpenDebtError)) throw error;
    throw new ApiError(
      'WithdrawalDeclinedException',
      'You owe money from a bet whose payout was taken back: it is repaid first',
      {
        reason: 'OPEN_DEBT',
        errorType: 'OPEN_DEBT',
        owed_amount: minorToAmount(error.owedMinor),
        available_amount: minorToAmount(error.availableMinor),
      },
    );
  }
}

/** Reserves the amount at once: it leaves the main balance for the pending account until the operator decides. */
export async function makeWithdrawal(
  deps: CashierDeps,
  request: PlayerRequest,
  input: { method: string; amount: string; requisites: Record<string, string>; burnBonuses?: boolean },
): Promise<WithdrawalView> {
  const { db, wallet } = deps;
  const { site, user } = request;
  const settings = cashierSettings(site.settings);
  if ((settings.isKycRequiredForWithdrawal || user.isKycBlockEnabled) && !user.isVerified)
    throw new ApiError('KycWithdrawalException', 'Verify your identity before withdrawing');
  if (settings.isConfirmedContactRequiredForWithdrawal && !(await deps.accounts.hasConfirmedContact(user.id)))
    throw new ApiError('UserNeedConfirmContactException', 'Confirm your e-mail or phone before withdrawing');
  const method = await findMethod(deps, request, 'withdrawal', input.method);
  requireValid('amount', validateSum(input.amount, { min: 1, max: Number.MAX_SAFE_INTEGER, currency: user.currency }));
  const amountMinor = BigInt(input.amount.replace(/,/g, '').trim()) * 100n;
  if (amountMinor < method.minMinor || amountMinor > method.maxMinor) {
    throw new ApiError('WithdrawalLimitsExceededException', 'The amount is outside the limits of this method', {
      min_amount: method.min_amount,
      max_amount: method.max_amount,
    });
  }
  const requisites = checkRequisites(method, input.requisites);
  const id = newPaymentId('wd');
  return inTransaction(db, async (tx) => {
    await lockPlayer(tx, 'withdrawal', user.id);
    await settleActiveBonuses(deps, tx, request, input.burnBonuses === true);
    const limitMinor = settings.dailyWithdrawalLimitMinor(user.currency);
    const usedMinor = await sumPayments(tx, user.id, 'withdrawal', COUNTED_WITHDRAWAL, startOfUtcDay(new Date()));
    if (usedMinor + amountMinor > limitMinor) {
      throw new ApiError('WithdrawalLimitsPeriodExceededException', 'This withdrawal would pass your daily withdrawal limit', {
        period: 'day',
        limit_amount: minorToAmount(limitMinor),
        available_amount: minorToAmount(limitMinor > usedMinor ? limitMinor - usedMinor : 0n),
      });
    }
    await collectDebts(deps, tx, request, amountMinor, id);
    const [row] = await tx
      .insert(payments)
      .values({
        id,
        siteId: site.id,
        userId: user.id,
        direction: 'withdrawal',
        method: method.sysname,
        methodType: method.type,
        provider: method.provider,
        amountMinor,
        currency: user.currency,
        status: 'pending',
        requisites,
        origin: request.origin,
      })
      .returning();
    try {
      await wallet.transfer(
        {
          siteId: site.id,
          userId: user.id,
          kind: 'withdrawal_reserve',
          currency: user.currency,
          amountMinor,
          legs: move(player(user.id, 'main'), player(user.id, 'withdrawal_pending'), amountMinor),
          idempotencyKey: `withdrawal-reserve:${id}`,
          reference: id,
          actor: `player:${user.id}`,
          reason: `withdrawal by ${method.sysname}`,
        },
        tx,
      );
    } catch (error) {
      if (error instanceof InsufficientFundsError)
        throw new ApiError('InvalidParameterException', 'The amount is more than your balance', {
          field: 'amount',
          errorType: 'insufficientFunds',
        });
      throw error;
    }
    return withdrawalView(row as PaymentRow);
  });
}

/** The player cancels a withdrawal still pending: the reserved amount goes back. */
export async function cancelWithdrawal(deps: CashierDeps, request: { site: Site; user: UserRow }, id: string): Promise<void> {
  const { db } = deps;
  await inTransaction(db, async (tx) => {
    const row = await ownPayment(tx, request, id, true);
    if (row.direction !== 'withdrawal') throw new ApiError('AccessDeniedException', 'Access denied');
    if (row.status !== 'pending') throw new ApiError('InvalidRequestException', 'This withdrawal can no longer be cancelled');
    await releaseWithdrawal(deps, tx, row, 'withdrawal-cancel', `player:${row.userId}`, 'cancelled by the player');
    await setStatus(tx, row.id, 'cancelled', { reason: 'Cancelled by you' });
  });
}
