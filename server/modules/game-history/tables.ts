/**
 * Game history exports (issue 5; spec §7 games.createhistoryexportrequest and
 * gethistoryexportrequest): a player's request for a CSV of their real-money rounds, made by the
 * job queue and kept in the database (not on a disk a second process could not see) until the
 * player downloads it.
 */
import { sql } from 'drizzle-orm';
import { bigint, bigserial, boolean, check, index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { users } from '../account/tables';

export const HISTORY_EXPORT_STATUSES = ['pending', 'ready', 'failed'] as const;
export type HistoryExportStatus = (typeof HISTORY_EXPORT_STATUSES)[number];

export const gameHistoryExports = pgTable(
  'game_history_exports',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    siteId: text('site_id').notNull(),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    status: text('status').$type<HistoryExportStatus>().notNull().default('pending'),
    /** The filters the player asked for: one game, rounds from / before a moment. */
    sysname: text('sysname'),
    dateFrom: timestamp('date_from', { withTimezone: true }),
    dateTo: timestamp('date_to', { withTimezone: true }),
    /** The file, once made; its rows and whether the row cap cut it short. */
    csv: text('csv'),
    rowCount: integer('row_count'),
    isTruncated: boolean('is_truncated').notNull().default(false),
    error: text('error'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    completedAt: timestamp('completed_at', { withTimezone: true }),
  },
  (table) => [
    index('game_history_exports_owner').on(table.siteId, table.userId, table.id),
    check('game_history_exports_status', sql`${table.status} IN ('pending', 'ready', 'failed')`),
    check('game_history_exports_file', sql`${table.status} <> 'ready' OR ${table.csv} IS NOT NULL`),
  ],
);

export type GameHistoryExportRow = typeof gameHistoryExports.$inferSelect;
