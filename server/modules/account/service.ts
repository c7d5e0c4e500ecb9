import { and, eq, inArray, isNotNull, isNull, lt, or, type SQL, type SQLWrapper } from 'drizzle-orm';
import type { AccountInfo } from '#common/api-contract';
import { money } from '#common/money';
import { phoneE164 } from '#common/validators';
import type { Locale } from '#common/locale';
import type { Database } from '../../db/client';
import type { PlayerRowsCache } from '../../db/player-rows-cache';
import { contacts, users } from './tables';

export type UserRow = typeof users.$inferSelect;
export type ContactRow = typeof contacts.$inferSelect;

/** What identity verification (KYC) tells the account about the player. */
export type VerificationFlags = Partial<Pick<UserRow, 'isOnVerification' | 'isVerified' | 'isKycBlockEnabled'>>;

/**
 * The player's row still holds the secret the code was checked against, and the code's step is
 * later than the last one used: the condition that makes a TOTP code work once.
 */
function isLaterTwoFactorStep(userId: number, secret: string, step: number) {
  return and(
    eq(users.id, userId),
    eq(users.twoFactorSecret, secret),
    or(isNull(users.twoFactorLastStep), lt(users.twoFactorLastStep, step)),
  );
}

/** The account info of an anonymous visitor: uid 0, zero balances in the site currency. */
export function anonymousAccountInfo(currency: string, locale: Locale): AccountInfo {
  const zero = money(0n, currency);
  return {
    uid: 0,
    reg_time: null,
    login: '',
    fakename: '',
    is_subscribed: false,
    balances: { balance_main: zero, balance_bonus: zero, balance_betting_bonus: zero, balance_fun: zero },
    is_on_verification: false,
    is_verified: false,
    is_kyc_block_enabled: false,
    is_registration_completed: false,
    country_code: null,
    locale,
    two_factor_auth: false,
  };
}

/** A contact is an e-mail when it has an @, otherwise a phone number. */
export function contactTypeOf(login: string): 'email' | 'phone' {
  return login.includes('@') ? 'email' : 'phone';
}

/**
 * A login as we store and look it up: leading plus signs removed (spec §5), e-mail in lower
 * case, phone digits without spaces, dashes or brackets.
 */
export function canonicalContact(raw: string): string {
  const value = raw.trim().replace(/^\++/, '');
  return contactTypeOf(value) === 'email' ? value.toLowerCase() : value.replace(/[\s()-]/g, '');
}

/** A contact's value as stored: e-mail in lower case, a phone in E.164 with its "+" (issue 15). */
export function contactValue(raw: string, phoneCountryCode?: string | null): string {
  const value = raw.trim();
  return contactTypeOf(value) === 'email' ? value.toLowerCase() : phoneE164(value, phoneCountryCode);
}

/**
 * The values a stored contact may have: phones written before issue 15 were kept without their
 * "+", so a phone is looked up in both forms (no migration rewrites those rows).
 */
function storedForms(value: string): string[] {
  return value.startsWith('+') ? [value, value.slice(1)] : [value];
}

/** A contact row as shown: a phone written before issue 15 gets its "+" back. */
function withE164(row: ContactRow): ContactRow {
  return row.type === 'phone' ? { ...row, value: phoneE164(row.value) } : row;
}

export interface AccountServiceDeps {
  /** A player's balances in minor units, by balance type: the wallet ledger answers. */
  balancesOf?: (user: UserRow) => Promise<{ main: bigint; bonus: bigint; betting_bonus: bigint; fun: bigint }>;
  /** Where what every signed-in page reads about its player is kept between changes (issue 12). */
  playerRows?: PlayerRowsCache;
}

const frozen = <T extends object>(row: T | undefined) => (row ? Object.freeze(row) : row);

export function createAccountService(db: Database, deps: AccountServiceDeps = {}) {
  /** A contact of the player by its value as contactValue gives it (a phone in either stored form). */
  async function findContact(userId: number, value: string): Promise<ContactRow | undefined> {
    const [row] = await db
      .select()
      .from(contacts)
      .where(and(eq(contacts.userId, userId), inArray(contacts.value, storedForms(value))))
      .limit(1);
    return row && withE164(row);
  }

  /**
   * A write of this service has changed a player's rows: requests in this process read them afresh
   * at once (other processes learn it from the database's notification, player-rows-cache.ts).
   */
  const changed = () => deps.playerRows?.invalidate();

  async function findUser(uid: number): Promise<UserRow | undefined> {
    const [row] = await db.select().from(users).where(eq(users.id, uid)).limit(1);
    return row;
  }

  /** Account info of spec §3 for a player, with balances from the wallet ledger in the account currency. */
  /** Whether the contact the player signs in with takes mail; kept between changes (issue 12). */
  async function isLoginSubscribed(user: UserRow): Promise<boolean> {
    const read = async () => {
      const [row] = await db
        .select({ isSubscribed: contacts.isSubscribed })
        .from(contacts)
        .where(and(eq(contacts.userId, user.id), inArray(contacts.value, storedForms(contactValue(user.login)))))
        .limit(1);
      return row?.isSubscribed ?? false;
    };
    if (!deps.playerRows) return read();
    return deps.playerRows.get(`login-subscribed:${user.id}:${user.login}`, read, { ownerOf: () => user.id });
  }

  async function accountInfo(user: UserRow): Promise<AccountInfo> {
    // Independent reads, not in a transaction: on PostgreSQL they run side by side.
    const [isSubscribed, balances] = await Promise.all([isLoginSubscribed(user), deps.balancesOf?.(user)]);
    const minor = balances ?? { main: 0n, bonus: 0n, betting_bonus: 0n, fun: 0n };
    return {
      uid: user.id,
      reg_time: user.registeredAt.toISOString(),
      login: user.login,
      fakename: user.fakename,
      is_subscribed: isSubscribed,
      balances: {
        balance_main: money(minor.main, user.currency),
        balance_bonus: money(minor.bonus, user.currency),
        balance_betting_bonus: money(minor.betting_bonus, user.currency),
        balance_fun: money(minor.fun, user.currency),
      },
      is_on_verification: user.isOnVerification,
      is_verified: user.isVerified,
      is_kyc_block_enabled: user.isKycBlockEnabled,
      is_registration_completed: user.isRegistrationCompleted,
      country_code: user.countryCode,
      locale: user.locale,
      two_factor_auth: user.twoFactorEnabledAt !== null,
    };
  }

  return {
    findUser,

    /**
     * The player as every bet path checks them (currency, status): kept in memory until the row
     * changes (issue 12). Anything that decides on a change of the account reads findUser.
     */
    async findUserForPlay(uid: number): Promise<UserRow | undefined> {
      if (!deps.playerRows) return findUser(uid);
      return deps.playerRows.get(`user:${uid}`, async () => frozen(await findUser(uid)), { ownerOf: (row) => row?.id });
    },

    /**
     * Account info of whoever asks: the signed-in player, or an anonymous visitor (uid 0). A caller
     * that read the player's row in this request already (the session lookup) may hand it over.
     */
    async infoFor(uid: number, fallback: { currency: string; locale: Locale }, readRow?: UserRow): Promise<AccountInfo> {
      const user = uid <= 0 ? undefined : readRow?.id === uid ? readRow : await findUser(uid);
      return user ? accountInfo(user) : anonymousAccountInfo(fallback.currency, fallback.locale);
    },

    /**
     * The user whose id another module's subquery selects, with one value of that module's (e.g. the
     * session's expiry), in one statement: the session lookup runs on every signed-in request.
     */
    async findUserIn<Extra>(
      siteId: string,
      userIds: SQLWrapper,
      extra: SQL<Extra>,
    ): Promise<{ user: UserRow; extra: Extra } | undefined> {
      const [row] = await db
        .select({ user: users, extra })
        .from(users)
        .where(and(eq(users.siteId, siteId), inArray(users.id, userIds)))
        .limit(1);
      return row;
    },

    async findUserByLogin(siteId: string, login: string): Promise<UserRow | undefined> {
      const [row] = await db
        .select()
        .from(users)
        .where(and(eq(users.siteId, siteId), eq(users.login, login)))
        .limit(1);
      return row;
    },

    /** Creates the account and the contact it signs in with, in one transaction; undefined when the login is taken. */
    async createUser(input: {
      siteId: string;
      login: string;
      passwordHash: string;
      currency: string;
      locale: Locale;
      isSubscribed: boolean;
    }): Promise<UserRow | undefined> {
      return db.transaction(async (tx) => {
        const [user] = await tx
          .insert(users)
          .values({
            siteId: input.siteId,
            login: input.login,
            passwordHash: input.passwordHash,
            currency: input.currency,
            locale: input.locale,
          })
          .onConflictDoNothing()
          .returning();
        if (!user) return undefined;
        await tx.insert(contacts).values({
          userId: user.id,
          type: contactTypeOf(input.login),
          value: contactValue(input.login),
          isSubscribed: input.isSubscribed,
        });
        return user;
      });
    },

    /**
     * Creates an account that signs in through an outside identity (social network, messenger),
     * without a password: the e-mail becomes the login (and an e-mail contact) when it is free,
     * otherwise the fallback login, which no password sign-up can produce. Runs on the caller's
     * transaction so the identity row is written with it.
     */
    async createExternalUser(
      input: {
        siteId: string;
        email: string | null;
        isEmailConfirmed: boolean;
        fallbackLogin: string;
        currency: string;
        locale: Locale;
        isRegistrationCompleted: boolean;
      },
      tx: Database = db,
    ): Promise<UserRow> {
      const values = {
        siteId: input.siteId,
        passwordHash: null,
        currency: input.currency,
        locale: input.locale,
        isRegistrationCompleted: input.isRegistrationCompleted,
      };
      if (input.email) {
        const [user] = await tx
          .insert(users)
          .values({ ...values, login: input.email })
          .onConflictDoNothing()
          .returning();
        if (user) {
          await tx
            .insert(contacts)
            .values({ userId: user.id, type: 'email', value: input.email, isConfirmed: input.isEmailConfirmed });
          return user;
        }
      }
      const [user] = await tx
        .insert(users)
        .values({ ...values, login: input.fallbackLogin })
        .returning();
      if (!user) throw new Error('account insert returned no row');
      return user;
    },

    /** Ends the registration-completion step (spec §2: socialRegistration): the currency is chosen now. */
    async completeRegistration(userId: number, currency: string): Promise<UserRow | undefined> {
      const [user] = await db
        .update(users)
        .set({ isRegistrationCompleted: true, currency, updatedAt: new Date() })
        .where(and(eq(users.id, userId), eq(users.isRegistrationCompleted, false)))
        .returning();
      changed();
      return user;
    },

    /** Switches the account's currency (spec §7 setCurrency); balances are kept per currency. */
    async setCurrency(userId: number, currency: string): Promise<void> {
      await db.update(users).set({ currency, updatedAt: new Date() }).where(eq(users.id, userId));
      changed();
    },

    /** Whether the player has confirmed at least one contact (withdrawals may require it). */
    async hasConfirmedContact(userId: number): Promise<boolean> {
      const [row] = await db
        .select({ id: contacts.id })
        .from(contacts)
        .where(and(eq(contacts.userId, userId), eq(contacts.isConfirmed, true)))
        .limit(1);
      return row !== undefined;
    },

    accountInfo,

    /** The player's contacts, oldest first. */
    async listContacts(userId: number): Promise<ContactRow[]> {
      return (await db.select().from(contacts).where(eq(contacts.userId, userId)).orderBy(contacts.id)).map(withE164);
    },

    findContact,

    /** Adds a contact (its value as contactValue gives it) to the account; false when the player already has it. */
    async addContact(
      userId: number,
      contact: { type: 'email' | 'phone'; value: string; phoneCountryCode: string | null },
    ): Promise<boolean> {
      if (await findContact(userId, contact.value)) return false;
      const [row] = await db
        .insert(contacts)
        .values({ userId, ...contact })
        .onConflictDoNothing()
        .returning({ id: contacts.id });
      changed();
      return row !== undefined;
    },

    async confirmContact(contactId: number): Promise<void> {
      await db.update(contacts).set({ isConfirmed: true }).where(eq(contacts.id, contactId));
      changed();
    },

    async setSubscription(contactId: number, isSubscribed: boolean): Promise<void> {
      await db.update(contacts).set({ isSubscribed }).where(eq(contacts.id, contactId));
      changed();
    },

    /** Stops news to one contact of a player (signed unsubscribe links); nothing when it is unknown. */
    async unsubscribeContact(userId: number, value: string): Promise<void> {
      await db
        .update(contacts)
        .set({ isSubscribed: false })
        .where(and(eq(contacts.userId, userId), inArray(contacts.value, storedForms(value))));
      changed();
    },

    /** Replaces the profile fields of spec §3 (the caller merges what changed). */
    async saveProfile(userId: number, profile: Record<string, unknown>): Promise<void> {
      await db.update(users).set({ profile, updatedAt: new Date() }).where(eq(users.id, userId));
      changed();
    },

    /** The fake names players chose, by uid (an empty name when none): what public lists may show of them (issue 15). */
    async fakenamesOf(userIds: readonly number[]): Promise<Map<number, string>> {
      if (userIds.length === 0) return new Map();
      const rows = await db
        .select({ id: users.id, fakename: users.fakename })
        .from(users)
        .where(inArray(users.id, [...new Set(userIds)]));
      return new Map(rows.map((row) => [row.id, row.fakename]));
    },

    async setFakename(userId: number, fakename: string): Promise<void> {
      await db.update(users).set({ fakename }).where(eq(users.id, userId));
      changed();
    },

    async setLocale(userId: number, locale: Locale): Promise<void> {
      await db.update(users).set({ locale }).where(eq(users.id, userId));
      changed();
    },

    /** Sets a new password hash whatever the old one was (a reset by e-mailed link). */
    async setPasswordHash(userId: number, passwordHash: string, tx: Database = db): Promise<void> {
      await tx.update(users).set({ passwordHash }).where(eq(users.id, userId));
      changed();
    },

    /**
     * Sets a new password hash only if the stored one is still the one the old password was checked
     * against: of two changes racing from the same old password, one wins and the other gets false.
     */
    async replacePasswordHash(userId: number, checkedHash: string, passwordHash: string, tx: Database = db): Promise<boolean> {
      const replaced = await tx
        .update(users)
        .set({ passwordHash })
        .where(and(eq(users.id, userId), eq(users.passwordHash, checkedHash)))
        .returning({ id: users.id });
      changed();
      return replaced.length > 0;
    },

    /** Keeps a new two-factor secret until the player confirms it with a first code. */
    async startTwoFactorSetup(userId: number, secret: string): Promise<void> {
      await db.update(users).set({ twoFactorSecret: secret, twoFactorLastStep: null }).where(eq(users.id, userId));
      changed();
    },

    /**
     * Turns two-factor on with the time step of the code that confirmed it, in one conditional
     * write: of two confirmations racing with the same code only one counts. False when it did not.
     */
    async enableTwoFactor(userId: number, secret: string, step: number): Promise<boolean> {
      const enabled = await db
        .update(users)
        .set({ twoFactorEnabledAt: new Date(), twoFactorLastStep: step })
        .where(and(isLaterTwoFactorStep(userId, secret, step), isNull(users.twoFactorEnabledAt)))
        .returning({ id: users.id });
      changed();
      return enabled.length > 0;
    },

    /** Turns two-factor off with a code's time step, claimed in the same write; false when the claim failed. */
    async disableTwoFactor(userId: number, secret: string, step: number): Promise<boolean> {
      const disabled = await db
        .update(users)
        .set({ twoFactorSecret: null, twoFactorEnabledAt: null, twoFactorLastStep: step })
        .where(and(isLaterTwoFactorStep(userId, secret, step), isNotNull(users.twoFactorEnabledAt)))
        .returning({ id: users.id });
      changed();
      return disabled.length > 0;
    },

    /**
     * Claims the time step of an accepted two-factor code, so the code works once: one conditional
     * write, not a read and an overwrite, so that of sign-ins racing with the same code exactly one
     * gets the step (issue 11). False when the step was already used (or the secret changed).
     */
    async claimTwoFactorStep(userId: number, secret: string, step: number): Promise<boolean> {
      const claimed = await db
        .update(users)
        .set({ twoFactorLastStep: step })
        .where(and(isLaterTwoFactorStep(userId, secret, step), isNotNull(users.twoFactorEnabledAt)))
        .returning({ id: users.id });
      changed();
      return claimed.length > 0;
    },

    /** Records the verification state; on the caller's transaction when it writes the applicant too. */
    async setVerificationFlags(userId: number, flags: VerificationFlags, tx: Database = db): Promise<void> {
      await tx
        .update(users)
        .set({ ...flags, updatedAt: new Date() })
        .where(eq(users.id, userId));
      changed();
    },
  };
}

export type AccountService = ReturnType<typeof createAccountService>;
