/**
 * The offer's reads (issue 14, sportsbook.* methods): sports with their live and upcoming counts,
 * a page of events with each one's main market, and one event with all its markets grouped by
 * type. Only events whose fixture arrived are listed; names come from the catalogue in the
 * request's locale, with the event's competitors in them.
 */
import { and, asc, count, eq, gte, ilike, inArray, isNotNull, lt, or, type SQL } from 'drizzle-orm';
import type {
  MarketGroupView,
  SportEventDetail,
  SportEventPage,
  SportTournamentView,
  SportSummary,
  SportsbookEventsQuery,
} from '#common/contract/sportsbook';
import { invalidParameter } from '#common/parameter-errors';
import type { Locale } from '#common/locale';
import { isMarketType, marketKey, marketName, marketTypesOf, outcomeIdsOf, outcomeName } from '#common/sportsbook/catalogue';
import { oddsToDecimalString } from '#common/sportsbook/odds';
import { SPORTS, type EventStatus, type MarketView, type Sport, type SportEventView } from '#common/sportsbook/types';
import type { Database } from '../../db/client';
import { sportsbookCategories, sportsbookEvents, sportsbookMarkets, sportsbookOutcomes, sportsbookTournaments } from './tables';

/** In play: the clock runs or stands for a moment; `ended` waits for results and is neither live nor upcoming. */
export const LIVE_STATUSES: readonly EventStatus[] = ['live', 'suspended', 'interrupted'];
export const UPCOMING_STATUSES: readonly EventStatus[] = ['not_started'];

type EventRow = typeof sportsbookEvents.$inferSelect;
type MarketRow = typeof sportsbookMarkets.$inferSelect;
type OutcomeRow = typeof sportsbookOutcomes.$inferSelect;
type ListedEvent = { event: EventRow; category: { id: string; name: string }; tournament: { id: string; name: string } };

const DAY_MS = 86_400_000;
/** Lines in number order ("2.5" before "10.5"); one kept collator, not one per comparison. */
const MARKET_KEY_ORDER = new Intl.Collator('en', { numeric: true });

/** A LIKE pattern matching the text anywhere, its own % _ and \\ taken literally. */
const containing = (text: string) => `%${text.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;

/** Events whose either competitor or league name contains the search text (any case). */
function searchFilter(search: string | undefined): SQL | undefined {
  if (!search) return undefined;
  const pattern = containing(search);
  return or(
    ilike(sportsbookEvents.homeName, pattern),
    ilike(sportsbookEvents.awayName, pattern),
    ilike(sportsbookTournaments.name, pattern),
  );
}

function eventView({ event, category, tournament }: ListedEvent): SportEventView {
  const score = event.homeScore !== null && event.awayScore !== null ? { home: event.homeScore, away: event.awayScore } : null;
  return {
    id: event.id,
    sport: event.sport!,
    category,
    tournament,
    competitors: [
      { id: event.homeId!, name: event.homeName! },
      { id: event.awayId!, name: event.awayName! },
    ],
    start_time: event.startTime!.toISOString(),
    status: event.status,
    // Periods are not in the feed's event status yet: the running score only.
    score: score && { ...score, periods: [] },
    clock_minute: event.clockMinute,
  };
}

function marketView(market: MarketRow, outcomes: readonly OutcomeRow[], event: EventRow, locale: Locale): MarketView | undefined {
  if (!isMarketType(market.type)) return undefined;
  const competitors = { home: event.homeName ?? '', away: event.awayName ?? '' };
  const byId = new Map(outcomes.map((outcome) => [outcome.outcomeId, outcome]));
  return {
    key: market.key,
    type: market.type,
    specifiers: market.specifiers,
    name: marketName(market.type, market.specifiers, locale, competitors),
    status: market.status,
    // In the catalogue's order, those the feed priced.
    outcomes: outcomeIdsOf(market.type).flatMap((id) => {
      const outcome = byId.get(id);
      if (!outcome || outcome.odds === null) return [];
      return [
        {
          id,
          name: outcomeName(market.type, id, market.specifiers, locale, competitors),
          odds: oddsToDecimalString(outcome.odds),
          active: outcome.active && market.status === 'active',
        },
      ];
    }),
  };
}

function mainMarketKey(sport: Sport): string | undefined {
  const [main] = marketTypesOf(sport);
  return main && marketKey(main);
}

export function createOfferReads(db: Database) {
  function listed(where: SQL | undefined) {
    return db
      .select({
        event: sportsbookEvents,
        category: { id: sportsbookCategories.id, name: sportsbookCategories.name },
        tournament: { id: sportsbookTournaments.id, name: sportsbookTournaments.name },
      })
      .from(sportsbookEvents)
      .innerJoin(sportsbookTournaments, eq(sportsbookTournaments.id, sportsbookEvents.tournamentId))
      .innerJoin(sportsbookCategories, eq(sportsbookCategories.id, sportsbookTournaments.categoryId))
      .where(and(isNotNull(sportsbookEvents.tournamentId), where));
  }

  async function marketsOf(eventIds: readonly string[], keys?: readonly string[]) {
    if (eventIds.length === 0) return { markets: [], outcomes: [] };
    const marketFilter = and(
      inArray(sportsbookMarkets.eventId, [...eventIds]),
      keys ? inArray(sportsbookMarkets.key, [...keys]) : undefined,
    );
    const outcomeFilter = and(
      inArray(sportsbookOutcomes.eventId, [...eventIds]),
      keys ? inArray(sportsbookOutcomes.marketKey, [...keys]) : undefined,
    );
    const [markets, outcomes] = await Promise.all([
      db.select().from(sportsbookMarkets).where(marketFilter),
      db.select().from(sportsbookOutcomes).where(outcomeFilter),
    ]);
    return { markets, outcomes };
  }

  const outcomesOf = (outcomes: readonly OutcomeRow[], market: MarketRow) =>
    outcomes.filter((outcome) => outcome.eventId === market.eventId && outcome.marketKey === market.key);

  return {
    async getSports(): Promise<SportSummary[]> {
      const rows = await db
        .select({ sport: sportsbookEvents.sport, status: sportsbookEvents.status, n: count() })
        .from(sportsbookEvents)
        .where(isNotNull(sportsbookEvents.tournamentId))
        .groupBy(sportsbookEvents.sport, sportsbookEvents.status);
      const sum = (sport: Sport, statuses: readonly EventStatus[]) =>
        rows
          .filter((row) => row.sport === sport && statuses.includes(row.status))
          .reduce((total, row) => total + Number(row.n), 0);
      return SPORTS.map((sport) => ({ sport, live: sum(sport, LIVE_STATUSES), upcoming: sum(sport, UPCOMING_STATUSES) }));
    },

    /** Every listed event in play, of any sport (the price stream's first state). */
    async liveEventIds(): Promise<string[]> {
      const rows = await listed(inArray(sportsbookEvents.status, [...LIVE_STATUSES]));
      return rows.map((row) => row.event.id);
    },

    async getEvents(query: SportsbookEventsQuery, locale: Locale): Promise<SportEventPage> {
      const dayStart = query.day ? Date.parse(`${query.day}T00:00:00Z`) : undefined;
      const where = and(
        eq(sportsbookEvents.sport, query.sport),
        inArray(sportsbookEvents.status, [...(query.status === 'live' ? LIVE_STATUSES : UPCOMING_STATUSES)]),
        query.tournament ? eq(sportsbookEvents.tournamentId, query.tournament) : undefined,
        dayStart === undefined ? undefined : gte(sportsbookEvents.startTime, new Date(dayStart)),
        dayStart === undefined ? undefined : lt(sportsbookEvents.startTime, new Date(dayStart + DAY_MS)),
        searchFilter(query.search),
      );
      const [events, [total]] = await Promise.all([
        listed(where).orderBy(asc(sportsbookEvents.startTime), asc(sportsbookEvents.id)).offset(query.offset).limit(query.count),
        db
          .select({ n: count() })
          .from(sportsbookEvents)
          .innerJoin(sportsbookTournaments, eq(sportsbookTournaments.id, sportsbookEvents.tournamentId))
          .where(and(isNotNull(sportsbookEvents.tournamentId), where)),
      ]);
      const main = mainMarketKey(query.sport);
      const { markets, outcomes } = await marketsOf(
        events.map((row) => row.event.id),
        main ? [main] : [],
      );
      return {
        items: events.map((row) => {
          const market = markets.find((candidate) => candidate.eventId === row.event.id);
          return {
            ...eventView(row),
            main_market: (market && marketView(market, outcomesOf(outcomes, market), row.event, locale)) ?? null,
          };
        }),
        total: Number(total?.n ?? 0),
      };
    },

    async getTournaments(sport: Sport): Promise<SportTournamentView[]> {
      const rows = await db
        .select({
          id: sportsbookTournaments.id,
          name: sportsbookTournaments.name,
          category: { id: sportsbookCategories.id, name: sportsbookCategories.name },
          status: sportsbookEvents.status,
          n: count(),
        })
        .from(sportsbookEvents)
        .innerJoin(sportsbookTournaments, eq(sportsbookTournaments.id, sportsbookEvents.tournamentId))
        .innerJoin(sportsbookCategories, eq(sportsbookCategories.id, sportsbookTournaments.categoryId))
        .where(and(eq(sportsbookEvents.sport, sport), inArray(sportsbookEvents.status, [...LIVE_STATUSES, ...UPCOMING_STATUSES])))
        .groupBy(
          sportsbookTournaments.id,
          sportsbookTournaments.name,
          sportsbookCategories.id,
          sportsbookCategories.name,
          sportsbookEvents.status,
        );
      const byId = new Map<string, SportTournamentView>();
      for (const row of rows) {
        const view = byId.get(row.id) ?? { id: row.id, name: row.name, category: row.category, live: 0, upcoming: 0 };
        if (LIVE_STATUSES.includes(row.status)) view.live += Number(row.n);
        else view.upcoming += Number(row.n);
        byId.set(row.id, view);
      }
      // The busiest first (what "top leagues" shows), then by name for a stable order.
      return [...byId.values()].sort((a, b) => b.live + b.upcoming - (a.live + a.upcoming) || a.name.localeCompare(b.name));
    },

    async getEvent(eventId: string, locale: Locale): Promise<SportEventDetail> {
      const [row] = await listed(eq(sportsbookEvents.id, eventId));
      if (!row) throw invalidParameter('event_id', 'No such event');
      const { markets, outcomes } = await marketsOf([eventId]);
      const groups = new Map<string, MarketGroupView>();
      // Catalogue order for the types, line order within a type.
      const order = marketTypesOf(row.event.sport!);
      const sorted = [...markets].sort(
        (a, b) => order.indexOf(a.type as never) - order.indexOf(b.type as never) || MARKET_KEY_ORDER.compare(a.key, b.key),
      );
      for (const market of sorted) {
        const view = marketView(market, outcomesOf(outcomes, market), row.event, locale);
        if (!view) continue;
        const group = groups.get(market.type) ?? { type: market.type, markets: [] };
        group.markets.push(view);
        groups.set(market.type, group);
      }
      return { event: eventView(row), groups: [...groups.values()] };
    },
  };
}

export type OfferReads = ReturnType<typeof createOfferReads>;
