/**
 * Ticket placement raced by two processes on one PostgreSQL (issue 14 "Placing a ticket is one
 * idempotent call: the stake leaves the main balance … as a pending transfer"; "maximum payout per
 * bet and exposure per market"; "a slip replayed with its key … `npm run ledger:check` passes
 * afterwards"; developer guide: money state changes get a race test, two processes on PostgreSQL).
 * Each side is its own Node process with its own pool (test/race-processes.ts) placing through
 * the product's ticket book against the feed store's prices; both go at the same moment. Then
 * every ticket must be whole (leg, wager-record entry, stake transfer), the balance, the limits
 * and the request keys held, and the ledger must be sound.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, inArray, like } from 'drizzle-orm';
import { amountToMinor } from '#common/money';
import { oddsRatio } from '#common/sportsbook/odds';
import { floorTimes } from '#common/sportsbook/ratio';
import { createTestApp, type TestApp } from '../../../../test/api-harness';
import { fundPlayer, hostPlayer } from '../../../../test/host-player';
import { raceInProcesses, type RaceCall, type RaceOutcome } from '../../../../test/race-processes';
import { ledgerTransfers } from '../../../db/schema';
import { checkLedger } from '../../wallet';
import { parseFeedMessage } from '../feed/messages';
import { simulatedMatchFeed } from '../simulator/match-feed';
import { matchRng } from '../simulator/script';
import { setOperatorLimit } from './limits';
import { sportMarketExposure, sportTicketChanges, sportTicketLegs, sportTickets } from './tables';

const EVENT = 'race:match';
const KICK_OFF = Date.UTC(2026, 11, 31, 20);

describe.skipIf(!process.env.TEST_DATABASE_URL)('issue 14 ticket placement raced by two processes on PostgreSQL', () => {
  let t: TestApp;
  let url = '';

  beforeAll(async () => {
    t = await createTestApp('postgres');
    url = t.database.url ?? '';
    await t.services.sportsbook.feed.upsertFixture({
      event_id: EVENT,
      sport: 'football',
      category: { id: 'race:c', name: 'Raceland' },
      tournament: { id: 'race:t', name: 'Race League' },
      competitors: [
        { id: 'race:h', name: 'Home' },
        { id: 'race:a', name: 'Away' },
      ],
      start_time: KICK_OFF,
    });
    const announcement = simulatedMatchFeed(matchRng('race-test', 1), {
      producer: 'sim',
      eventId: EVENT,
      goals: { home: 1.4, away: 1.1 },
      marginBp: 500,
      kickOff: KICK_OFF,
      correctionRate: 0,
      rollbackRate: 0,
    }).slice(0, 2);
    for (const timed of announcement) await t.services.sportsbook.feed.apply(parseFeedMessage(timed.message));
  }, 60_000);
  afterAll(() => t.close());

  /** An open selection of the pre-match prices, as the store holds them. */
  async function selection(marketKey: string) {
    const state = await t.services.sportsbook.feed.eventState(EVENT);
    const market = state?.markets[marketKey];
    const [outcomeId, odds] = Object.entries(market?.odds ?? {})[0] ?? [];
    if (market?.status !== 'active' || !outcomeId || !odds) throw new Error(`${marketKey} is not open`);
    return { eventId: EVENT, marketKey, outcomeId, oddsUnits: odds.toString() };
  }

  async function bettor(amount: string) {
    const who = await hostPlayer(t, '127.0.0.1');
    await fundPlayer(t, who, amount);
    return who;
  }

  function slip(
    who: { siteId: string; uid: number; currency: string },
    pick: Awaited<ReturnType<typeof selection>>,
    stake: string,
    requestId: string,
  ): RaceCall {
    return {
      op: 'place',
      siteId: who.siteId,
      userId: who.uid,
      currency: who.currency,
      selections: [pick],
      betType: { kind: 'single' },
      stakeMinor: amountToMinor(stake).toString(),
      requestId,
    };
  }

  /** Every ticket of the player is whole: its leg, its wager-record entry and its stake transfer, and no stake without a ticket. */
  async function expectWholeTickets(uid: number) {
    const tickets = await t.db.select().from(sportTickets).where(eq(sportTickets.userId, uid));
    const ids = tickets.map((ticket) => ticket.id);
    if (ids.length > 0) {
      const legs = await t.db.select().from(sportTicketLegs).where(inArray(sportTicketLegs.ticketId, ids));
      const changes = await t.db.select().from(sportTicketChanges).where(inArray(sportTicketChanges.ticketId, ids));
      expect(legs.map((leg) => leg.ticketId).sort()).toEqual([...ids].sort());
      expect(changes.map((change) => change.ticketId).sort()).toEqual([...ids].sort());
    }
    const stakes = await t.db
      .select({ key: ledgerTransfers.idempotencyKey, amountMinor: ledgerTransfers.amountMinor })
      .from(ledgerTransfers)
      .where(and(eq(ledgerTransfers.userId, uid), like(ledgerTransfers.idempotencyKey, 'sport:%:stake')));
    expect(stakes.map((stake) => stake.key).sort()).toEqual(ids.map((id) => `sport:${id}:stake`).sort());
    const report = await checkLedger(t.db);
    expect(report, JSON.stringify(report)).toMatchObject({ isSound: true });
    return tickets;
  }

  const refusals = (outcomes: RaceOutcome[]) =>
    outcomes.flatMap((outcome) => (outcome.ok ? [] : [`${outcome.type}:${String(outcome.data?.errorType ?? '')}`]));

  it('the balance and the request keys hold: parallel slips of one player from two processes stake only what the balance covers, a shared key is one ticket', async () => {
    const who = await bettor('45.00');
    const pick = await selection('total|total=2.5');
    const shared = [0, 1].map((n) => slip(who, pick, '10.00', `race-shared-${n}`));
    const own = (side: string) => [0, 1, 2, 3].map((n) => slip(who, pick, '10.00', `race-${side}-${n}`));
    const [a, b] = await raceInProcesses([
      { url, calls: [...shared, ...own('a')] },
      { url, calls: [...shared, ...own('b')] },
    ]);
    const outcomes = [...a!, ...b!];
    const tickets = await expectWholeTickets(who.uid);
    // 45.00 covers four stakes of 10.00, whatever the order: the rest are refused for the balance.
    expect(tickets).toHaveLength(4);
    expect((await t.services.wallet.balances(who.siteId, who.uid, who.currency)).main).toBe(amountToMinor('5.00'));
    expect(new Set(tickets.map((ticket) => ticket.requestKey)).size).toBe(4);
    const placed = outcomes.flatMap((outcome) => (outcome.ok ? [outcome.id] : []));
    expect(new Set(placed)).toEqual(new Set(tickets.map((ticket) => String(ticket.id))));
    // A shared key answered on both sides is the same ticket.
    for (const n of [0, 1]) {
      const [first, second] = [a![n]!, b![n]!];
      if (first.ok && second.ok) expect(first.id).toBe(second.id);
    }
    // Every other slip is refused for the balance (5.00 is left: "the stake is above your balance").
    const refused = outcomes.filter((outcome) => !outcome.ok);
    expect(refused).toHaveLength(outcomes.length - placed.length);
    for (const outcome of refused) expect(outcome).toMatchObject({ type: 'InvalidParameterException', data: { field: 'stake' } });
  }, 120_000);

  it('the limits hold: parallel slips from two processes never take a market past its exposure limit, and over-stake and over-payout slips are refused', async () => {
    const who = await bettor('1000.00');
    const pick = await selection('1x2');
    const returnOfTen = floorTimes(amountToMinor('10.00'), oddsRatio(BigInt(pick.oddsUnits)));
    await setOperatorLimit(t.db, {
      siteId: who.siteId,
      scope: 'market',
      target: '1x2',
      currency: who.currency,
      minStakeMinor: null,
      maxStakeMinor: amountToMinor('50.00'),
      maxPayoutMinor: returnOfTen + 1n,
      // Room for three bets of 10.00 on the market, not four.
      maxExposureMinor: returnOfTen * 3n + returnOfTen / 2n,
      operator: 'race-test',
    });
    const calls = (side: string) => [
      ...[0, 1, 2, 3].map((n) => slip(who, pick, '10.00', `limit-${side}-${n}`)),
      slip(who, pick, '60.00', `limit-${side}-stake`),
      slip(who, pick, '12.00', `limit-${side}-payout`),
    ];
    const [a, b] = await raceInProcesses([
      { url, calls: calls('a') },
      { url, calls: calls('b') },
    ]);
    const tickets = await expectWholeTickets(who.uid);
    expect(tickets).toHaveLength(3);
    const [exposure] = await t.db
      .select()
      .from(sportMarketExposure)
      .where(and(eq(sportMarketExposure.eventId, EVENT), eq(sportMarketExposure.marketKey, '1x2')));
    expect(exposure?.exposureMinor).toBe(returnOfTen * 3n);
    expect((await t.services.wallet.balances(who.siteId, who.uid, who.currency)).main).toBe(amountToMinor('970.00'));
    expect(refusals([...a!, ...b!]).sort()).toEqual(
      [
        ...Array.from({ length: 5 }, () => 'InvalidParameterException:EXPOSURE_LIMIT'),
        ...Array.from({ length: 2 }, () => 'InvalidParameterException:STAKE_LIMIT'),
        ...Array.from({ length: 2 }, () => 'InvalidParameterException:PAYOUT_LIMIT'),
      ].sort(),
    );
  }, 120_000);
});
