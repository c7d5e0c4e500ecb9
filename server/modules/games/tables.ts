import { bigint, index, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { sites } from '../sites/tables';
import { users } from '../account/tables';

/** A player's favourite games (spec §4 game favourite; games.getLikes/addLike/removeLike). */
export const gameLikes = pgTable(
  'game_likes',
  {
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    siteId: text('site_id')
      .notNull()
      .references(() => sites.id, { onDelete: 'cascade' }),
    sysname: text('sysname').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('game_likes_user_sysname').on(table.userId, table.sysname),
    index('game_likes_site_sysname').on(table.siteId, table.sysname),
  ],
);
