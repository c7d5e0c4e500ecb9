import { boolean, jsonb, pgTable, text, timestamp, integer } from 'drizzle-orm/pg-core';

/** One row per site (brand); a request's host picks the site (spec §1: configured per host). */
export const sites = pgTable('sites', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  hosts: text('hosts').array().notNull(),
  isDefault: boolean('is_default').notNull().default(false),
  defaultCurrency: text('default_currency').notNull(),
  currencies: text('currencies').array().notNull(),
  locales: text('locales').array().notNull(),
  /** General site info of spec §3 that is not a column (analytic, domain_state, timers, …). */
  settings: jsonb('settings').$type<Record<string, unknown>>().notNull().default({}),
  isMaintenance: boolean('is_maintenance').notNull().default(false),
  sortOrder: integer('sort_order').notNull().default(0),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
