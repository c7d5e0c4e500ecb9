/**
 * An event's markets between their rows and the reducer's EventState (feed/market-state.ts): the
 * store loads the state, the reducer computes the next one, and only the markets that changed are
 * written back, so a message that changes nothing writes nothing.
 */
import { and, eq, inArray, isNotNull, sql } from 'drizzle-orm';
import { parseMarketKey } from '#common/sportsbook/catalogue';
import { ratio, type Ratio } from '#common/sportsbook/ratio';
import type { Executor } from '../../../db/retry';
import type { EventState, MarketState } from '../feed/market-state';
import type { OutcomeResult } from '../rules/settlement';
import { sportsbookEvents, sportsbookMarkets, sportsbookOutcomes, type SportsbookEventRow } from '../tables';

type MarketRow = typeof sportsbookMarkets.$inferSelect;
type OutcomeRow = typeof sportsbookOutcomes.$inferSelect;

const ratioText = (r: Ratio) => `${r.num}/${r.den}`;

function ratioOf(text: string): Ratio {
  const [num = '0', den = '1'] = text.split('/');
  return ratio(BigInt(num), BigInt(den));
}

function marketState(row: MarketRow, outcomes: readonly OutcomeRow[]): MarketState {
  const odds = Object.fromEntries(outcomes.flatMap((o) => (o.active && o.odds !== null ? [[o.outcomeId, o.odds]] : [])));
  const results: Record<string, OutcomeResult> = Object.fromEntries(
    outcomes.flatMap((o) =>
      o.won === null
        ? []
        : [
            [
              o.outcomeId,
              { won: o.won, voidFactor: ratioOf(o.voidFactor ?? '0/1'), deadHeatFactor: ratioOf(o.deadHeatFactor ?? '1/1') },
            ],
          ],
    ),
  );
  return {
    status: row.status,
    odds,
    ...(row.settlementCertainty ? { settlement: { certainty: row.settlementCertainty, results } } : {}),
    ...(row.cancelWindow ? { cancel: row.cancelWindow } : {}),
    ...(row.statusBefore ? { statusBefore: row.statusBefore } : {}),
  };
}

export function eventStateOf(
  event: SportsbookEventRow,
  markets: readonly MarketRow[],
  outcomes: readonly OutcomeRow[],
): EventState {
  const byMarket = new Map<string, OutcomeRow[]>();
  for (const outcome of outcomes) byMarket.set(outcome.marketKey, [...(byMarket.get(outcome.marketKey) ?? []), outcome]);
  return {
    status: event.status,
    ...(event.startTime ? { startTime: event.startTime.getTime() } : {}),
    ...(event.homeScore !== null && event.awayScore !== null ? { score: { home: event.homeScore, away: event.awayScore } } : {}),
    ...(event.clockMinute !== null ? { clockMinute: event.clockMinute } : {}),
    markets: Object.fromEntries(markets.map((row) => [row.key, marketState(row, byMarket.get(row.key) ?? [])])),
  };
}

export async function loadEventState(tx: Executor, event: SportsbookEventRow): Promise<EventState> {
  const [markets, outcomes] = await Promise.all([
    tx.select().from(sportsbookMarkets).where(eq(sportsbookMarkets.eventId, event.id)),
    tx.select().from(sportsbookOutcomes).where(eq(sportsbookOutcomes.eventId, event.id)),
  ]);
  return eventStateOf(event, markets, outcomes);
}

/** A comparable text of a market's state (bigints and ratios included). */
function signature(market: MarketState | undefined): string {
  return JSON.stringify(market ?? null, (_key, value: unknown) => (typeof value === 'bigint' ? value.toString() : value));
}

function outcomeRows(eventId: string, key: string, market: MarketState): (typeof sportsbookOutcomes.$inferInsert)[] {
  const results = market.settlement?.results ?? {};
  const ids = [...new Set([...Object.keys(market.odds), ...Object.keys(results)])];
  return ids.map((outcomeId) => {
    const result = results[outcomeId];
    return {
      eventId,
      marketKey: key,
      outcomeId,
      odds: market.odds[outcomeId] ?? null,
      // The feed's own flag: whether it prices the outcome; the market's status says whether bets are taken.
      active: market.odds[outcomeId] !== undefined,
      won: result?.won ?? null,
      voidFactor: result ? ratioText(result.voidFactor) : null,
      deadHeatFactor: result ? ratioText(result.deadHeatFactor) : null,
    };
  });
}

/** The keys of the markets whose state differs between before and after. */
export function changedMarkets(before: EventState, after: EventState): string[] {
  return Object.keys(after.markets).filter((key) => signature(before.markets[key]) !== signature(after.markets[key]));
}

async function writeMarket(tx: Executor, eventId: string, key: string, market: MarketState): Promise<void> {
  const { type, specifiers } = parseMarketKey(key);
  const row = {
    status: market.status,
    settlementCertainty: market.settlement?.certainty ?? null,
    cancelWindow: market.cancel ?? null,
    statusBefore: market.statusBefore ?? null,
    // Any message that changes the market overrides what an outage suspended.
    statusBeforeOutage: null,
    updatedAt: new Date(),
  };
  await tx
    .insert(sportsbookMarkets)
    .values({ eventId, key, type, specifiers, ...row })
    .onConflictDoUpdate({ target: [sportsbookMarkets.eventId, sportsbookMarkets.key], set: row });
  await tx.delete(sportsbookOutcomes).where(and(eq(sportsbookOutcomes.eventId, eventId), eq(sportsbookOutcomes.marketKey, key)));
  const outcomes = outcomeRows(eventId, key, market);
  if (outcomes.length > 0) await tx.insert(sportsbookOutcomes).values(outcomes);
}

/** Writes the event's own fields and every market that changed; returns the changed market keys. */
export async function writeEventState(
  tx: Executor,
  eventId: string,
  before: EventState,
  after: EventState,
  producer: string,
): Promise<string[]> {
  await tx
    .update(sportsbookEvents)
    .set({
      status: after.status,
      startTime: after.startTime === undefined ? undefined : new Date(after.startTime),
      homeScore: after.score?.home ?? null,
      awayScore: after.score?.away ?? null,
      clockMinute: after.clockMinute ?? null,
      producer,
      updatedAt: new Date(),
    })
    .where(eq(sportsbookEvents.id, eventId));
  const changed = changedMarkets(before, after);
  for (const key of changed) await writeMarket(tx, eventId, key, after.markets[key]!);
  return changed;
}

/** A producer's outage: suspends the open markets, remembering what each was for the recovery. */
export async function suspendForOutage(tx: Executor, eventId: string, before: EventState, after: EventState): Promise<void> {
  for (const key of changedMarkets(before, after)) {
    const previous = before.markets[key]!.status as 'active' | 'suspended' | 'deactivated';
    await tx
      .update(sportsbookMarkets)
      .set({ status: after.markets[key]!.status, statusBeforeOutage: previous, updatedAt: new Date() })
      .where(and(eq(sportsbookMarkets.eventId, eventId), eq(sportsbookMarkets.key, key)));
  }
}

/** A producer's recovery: the markets its outage suspended, and no message changed since, are back as they were. */
export async function liftOutage(tx: Executor, eventIds: readonly string[]): Promise<void> {
  if (eventIds.length === 0) return;
  await tx
    .update(sportsbookMarkets)
    .set({ status: sql`${sportsbookMarkets.statusBeforeOutage}`, statusBeforeOutage: null, updatedAt: new Date() })
    .where(
      and(
        inArray(sportsbookMarkets.eventId, eventIds),
        eq(sportsbookMarkets.status, 'suspended'),
        isNotNull(sportsbookMarkets.statusBeforeOutage),
      ),
    );
}
