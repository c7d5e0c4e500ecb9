/**
 * Exposure per market (issue 14): the running total of what the open tickets with a leg on a
 * market may return (tables.ts sportMarketExposure). Every change goes through one upsert per
 * market, in key order, so two placements on the same markets queue on the rows instead of
 * deadlocking, and a placement sees every ticket committed before it. Callers shift exposure
 * before they move money, so the exposure rows are always locked before the wallet's accounts.
 */
import { sql } from 'drizzle-orm';
import type { Executor } from '../../../db/retry';
import { sportMarketExposure } from './tables';

export interface MarketRef {
  eventId: string;
  marketKey: string;
}

export const marketRefKey = (ref: MarketRef) => `${ref.eventId}\u0000${ref.marketKey}`;

/** Adds each delta to its market's exposure (never below zero: tickets older than the tracking); returns the totals after. */
export async function shiftExposure(
  tx: Executor,
  siteId: string,
  currency: string,
  deltas: ReadonlyMap<string, { ref: MarketRef; deltaMinor: bigint }>,
): Promise<Map<string, bigint>> {
  const totals = new Map<string, bigint>();
  const ordered = [...deltas.entries()].filter(([, item]) => item.deltaMinor !== 0n).sort(([a], [b]) => (a < b ? -1 : 1));
  for (const [key, { ref, deltaMinor }] of ordered) {
    const [row] = await tx
      .insert(sportMarketExposure)
      .values({
        siteId,
        eventId: ref.eventId,
        marketKey: ref.marketKey,
        currency,
        exposureMinor: deltaMinor > 0n ? deltaMinor : 0n,
      })
      .onConflictDoUpdate({
        target: [
          sportMarketExposure.siteId,
          sportMarketExposure.eventId,
          sportMarketExposure.marketKey,
          sportMarketExposure.currency,
        ],
        set: { exposureMinor: sql`greatest(${sportMarketExposure.exposureMinor} + ${deltaMinor.toString()}::bigint, 0)` },
      })
      .returning({ exposureMinor: sportMarketExposure.exposureMinor });
    totals.set(key, row?.exposureMinor ?? 0n);
  }
  return totals;
}

/** Collects per-market deltas of several tickets (each counted once per market it has a leg on). */
export class ExposureDeltas {
  readonly bySite = new Map<string, Map<string, { ref: MarketRef; deltaMinor: bigint }>>();

  add(siteId: string, currency: string, legs: readonly MarketRef[], deltaMinor: bigint): void {
    if (deltaMinor === 0n) return;
    const group = `${siteId}\u0000${currency}`;
    const deltas = this.bySite.get(group) ?? new Map<string, { ref: MarketRef; deltaMinor: bigint }>();
    this.bySite.set(group, deltas);
    const seen = new Set<string>();
    for (const leg of legs) {
      const key = marketRefKey(leg);
      if (seen.has(key)) continue;
      seen.add(key);
      const before = deltas.get(key);
      deltas.set(key, {
        ref: { eventId: leg.eventId, marketKey: leg.marketKey },
        deltaMinor: (before?.deltaMinor ?? 0n) + deltaMinor,
      });
    }
  }

  async apply(tx: Executor): Promise<void> {
    for (const [group, deltas] of [...this.bySite.entries()].sort(([a], [b]) => (a < b ? -1 : 1))) {
      const [siteId = '', currency = ''] = group.split('\u0000');
      await shiftExposure(tx, siteId, currency, deltas);
    }
    this.bySite.clear();
  }
}
