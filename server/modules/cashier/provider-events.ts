/**
 * Provider events: verified webhook notifications and the reconciliation that asks providers
 * about notifications that never came. Absorbed three times over: the event id, the payment's
 * final state, and the ledger's idempotency key.
 */
import { and, count, eq, inArray, sql } from 'drizzle-orm';
import { inTransaction, type Executor } from '../../db/retry';
import { house, move, player } from '../wallet';
import type { ProviderEvent } from '../payments';
import { NO_OFFER, listDepositOffers, type DepositOffer } from '../campaigns';
import type { BonusProgramme } from '../bonuses';
import { payments, providerEvents } from './tables';
import type { CashierDeps } from './cashier-deps';
import { FINAL_DEPOSIT, setStatus, type PaymentRow } from './payment-rows';
import { releaseWithdrawal } from './withdrawals';

/** What a credited deposit's offer needs, read before the transaction (PGlite has one connection). */
export interface OfferContext {
  offers: DepositOffer[];
  programme: BonusProgramme;
}

/**
 * The chosen deposit offer's bonus (issue 13), granted and activated with the deposit in its
 * transaction: keyed by the payment, so a replayed notification grants nothing more. A
 * first-deposit offer pays only if no other deposit was credited first (two deposits started
 * together cannot both be first).
 */
export async function payDepositOffer(deps: CashierDeps, tx: Executor, row: PaymentRow, context: OfferContext): Promise<void> {
  if (row.campaignOfferId === NO_OFFER) return;
  const offer = context.offers.find((candidate) => candidate.id === row.campaignOfferId);
  if (!offer) return;
  if (offer.entry.trigger.params.first_deposit_only && (await hasEarlierDeposit(tx, row))) {
    await deps.wallet.recordAction(
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
  const request = {
    siteId: row.siteId,
    userId: row.userId,
    currency: row.currency,
    templateId: offer.template.id,
    source: 'deposit_offer' as const,
    sourceRef: `deposit:${row.id}`,
    depositMinor: row.amountMinor,
  };
  await deps.bonuses.grantAndActivate(request, tx, context.programme);
}

async function hasEarlierDeposit(tx: Executor, row: PaymentRow): Promise<boolean> {
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
  return (earlier?.n ?? 0) > 0;
}

export async function applyDepositEvent(
  deps: CashierDeps,
  tx: Executor,
  row: PaymentRow,
  event: ProviderEvent,
  offers: OfferContext,
): Promise<string> {
  const { wallet } = deps;
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
    // What the player owes (a payout a rollback took back after they spent it) is repaid first.
    await deps.debts.clearDebts(tx, {
      siteId: row.siteId,
      userId: row.userId,
      currency: row.currency,
      upToMinor: row.amountMinor,
      idempotencyKey: `deposit:${row.id}:debts`,
      actor: `psp:${row.provider}`,
    });
    await setStatus(tx, row.id, 'success', { settledAt: new Date() });
    await payDepositOffer(deps, tx, row, offers);
    return 'applied';
  }
  await setStatus(tx, row.id, event.status, { reason: event.status === 'fail' ? 'declined by the provider' : 'cancelled' });
  return 'applied';
}

export async function applyPayoutEvent(deps: CashierDeps, tx: Executor, row: PaymentRow, event: ProviderEvent): Promise<string> {
  const { wallet } = deps;
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
  await releaseWithdrawal(deps, tx, row, 'withdrawal-return', `psp:${row.provider}`, 'payout failed at the provider');
  await setStatus(tx, row.id, 'fail', { reason: 'The payout failed; the amount is back on your balance' });
  return 'applied';
}

/**
 * A verified provider notification. Safe to receive twice, late or out of order: a final
 * state never changes, and each ledger movement has its own idempotency key.
 */
export async function applyProviderEvent(
  deps: CashierDeps,
  siteId: string,
  providerName: string,
  event: ProviderEvent,
): Promise<string> {
  const { db, wallet } = deps;
  // Read before the transaction: with PGlite's one connection, a query outside the open
  // transaction would wait for it forever. Offer rules are the same in every locale.
  const programme = await deps.bonuses.programmeOf(siteId);
  const offers: OfferContext = { programme, offers: await listDepositOffers(deps.content, programme, siteId, 'en') };
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
          ? await applyDepositEvent(deps, tx, row, event, offers)
          : await applyPayoutEvent(deps, tx, row, event);
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
}

/**
 * Asks the provider about payments whose notifications never came (lost, or our process
 * died between the provider's confirmation and our commit) and applies what it says, as a
 * notification of our own making: the usual rules make it safe to race a late real one.
 */
export async function reconcileStale(deps: CashierDeps, olderThanMs = 15 * 60_000, now = new Date()): Promise<number> {
  const { db } = deps;
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
    if ((await applyProviderEvent(deps, row.siteId, row.provider, event)) === 'applied') applied++;
  }
  return applied;
}
