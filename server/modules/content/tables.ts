import { jsonb, pgTable, serial, text, timestamp, uniqueIndex, index } from 'drizzle-orm/pg-core';
import { sites } from '../sites/tables';

/**
 * Content and configuration entries per site and locale: configuration sections (collection
 * 'config'), translations ('translations'), content pages ('pages'), SEO records ('seos'),
 * banners and the rest of the content platform's collections.
 */
export const contentEntries = pgTable(
  'content_entries',
  {
    id: serial('id').primaryKey(),
    siteId: text('site_id').notNull().references(() => sites.id, { onDelete: 'cascade' }),
    collection: text('collection').notNull(),
    locale: text('locale').notNull(),
    slug: text('slug').notNull(),
    data: jsonb('data').$type<Record<string, unknown>>().notNull(),
    publishedAt: timestamp('published_at', { withTimezone: true }).defaultNow(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('content_entries_key').on(table.siteId, table.collection, table.locale, table.slug),
    index('content_entries_collection').on(table.siteId, table.collection, table.locale),
  ],
);
