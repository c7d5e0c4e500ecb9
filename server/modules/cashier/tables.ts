/**
 * Deposits and withdrawals as the cashier tracks them. Money itself lives in the wallet ledger;
 * a payment row is the state machine that decides when the ledger moves.
 */
import { bigint, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import type { DepositStatus, PaymentDirection, PaymentFlow, PaymentMethodType, WithdrawalStatus } from '#common/cashier-contract';

export const payments = pgTable(
  'payments',
  {
    /** Random, unguessable: it appears in addresses (/cashier/paysuccess/{id}). */
    id: text('id').primaryKey(),
    siteId: text('site_id').notNull(),
    userId: bigint('user_id', { mode: 'number' }).notNull(),
    direction: text('direction').$type<PaymentDirection>().notNull(),
    method: text('method').notNull(),
    methodType: text('method_type').$type<PaymentMethodType>().notNull(),
    provider: text('provider').notNull(),
    providerRef: text('provider_ref'),
    amountMinor: bigint('amount_minor', { mode: 'bigint' }).notNull(),
    currency: text('currency').notNull(),
    status: text('status').$type<DepositStatus | WithdrawalStatus>().notNull(),
    flow: text('flow').$type<PaymentFlow>(),
    requisites: jsonb('requisites').$type<Record<string, string>>().notNull().default({}),
    campaignOfferId: integer('campaign_offer_id').notNull().default(-1),
    /** Why it failed or was declined (operator's words for a decline). */
    reason: text('reason'),
    /** The player's site origin, for the provider's return and notification addresses. */
    origin: text('origin').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    /** When the ledger moved for good (deposit credited, withdrawal paid out). */
    settledAt: timestamp('settled_at', { withTimezone: true }),
  },
  (table) => [
    index('payments_user_direction').on(table.userId, table.direction, table.createdAt),
    index('payments_status').on(table.status, table.updatedAt),
  ],
);

/** Every provider notification we accepted, so a duplicate delivery is recognised and absorbed. */
export const providerEvents = pgTable(
  'provider_events',
  {
    provider: text('provider').notNull(),
    eventId: text('event_id').notNull(),
    paymentId: text('payment_id').notNull(),
    status: text('status').notNull(),
    /** What we did with it: applied, ignored_final (late or out of order), mismatch. */
    outcome: text('outcome').notNull(),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [uniqueIndex('provider_events_identity').on(table.provider, table.eventId)],
);
