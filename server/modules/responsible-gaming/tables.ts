import { bigint, bigserial, index, integer, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { users } from '../account/tables';

export type LimitPeriod = 'day' | 'week' | 'month';

/**
 * A player's deposit limit per period, in minor units. A cut applies at once; a raise or a
 * removal waits as `pending*` until its cooling-off period has passed.
 */
export const depositLimits = pgTable(
  'deposit_limits',
  {
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    period: text('period').$type<LimitPeriod>().notNull(),
    limitMinor: bigint('limit_minor', { mode: 'bigint' }),
    pendingLimitMinor: bigint('pending_limit_minor', { mode: 'bigint' }),
    /** Set when a change is pending; a pending removal has pendingLimitMinor null. */
    pendingEffectiveAt: timestamp('pending_effective_at', { withTimezone: true }),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.userId, table.period] })],
);

/** Time-outs and self-exclusions; endsAt null is a permanent exclusion. Never deleted. */
export const exclusions = pgTable(
  'rg_exclusions',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind').$type<'timeout' | 'self_exclusion'>().notNull(),
    startsAt: timestamp('starts_at', { withTimezone: true }).notNull().defaultNow(),
    endsAt: timestamp('ends_at', { withTimezone: true }),
  },
  (table) => [index('rg_exclusions_user').on(table.userId)],
);

/** Reality-check interval chosen by the player (0 = off). */
export const rgPreferences = pgTable('rg_preferences', {
  userId: bigint('user_id', { mode: 'number' })
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  realityCheckMinutes: integer('reality_check_minutes').notNull().default(0),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
