import { integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/** Fixed-window attempt counters, shared by every process through the database. */
export const rateLimits = pgTable('rate_limits', {
  key: text('key').primaryKey(),
  windowStart: timestamp('window_start', { withTimezone: true }).notNull(),
  count: integer('count').notNull(),
});
