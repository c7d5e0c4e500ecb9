import { bigserial, boolean, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, bigint } from 'drizzle-orm/pg-core';
import { sites } from '../sites/tables';

export type AccountStatus = 'active' | 'banned' | 'deleted';

/** A player account of one site. `login` is the normalised e-mail or phone the player signs in with. */
export const users = pgTable(
  'users',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    siteId: text('site_id')
      .notNull()
      .references(() => sites.id),
    login: text('login').notNull(),
    passwordHash: text('password_hash'),
    fakename: text('fakename').notNull().default(''),
    currency: text('currency').notNull(),
    locale: text('locale').notNull(),
    countryCode: text('country_code'),
    status: text('status').$type<AccountStatus>().notNull().default('active'),
    isRegistrationCompleted: boolean('is_registration_completed').notNull().default(true),
    isOnVerification: boolean('is_on_verification').notNull().default(false),
    isVerified: boolean('is_verified').notNull().default(false),
    isKycBlockEnabled: boolean('is_kyc_block_enabled').notNull().default(false),
    /** Base32 TOTP secret; two-factor is on when twoFactorEnabledAt is set. */
    twoFactorSecret: text('two_factor_secret'),
    twoFactorEnabledAt: timestamp('two_factor_enabled_at', { withTimezone: true }),
    /** The last accepted TOTP time step, so a code works once (architecture §4). */
    twoFactorLastStep: bigint('two_factor_last_step', { mode: 'number' }),
    profile: jsonb('profile').$type<Record<string, unknown>>().notNull().default({}),
    registeredAt: timestamp('registered_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [uniqueIndex('users_site_login').on(table.siteId, table.login)],
);

/** E-mail and phone contacts of a player (spec §3: contact). */
export const contacts = pgTable(
  'contacts',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    type: text('type').$type<'email' | 'phone'>().notNull(),
    value: text('value').notNull(),
    phoneCountryCode: text('phone_country_code'),
    isConfirmed: boolean('is_confirmed').notNull().default(false),
    isSubscribed: boolean('is_subscribed').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('contacts_user_type_value').on(table.userId, table.type, table.value),
    index('contacts_user').on(table.userId),
  ],
);

/**
 * One-time secrets: 6-digit contact confirmation codes and password reset tokens sent to a
 * player, and tickets of sign-ins waiting for the two-factor code. Only a hash is stored; each
 * expires, allows few attempts and works once.
 */
export const oneTimeSecrets = pgTable(
  'one_time_secrets',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    purpose: text('purpose').$type<'contact' | 'password_reset' | 'second_factor'>().notNull(),
    target: text('target').notNull(),
    secretHash: text('secret_hash').notNull(),
    attempts: integer('attempts').notNull().default(0),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index('one_time_secrets_lookup').on(table.userId, table.purpose, table.target),
    index('one_time_secrets_hash').on(table.secretHash),
  ],
);
