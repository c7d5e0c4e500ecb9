/**
 * sportsbook.* (issue 14): the offer as the odds feed last described it, for the betting pages.
 * Names of markets and outcomes come from the catalogue in the request's locale; odds travel as
 * decimal strings. Anyone may read the offer (no player needed).
 */
import { z } from 'zod';
import { SPORTS, type MarketView, type Sport, type SportEventView } from '../sportsbook/types';
import { method } from './method';

export const SPORTSBOOK_EVENTS_PAGE_MAX = 100;

export interface SportSummary {
  sport: Sport;
  /** Events in play now. */
  live: number;
  /** Events not started yet. */
  upcoming: number;
}

export interface SportEventListItem extends SportEventView {
  /** The sport's main market (1X2, match winner), null while the feed offers none. */
  main_market: MarketView | null;
}

export interface SportEventPage {
  items: SportEventListItem[];
  total: number;
}

/** Markets of one type together: every total line under "Total", say. */
export interface MarketGroupView {
  type: string;
  markets: MarketView[];
}

export interface SportEventDetail {
  event: SportEventView;
  groups: MarketGroupView[];
}

const eventsParams = z.object({
  sport: z.enum(SPORTS),
  status: z.enum(['live', 'upcoming']).default('upcoming'),
  /** A calendar day (UTC) of the start time: 2026-05-30. */
  day: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/, 'a day as YYYY-MM-DD')
    .refine((day) => !Number.isNaN(Date.parse(`${day}T00:00:00Z`)), 'a real calendar day')
    .optional(),
  tournament: z.string().min(1).max(64).optional(),
  /** Words of a team or league name ("milan"): events whose competitors or league contain them. */
  search: z.string().trim().min(2).max(64).optional(),
  offset: z.coerce.number().int().min(0).max(100_000).default(0),
  count: z.coerce.number().int().min(1).max(SPORTSBOOK_EVENTS_PAGE_MAX).default(20),
});

/** A league of a sport with what it has on offer (the betting page's league filter and top leagues). */
export interface SportTournamentView {
  id: string;
  name: string;
  category: { id: string; name: string };
  live: number;
  upcoming: number;
}

export type SportsbookEventsQuery = z.output<typeof eventsParams>;

export const sportsbookContract = {
  'sportsbook.getSports': method<SportSummary[]>()({ params: z.object({}) }),
  'sportsbook.getEvents': method<SportEventPage>()({ params: eventsParams }),
  /** The sport's leagues with events on offer, the busiest first. */
  'sportsbook.getTournaments': method<SportTournamentView[]>()({ params: z.object({ sport: z.enum(SPORTS) }) }),
  'sportsbook.getEvent': method<SportEventDetail>()({ params: z.object({ event_id: z.string().min(1).max(64) }) }),
};
