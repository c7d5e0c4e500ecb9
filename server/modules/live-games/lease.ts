/** The scheduler lease: the one process that advances the tables holds it, renewing it before it lapses. */
import { and, eq, lt, or } from 'drizzle-orm';
import type { LiveContext } from './context';
import { liveLeases } from './tables';

const LEASE_NAME = 'live-games';

/** Takes or renews the scheduler lease; true when `holder` holds it now. */
export async function claimLease(ctx: LiveContext, holder = ctx.instanceId): Promise<boolean> {
  const now = ctx.clock();
  const expiresAt = new Date(now + ctx.config.leaseMs);
  const rows = await ctx.db
    .insert(liveLeases)
    .values({ name: LEASE_NAME, holder, expiresAt })
    .onConflictDoUpdate({
      target: liveLeases.name,
      set: { holder, expiresAt },
      setWhere: or(eq(liveLeases.holder, holder), lt(liveLeases.expiresAt, new Date(now))),
    })
    .returning({ holder: liveLeases.holder });
  return rows[0]?.holder === holder;
}

export async function releaseLease(ctx: LiveContext, holder = ctx.instanceId): Promise<void> {
  await ctx.db.delete(liveLeases).where(and(eq(liveLeases.name, LEASE_NAME), eq(liveLeases.holder, holder)));
}
