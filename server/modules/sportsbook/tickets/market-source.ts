/**
 * The ticket book's view of the feed's store (issue 14): a selection's price now and whether its
 * market takes bets, and the names a ticket's legs show. Read in the caller's executor, so a
 * placement checks prices inside its own transaction.
 */
import { and, eq, inArray, or } from 'drizzle-orm';
import type { Locale } from '#common/locale';
import { marketName, outcomeName, parseMarketKey } from '#common/sportsbook/catalogue';
import type { EventStatus } from '#common/sportsbook/types';
import type { Executor } from '../../../db/retry';
import { sportsbookEvents, sportsbookMarkets, sportsbookOutcomes } from '../tables';
import type { LegNames, LegRef, MarketSource, SelectionNow } from './service';

/** Events that take bets: before the start and in play (not suspended, ended or anything after). */
const BETTABLE: ReadonlySet<EventStatus> = new Set(['not_started', 'live']);

const refKey = (ref: LegRef) => `${ref.eventId}/${ref.marketKey}/${ref.outcomeId}`;

async function rowsOf(executor: Executor, refs: readonly LegRef[], lock: boolean) {
  if (refs.length === 0) return [];
  const query = executor
    .select({
      eventId: sportsbookOutcomes.eventId,
      marketKey: sportsbookOutcomes.marketKey,
      outcomeId: sportsbookOutcomes.outcomeId,
      odds: sportsbookOutcomes.odds,
      active: sportsbookOutcomes.active,
      marketStatus: sportsbookMarkets.status,
      eventStatus: sportsbookEvents.status,
      tournamentId: sportsbookEvents.tournamentId,
    })
    .from(sportsbookOutcomes)
    .innerJoin(
      sportsbookMarkets,
      and(eq(sportsbookMarkets.eventId, sportsbookOutcomes.eventId), eq(sportsbookMarkets.key, sportsbookOutcomes.marketKey)),
    )
    .innerJoin(sportsbookEvents, eq(sportsbookEvents.id, sportsbookOutcomes.eventId))
    .where(
      or(
        ...refs.map((ref) =>
          and(
            eq(sportsbookOutcomes.eventId, ref.eventId),
            eq(sportsbookOutcomes.marketKey, ref.marketKey),
            eq(sportsbookOutcomes.outcomeId, ref.outcomeId),
          ),
        ),
      ),
    );
  // A placement holds its markets while it writes the ticket: a settlement of one of them waits for
  // it (and then finds its legs), or it waits for the settlement (and then finds the market closed).
  return lock ? query.for('share', { of: sportsbookMarkets }) : query;
}

export const storeMarketSource: MarketSource = {
  async current(executor, selections, options): Promise<(SelectionNow | undefined)[]> {
    const found = new Map((await rowsOf(executor, selections, options?.lock ?? false)).map((row) => [refKey(row), row]));
    return selections.map((selection) => {
      const row = found.get(refKey(selection));
      if (!row || row.odds === null) return undefined;
      return {
        oddsUnits: row.odds,
        isOpen: row.active && row.marketStatus === 'active' && BETTABLE.has(row.eventStatus),
        isLive: row.eventStatus === 'live',
        tournamentId: row.tournamentId,
      };
    });
  },
};

/** "Home – Away", the market and the outcome in the player's language, from the catalogue and the event's competitors. */
export async function describeLegs(executor: Executor, legs: readonly LegRef[], locale: Locale): Promise<LegNames[]> {
  const ids = [...new Set(legs.map((leg) => leg.eventId))];
  const events =
    ids.length === 0
      ? []
      : await executor
          .select({ id: sportsbookEvents.id, home: sportsbookEvents.homeName, away: sportsbookEvents.awayName })
          .from(sportsbookEvents)
          .where(inArray(sportsbookEvents.id, ids));
  const byId = new Map(events.map((event) => [event.id, event]));
  return legs.map((leg) => {
    const event = byId.get(leg.eventId);
    const competitors = event?.home && event.away ? { home: event.home, away: event.away } : undefined;
    const { type, specifiers } = parseMarketKey(leg.marketKey);
    try {
      return {
        event: competitors ? `${competitors.home} – ${competitors.away}` : leg.eventId,
        market: marketName(type, specifiers, locale, competitors),
        outcome: outcomeName(type, leg.outcomeId, specifiers, locale, competitors),
      };
    } catch {
      // A market the catalogue no longer knows still shows what was bet on.
      return {
        event: competitors ? `${competitors.home} – ${competitors.away}` : leg.eventId,
        market: leg.marketKey,
        outcome: leg.outcomeId,
      };
    }
  });
}
