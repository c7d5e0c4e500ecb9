import { bigserial, index, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * Every e-mail and SMS the platform sends, kept as a record. Without SMTP configured this is
 * the development outbox (readable at /dev/outbox outside production).
 */
export const outboxMessages = pgTable(
  'outbox_messages',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    siteId: text('site_id').notNull(),
    channel: text('channel').$type<'email' | 'sms'>().notNull(),
    recipient: text('recipient').notNull(),
    subject: text('subject').notNull(),
    body: text('body').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    deliveredAt: timestamp('delivered_at', { withTimezone: true }),
    error: text('error'),
  },
  (table) => [index('outbox_recipient').on(table.recipient, table.createdAt)],
);
