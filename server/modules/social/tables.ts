import { bigint, bigserial, index, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { sites } from '../sites/tables';
import { users } from '../account/tables';

/**
 * One social sign-in under way (OAuth 2.0 authorization code with PKCE). Only a hash of the
 * `state` is stored, so a database read gives nobody a usable state; a row works once
 * (used_at) and only until it expires. The browser that started the flow is recorded, so a
 * callback address sent to someone else cannot sign them in (login CSRF).
 */
export const oauthStates = pgTable(
  'oauth_states',
  {
    stateHash: text('state_hash').primaryKey(),
    siteId: text('site_id')
      .notNull()
      .references(() => sites.id),
    service: text('service').notNull(),
    codeVerifier: text('code_verifier').notNull(),
    typeAuth: text('type_auth').$type<'login' | 'register'>().notNull(),
    /** Same-origin path the pop-up returns to when it has no opener (safeRedirectTarget). */
    redirectUrl: text('redirect_url').notNull(),
    /** Our callback address as sent to the provider; the token request repeats it exactly. */
    callbackUri: text('callback_uri').notNull(),
    visitorId: text('visitor_id').notNull(),
    locale: text('locale').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
  },
  (table) => [index('oauth_states_expires').on(table.expiresAt)],
);

/**
 * A player's identity at an outside provider (a social network, the messenger): the player is
 * found by (site, provider, subject), never by e-mail, so an address claimed at a provider
 * cannot take over an account registered here.
 */
export const socialIdentities = pgTable(
  'social_identities',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    siteId: text('site_id')
      .notNull()
      .references(() => sites.id),
    provider: text('provider').notNull(),
    subject: text('subject').notNull(),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    email: text('email'),
    displayName: text('display_name'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    lastSignInAt: timestamp('last_sign_in_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('social_identities_subject').on(table.siteId, table.provider, table.subject),
    index('social_identities_user').on(table.userId),
  ],
);

/**
 * Grants of the built-in development identity provider (/oauth/dev): an authorization code
 * (hashed, single use, short-lived, bound to client, redirect_uri and PKCE challenge) and the
 * access token it was exchanged for (hashed). Kept in the database so any process can answer.
 */
export const devOauthGrants = pgTable(
  'dev_oauth_grants',
  {
    codeHash: text('code_hash').primaryKey(),
    siteId: text('site_id')
      .notNull()
      .references(() => sites.id),
    clientId: text('client_id').notNull(),
    redirectUri: text('redirect_uri').notNull(),
    codeChallenge: text('code_challenge').notNull(),
    subject: text('subject').notNull(),
    email: text('email').notNull(),
    name: text('name').notNull(),
    codeExpiresAt: timestamp('code_expires_at', { withTimezone: true }).notNull(),
    codeUsedAt: timestamp('code_used_at', { withTimezone: true }),
    accessTokenHash: text('access_token_hash'),
    accessExpiresAt: timestamp('access_expires_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('dev_oauth_grants_access_token').on(table.accessTokenHash),
    index('dev_oauth_grants_expires').on(table.codeExpiresAt),
  ],
);
