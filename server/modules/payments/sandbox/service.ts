/**
 * The built-in sandbox PSP: an outside payment company that happens to live in our process.
 * It keeps its own books (./tables.ts), serves its own hosted pages (server/web/psp-sandbox.ts)
 * and tells the merchant what happened only by signed webhooks, sent through the job queue and
 * retried with backoff until answered 2xx. Like real providers it may, when a site's settings
 * ask for it, send a notification twice or a "processing" one after the final one.
 *
 * The adapter half (createPayment, parseWebhook, createPayout, queryStatus) is what the cashier
 * sees, through the PaymentProvider interface; the rest is the sandbox's own business.
 */
import { randomBytes } from 'node:crypto';
import { and, asc, eq, inArray } from 'drizzle-orm';
import { z } from 'zod';
import { ApiError } from '#common/errors';
import type { Database } from '../../../db/client';
import { inTransaction, type Executor } from '../../../db/retry';
import type { JobHandlers, JobInfo, JobService } from '../../jobs';
import {
  WebhookRejectedError,
  type CreatedPayment,
  type CreatedPayout,
  type CreatePaymentInput,
  type CreatePayoutInput,
  type IncomingWebhook,
  type PaymentProvider,
  type ProviderEvent,
  type ProviderStatus,
} from '../provider';
import { isPicked, readSandboxSettings, type SandboxSettings } from './settings';
import { signatureProblem, webhookHeaders } from './signature';
import { pspSandboxDeliveries, pspSandboxEvents, pspSandboxPayments, type SandboxKind, type SandboxStatus } from './tables';
import {
  cardProblems,
  CHALLENGE_CODE,
  compactCardNumber,
  isDeclinedPayout,
  testCardOutcome,
  type CardField,
  type CardInput,
  type CardProblem,
} from './test-cards';

export const SANDBOX_PROVIDER_NAME = 'sandbox';
/** Where the hosted pages live on every site's origin. */
export const SANDBOX_PAGES_PATH = '/psp/sandbox';
export const SANDBOX_JOB_DELIVER = 'psp-sandbox.deliver';
export const SANDBOX_JOB_SETTLE = 'psp-sandbox.settle';
/** Attempts per notification: with 2^n s backoff capped at an hour, about a day of retrying. */
export const DELIVERY_MAX_ATTEMPTS = 30;
/** A duplicate follows its original by this much; a held event follows the final one by HELD_DELAY_MS. */
export const DUPLICATE_DELAY_MS = 2_000;
export const HELD_DELAY_MS = 1_000;
const DELIVERY_TIMEOUT_MS = 10_000;
const USER_AGENT = 'SandboxPSP-Webhooks/1.0';

export type SandboxPayment = typeof pspSandboxPayments.$inferSelect;
export type SandboxEvent = typeof pspSandboxEvents.$inferSelect;
export type SandboxDelivery = typeof pspSandboxDeliveries.$inferSelect;
type Fetch = (request: Request) => Response | Promise<Response>;

const FINAL: ReadonlySet<SandboxStatus> = new Set(['succeeded', 'failed', 'canceled']);
/** Transitions that are the sandbox's own business and notify nobody. */
const SILENT: ReadonlySet<SandboxStatus> = new Set(['created', 'awaiting_3ds']);

export function isFinalSandboxStatus(status: SandboxStatus): boolean {
  return FINAL.has(status);
}

/** The sandbox's status names mapped to ours (the only place that knows both). */
export function toProviderStatus(status: SandboxStatus): ProviderStatus {
  if (status === 'succeeded') return 'success';
  if (status === 'failed') return 'fail';
  if (status === 'canceled') return 'cancel';
  return 'pending';
}

export class SandboxPaymentNotFoundError extends Error {
  constructor(kind: SandboxKind, providerRef: string) {
    super(`The sandbox has no ${kind} ${providerRef}`);
    this.name = 'SandboxPaymentNotFoundError';
  }
}

/** The notification body: the sandbox's wire format (amounts in minor units, as strings). */
const notificationSchema = z.object({
  id: z.string().min(1).max(100),
  type: z.enum(['payment.updated', 'payout.updated']),
  created_at: z.iso.datetime(),
  data: z.object({
    object: z.enum(['payment', 'payout']),
    id: z.string().min(1).max(100),
    reference: z.string().min(1).max(100),
    status: z.enum(['created', 'awaiting_3ds', 'processing', 'succeeded', 'failed', 'canceled']),
    amount_minor: z.string().regex(/^\d{1,18}$/),
    currency: z.string().regex(/^[A-Z]{3}$/),
    method: z.string(),
    failure_reason: z.string().nullable(),
  }),
});
export type SandboxNotification = z.infer<typeof notificationSchema>;

export interface SandboxDeps {
  db: Database;
  jobs: JobService;
  /** A site's settings object (sites service), or undefined for an unknown site. */
  siteSettings: (siteId: string) => Promise<Record<string, unknown> | undefined>;
}

export type CardPaymentResult =
  | { payment: SandboxPayment; problems?: undefined }
  | { payment: SandboxPayment; problems: Partial<Record<CardField, CardProblem>> };

function isAbsoluteHttpUrl(value: string): boolean {
  try {
    return ['http:', 'https:'].includes(new URL(value).protocol);
  } catch {
    return false;
  }
}

function messageOf(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).slice(0, 500);
}

export function createSandboxPsp(deps: SandboxDeps) {
  const { db, jobs } = deps;

  async function settingsOf(siteId: string): Promise<SandboxSettings | undefined> {
    return readSandboxSettings(await deps.siteSettings(siteId));
  }

  async function requireSettings(siteId: string): Promise<SandboxSettings> {
    const settings = await settingsOf(siteId);
    if (!settings)
      throw new ApiError('BillingUnavailableException', 'The sandbox payment provider is not configured for this site');
    return settings;
  }

  async function findPayment(providerRef: string, executor: Executor = db): Promise<SandboxPayment | undefined> {
    const [row] = await executor.select().from(pspSandboxPayments).where(eq(pspSandboxPayments.id, providerRef)).limit(1);
    return row;
  }

  async function queueDelivery(tx: Executor, eventId: string, settings: SandboxSettings, runAt: Date): Promise<void> {
    await jobs.enqueue(
      SANDBOX_JOB_DELIVER,
      { eventId, copy: 1 },
      { runAt, key: `psp-sandbox:deliver:${eventId}:1`, maxAttempts: DELIVERY_MAX_ATTEMPTS, executor: tx },
    );
    if (isPicked(eventId, settings.duplicateRate)) {
      await jobs.enqueue(
        SANDBOX_JOB_DELIVER,
        { eventId, copy: 2 },
        {
          runAt: new Date(runAt.getTime() + DUPLICATE_DELAY_MS),
          key: `psp-sandbox:deliver:${eventId}:2`,
          maxAttempts: DELIVERY_MAX_ATTEMPTS,
          executor: tx,
        },
      );
    }
  }

  /** Writes the notification of the payment's current status and queues its delivery. */
  async function recordEvent(tx: Executor, payment: SandboxPayment, settings: SandboxSettings, isHeld: boolean): Promise<void> {
    const now = new Date();
    const id = `evt_${randomBytes(12).toString('hex')}`;
    const notification: SandboxNotification = {
      id,
      type: payment.kind === 'payment' ? 'payment.updated' : 'payout.updated',
      created_at: now.toISOString(),
      data: {
        object: payment.kind,
        id: payment.id,
        reference: payment.reference,
        status: payment.status,
        amount_minor: payment.amountMinor.toString(),
        currency: payment.currency,
        method: payment.method,
        failure_reason: payment.failureReason,
      },
    };
    await tx
      .insert(pspSandboxEvents)
      .values({ id, paymentId: payment.id, status: payment.status, body: JSON.stringify(notification), isHeld, createdAt: now });
    if (!isHeld) await queueDelivery(tx, id, settings, now);
    if (!FINAL.has(payment.status)) return;
    // The final word is out: what was held back now follows it, out of order.
    const held = await tx
      .update(pspSandboxEvents)
      .set({ isHeld: false })
      .where(and(eq(pspSandboxEvents.paymentId, payment.id), eq(pspSandboxEvents.isHeld, true)))
      .returning({ id: pspSandboxEvents.id, createdAt: pspSandboxEvents.createdAt });
    held.sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime());
    for (const [index, event] of held.entries())
      await queueDelivery(tx, event.id, settings, new Date(now.getTime() + HELD_DELAY_MS * (index + 1)));
  }

  /**
   * Moves a payment from one of `from` to `to` (a no-op answering undefined when it is in another
   * state, so a double click or a late job changes nothing), notifies, and may schedule settlement.
   */
  async function transition(
    providerRef: string,
    from: readonly SandboxStatus[],
    to: SandboxStatus,
    changes: Partial<Pick<SandboxPayment, 'failureReason' | 'cardLast4'>> = {},
    plan: { shouldSettleLater?: boolean } = {},
  ): Promise<SandboxPayment | undefined> {
    const current = await findPayment(providerRef);
    if (!current) return undefined;
    const settings = await requireSettings(current.siteId);
    return inTransaction(db, async (tx) => {
      const [moved] = await tx
        .update(pspSandboxPayments)
        .set({ ...changes, status: to, updatedAt: new Date() })
        .where(and(eq(pspSandboxPayments.id, providerRef), inArray(pspSandboxPayments.status, [...from])))
        .returning();
      if (!moved) return undefined;
      if (plan.shouldSettleLater) await scheduleSettlement(tx, moved, settings);
      // A "processing" that a settlement will follow is the one a racing provider delivers late.
      if (!SILENT.has(to))
        await recordEvent(tx, moved, settings, to === 'processing' && plan.shouldSettleLater === true && settings.outOfOrder);
      return moved;
    });
  }

  async function scheduleSettlement(tx: Executor, payment: SandboxPayment, settings: SandboxSettings): Promise<void> {
    await jobs.enqueue(
      SANDBOX_JOB_SETTLE,
      { providerRef: payment.id },
      {
        runAt: new Date(Date.now() + settings.settleDelayMs),
        key: `psp-sandbox:settle:${payment.id}`,
        maxAttempts: 20,
        executor: tx,
      },
    );
  }

  /** Re-reads the row after a transition that may have lost a race, for the page to show. */
  async function afterTransition(providerRef: string, moved: SandboxPayment | undefined): Promise<SandboxPayment | undefined> {
    return moved ?? findPayment(providerRef);
  }

  async function settle(payload: unknown): Promise<void> {
    const { providerRef } = z.object({ providerRef: z.string() }).parse(payload);
    const payment = await findPayment(providerRef);
    if (!payment || FINAL.has(payment.status)) return;
    const isDeclined = payment.kind === 'payout' && isDeclinedPayout(payment.requisites ?? {});
    await transition(
      providerRef,
      ['processing'],
      isDeclined ? 'failed' : 'succeeded',
      isDeclined ? { failureReason: 'account_closed' } : {},
    );
  }

  async function deliver(fetchInternal: Fetch, payload: unknown, job: JobInfo): Promise<void> {
    const { eventId, copy } = z.object({ eventId: z.string(), copy: z.number().int() }).parse(payload);
    const [found] = await db
      .select({ body: pspSandboxEvents.body, siteId: pspSandboxPayments.siteId, url: pspSandboxPayments.notificationUrl })
      .from(pspSandboxEvents)
      .innerJoin(pspSandboxPayments, eq(pspSandboxPayments.id, pspSandboxEvents.paymentId))
      .where(eq(pspSandboxEvents.id, eventId))
      .limit(1);
    if (!found) return;
    const settings = await settingsOf(found.siteId);
    if (!settings) throw new Error(`site ${found.siteId} has no sandbox secret`);
    const url = new URL(found.url);
    // Signed now, not when the event happened: each attempt carries a fresh timestamp.
    const headers = new Headers({
      'content-type': 'application/json',
      host: url.host,
      'user-agent': USER_AGENT,
      ...webhookHeaders(settings.secret, found.body),
    });
    let responseStatus: number | null = null;
    let error: string | null = null;
    try {
      const response = await fetchInternal(
        new Request(url, { method: 'POST', headers, body: found.body, signal: AbortSignal.timeout(DELIVERY_TIMEOUT_MS) }),
      );
      responseStatus = response.status;
      await response.body?.cancel();
    } catch (caught) {
      error = messageOf(caught);
    }
    await db
      .insert(pspSandboxDeliveries)
      .values({ eventId, copy, attempt: job.attempt, url: url.toString(), responseStatus, error });
    if (error !== null) throw new Error(`delivery to ${url.origin} failed: ${error}`);
    if (responseStatus === null || responseStatus < 200 || responseStatus > 299)
      throw new Error(`receiver answered ${responseStatus}`);
  }

  async function createRecord(values: typeof pspSandboxPayments.$inferInsert): Promise<SandboxPayment> {
    const [created] = await db.insert(pspSandboxPayments).values(values).onConflictDoNothing().returning();
    if (created) return created;
    // The same merchant reference again: a retry of the same request gets the same payment.
    const [existing] = await db
      .select()
      .from(pspSandboxPayments)
      .where(
        and(
          eq(pspSandboxPayments.siteId, values.siteId),
          eq(pspSandboxPayments.kind, values.kind),
          eq(pspSandboxPayments.reference, values.reference),
        ),
      )
      .limit(1);
    if (!existing) throw new Error('sandbox payment was neither created nor found');
    if (existing.amountMinor !== values.amountMinor || existing.currency !== values.currency) {
      throw new ApiError('BillingServiceErrorException', 'The reference was already used for another amount');
    }
    return existing;
  }

  function checkCommon(input: { reference: string; amountMinor: bigint; currency: string; notificationUrl: string }): void {
    if (!input.reference || input.reference.length > 100)
      throw new Error('sandbox: a reference of 1 to 100 characters is required');
    if (input.amountMinor <= 0n) throw new Error('sandbox: the amount must be positive');
    if (!/^[A-Z]{3}$/.test(input.currency)) throw new Error('sandbox: the currency must be an ISO 4217 code');
    if (!isAbsoluteHttpUrl(input.notificationUrl)) throw new Error('sandbox: the notification URL must be absolute');
  }

  const provider: PaymentProvider = {
    name: SANDBOX_PROVIDER_NAME,

    async createPayment(input: CreatePaymentInput): Promise<CreatedPayment> {
      checkCommon(input);
      if (!Object.values(input.returnUrls).every(isAbsoluteHttpUrl)) throw new Error('sandbox: return URLs must be absolute');
      await requireSettings(input.siteId);
      const payment = await createRecord({
        id: `sbx_pay_${randomBytes(16).toString('hex')}`,
        siteId: input.siteId,
        kind: 'payment',
        reference: input.reference,
        amountMinor: input.amountMinor,
        currency: input.currency,
        method: input.method,
        status: 'created',
        locale: input.locale,
        notificationUrl: input.notificationUrl,
        returnUrls: input.returnUrls,
      });
      return { providerRef: payment.id, redirectUrl: `${SANDBOX_PAGES_PATH}/pay/${payment.id}` };
    },

    async parseWebhook(webhook: IncomingWebhook): Promise<ProviderEvent> {
      const settings = await settingsOf(webhook.siteId);
      if (!settings) throw new WebhookRejectedError('the sandbox is not configured for this site');
      const problem = signatureProblem(settings.secret, webhook.headers, webhook.rawBody);
      if (problem) throw new WebhookRejectedError(`signature ${problem}`);
      let parsed: SandboxNotification;
      try {
        parsed = notificationSchema.parse(JSON.parse(webhook.rawBody));
      } catch {
        throw new WebhookRejectedError('malformed notification');
      }
      return {
        eventId: parsed.id,
        kind: parsed.data.object,
        reference: parsed.data.reference,
        providerRef: parsed.data.id,
        status: toProviderStatus(parsed.data.status),
        amountMinor: BigInt(parsed.data.amount_minor),
        currency: parsed.data.currency,
        occurredAt: new Date(parsed.created_at),
      };
    },

    async createPayout(input: CreatePayoutInput): Promise<CreatedPayout> {
      checkCommon(input);
      const settings = await requireSettings(input.siteId);
      const values = {
        id: `sbx_po_${randomBytes(16).toString('hex')}`,
        siteId: input.siteId,
        kind: 'payout' as const,
        reference: input.reference,
        amountMinor: input.amountMinor,
        currency: input.currency,
        method: input.method,
        status: 'processing' as const,
        notificationUrl: input.notificationUrl,
        requisites: input.requisites,
      };
      const payout = await inTransaction(db, async (tx) => {
        const [created] = await tx.insert(pspSandboxPayments).values(values).onConflictDoNothing().returning();
        // The bank settles later; its answer comes by webhook.
        if (created) await scheduleSettlement(tx, created, settings);
        return created;
      });
      const row = payout ?? (await createRecord(values));
      return { providerRef: row.id, status: toProviderStatus(row.status) };
    },

    async queryStatus(kind, providerRef, siteId) {
      const [row] = await db
        .select()
        .from(pspSandboxPayments)
        .where(
          and(eq(pspSandboxPayments.id, providerRef), eq(pspSandboxPayments.kind, kind), eq(pspSandboxPayments.siteId, siteId)),
        )
        .limit(1);
      if (!row) throw new SandboxPaymentNotFoundError(kind, providerRef);
      return { status: toProviderStatus(row.status), amountMinor: row.amountMinor, currency: row.currency };
    },
  };

  return {
    ...provider,
    findPayment,

    /** The hosted card form was submitted. */
    async payByCard(providerRef: string, card: CardInput, now = new Date()): Promise<CardPaymentResult | undefined> {
      const payment = await findPayment(providerRef);
      if (!payment || payment.kind !== 'payment' || payment.method !== 'card') return undefined;
      if (payment.status !== 'created') return { payment };
      const problems = cardProblems(card, now);
      if (Object.keys(problems).length) return { payment, problems };
      const number = compactCardNumber(card.number);
      const cardLast4 = number.slice(-4);
      const outcome = testCardOutcome(number);
      let moved: SandboxPayment | undefined;
      if (outcome === 'success') moved = await transition(providerRef, ['created'], 'succeeded', { cardLast4 });
      else if (outcome === 'challenge') moved = await transition(providerRef, ['created'], 'awaiting_3ds', { cardLast4 });
      else if (outcome === 'pending')
        moved = await transition(providerRef, ['created'], 'processing', { cardLast4 }, { shouldSettleLater: true });
      else moved = await transition(providerRef, ['created'], 'failed', { cardLast4, failureReason: 'card_declined' });
      const latest = await afterTransition(providerRef, moved);
      return latest ? { payment: latest } : undefined;
    },

    /** The 3-D Secure page was answered: the right code authorises, any other fails. */
    async answerChallenge(providerRef: string, code: string): Promise<SandboxPayment | undefined> {
      const isPassed = code.trim() === CHALLENGE_CODE;
      const moved = await transition(
        providerRef,
        ['awaiting_3ds'],
        isPassed ? 'succeeded' : 'failed',
        isPassed ? {} : { failureReason: '3ds_failed' },
      );
      return afterTransition(providerRef, moved);
    },

    /** "The bank confirms" (instant payment): settled and notified after the delay. */
    async confirmInstant(providerRef: string): Promise<SandboxPayment | undefined> {
      const moved = await transition(providerRef, ['created'], 'processing', {}, { shouldSettleLater: true });
      return afterTransition(providerRef, moved);
    },

    /** The player says the transfer is sent; `willArrive` simulates it arriving later. */
    async announceTransfer(providerRef: string, willArrive: boolean): Promise<SandboxPayment | undefined> {
      const payment = await findPayment(providerRef);
      if (!payment || payment.method !== 'bank_transfer') return payment;
      if (payment.status === 'processing' && willArrive) {
        const settings = await requireSettings(payment.siteId);
        await scheduleSettlement(db, payment, settings);
        return payment;
      }
      const moved = await transition(providerRef, ['created'], 'processing', {}, { shouldSettleLater: willArrive });
      return afterTransition(providerRef, moved);
    },

    /** The player cancelled on a hosted page (only before anything was charged). */
    async cancel(providerRef: string): Promise<SandboxPayment | undefined> {
      const moved = await transition(providerRef, ['created', 'awaiting_3ds'], 'canceled', {
        failureReason: 'canceled_by_customer',
      });
      return afterTransition(providerRef, moved);
    },

    /** A payment's notifications in the order they were made (for tests and operators). */
    async listEvents(providerRef: string): Promise<SandboxEvent[]> {
      return db
        .select()
        .from(pspSandboxEvents)
        .where(eq(pspSandboxEvents.paymentId, providerRef))
        .orderBy(asc(pspSandboxEvents.createdAt));
    },

    async listDeliveries(eventId: string): Promise<SandboxDelivery[]> {
      return db
        .select()
        .from(pspSandboxDeliveries)
        .where(eq(pspSandboxDeliveries.eventId, eventId))
        .orderBy(asc(pspSandboxDeliveries.id));
    },

    /** The sandbox's background work: settling later, and delivering notifications via `fetchInternal`. */
    jobHandlers(fetchInternal: Fetch): JobHandlers {
      return {
        [SANDBOX_JOB_SETTLE]: (payload) => settle(payload),
        [SANDBOX_JOB_DELIVER]: (payload, job) => deliver(fetchInternal, payload, job),
      };
    },
  };
}

export type SandboxPsp = ReturnType<typeof createSandboxPsp>;
