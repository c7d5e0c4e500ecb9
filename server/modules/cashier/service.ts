/**
 * The cashier: deposits and withdrawals as state machines over the payments table, with every
 * movement of money made through the wallet ledger in the same database transaction as the
 * state change. Provider notifications are absorbed three times over: the event id, the
 * payment's final state, and the ledger's idempotency key.
 */
import { randomBytes } from 'node:crypto';
import { and, count, desc, eq, gte, inArray, sql, sum } from 'drizzle-orm';
import { ApiError } from '#common/errors';
import type { Locale } from '#common/locale';
import { minorToAmount, money } from '#common/money';
import type { DepositDetail, DepositStart, HistoryPage, HistoryTab, PaymentFlow, WithdrawalView } from '#common/cashier-contract';
import { validateField, validateSum } from '#common/validators';
import type { Database } from '../../db/client';
import { inTransaction, type Executor } from '../../db/retry';
import { requireValid } from '../../api/require-valid';
import type { AccountService, UserRow } from '../account/service';
import type { ContentService } from '../content/service';
import type { ResponsibleGamingService } from '../responsible-gaming/service';
import { jurisdictionOf } from '../responsible-gaming/service';
import type { Site } from '../sites/service';
import type { WalletService } from '../wallet/service';
import { InsufficientFundsError } from '../wallet/service';
import { house, move, player } from '../wallet/postings';
import type { PaymentProvider, ProviderEvent } from '../payments/provider';
import { listPaymentMethods, type PaymentMethod } from './payment-methods';
import {
  NO_OFFER,
  depositMatchBonus,
  describeBonus,
  listDepositOffers,
  requireEligibleOffer,
  type DepositOffer,
} from '../campaigns/deposit-offers';
import { cashierSettings } from './settings';
import { payments, providerEvents } from './tables';

type PaymentRow = typeof payments.$inferSelect;
type PaymentStatus = PaymentRow['status'];

export interface CashierDeps {
  db: Database;
  wallet: WalletService;
  accounts: AccountService;
  content: ContentService;
  responsibleGaming: () => ResponsibleGamingService;
  findProvider: (name: string) => PaymentProvider | undefined;
}

export interface PlayerRequest {
  site: Site;
  user: UserRow;
  locale: Locale;
  /** The player's site origin, for the provider's return and notification addresses. */
  origin: string;
}

const FINAL_DEPOSIT = new Set(['success', 'fail', 'cancel']);
const OPEN_WITHDRAWAL = ['pending', 'processing'] as const;
/** Statuses that count against limits: money that left or is on its way. */
const COUNTED_DEPOSIT = ['new', 'pending', 'success'] as const;
const COUNTED_WITHDRAWAL = ['pending', 'processing', 'success'] as const;

const newPaymentId = (prefix: 'dep' | 'wd') => `${prefix}_${randomBytes(12).toString('hex')}`;
const localePrefix = (locale: Locale) => (locale === 'en' ? '' : `/${locale}`);
const wholeUnits = (minor: bigint, round: 'up' | 'down') => Number(round === 'up' ? (minor + 99n) / 100n : minor / 100n);

function startOfUtcDay(now: Date): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
}

/** Serialises one player's limit checks with their writes, on either database. */
async function lockPlayer(tx: Executor, purpose: string, userId: number): Promise<void> {
  await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext(${`${purpose}:${userId}`}))`);
}

export function createCashierService(deps: CashierDeps) {
  const { db, wallet } = deps;

  function requireProvider(name: string): PaymentProvider {
    const provider = deps.findProvider(name);
    if (!provider) throw new ApiError('BillingUnavailableException', 'The payment provider is not available');
    return provider;
  }

  async function findMethod(
    request: PlayerRequest,
    direction: 'deposit' | 'withdrawal',
    sysname: string,
  ): Promise<PaymentMethod> {
    const methods = await listPaymentMethods(deps.content, {
      siteId: request.site.id,
      locale: request.locale,
      direction,
      currency: request.user.currency,
      country: request.user.countryCode,
    });
    const method = methods.find((candidate) => candidate.sysname === sysname);
    if (!method)
      throw new ApiError('InvalidParameterException', 'Invalid parameter: method', { field: 'method', errorType: 'wrongField' });
    return method;
  }

  function checkRequisites(method: PaymentMethod, requisites: Record<string, string>): Record<string, string> {
    const kept: Record<string, string> = {};
    for (const field of method.requisites) {
      const value = (requisites[field.name] ?? '').trim();
      if (!value && !field.isRequired) continue;
      requireValid(`requisites[${field.name}]`, validateField(field.validator as never, value, { isRequired: field.isRequired }));
      kept[field.name] = value;
    }
    return kept;
  }

  async function sumPayments(
    tx: Executor,
    userId: number,
    direction: 'deposit' | 'withdrawal',
    statuses: readonly string[],
    since: Date,
  ): Promise<bigint> {
    const [row] = await tx
      .select({ total: sum(payments.amountMinor) })
      .from(payments)
      .where(
        and(
          eq(payments.userId, userId),
          eq(payments.direction, direction),
          inArray(payments.status, statuses as PaymentStatus[]),
          gte(payments.createdAt, since),
        ),
      );
    return BigInt(row?.total ?? 0);
  }

  /** Spec §8 BillingDepositLimitExceededException: a limit set under responsible gaming would be passed. */
  async function enforceDepositLimits(tx: Executor, site: Site, userId: number, amountMinor: bigint): Promise<void> {
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

  function returnUrls(request: PlayerRequest, id: string, flow: PaymentFlow) {
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

  function depositDetail(row: PaymentRow): DepositDetail {
    return {
      id: row.id,
      requisites: row.requisites,
      method: row.method,
      type: row.direction,
      created_at: row.createdAt.toISOString(),
      updated_at: row.updatedAt.toISOString(),
      amount: money(row.amountMinor, row.currency),
      status: row.status as DepositDetail['status'],
      domain: row.origin,
      campaign_offer_id: row.campaignOfferId,
    };
  }

  function withdrawalView(row: PaymentRow): WithdrawalView {
    return {
      id: row.id,
      method: row.method,
      amount: money(row.amountMinor, row.currency),
      status: row.status as WithdrawalView['status'],
      requisites: row.requisites,
      created_at: row.createdAt.toISOString(),
      updated_at: row.updatedAt.toISOString(),
      reason: row.reason,
    };
  }

  /** A player's own payment, or AccessDeniedException: another player's id and an unknown one look the same. */
  async function ownPayment(
    tx: Executor,
    request: { site: Site; user: UserRow },
    id: string,
    forUpdate = false,
  ): Promise<PaymentRow> {
    const query = tx
      .select()
      .from(payments)
      .where(and(eq(payments.id, id), eq(payments.userId, request.user.id), eq(payments.siteId, request.site.id)));
    const [row] = forUpdate ? await query.for('update') : await query;
    if (!row) throw new ApiError('AccessDeniedException', 'Access denied');
    return row;
  }

  async function setStatus(
    tx: Executor,
    id: string,
    status: PaymentRow['status'],
    extra: Partial<PaymentRow> = {},
  ): Promise<void> {
    await tx
      .update(payments)
      .set({ status, updatedAt: new Date(), ...extra })
      .where(eq(payments.id, id));
  }

  /** Moves a reserved withdrawal back to the main balance (cancel, decline, failed payout). */
  async function releaseWithdrawal(tx: Executor, row: PaymentRow, key: string, actor: string, reason: string) {
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

  /**
   * The chosen deposit offer's bonus, credited with the deposit. A first-deposit offer pays only
   * if no other deposit was credited first (two deposits started together cannot both be first).
   */
  async function payDepositOffer(tx: Executor, row: PaymentRow, offers: DepositOffer[]): Promise<void> {
    if (row.campaignOfferId === NO_OFFER) return;
    const offer = offers.find((candidate) => candidate.id === row.campaignOfferId);
    if (!offer) return;
    if (offer.entry.trigger.params.first_deposit_only) {
      const [earlier] = await tx
        .select({ n: count() })
        .from(payments)
        .where(
          and(
            eq(payments.userId, row.userId),
            eq(payments.direction, 'deposit'),
            eq(payments.status, 'success'),
            sql`${payments.id} <> ${row.id}`,
          ),
        );
      if ((earlier?.n ?? 0) > 0) {
        await wallet.recordAction(
          {
            stream: `player:${row.userId}`,
            actor: 'system',
            action: 'offer.not_paid',
            subject: `payment:${row.id}`,
            reason: 'first-deposit offer on a later deposit',
            payload: { offerId: offer.id },
          },
          tx,
        );
        return;
      }
    }
    const bonusMinor = depositMatchBonus(offer, row.amountMinor, row.currency);
    if (bonusMinor <= 0n) return;
    await wallet.transfer(
      {
        siteId: row.siteId,
        userId: row.userId,
        kind: 'bonus_deposit_offer',
        currency: row.currency,
        amountMinor: bonusMinor,
        legs: move(house('bonus_cost', row.userId), player(row.userId, 'bonus'), bonusMinor),
        idempotencyKey: `deposit-offer:${row.id}`,
        reference: row.id,
        actor: 'system',
        reason: describeBonus(offer, bonusMinor),
      },
      tx,
    );
  }

  async function applyDepositEvent(tx: Executor, row: PaymentRow, event: ProviderEvent, offers: DepositOffer[]): Promise<string> {
    if (FINAL_DEPOSIT.has(row.status)) return 'ignored_final';
    if (event.status === 'pending') {
      await setStatus(tx, row.id, 'pending');
      return 'applied';
    }
    if (event.status === 'success') {
      await wallet.transfer(
        {
          siteId: row.siteId,
          userId: row.userId,
          kind: 'deposit',
          currency: row.currency,
          amountMinor: row.amountMinor,
          legs: move(house('psp_clearing', row.userId), player(row.userId, 'main'), row.amountMinor),
          idempotencyKey: `deposit:${row.id}`,
          reference: row.id,
          actor: `psp:${row.provider}`,
          reason: `deposit by ${row.method}`,
        },
        tx,
      );
      await setStatus(tx, row.id, 'success', { settledAt: new Date() });
      await payDepositOffer(tx, row, offers);
      return 'applied';
    }
    await setStatus(tx, row.id, event.status, { reason: event.status === 'fail' ? 'declined by the provider' : 'cancelled' });
    return 'applied';
  }

  async function applyPayoutEvent(tx: Executor, row: PaymentRow, event: ProviderEvent): Promise<string> {
    if (row.status !== 'processing') return 'ignored_final';
    if (event.status === 'pending') return 'applied';
    if (event.status === 'success') {
      await wallet.transfer(
        {
          siteId: row.siteId,
          userId: row.userId,
          kind: 'withdrawal',
          currency: row.currency,
          amountMinor: row.amountMinor,
          legs: move(player(row.userId, 'withdrawal_pending'), house('psp_clearing', row.userId), row.amountMinor),
          idempotencyKey: `withdrawal-payout:${row.id}`,
          reference: row.id,
          actor: `psp:${row.provider}`,
          reason: `payout by ${row.method}`,
        },
        tx,
      );
      await setStatus(tx, row.id, 'success', { settledAt: new Date() });
      return 'applied';
    }
    await releaseWithdrawal(tx, row, 'withdrawal-return', `psp:${row.provider}`, 'payout failed at the provider');
    await setStatus(tx, row.id, 'fail', { reason: 'The payout failed; the amount is back on your balance' });
    return 'applied';
  }

  return {
    listMethods(request: PlayerRequest, direction: 'deposit' | 'withdrawal') {
      return listPaymentMethods(deps.content, {
        siteId: request.site.id,
        locale: request.locale,
        direction,
        currency: request.user.currency,
        country: request.user.countryCode,
      });
    },

    /** Successful deposits so far (the registration hint shows only without any, spec §4). */
    async depositCount(userId: number): Promise<number> {
      const [row] = await db
        .select({ n: count() })
        .from(payments)
        .where(and(eq(payments.userId, userId), eq(payments.direction, 'deposit'), eq(payments.status, 'success')));
      return row?.n ?? 0;
    },

    /** Deposits that count against responsible-gaming limits since a moment: credited and still in flight. */
    depositedSince(userId: number, since: Date, executor: Executor = db): Promise<bigint> {
      return sumPayments(executor, userId, 'deposit', COUNTED_DEPOSIT, since);
    },

    async startDeposit(
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
      const { site, user } = request;
      if (await deps.responsibleGaming().activeExclusion(user.id))
        throw new ApiError('AccessDeniedException', 'Deposits are closed during a time-out or self-exclusion');
      if (input.currency && input.currency !== user.currency)
        throw new ApiError('InvalidParameterException', 'Invalid parameter: currency', {
          field: 'currency',
          errorType: 'wrongField',
        });
      const method = await findMethod(request, 'deposit', input.method);
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
      const offers = await listDepositOffers(deps.content, site.id, request.locale);
      requireEligibleOffer(offers, input.campaignOfferId, {
        isAuthenticated: true,
        currency: user.currency,
        depositCount: await this.depositCount(user.id),
        method: method.sysname,
        amountMinor,
      });
      const provider = requireProvider(method.provider);

      const id = newPaymentId('dep');
      await inTransaction(db, async (tx) => {
        // Two deposits at once must not both fit under one limit.
        await lockPlayer(tx, 'deposit', user.id);
        await enforceDepositLimits(tx, site, user.id, amountMinor);
        await tx
          .insert(payments)
          .values({
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
    },

    async depositInfo(request: { site: Site; user: UserRow }, id: string): Promise<DepositDetail> {
      return depositDetail(await ownPayment(db, request, id));
    },

    /**
     * A verified provider notification. Safe to receive twice, late or out of order: a final
     * state never changes, and each ledger movement has its own idempotency key.
     */
    async applyProviderEvent(siteId: string, providerName: string, event: ProviderEvent): Promise<string> {
      // Read before the transaction: with PGlite's one connection, a query outside the open
      // transaction would wait for it forever. Offer rules are the same in every locale.
      const offers = await listDepositOffers(deps.content, siteId, 'en');
      return inTransaction(db, async (tx) => {
        const [seen] = await tx
          .select({ outcome: providerEvents.outcome })
          .from(providerEvents)
          .where(and(eq(providerEvents.provider, providerName), eq(providerEvents.eventId, event.eventId)));
        if (seen) return 'duplicate';
        const [row] = await tx.select().from(payments).where(eq(payments.id, event.reference)).for('update');
        let outcome: string;
        if (!row || row.siteId !== siteId || row.provider !== providerName) outcome = 'unknown_payment';
        else if (
          (row.providerRef && row.providerRef !== event.providerRef) ||
          row.amountMinor !== event.amountMinor ||
          row.currency !== event.currency
        )
          outcome = 'mismatch';
        else if ((event.kind === 'payment') !== (row.direction === 'deposit')) outcome = 'mismatch';
        else
          outcome =
            row.direction === 'deposit'
              ? await applyDepositEvent(tx, row, event, offers)
              : await applyPayoutEvent(tx, row, event);
        if (outcome === 'mismatch' && row) {
          // Money the provider reports differently from what we asked is for a person to look at, never credited blindly.
          await wallet.recordAction(
            {
              stream: `player:${row.userId}`,
              actor: `psp:${providerName}`,
              action: 'payment.mismatch',
              subject: `payment:${row.id}`,
              reason: 'notification does not match the payment',
              payload: {
                eventId: event.eventId,
                amountMinor: event.amountMinor,
                currency: event.currency,
                providerRef: event.providerRef,
              },
            },
            tx,
          );
        }
        await tx
          .insert(providerEvents)
          .values({ provider: providerName, eventId: event.eventId, paymentId: event.reference, status: event.status, outcome })
          .onConflictDoNothing();
        return outcome;
      });
    },

    async history(
      request: { site: Site; user: UserRow },
      tab: HistoryTab,
      offset: number,
      countPerPage: number,
      statuses: string[],
    ): Promise<HistoryPage> {
      if (tab === 'bonuses' || tab === 'cashbacks') {
        const { rows, total } = await wallet.history(
          request.site.id,
          request.user.id,
          tab === 'bonuses' ? 'bonus' : 'cashback',
          offset,
          countPerPage,
        );
        return {
          total,
          items: rows.map((row) => ({
            id: `t${row.id}`,
            type: tab,
            method: null,
            amount: money(row.amountMinor, row.currency),
            status: 'success',
            created_at: row.createdAt.toISOString(),
            description: row.reason,
          })),
        };
      }
      const direction = tab === 'deposit' ? 'deposit' : 'withdrawal';
      const where = and(
        eq(payments.userId, request.user.id),
        eq(payments.siteId, request.site.id),
        eq(payments.direction, direction),
        statuses.length ? inArray(payments.status, statuses as PaymentStatus[]) : undefined,
      );
      const rows = await db
        .select()
        .from(payments)
        .where(where)
        .orderBy(desc(payments.createdAt), desc(payments.id))
        .offset(offset)
        .limit(countPerPage);
      const [total] = await db.select({ n: count() }).from(payments).where(where);
      return {
        total: total?.n ?? 0,
        items: rows.map((row) => ({
          id: row.id,
          type: tab,
          method: row.method,
          amount: money(row.amountMinor, row.currency),
          status: row.status,
          created_at: row.createdAt.toISOString(),
          description: row.reason ?? '',
        })),
      };
    },

    async withdrawSettings(request: PlayerRequest) {
      const { site, user } = request;
      const settings = cashierSettings(site.settings);
      const methods = await this.listMethods(request, 'withdrawal');
      const balances = await wallet.balances(site.id, user.id, user.currency);
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
        available_amount: minorToAmount(balances.main),
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
    },

    /** Reserves the amount at once: it leaves the main balance for the pending account until the operator decides. */
    async makeWithdrawal(
      request: PlayerRequest,
      input: { method: string; amount: string; requisites: Record<string, string> },
    ): Promise<WithdrawalView> {
      const { site, user } = request;
      const settings = cashierSettings(site.settings);
      if ((settings.isKycRequiredForWithdrawal || user.isKycBlockEnabled) && !user.isVerified)
        throw new ApiError('KycWithdrawalException', 'Verify your identity before withdrawing');
      if (settings.isConfirmedContactRequiredForWithdrawal && !(await deps.accounts.hasConfirmedContact(user.id)))
        throw new ApiError('UserNeedConfirmContactException', 'Confirm your e-mail or phone before withdrawing');
      const method = await findMethod(request, 'withdrawal', input.method);
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
        const limitMinor = settings.dailyWithdrawalLimitMinor(user.currency);
        const usedMinor = await sumPayments(tx, user.id, 'withdrawal', COUNTED_WITHDRAWAL, startOfUtcDay(new Date()));
        if (usedMinor + amountMinor > limitMinor) {
          throw new ApiError(
            'WithdrawalLimitsPeriodExceededException',
            'This withdrawal would pass your daily withdrawal limit',
            {
              period: 'day',
              limit_amount: minorToAmount(limitMinor),
              available_amount: minorToAmount(limitMinor > usedMinor ? limitMinor - usedMinor : 0n),
            },
          );
        }
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
    },

    async cancelWithdrawal(request: { site: Site; user: UserRow }, id: string): Promise<void> {
      await inTransaction(db, async (tx) => {
        const row = await ownPayment(tx, request, id, true);
        if (row.direction !== 'withdrawal') throw new ApiError('AccessDeniedException', 'Access denied');
        if (row.status !== 'pending') throw new ApiError('InvalidRequestException', 'This withdrawal can no longer be cancelled');
        await releaseWithdrawal(tx, row, 'withdrawal-cancel', `player:${row.userId}`, 'cancelled by the player');
        await setStatus(tx, row.id, 'cancelled', { reason: 'Cancelled by you' });
      });
    },

    /** Back office: withdrawals by status, oldest first (the review queue). */
    async listWithdrawals(status: string, limit = 100) {
      return db
        .select()
        .from(payments)
        .where(and(eq(payments.direction, 'withdrawal'), eq(payments.status, status as PaymentStatus)))
        .orderBy(payments.createdAt)
        .limit(limit);
    },

    /** Back office: approve → the payout is sent to the provider; its notification settles it. */
    async approveWithdrawal(operator: string, id: string): Promise<PaymentRow> {
      const row = await inTransaction(db, async (tx) => {
        const [found] = await tx
          .select()
          .from(payments)
          .where(and(eq(payments.id, id), eq(payments.direction, 'withdrawal')))
          .for('update');
        if (!found) throw new ApiError('InvalidParameterException', 'No such withdrawal', { field: 'id' });
        if (found.status !== 'pending')
          throw new ApiError('InvalidRequestException', `The withdrawal is ${found.status}, not pending`);
        await setStatus(tx, id, 'processing');
        await wallet.recordAction(
          {
            stream: 'operators',
            actor: `operator:${operator}`,
            action: 'withdrawal.approve',
            subject: `payment:${id}`,
            reason: 'approved',
            payload: { amountMinor: found.amountMinor, currency: found.currency, userId: found.userId },
          },
          tx,
        );
        return found;
      });
      try {
        const payout = await requireProvider(row.provider).createPayout({
          reference: row.id,
          amountMinor: row.amountMinor,
          currency: row.currency,
          method: row.methodType,
          requisites: row.requisites,
          notificationUrl: `${row.origin}/psp/${row.provider}/webhook`,
          siteId: row.siteId,
        });
        await db.update(payments).set({ providerRef: payout.providerRef, updatedAt: new Date() }).where(eq(payments.id, id));
      } catch {
        await inTransaction(db, async (tx) => {
          const [current] = await tx.select().from(payments).where(eq(payments.id, id)).for('update');
          if (current?.status !== 'processing') return;
          await releaseWithdrawal(tx, current, 'withdrawal-return', 'system', 'payout could not be sent');
          await setStatus(tx, id, 'fail', { reason: 'The payout could not be sent; the amount is back on your balance' });
        });
      }
      const [updated] = await db.select().from(payments).where(eq(payments.id, id));
      return updated as PaymentRow;
    },

    /** Back office: decline → the reserved amount goes back to the player's main balance. */
    async declineWithdrawal(operator: string, id: string, reason: string): Promise<PaymentRow> {
      return inTransaction(db, async (tx) => {
        const [found] = await tx
          .select()
          .from(payments)
          .where(and(eq(payments.id, id), eq(payments.direction, 'withdrawal')))
          .for('update');
        if (!found) throw new ApiError('InvalidParameterException', 'No such withdrawal', { field: 'id' });
        if (found.status !== 'pending')
          throw new ApiError('InvalidRequestException', `The withdrawal is ${found.status}, not pending`);
        await releaseWithdrawal(tx, found, 'withdrawal-decline', `operator:${operator}`, reason);
        await setStatus(tx, id, 'declined', { reason });
        await wallet.recordAction(
          {
            stream: 'operators',
            actor: `operator:${operator}`,
            action: 'withdrawal.decline',
            subject: `payment:${id}`,
            reason,
            payload: { amountMinor: found.amountMinor, currency: found.currency, userId: found.userId },
          },
          tx,
        );
        return { ...found, status: 'declined', reason };
      });
    },

    /**
     * Asks the provider about payments whose notifications never came (lost, or our process
     * died between the provider's confirmation and our commit) and applies what it says, as a
     * notification of our own making: the usual rules make it safe to race a late real one.
     */
    async reconcileStale(olderThanMs = 15 * 60_000, now = new Date()): Promise<number> {
      const before = new Date(now.getTime() - olderThanMs);
      const stale = await db
        .select()
        .from(payments)
        .where(
          and(
            inArray(payments.status, ['new', 'pending', 'processing']),
            sql`${payments.providerRef} IS NOT NULL`,
            sql`${payments.updatedAt} < ${before.toISOString()}`,
          ),
        )
        .limit(100);
      let applied = 0;
      for (const row of stale) {
        const provider = deps.findProvider(row.provider);
        if (!provider || !row.providerRef) continue;
        const kind = row.direction === 'deposit' ? 'payment' : 'payout';
        const answer = await provider.queryStatus(kind, row.providerRef, row.siteId).catch(() => undefined);
        if (!answer || answer.status === 'pending') continue;
        const event: ProviderEvent = {
          eventId: `reconcile:${row.id}:${answer.status}`,
          kind,
          reference: row.id,
          providerRef: row.providerRef,
          status: answer.status,
          amountMinor: answer.amountMinor,
          currency: answer.currency,
          occurredAt: now,
        };
        if ((await this.applyProviderEvent(row.siteId, row.provider, event)) === 'applied') applied++;
      }
      return applied;
    },

    currencyRates(site: Site) {
      const { currencyRates } = cashierSettings(site.settings);
      return { base: currencyRates.base, rates: currencyRates.rates, updated_at: currencyRates.updatedAt };
    },

    findPayment(id: string) {
      return db
        .select()
        .from(payments)
        .where(eq(payments.id, id))
        .then((rows) => rows[0]);
    },
  };
}

export type CashierService = ReturnType<typeof createCashierService>;
