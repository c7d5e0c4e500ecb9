/**
 * Deposits: a payment row opened within the player's responsible-gaming limits, handed to the
 * payment provider; the provider's notification (provider-events.ts) credits it.
 */
import { and, count, eq } from 'drizzle-orm';
import { ApiError } from '#common/errors';
import type { Locale } from '#common/locale';
import { minorToAmount } from '#common/money';
import type { DepositDetail, DepositStart, PaymentFlow } from '#common/cashier-contract';
import { validateSum } from '#common/validators';
import { requireValid } from '#common/parameter-errors';
import { inTransaction, type Executor } from '../../db/retry';
import type { UserRow } from '../account';
import { jurisdictionOf } from '../responsible-gaming';
import type { Site } from '../sites';
import { listDepositOffers, requireEligibleOffer } from '../campaigns';
import { payments } from './tables';
import { requireProvider, findMethod, checkRequisites, type CashierDeps, type PlayerRequest } from './cashier-deps';
import { COUNTED_DEPOSIT, newPaymentId, lockPlayer, sumPayments, depositDetail, ownPayment, setStatus } from './payment-rows';

const localePrefix = (locale: Locale) => (locale === 'en' ? '' : `/${locale}`);
const wholeUnits = (minor: bigint, round: 'up' | 'down') => Number(round === 'up' ? (minor + 99n) / 100n : minor / 100n);

/** Spec §8 BillingDepositLimitExceededException: a limit set under responsible gaming would be passed. */
export async function enforceDepositLimits(
  deps: CashierDeps,
  tx: Executor,
  site: Site,
  userId: number,
  amountMinor: bigint,
): Promise<void> {
  const limits = await deps.responsibleGaming().limits(userId, new Date(), tx);
  const active = limits.filter((limit) => limit.limitMinor !== null);
  if (active.length === 0 && jurisdictionOf(site.settings).isDepositLimitRequired) {
    throw new ApiError('BillingDepositLimitExceededException', 'Set a deposit limit before your first deposit', {
      is_limit_required: true,
      available_amount: '0.00',
    });
  }
  for (const limit of active) {
    const available = (limit.limitMinor ?? 0n) - limit.depositedMinor;
    if (amountMinor > available) {
      throw new ApiError('BillingDepositLimitExceededException', 'This deposit would exceed your deposit limit', {
        period: limit.period,
        limit_amount: minorToAmount(limit.limitMinor ?? 0n),
        available_amount: minorToAmount(available > 0n ? available : 0n),
        expired_at: limit.resetsAt.toISOString(),
      });
    }
  }
}

export function returnUrls(request: PlayerRequest, id: string, flow: PaymentFlow) {
  const base = `${request.origin}${localePrefix(request.locale)}/cashier`;
  if (flow === 'same_window') {
    return {
      success: `${base}/paysuccess/${id}`,
      fail: `${base}/payfail/${id}`,
      pending: `${base}/paypending/${id}`,
      cancel: `${base}/paycancel`,
    };
  }
  // The provider's window ends on the flow's own result screen, which reads the outcome.
  const screen = `${base}/${flow === 'mobile' ? 'paymobile' : 'paynewwindow'}?id=${id}&result=`;
  return { success: `${screen}success`, fail: `${screen}fail`, pending: `${screen}pending`, cancel: `${screen}cancel` };
}

/** Successful deposits so far (the registration hint shows only without any, spec §4). */
export async function depositCount(deps: CashierDeps, userId: number): Promise<number> {
  const { db } = deps;
  const [row] = await db
    .select({ n: count() })
    .from(payments)
    .where(and(eq(payments.userId, userId), eq(payments.direction, 'deposit'), eq(payments.status, 'success')));
  return row?.n ?? 0;
}

/** Deposits that count against responsible-gaming limits since a moment: credited and still in flight. */
export function depositedSince(deps: CashierDeps, userId: number, since: Date, executor: Executor = deps.db): Promise<bigint> {
  return sumPayments(executor, userId, 'deposit', COUNTED_DEPOSIT, since);
}

/** Opens a deposit within the player's limits and hands it to the payment provider. */
export async function startDeposit(
  deps: CashierDeps,
  request: PlayerRequest,
  input: {
    method: string;
    amount: string;
    currency?: string;
    campaignOfferId: number;
    flow: PaymentFlow;
    requisites: Record<string, string>;
  },
): Promise<DepositStart> {
  const { db } = deps;
  const { site, user } = request;
  if (await deps.responsibleGaming().activeExclusion(user.id))
    throw new ApiError('AccessDeniedException', 'Deposits are closed during a time-out or self-exclusion');
  if (input.currency && input.currency !== user.currency)
    throw new ApiError('InvalidParameterException', 'Invalid parameter: currency', {
      field: 'currency',
      errorType: 'wrongField',
    });
  const method = await findMethod(deps, request, 'deposit', input.method);
  if (!method.flows.includes(input.flow))
    throw new ApiError('InvalidParameterException', 'Invalid parameter: flow', { field: 'flow', errorType: 'wrongField' });
  requireValid(
    'amount',
    validateSum(input.amount, {
      min: wholeUnits(method.minMinor, 'up'),
      max: wholeUnits(method.maxMinor, 'down'),
      currency: user.currency,
    }),
  );
  const amountMinor = BigInt(input.amount.replace(/,/g, '').trim()) * 100n;
  const requisites = checkRequisites(method, input.requisites);
  const offers = await listDepositOffers(deps.content, await deps.bonuses.programmeOf(site.id), site.id, request.locale);
  requireEligibleOffer(offers, input.campaignOfferId, {
    isAuthenticated: true,
    currency: user.currency,
    depositCount: await depositCount(deps, user.id),
    method: method.sysname,
    amountMinor,
  });
  const provider = requireProvider(deps, method.provider);

  const id = newPaymentId('dep');
  await inTransaction(db, async (tx) => {
    // Two deposits at once must not both fit under one limit.
    await lockPlayer(tx, 'deposit', user.id);
    await enforceDepositLimits(deps, tx, site, user.id, amountMinor);
    await tx.insert(payments).values({
      id,
      siteId: site.id,
      userId: user.id,
      direction: 'deposit',
      method: method.sysname,
      methodType: method.type,
      provider: provider.name,
      amountMinor,
      currency: user.currency,
      status: 'new',
      flow: input.flow,
      requisites,
      campaignOfferId: input.campaignOfferId,
      origin: request.origin,
    });
  });
  try {
    const created = await provider.createPayment({
      reference: id,
      amountMinor,
      currency: user.currency,
      method: method.type,
      returnUrls: returnUrls(request, id, input.flow),
      notificationUrl: `${request.origin}/psp/${provider.name}/webhook`,
      customer: { id: user.id, email: user.login.includes('@') ? user.login : null, country: user.countryCode },
      locale: request.locale,
      siteId: site.id,
    });
    await db.update(payments).set({ providerRef: created.providerRef, updatedAt: new Date() }).where(eq(payments.id, id));
    return { id, status: 'new', flow: input.flow, redirect_url: created.redirectUrl };
  } catch {
    await setStatus(db, id, 'fail', { reason: 'The payment provider did not answer' });
    throw new ApiError('BillingUnavailableException', 'The payment provider is not available; please try again later');
  }
}

export async function depositInfo(deps: CashierDeps, request: { site: Site; user: UserRow }, id: string): Promise<DepositDetail> {
  const { db } = deps;
  return depositDetail(await ownPayment(db, request, id));
}
