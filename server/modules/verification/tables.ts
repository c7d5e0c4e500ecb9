import { bigint, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { users } from '../account/tables';

export type ApplicantStatus = 'init' | 'pending' | 'approved' | 'rejected';

/** One identity-verification applicant per player, as the verification provider knows it. */
export const kycApplicants = pgTable(
  'kyc_applicants',
  {
    id: text('id').primaryKey(),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    siteId: text('site_id').notNull(),
    status: text('status').$type<ApplicantStatus>().notNull().default('init'),
    rejectReason: text('reject_reason'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [uniqueIndex('kyc_applicants_user').on(table.userId)],
);

/** Webhook events received from the provider, by their id: a replay is applied once. */
export const kycWebhookEvents = pgTable('kyc_webhook_events', {
  eventId: text('event_id').primaryKey(),
  applicantId: text('applicant_id').notNull(),
  type: text('type').notNull(),
  receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
});
