/**
 * Sign-up, sign-in (with the two-factor step), sign-out and sessions. Sessions live in the
 * database: a random token goes to the browser, only its SHA-256 is stored; a new token is
 * issued on every sign-in and revoked on sign-out, so an old or stolen token is useless after.
 */
import { hash, randomBytes } from 'node:crypto';
import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import { ApiError } from '#common/errors';
import type { Locale } from '#common/locale';
import type { Database } from '../../db/client';
import type { PlayerRowsCache } from '../../db/player-rows-cache';
import type { AccountService, UserRow } from '../account';
import { tooManyAttempts, type RateLimitService } from '../rate-limit';
import { sessions } from './tables';
import { hashPassword, verifyPassword } from './passwords';
import { generateTotpSecret, matchTotp, otpauthUri } from './totp';
import { isDeviceTokenOf, signDeviceToken, signInSlowing } from './sign-in-guard';

export const SESSION_TTL_MS = 30 * 24 * 60 * 60 * 1000;
const FIFTEEN_MINUTES_MS = 15 * 60 * 1000;

/** Messages the site recognises to move to the two-factor code step (spec §4). */
export const TWO_FACTOR_REQUIRED_MESSAGE = 'Two-factor authentication is already enabled';
export const TWO_FACTOR_INVALID_MESSAGE = 'Two-factor code is invalid';
export const TWO_FACTOR_EXPIRED_MESSAGE = 'Two-factor time expired';
const WRONG_CREDENTIALS_MESSAGE = 'Wrong login or password';

function invalidTwoFactorCode(): ApiError {
  return new ApiError('InvalidParameterException', TWO_FACTOR_INVALID_MESSAGE, { field: 'code', errorType: 'twoFactorInvalid' });
}

/** The hash a session or reset token is kept under. One-shot: every signed-in request hashes its token (issue 12). */
export function hashToken(token: string): string {
  return hash('sha256', token, 'hex');
}

export interface SessionUser {
  user: UserRow;
  tokenHash: string;
  /** When the session ends (epoch ms): nothing made from it may be answered after. */
  expiresAtMs: number;
}

interface Deps {
  db: Database;
  accounts: AccountService;
  rateLimits: RateLimitService;
  /** An active time-out or self-exclusion keeps the player from signing in. */
  findActiveExclusion: (userId: number) => Promise<{ kind: string; endsAt: Date | null } | undefined>;
  /** The installation's key that signs trusted-device cookies (made once, kept in the database). */
  deviceKey: () => Promise<string>;
  /** Where the session lookup of every signed-in request is kept between changes (issue 12). */
  playerRows?: PlayerRowsCache;
}

interface OpenSession {
  user: UserRow;
  expiresAt: Date;
}

export function createAuthService({ db, accounts, rateLimits, findActiveExclusion, deviceKey, playerRows }: Deps) {
  let deviceKeyOnce: Promise<string> | undefined;
  const signingKey = () => (deviceKeyOnce ??= deviceKey());

  async function openSession(userId: number, request: { ip: string; userAgent: string }): Promise<string> {
    const token = randomBytes(32).toString('base64url');
    await db.insert(sessions).values({
      tokenHash: hashToken(token),
      userId,
      expiresAt: new Date(Date.now() + SESSION_TTL_MS),
      ip: request.ip,
      userAgent: request.userAgent.slice(0, 512),
    });
    return token;
  }

  async function checkSecondFactor(user: UserRow, code: string | undefined): Promise<void> {
    if (!user.twoFactorEnabledAt || !user.twoFactorSecret) return;
    if (!code) throw new ApiError('AuthorizationException', TWO_FACTOR_REQUIRED_MESSAGE, { two_factor: 'required' });
    await rateLimits.consume({ key: `code:user:${user.id}`, max: 5, windowMs: FIFTEEN_MINUTES_MS });
    const step = matchTotp(user.twoFactorSecret, code, Date.now(), user.twoFactorLastStep);
    // The step is claimed in one conditional write: of sign-ins racing with one code, one wins.
    const isClaimed = step !== null && (await accounts.claimTwoFactorStep(user.id, user.twoFactorSecret, step));
    if (!isClaimed) throw new ApiError('AuthorizationException', TWO_FACTOR_INVALID_MESSAGE, { two_factor: 'invalid' });
  }

  /** Ends every open session of a player, on the caller's transaction when there is one. */
  async function revokeAllSessions(userId: number, tx: Database = db): Promise<void> {
    await tx
      .update(sessions)
      .set({ revokedAt: new Date() })
      .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt)));
    // Requests in this process see it at once; others learn it from the database's notification.
    playerRows?.forgetPlayer(userId);
  }

  /** The open session's player and expiry, in one statement (it runs on every signed-in request). */
  async function readOpenSession(tokenHash: string, siteId: string): Promise<OpenSession | undefined> {
    const isOpen = and(eq(sessions.tokenHash, tokenHash), isNull(sessions.revokedAt), gt(sessions.expiresAt, new Date()));
    const found = await accounts.findUserIn(
      siteId,
      db.select({ userId: sessions.userId }).from(sessions).where(isOpen),
      sql`(select ${sessions.expiresAt} from ${sessions} where ${isOpen})`.mapWith(sessions.expiresAt),
    );
    // Kept in memory and shared by requests: nobody may change it in place.
    return found && { user: Object.freeze(found.user), expiresAt: found.extra };
  }

  /** A current code of the player's authenticator, counted against the code rate limit; its time step, or null. */
  async function matchCurrentCode(user: UserRow, code: string): Promise<number | null> {
    await rateLimits.consume({ key: `code:user:${user.id}`, max: 5, windowMs: FIFTEEN_MINUTES_MS });
    if (!user.twoFactorSecret) return null;
    return matchTotp(user.twoFactorSecret, code, Date.now(), user.twoFactorLastStep);
  }

  /** While the account is slowed: the right password and a valid code, or the same refusal for every other case. */
  async function proveWhileSlowed(
    user: UserRow | undefined,
    isPasswordRight: boolean,
    code: string | undefined,
    retryAfterS: number,
  ) {
    if (!user || !isPasswordRight || user.status === 'deleted' || !user.twoFactorEnabledAt || !user.twoFactorSecret)
      throw tooManyAttempts(retryAfterS);
    try {
      await checkSecondFactor(user, code);
    } catch {
      throw tooManyAttempts(retryAfterS);
    }
  }

  /**
   * The code step of a sign-in. A right password that only lacks the code was no failed guess:
   * its attempts are handed back, so a player with two-factor on is not slowed by signing in.
   */
  async function checkSecondFactorOrHandBack(user: UserRow, code: string | undefined, addressKey: string, accountKey: string) {
    try {
      await checkSecondFactor(user, code);
    } catch (error) {
      if (error instanceof ApiError && error.message === TWO_FACTOR_REQUIRED_MESSAGE) {
        await rateLimits.refund(addressKey);
        await rateLimits.refund(accountKey);
      }
      throw error;
    }
  }

  return {
    openSession,
    checkSecondFactor,

    /** True when the player turned two-factor on: every way of signing in then asks for the code. */
    needsSecondFactor(user: UserRow): boolean {
      return Boolean(user.twoFactorEnabledAt && user.twoFactorSecret);
    },

    async register(input: {
      siteId: string;
      login: string;
      password: string;
      currency: string;
      locale: Locale;
      isSubscribed: boolean;
      ip: string;
      userAgent: string;
    }) {
      await rateLimits.consume({ key: `register:ip:${input.ip}`, max: 20, windowMs: 60 * 60 * 1000 });
      const passwordHash = await hashPassword(input.password);
      const user = await accounts.createUser({ ...input, passwordHash });
      if (!user)
        throw new ApiError('InvalidParameterException', 'This login is already registered', {
          field: 'login',
          errorType: 'taken',
        });
      return { user, token: await openSession(user.id, input) };
    },

    /**
     * Password sign-in, slowed per address and per account (sign-in-guard.ts). While the account is
     * slowed, only a known device or the whole proof (right password and a valid second factor)
     * gets in, and every other attempt gets the same refusal, so the wait tells nothing about the
     * password. A success ends the account's streak and hands back the address's attempt.
     */
    async login(input: {
      siteId: string;
      login: string;
      password: string;
      code?: string;
      ip: string;
      userAgent: string;
      /** The trusted-device cookie the browser sent, if any. */
      deviceToken?: string;
    }) {
      const slowing = signInSlowing(input.siteId, input.login, input.ip);
      const address = await rateLimits.charge(slowing.address);
      const account = await rateLimits.charge(slowing.account);
      const user = await accounts.findUserByLogin(input.siteId, input.login);
      const isKnownDevice = user ? isDeviceTokenOf(await signingKey(), input.deviceToken, input.siteId, user.id) : false;
      if (!address.isAllowed && !isKnownDevice) throw tooManyAttempts(address.retryAfterS);
      // The seconds the account still waits, unless this device is the owner's.
      const accountWaitS = account.isAllowed || isKnownDevice ? null : account.retryAfterS;
      if (accountWaitS !== null && !input.code) throw tooManyAttempts(accountWaitS);
      // Unknown login and wrong password answer alike, after the same work.
      const isPasswordRight = await verifyPassword(user?.passwordHash, input.password);
      if (accountWaitS !== null) await proveWhileSlowed(user, isPasswordRight, input.code, accountWaitS);
      if (!user || !isPasswordRight || user.status === 'deleted')
        throw new ApiError('AuthorizationException', WRONG_CREDENTIALS_MESSAGE);
      if (user.status === 'banned') throw new ApiError('UserBannedException', 'This account is blocked');
      const exclusion = await findActiveExclusion(user.id);
      if (exclusion) {
        throw new ApiError('AccessDeniedException', 'The account is excluded from play', {
          exclusion: exclusion.kind,
          until: exclusion.endsAt?.toISOString() ?? null,
        });
      }
      if (accountWaitS === null) await checkSecondFactorOrHandBack(user, input.code, slowing.address.key, slowing.account.key);
      await rateLimits.reset(slowing.account.key);
      await rateLimits.refund(slowing.address.key);
      return {
        user,
        token: await openSession(user.id, input),
        deviceToken: signDeviceToken(await signingKey(), input.siteId, user.id),
      };
    },

    /**
     * Opens a session for a player an outside identity vouched for (social sign-in, messenger
     * entry): the account checks of a password sign-in apply (deleted, banned, excluded).
     */
    async signInVerified(user: UserRow, request: { ip: string; userAgent: string }): Promise<string> {
      if (user.status === 'deleted') throw new ApiError('UserDeletedException', 'This account has been deleted');
      if (user.status === 'banned') throw new ApiError('UserBannedException', 'This account is blocked');
      const exclusion = await findActiveExclusion(user.id);
      if (exclusion) {
        throw new ApiError('AccessDeniedException', 'The account is excluded from play', {
          exclusion: exclusion.kind,
          until: exclusion.endsAt?.toISOString() ?? null,
        });
      }
      return openSession(user.id, request);
    },

    async revokeSession(tokenHash: string): Promise<void> {
      await db
        .update(sessions)
        .set({ revokedAt: new Date() })
        .where(and(eq(sessions.tokenHash, tokenHash), isNull(sessions.revokedAt)));
      playerRows?.invalidate();
    },

    /** Ends every open session of a player at once (ban, self-exclusion, password change). */
    revokeAllSessions: (userId: number) => revokeAllSessions(userId),

    /** Whether the password is the player's (a serious decision is confirmed with it). */
    isPasswordRight(user: UserRow, password: string): Promise<boolean> {
      return verifyPassword(user.passwordHash, password);
    },

    /**
     * Changes the password of a signed-in player who proves the old one, and ends every session of
     * theirs in the same transaction (the caller opens a fresh one for this browser). Of two
     * changes racing from the same old password only the first counts: the second finds the
     * password changed and is refused as a wrong old password.
     */
    async changePassword(user: UserRow, oldPassword: string, newPassword: string): Promise<void> {
      await rateLimits.consume({ key: `change-password:user:${user.id}`, max: 10, windowMs: FIFTEEN_MINUTES_MS });
      const wrongOldPassword = new ApiError('InvalidParameterException', 'Invalid parameter: old_password', {
        field: 'old_password',
        errorType: 'password',
      });
      const isOldPasswordRight = await verifyPassword(user.passwordHash, oldPassword);
      const checkedHash = user.passwordHash;
      if (!isOldPasswordRight || !checkedHash) throw wrongOldPassword;
      const newHash = await hashPassword(newPassword);
      const isChanged = await db.transaction(async (tx) => {
        if (!(await accounts.replacePasswordHash(user.id, checkedHash, newHash, tx))) return false;
        await revokeAllSessions(user.id, tx);
        return true;
      });
      if (!isChanged) throw wrongOldPassword;
    },

    /** Sets a new password after a reset link proved the player (auth.resetpassword); every session ends. */
    async resetPassword(userId: number, newPassword: string): Promise<void> {
      const newHash = await hashPassword(newPassword);
      await db.transaction(async (tx) => {
        await accounts.setPasswordHash(userId, newHash, tx);
        await revokeAllSessions(userId, tx);
      });
    },

    /** Starts two-factor set-up with a new secret; it takes effect once a first code confirms it. */
    async startTwoFactorSetup(user: UserRow, issuer: string): Promise<{ secret: string; otpauthUri: string }> {
      if (user.twoFactorEnabledAt) throw new ApiError('InvalidRequestException', 'Two-factor authentication is already enabled');
      const secret = generateTotpSecret();
      await accounts.startTwoFactorSetup(user.id, secret);
      return { secret, otpauthUri: otpauthUri(secret, issuer, user.login) };
    },

    /** Turns two-factor on with a first code of the secret being set up. */
    async confirmTwoFactor(user: UserRow, code: string): Promise<void> {
      if (!user.twoFactorSecret || user.twoFactorEnabledAt)
        throw new ApiError('InvalidRequestException', 'Start the two-factor set-up first');
      const step = await matchCurrentCode(user, code);
      if (step === null || !(await accounts.enableTwoFactor(user.id, user.twoFactorSecret, step))) throw invalidTwoFactorCode();
    },

    /** Turns two-factor off; it takes a current code, so a stolen session alone cannot weaken the account. */
    async disableTwoFactor(user: UserRow, code: string): Promise<void> {
      const step = await matchCurrentCode(user, code);
      if (step === null || !user.twoFactorEnabledAt || !user.twoFactorSecret) throw invalidTwoFactorCode();
      if (!(await accounts.disableTwoFactor(user.id, user.twoFactorSecret, step))) throw invalidTwoFactorCode();
    },

    /** When an open session began: the start of the play session that responsible gaming reports on. */
    async sessionStartedAt(tokenHash: string): Promise<Date | undefined> {
      const [row] = await db
        .select({ createdAt: sessions.createdAt })
        .from(sessions)
        .where(and(eq(sessions.tokenHash, tokenHash), isNull(sessions.revokedAt)))
        .limit(1);
      return row?.createdAt;
    },

    /** The player a session token belongs to, if the session is open and the site matches. */
    async resolveSession(token: string, siteId: string): Promise<SessionUser | undefined> {
      const tokenHash = hashToken(token);
      const read = () => readOpenSession(tokenHash, siteId);
      const open = playerRows
        ? await playerRows.get(`session:${siteId}:${tokenHash}`, read, {
            ownerOf: (found) => found?.user.id,
            // An expired session is never answered from memory.
            validUntil: (found) => found?.expiresAt.getTime() ?? 0,
          })
        : await read();
      const expiresAtMs = open?.expiresAt.getTime() ?? 0;
      return open && expiresAtMs > Date.now() ? { user: open.user, tokenHash, expiresAtMs } : undefined;
    },
  };
}

export type AuthService = ReturnType<typeof createAuthService>;
