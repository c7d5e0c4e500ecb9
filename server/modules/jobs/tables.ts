import { sql } from 'drizzle-orm';
import { bigserial, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

/**
 * The job queue (architecture §1: jobs live in PostgreSQL, so N processes share one queue).
 * A job is waiting while done_at and failed_at are both empty; a worker claims it by pushing
 * locked_until into the future, so a crashed worker's job is taken again once its lease ends.
 */
export const jobs = pgTable(
  'jobs',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    kind: text('kind').notNull(),
    payload: jsonb('payload').$type<unknown>().notNull(),
    runAt: timestamp('run_at', { withTimezone: true }).notNull().defaultNow(),
    /** Attempts started so far: a claim counts one, so a worker that dies mid-run still counts. */
    attempts: integer('attempts').notNull().default(0),
    maxAttempts: integer('max_attempts').notNull().default(10),
    lastError: text('last_error'),
    lockedUntil: timestamp('locked_until', { withTimezone: true }),
    /** Enqueueing twice with one key makes one job, ever (the first one). */
    key: text('key'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    doneAt: timestamp('done_at', { withTimezone: true }),
    /** Set when the last allowed attempt failed: the job is kept for an operator, never run again. */
    failedAt: timestamp('failed_at', { withTimezone: true }),
  },
  (table) => [
    uniqueIndex('jobs_key').on(table.key),
    index('jobs_due')
      .on(table.runAt, table.id)
      .where(sql`${table.doneAt} IS NULL AND ${table.failedAt} IS NULL`),
  ],
);

export type JobRow = typeof jobs.$inferSelect;
