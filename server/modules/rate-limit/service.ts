/**
 * Rate limits on sign-in, sign-up, restore, code checks and promo codes (architecture §4): a
 * fixed window per key, counted in the database so every process sees the same count.
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

  return {
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
