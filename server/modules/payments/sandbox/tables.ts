/**
 * The sandbox PSP's own books, as if it were an outside company: what it was asked to collect
 * or pay out, each notification it sent, and each delivery attempt. Nothing of ours reads
 * these tables; we learn about a payment only from its signed webhooks (or queryStatus).
 */
import { bigint, bigserial, boolean, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import type { PaymentMethodType } from '#common/cashier-contract';
import type { ReturnUrls } from '../provider';

/** The sandbox's own status names (its protocol), mapped to ours by the adapter. */
export type SandboxStatus = 'created' | 'awaiting_3ds' | 'processing' | 'succeeded' | 'failed' | 'canceled';
export type SandboxKind = 'payment' | 'payout';

export const pspSandboxPayments = pgTable(
  'psp_sandbox_payments',
  {
    /** The provider reference: random and unguessable, since it is in the hosted page's address. */
    id: text('id').primaryKey(),
    siteId: text('site_id').notNull(),
    kind: text('kind').$type<SandboxKind>().notNull(),
    /** The merchant's (our) deposit or withdrawal id. */
    reference: text('reference').notNull(),
    amountMinor: bigint('amount_minor', { mode: 'bigint' }).notNull(),
    currency: text('currency').notNull(),
    method: text('method').$type<PaymentMethodType>().notNull(),
    status: text('status').$type<SandboxStatus>().notNull(),
    locale: text('locale').notNull().default('en'),
    notificationUrl: text('notification_url').notNull(),
    returnUrls: jsonb('return_urls').$type<ReturnUrls>(),
    requisites: jsonb('requisites').$type<Record<string, string>>(),
    /** Why it failed, in the sandbox's words (card_declined, 3ds_failed, account_closed…). */
    failureReason: text('failure_reason'),
    /** Last four digits of the card paid with; the sandbox never stores a whole number. */
    cardLast4: text('card_last4'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  // The merchant reference is the idempotency key of a create call: asking twice gives one payment.
  (table) => [uniqueIndex('psp_sandbox_payments_reference').on(table.siteId, table.kind, table.reference)],
);

/** Each notification, with the exact body that is signed and sent (a duplicate resends it). */
export const pspSandboxEvents = pgTable(
  'psp_sandbox_events',
  {
    id: text('id').primaryKey(),
    paymentId: text('payment_id')
      .notNull()
      .references(() => pspSandboxPayments.id),
    status: text('status').$type<SandboxStatus>().notNull(),
    body: text('body').notNull(),
    /**
     * Out-of-order chaos: a held event is sent only after the payment's final event, as a
     * provider whose queues race would.
     */
    isHeld: boolean('is_held').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('psp_sandbox_events_payment').on(table.paymentId, table.createdAt)],
);

/** Every attempt to deliver a notification, with what the receiver answered. */
export const pspSandboxDeliveries = pgTable(
  'psp_sandbox_deliveries',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    eventId: text('event_id')
      .notNull()
      .references(() => pspSandboxEvents.id),
    /** 1 for the first copy, 2 for a duplicate the chaos settings sent. */
    copy: integer('copy').notNull().default(1),
    attempt: integer('attempt').notNull(),
    url: text('url').notNull(),
    responseStatus: integer('response_status'),
    error: text('error'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('psp_sandbox_deliveries_event').on(table.eventId)],
);
