/**
 * Sign-up, sign-in (with the two-factor step), sign-out and sessions. Sessions live in the
 * database: a random token goes to the browser, only its SHA-256 is stored; a new token is
 * issued on every sign-in and revoked on sign-out, so an old or stolen token is useless after.
 */
import { createHash, randomBytes } from 'node:crypto';
import { and, eq, gt, isNull } from 'drizzle-orm';
import { ApiError } from '#common/errors';
import type { Locale } from '#common/locale';
import type { Database } from '../../db/client';
import { users } from '../account/tables';
import type { AccountService, UserRow } from '../account/service';
import type { RateLimitService } from '../rate-limit/service';
import { sessions } from './tables';
import { hashPassword, verifyPassword } from './passwords';
import { matchTotp } from './totp';

export const SESSION_TTL_MS = 30 * 24 * 60 * 60 * 1000;
const FIFTEEN_MINUTES_MS = 15 * 60 * 1000;

/** Messages the site recognises to move to the two-factor code step (spec §4). */
export const TWO_FACTOR_REQUIRED_MESSAGE = 'Two-factor authentication is already enabled';
export const TWO_FACTOR_INVALID_MESSAGE = 'Two-factor code is invalid';
export const TWO_FACTOR_EXPIRED_MESSAGE = 'Two-factor time expired';
const WRONG_CREDENTIALS_MESSAGE = 'Wrong login or password';

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export interface SessionUser {
  user: UserRow;
  tokenHash: string;
}

interface Deps {
  db: Database;
  accounts: AccountService;
  rateLimits: RateLimitService;
  /** An active time-out or self-exclusion keeps the player from signing in. */
  findActiveExclusion: (userId: number) => Promise<{ kind: string; endsAt: Date | null } | undefined>;
}

export function createAuthService({ db, accounts, rateLimits, findActiveExclusion }: Deps) {
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
    if (step === null) throw new ApiError('AuthorizationException', TWO_FACTOR_INVALID_MESSAGE, { two_factor: 'invalid' });
    await db.update(users).set({ twoFactorLastStep: step }).where(eq(users.id, user.id));
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

    async login(input: { siteId: string; login: string; password: string; code?: string; ip: string; userAgent: string }) {
      await rateLimits.consumeAll([
        { key: `login:ip:${input.ip}`, max: 50, windowMs: FIFTEEN_MINUTES_MS },
        { key: `login:account:${input.siteId}:${input.login}`, max: 10, windowMs: FIFTEEN_MINUTES_MS },
      ]);
      const user = await accounts.findUserByLogin(input.siteId, input.login);
      // Unknown login and wrong password answer alike, after the same work.
      const isPasswordRight = await verifyPassword(user?.passwordHash, input.password);
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
      await checkSecondFactor(user, input.code);
      return { user, token: await openSession(user.id, input) };
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
    },

    /** Ends every open session of a player at once (ban, self-exclusion, password change). */
    async revokeAllSessions(userId: number): Promise<void> {
      await db
        .update(sessions)
        .set({ revokedAt: new Date() })
        .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt)));
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
      const [row] = await db
        .select({ user: users })
        .from(sessions)
        .innerJoin(users, eq(users.id, sessions.userId))
        .where(
          and(
            eq(sessions.tokenHash, tokenHash),
            isNull(sessions.revokedAt),
            gt(sessions.expiresAt, new Date()),
            eq(users.siteId, siteId),
          ),
        )
        .limit(1);
      return row ? { user: row.user, tokenHash } : undefined;
    },
  };
}

export type AuthService = ReturnType<typeof createAuthService>;
