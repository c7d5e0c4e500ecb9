/**
 * Rate limits on sign-in, sign-up, restore, code checks and promo codes (architecture §4): a
 * fixed window per key, counted in the database so every process sees the same count; and the
 * progressive slowing of sign-in attempts (issue 11), which grows its refusal window instead of
 * locking a key out for a fixed time.
 */
import { sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { rateLimits } from './tables';
import { ApiError } from '#common/errors';

export interface Limit {
  /** e.g. 'login:ip:127.0.0.1' */
  key: string;
  max: number;
  windowMs: number;
}

/**
 * Progressive slowing: the first `free` attempts of a streak pass at once; after them, attempt n
 * waits min(baseMs · 2^(n - free - 1), maxMs) after the last attempt let through. Refused attempts
 * count too, so hammering only lengthens the wait. A streak ends after `resetMs` without an attempt
 * let through; a success hands its own attempt back (refund) or ends the streak (reset).
 */
export interface SlowingPolicy {
  key: string;
  free: number;
  baseMs: number;
  maxMs: number;
  resetMs: number;
}

export type SlowingVerdict = { isAllowed: true } | { isAllowed: false; retryAfterS: number };

/** The wait after the last attempt let through before attempt `attempt` of a streak may pass. */
export function slowingWaitMs(policy: Omit<SlowingPolicy, 'key'>, attempt: number): number {
  if (attempt <= policy.free) return 0;
  // The exponent is bounded so that a long streak cannot overflow the arithmetic.
  return Math.min(policy.maxMs, policy.baseMs * 2 ** Math.min(attempt - policy.free - 1, 40));
}

export function tooManyAttempts(retryAfterS: number): ApiError {
  return new ApiError('TooManyRequestsException', 'Too many attempts, try again later', { retry_after: retryAfterS });
}

export function createRateLimitService(db: Database) {
  /** Counts one attempt; past the limit, TooManyRequestsException with the seconds to wait. */
  async function consume(limit: Limit): Promise<void> {
    const now = new Date();
    const windowStartFloor = new Date(now.getTime() - limit.windowMs);
    const [row] = await db
      .insert(rateLimits)
      .values({ key: limit.key, windowStart: now, count: 1 })
      .onConflictDoUpdate({
        target: rateLimits.key,
        // A window that has ended starts over; otherwise the attempt is counted in it.
        set: {
          count: sql`CASE WHEN ${rateLimits.windowStart} <= ${windowStartFloor.toISOString()}::timestamptz THEN 1 ELSE ${rateLimits.count} + 1 END`,
          windowStart: sql`CASE WHEN ${rateLimits.windowStart} <= ${windowStartFloor.toISOString()}::timestamptz THEN ${now.toISOString()}::timestamptz ELSE ${rateLimits.windowStart} END`,
        },
      })
      .returning({ count: rateLimits.count, windowStart: rateLimits.windowStart });
    if (row && row.count > limit.max) {
      const retryAfterS = Math.max(1, Math.ceil((row.windowStart.getTime() + limit.windowMs - now.getTime()) / 1000));
      throw new ApiError('TooManyRequestsException', 'Too many attempts, try again later', { retry_after: retryAfterS });
    }
  }

  /**
   * Counts one attempt of a slowed key and says whether it may go on. The key's row is locked for
   * the decision, so parallel attempts are decided one after another: each sees the count of those
   * before it, and a burst gets no more through than the same attempts made in turn. For slowed
   * keys the row holds the streak's attempts (count) and when the last one was let through
   * (window_start).
   */
  async function charge(policy: SlowingPolicy, at?: Date): Promise<SlowingVerdict> {
    return db.transaction(async (tx) => {
      await tx
        .insert(rateLimits)
        .values({ key: policy.key, windowStart: new Date(0), count: 0 })
        .onConflictDoNothing();
      const [row] = await tx
        .select()
        .from(rateLimits)
        .where(sql`${rateLimits.key} = ${policy.key}`)
        .for('update');
      // The clock is read once the lock is held: an attempt that waited for it must not be judged
      // by a reading older than that of the attempt let through before it.
      const now = at ?? new Date();
      const isStreakOver = !row || row.windowStart.getTime() <= now.getTime() - policy.resetMs;
      const attempt = isStreakOver ? 1 : row.count + 1;
      const lastLetThrough = isStreakOver ? 0 : row.windowStart.getTime();
      const opensAt = lastLetThrough + slowingWaitMs(policy, attempt);
      const isAllowed = isStreakOver || attempt <= policy.free || opensAt <= now.getTime();
      await tx
        .update(rateLimits)
        .set({ count: attempt, windowStart: isAllowed ? now : new Date(lastLetThrough) })
        .where(sql`${rateLimits.key} = ${policy.key}`);
      if (isAllowed) return { isAllowed: true } as const;
      // The next attempt, not this one, is what the caller waits for.
      const nextOpensAt = lastLetThrough + slowingWaitMs(policy, attempt + 1);
      return { isAllowed: false, retryAfterS: Math.max(1, Math.ceil((nextOpensAt - now.getTime()) / 1000)) } as const;
    });
  }

  return {
    charge,
    /** Hands back one attempt of a slowed key: a sign-in that succeeded was no failure. */
    async refund(key: string): Promise<void> {
      await db
        .update(rateLimits)
        .set({ count: sql`GREATEST(${rateLimits.count} - 1, 0)` })
        .where(sql`${rateLimits.key} = ${key}`);
    },
    /** The attempts counted on a key (operators and tests read how far a streak went). */
    async attemptsOf(key: string): Promise<number> {
      const [row] = await db
        .select({ count: rateLimits.count })
        .from(rateLimits)
        .where(sql`${rateLimits.key} = ${key}`);
      return row?.count ?? 0;
    },
    consume,
    /** Checks several limits; every one is counted even when an earlier one refuses. */
    async consumeAll(limits: Limit[]): Promise<void> {
      const results = await Promise.allSettled(limits.map(consume));
      const refused = results.find((result): result is PromiseRejectedResult => result.status === 'rejected');
      if (refused) throw refused.reason;
    },
    async reset(key: string): Promise<void> {
      await db.delete(rateLimits).where(sql`${rateLimits.key} = ${key}`);
    },
  };
}

export type RateLimitService = ReturnType<typeof createRateLimitService>;
