import { pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';

/** Key-value storage per visitor or player (storage.get/getKeys/set). */
export const storageEntries = pgTable(
  'storage_entries',
  {
    /** 'v:{visitorId}' for an anonymous visitor, 'u:{uid}' for a player. */
    owner: text('owner').notNull(),
    key: text('key').notNull(),
    value: text('value').notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.owner, table.key] })],
);
