/**
 * The ticket book the tickets tests drive: the real book over the test app's database and services,
 * with the market store replaced by a price board the test sets (the feed is not what they test)
 * and the legs named by their ids. Only tests import this file.
 */
import { amountToMinor } from '#common/money';
import type { TestApp } from '../../../../test/api-harness';
import type { SlipSelection } from '../rules/slip';
import { createTicketBook, type SelectionNow, type TicketBookDeps } from './service';

type SelectionKey = Pick<SlipSelection, 'eventId' | 'marketKey' | 'outcomeId'>;

/** The prices a test offers, by event, market and outcome. */
export function priceBoard() {
  const prices = new Map<string, SelectionNow>();
  const keyOf = (selection: SelectionKey) => `${selection.eventId}/${selection.marketKey}/${selection.outcomeId}`;
  return {
    set: (selection: SelectionKey, now: SelectionNow) => prices.set(keyOf(selection), now),
    get: (selection: SelectionKey) => prices.get(keyOf(selection)),
  };
}

export function testTicketBook(
  t: TestApp,
  board: ReturnType<typeof priceBoard>,
  overrides: Partial<TicketBookDeps> = {},
): ReturnType<typeof createTicketBook> {
  return createTicketBook({
    db: t.db,
    intake: t.services.roundIntake,
    markets: { current: async (_executor, selections) => selections.map((item) => board.get(item)) },
    bettingBonuses: t.services.bonuses.betting,
    siteLimits: async () => [
      { scope: 'site', maxStakeMinor: amountToMinor('500.00'), maxPayoutMinor: amountToMinor('10000.00') },
    ],
    // The market store names events from their competitors; here the ids stand for the names.
    describeLegs: async (_executor, legs) =>
      legs.map((leg) => ({ event: leg.eventId, market: leg.marketKey, outcome: leg.outcomeId })),
    inPlayDelayMs: 0,
    debts: t.services.debts,
    debtPolicy: async () => 'collect',
    ...overrides,
  });
}
