/**
 * An event's markets between their rows and the reducer's EventState (feed/market-state.ts): the
 * store loads the state, the reducer computes the next one, and only the markets that changed are
 * written back, so a message that changes nothing writes nothing.
 */
import { and, eq, inArray, isNotNull, or, sql } from 'drizzle-orm';
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

/** Which markets a batch of messages reads: all of them, or those named by key or by type. */
export type MarketScope = { all: true } | { all: false; keys: readonly string[]; types: readonly string[] };

const ALL_MARKETS: MarketScope = { all: true };

/**
 * The event's state with the markets in scope only: an odds change reads the markets it prices,
 * not the whole event (feed throughput), and the reducer needs no more for the messages that name
 * their markets.
 */
export async function loadEventState(
  tx: Executor,
  event: SportsbookEventRow,
  scope: MarketScope = ALL_MARKETS,
): Promise<EventState> {
  if (scope.all) {
    const [markets, outcomes] = await Promise.all([
      tx.select().from(sportsbookMarkets).where(eq(sportsbookMarkets.eventId, event.id)),
      tx.select().from(sportsbookOutcomes).where(eq(sportsbookOutcomes.eventId, event.id)),
    ]);
    return eventStateOf(event, markets, outcomes);
  }
  const named = [
    ...(scope.keys.length > 0 ? [inArray(sportsbookMarkets.key, [...scope.keys])] : []),
    ...(scope.types.length > 0 ? [inArray(sportsbookMarkets.type, [...scope.types])] : []),
  ];
  if (named.length === 0) return eventStateOf(event, [], []);
  const markets = await tx
    .select()
    .from(sportsbookMarkets)
    .where(and(eq(sportsbookMarkets.eventId, event.id), or(...named)));
  const outcomes =
    markets.length === 0
      ? []
      : await tx
          .select()
          .from(sportsbookOutcomes)
          .where(
            and(
              eq(sportsbookOutcomes.eventId, event.id),
              inArray(
                sportsbookOutcomes.marketKey,
                markets.map((market) => market.key),
              ),
            ),
          );
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

const excluded = (column: string) => sql.raw(`excluded.${column}`);

function marketRow(eventId: string, key: string, market: MarketState) {
  const { type, specifiers } = parseMarketKey(key);
  return {
    eventId,
    key,
    type,
    specifiers,
    status: market.status,
    settlementCertainty: market.settlement?.certainty ?? null,
    cancelWindow: market.cancel ?? null,
    statusBefore: market.statusBefore ?? null,
    // Any message that changes the market overrides what an outage suspended.
    statusBeforeOutage: null,
    updatedAt: new Date(),
  };
}

type OutcomeInsert = typeof sportsbookOutcomes.$inferInsert;

const outcomeText = (row: OutcomeInsert) =>
  JSON.stringify([row.odds?.toString() ?? null, row.active, row.won, row.voidFactor, row.deadHeatFactor]);

/** The outcome rows that differ between the market before and after, and the outcomes gone from it. */
function outcomeChanges(eventId: string, key: string, before: MarketState | undefined, after: MarketState) {
  const old = new Map(before ? outcomeRows(eventId, key, before).map((row) => [row.outcomeId, outcomeText(row)]) : []);
  const rows = outcomeRows(eventId, key, after);
  const changed = rows.filter((row) => old.get(row.outcomeId) !== outcomeText(row));
  const kept = new Set(rows.map((row) => row.outcomeId));
  return { changed, removed: [...old.keys()].filter((id) => !kept.has(id)) };
}

/** The market row's own fields (the prices are on the outcome rows); undefined for a market not stored yet. */
const marketText = (market: MarketState | undefined) =>
  market && JSON.stringify([market.status, market.settlement?.certainty, market.cancel, market.statusBefore]);

async function upsertMarkets(tx: Executor, eventId: string, after: EventState, keys: readonly string[]) {
  await tx
    .insert(sportsbookMarkets)
    .values(keys.map((key) => marketRow(eventId, key, after.markets[key]!)))
    .onConflictDoUpdate({
      target: [sportsbookMarkets.eventId, sportsbookMarkets.key],
      set: {
        status: excluded('status'),
        settlementCertainty: excluded('settlement_certainty'),
        cancelWindow: excluded('cancel_window'),
        statusBefore: excluded('status_before'),
        statusBeforeOutage: excluded('status_before_outage'),
        updatedAt: excluded('updated_at'),
      },
    });
}

/** The changed markets and selections, each kind in one statement whatever their number. */
async function writeMarkets(tx: Executor, eventId: string, before: EventState, after: EventState, keys: readonly string[]) {
  if (keys.length === 0) return 0;
  const rowChanged = keys.filter((key) => marketText(before.markets[key]) !== marketText(after.markets[key]));
  const pricesOnly = keys.filter((key) => !rowChanged.includes(key));
  // A price move leaves the market's row alone (a placement holds it shared while it writes its
  // ticket: the feed must not queue behind it), except to end an outage's suspension.
  if (pricesOnly.length > 0)
    await tx
      .update(sportsbookMarkets)
      .set({ statusBeforeOutage: null, updatedAt: new Date() })
      .where(
        and(
          eq(sportsbookMarkets.eventId, eventId),
          inArray(sportsbookMarkets.key, pricesOnly),
          isNotNull(sportsbookMarkets.statusBeforeOutage),
        ),
      );
  if (rowChanged.length > 0) await upsertMarkets(tx, eventId, after, rowChanged);
  const changes = keys.map((key) => ({ key, ...outcomeChanges(eventId, key, before.markets[key], after.markets[key]!) }));
  for (const { key, removed } of changes)
    if (removed.length > 0)
      await tx
        .delete(sportsbookOutcomes)
        .where(
          and(
            eq(sportsbookOutcomes.eventId, eventId),
            eq(sportsbookOutcomes.marketKey, key),
            inArray(sportsbookOutcomes.outcomeId, removed),
          ),
        );
  const changed = changes.flatMap((change) => change.changed);
  if (changed.length > 0)
    await tx
      .insert(sportsbookOutcomes)
      .values(changed)
      .onConflictDoUpdate({
        target: [sportsbookOutcomes.eventId, sportsbookOutcomes.marketKey, sportsbookOutcomes.outcomeId],
        set: {
          odds: excluded('odds'),
          active: excluded('active'),
          won: excluded('won'),
          voidFactor: excluded('void_factor'),
          deadHeatFactor: excluded('dead_heat_factor'),
        },
      });
  return changed.length;
}

function eventFields(after: EventState, producer: string) {
  return {
    status: after.status,
    startTime: after.startTime === undefined ? undefined : new Date(after.startTime),
    homeScore: after.score?.home ?? null,
    awayScore: after.score?.away ?? null,
    clockMinute: after.clockMinute ?? null,
    producer,
  };
}

function eventChanged(event: SportsbookEventRow, fields: ReturnType<typeof eventFields>): boolean {
  return (
    event.status !== fields.status ||
    (fields.startTime !== undefined && event.startTime?.getTime() !== fields.startTime.getTime()) ||
    event.homeScore !== fields.homeScore ||
    event.awayScore !== fields.awayScore ||
    event.clockMinute !== fields.clockMinute ||
    event.producer !== fields.producer
  );
}

/**
 * Writes what changed: the event's own fields, the markets and the selections (feed throughput:
 * a price move of one selection writes that selection, not its market's or event's rows again).
 * Returns the changed market keys and the number of selection rows written.
 */
export async function writeEventState(
  tx: Executor,
  event: SportsbookEventRow,
  before: EventState,
  after: EventState,
  producer: string,
): Promise<{ markets: string[]; outcomes: number }> {
  const fields = eventFields(after, producer);
  if (eventChanged(event, fields))
    await tx
      .update(sportsbookEvents)
      .set({ ...fields, updatedAt: new Date() })
      .where(eq(sportsbookEvents.id, event.id));
  const markets = changedMarkets(before, after);
  return { markets, outcomes: await writeMarkets(tx, event.id, before, after, markets) };
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
