import { bigserial, jsonb, pgTable, text, timestamp, bigint, index } from 'drizzle-orm/pg-core';

/** GET /hit: a visit with its referrer, campaign track id and fraud-check session. */
export const hits = pgTable(
  'hits',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    siteId: text('site_id').notNull(),
    visitorId: text('visitor_id').notNull(),
    uid: bigint('uid', { mode: 'number' }).notNull().default(0),
    referrer: text('referrer'),
    trackId: text('track_id'),
    trackName: text('track_name'),
    trackValue: text('track_value'),
    seonSession: text('seon_session'),
    userAgent: text('user_agent'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('hits_site_created').on(table.siteId, table.createdAt)],
);

/** events.handle: analytics events sent by the site. */
export const analyticsEvents = pgTable(
  'analytics_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    siteId: text('site_id').notNull(),
    visitorId: text('visitor_id').notNull(),
    uid: bigint('uid', { mode: 'number' }).notNull().default(0),
    eventName: text('event_name').notNull(),
    eventParams: jsonb('event_params').$type<Record<string, unknown>>().notNull().default({}),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('analytics_events_site_name').on(table.siteId, table.eventName, table.createdAt)],
);
