/**
 * Sports bets end to end on a real database (issue 14 "Placing a ticket is one idempotent call …
 * the stake leaves the main balance"; "on a settlement message every affected bet is settled in
 * its own ledger transfer"; "Cash-out … from current odds"; "My bets"): the store is fed a
 * simulated match's real feed messages, the player bets through the product API on what the
 * store offers, and the rest of the match — its settlement message — settles the ticket in the
 * transaction that applies it. Names come back in the player's language.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SportEventDetail, TicketView } from '#common/contract';
import { amountToMinor, minorToAmount } from '#common/money';
import { createTestApp, type TestApp } from '../../../../test/api-harness';
import { testDatabaseKinds } from '../../../../test/databases';
import { fundPlayer, hostPlayer } from '../../../../test/host-player';
import { checkLedger } from '../../wallet';
import { parseFeedMessage } from '../feed/messages';
import type { Fixture } from '../feed/fixtures';
import { simulatedMatchFeed } from '../simulator/match-feed';
import { matchRng } from '../simulator/script';

const KICK_OFF = Date.UTC(2026, 5, 2, 18);

function fixture(id: string): Fixture {
  return {
    event_id: id,
    sport: 'football',
    category: { id: 'tickets:c1', name: 'Testland' },
    tournament: { id: 'tickets:t1', name: 'Ticket League' },
    competitors: [
      { id: `${id}:home`, name: 'Alpha FC' },
      { id: `${id}:away`, name: 'Beta United' },
    ],
    start_time: KICK_OFF,
  };
}

function matchFeed(eventId: string) {
  return simulatedMatchFeed(matchRng('tickets-test', eventId.length), {
    producer: 'sim',
    eventId,
    goals: { home: 1.4, away: 1.1 },
    marginBp: 500,
    kickOff: KICK_OFF,
    correctionRate: 0,
    rollbackRate: 0,
  }).map((timed) => parseFeedMessage(timed.message));
}

describe.each(testDatabaseKinds())('sports bets through the API on %s', (kind) => {
  let t: TestApp;
  const eventId = `tickets:${kind}`;
  let messages: ReturnType<typeof matchFeed> = [];

  beforeAll(async () => {
    t = await createTestApp(kind);
    await t.services.sportsbook.feed.upsertFixture(fixture(eventId));
    messages = matchFeed(eventId);
    // The announcement and pre-match prices: the match has not started.
    for (const message of messages.slice(0, 2)) await t.services.sportsbook.feed.apply(message);
  });
  afterAll(() => t.close());

  it('a single on the pre-match 1X2 is placed through the API, named in Italian, offered a cash-out, and settled by the match’s settlement message', async () => {
    const who = await hostPlayer(t, '127.0.0.1');
    await fundPlayer(t, who, '50.00');
    const event = who.browser.data<SportEventDetail>(await who.browser.call('sportsbook.getEvent', { event_id: eventId }, 'GET'));
    const market = event.groups
      .flatMap((group) => group.markets)
      .find((item) => item.status === 'active' && item.outcomes.length === 3 && item.outcomes.every((o) => o.active));
    const outcome = market?.outcomes[0];
    if (!market || !outcome) throw new Error('the simulated match offers no open three-way market');

    const slip = {
      selections: JSON.stringify([{ event_id: eventId, market_key: market.key, outcome_id: outcome.id, odds: outcome.odds }]),
      bet_type: 'single',
      stake: '10.00',
      request_id: `feed-${kind}`,
    };
    const placed = who.browser.data<TicketView>(await who.browser.call('sportsbook.placeBet', slip));
    expect(placed).toMatchObject({
      status: 'open',
      total_stake: { amount: '10.00' },
      legs: [{ odds: outcome.odds, result: 'open' }],
    });
    expect(placed.cash_out).not.toBeNull();
    // The same request id again is the same ticket, nothing moves twice.
    const again = who.browser.data<TicketView>(await who.browser.call('sportsbook.placeBet', slip));
    expect(again).toMatchObject({ id: placed.id, is_replay: true });
    expect((await t.services.wallet.balances(who.siteId, who.uid, who.currency)).main).toBe(amountToMinor('40.00'));

    const italian = await t.api('sportsbook.getBets', { locale: 'it', headers: { cookie: who.browser.cookie } });
    const [listed] = (italian.body.data as { items: TicketView[] }).items;
    expect(listed?.legs[0]?.event_name).toBe('Alpha FC – Beta United');
    const inItalian = await t.api('sportsbook.getEvent', { locale: 'it', params: { event_id: eventId } });
    const italianMarket = (inItalian.body.data as SportEventDetail).groups
      .flatMap((group) => group.markets)
      .find((item) => item.key === market.key);
    expect(listed?.legs[0]?.market_name).toBe(italianMarket?.name);
    expect(listed?.legs[0]?.outcome_name).toBe(italianMarket?.outcomes.find((item) => item.id === outcome.id)?.name);

    // The rest of the match, to its confirmed settlement.
    for (const message of messages.slice(2)) await t.services.sportsbook.feed.apply(message);
    const [settled] = who.browser.data<{ items: TicketView[] }>(
      await who.browser.call('sportsbook.getBets', { status: 'settled' }, 'GET'),
    ).items;
    expect(settled?.id).toBe(placed.id);
    expect(['won', 'lost']).toContain(settled?.status);
    const expectedPayout =
      settled?.status === 'won' ? (amountToMinor('10.00') * BigInt(Math.round(Number(outcome.odds) * 10_000))) / 10_000n : 0n;
    expect(settled?.payout.amount).toBe(minorToAmount(expectedPayout));
    expect((await t.services.wallet.balances(who.siteId, who.uid, who.currency)).main).toBe(
      amountToMinor('40.00') + expectedPayout,
    );
    const report = await checkLedger(t.db);
    expect(report, JSON.stringify(report)).toMatchObject({ isSound: true });
  });

  it('issue 14 bet cancel for a window: the bets placed in it are void, and the later settlement still settles the bets placed outside it', async () => {
    const windowed = `${eventId}:window`;
    await t.services.sportsbook.feed.upsertFixture(fixture(windowed));
    const feed = matchFeed(windowed);
    for (const message of feed.slice(0, 2)) await t.services.sportsbook.feed.apply(message);
    const who = await hostPlayer(t, '127.0.0.1');
    await fundPlayer(t, who, '50.00');
    const event = who.browser.data<SportEventDetail>(
      await who.browser.call('sportsbook.getEvent', { event_id: windowed }, 'GET'),
    );
    const market = event.groups.flatMap((group) => group.markets).find((item) => item.key === '1x2');
    const outcome = market?.outcomes.find((item) => item.active);
    if (!market || !outcome) throw new Error('the simulated match offers no 1X2');
    const bet = async (n: number) =>
      who.browser.data<TicketView>(
        await who.browser.call('sportsbook.placeBet', {
          selections: JSON.stringify([
            { event_id: windowed, market_key: market.key, outcome_id: outcome.id, odds: outcome.odds },
          ]),
          bet_type: 'single',
          stake: '10.00',
          request_id: `window-${kind}-${n}`,
        }),
      );
    const inWindow = await bet(1);
    const placedAt = Date.parse(inWindow.placed_at);
    // The second bet is placed after the window's end (a millisecond after the first).
    while (Date.now() <= placedAt + 1) await new Promise((resolve) => setTimeout(resolve, 2));
    const outside = await bet(2);
    expect(Date.parse(outside.placed_at)).toBeGreaterThanOrEqual(placedAt + 1);

    const next = (feed[1] as { sequence: number }).sequence;
    const base = { producer: 'sim', event_id: windowed, timestamp: KICK_OFF };
    await t.services.sportsbook.feed.apply(
      parseFeedMessage({
        ...base,
        type: 'bet_cancel',
        sequence: next + 1,
        start_time: placedAt,
        end_time: placedAt + 1,
        markets: [{ type: '1x2', specifiers: {} }],
      }),
    );
    await t.services.sportsbook.feed.apply(
      parseFeedMessage({
        ...base,
        type: 'bet_settlement',
        sequence: next + 2,
        certainty: 'confirmed',
        markets: [
          {
            type: '1x2',
            specifiers: {},
            outcomes: market.outcomes.map((item) => ({ id: item.id, result: item.id === outcome.id ? 1 : 0 })),
          },
        ],
      }),
    );
    const settled = who.browser.data<{ items: TicketView[] }>(
      await who.browser.call('sportsbook.getBets', { status: 'settled' }, 'GET'),
    ).items;
    const won = (amountToMinor('10.00') * BigInt(Math.round(Number(outcome.odds) * 10_000))) / 10_000n;
    expect(settled.find((ticket) => ticket.id === inWindow.id)).toMatchObject({ status: 'void', payout: { amount: '10.00' } });
    expect(settled.find((ticket) => ticket.id === outside.id)).toMatchObject({
      status: 'won',
      payout: { amount: minorToAmount(won) },
    });
    expect((await t.services.wallet.balances(who.siteId, who.uid, who.currency)).main).toBe(amountToMinor('40.00') + won);
    const report = await checkLedger(t.db);
    expect(report, JSON.stringify(report)).toMatchObject({ isSound: true });
  });

  it('bad slips answer InvalidParameterException naming the field; a visitor is asked to sign in', async () => {
    const who = await hostPlayer(t, '127.0.0.1');
    const errorOf = async (params: Record<string, string>) => (await who.browser.call('sportsbook.placeBet', params)).json.error;
    const base = { bet_type: 'single', stake: '1.00', request_id: `bad-${kind}` };
    expect(await errorOf({ ...base, selections: 'not json' })).toMatchObject({
      type: 'InvalidParameterException',
      error_data: { field: 'selections' },
    });
    expect(
      await errorOf({
        ...base,
        bet_type: 'system:99',
        selections: JSON.stringify([{ event_id: eventId, market_key: '1x2', outcome_id: '1', odds: '2.00' }]),
      }),
    ).toMatchObject({ type: 'InvalidParameterException' });
    expect(
      await errorOf({
        ...base,
        bet_type: 'banker',
        selections: JSON.stringify([{ event_id: eventId, market_key: '1x2', outcome_id: '1', odds: '2.00' }]),
      }),
    ).toMatchObject({ error_data: { field: 'bet_type' } });
    expect(
      await errorOf({
        ...base,
        selections: JSON.stringify([{ event_id: 'no-such-event', market_key: '1x2', outcome_id: '1', odds: '2.00' }]),
      }),
    ).toMatchObject({ error_data: { field: 'selections', errorType: 'SELECTION_UNAVAILABLE' } });
    const visitor = await t.api('sportsbook.placeBet', { method: 'POST', params: { ...base, selections: '[]' } });
    expect(visitor.body.error?.type).toBe('AuthorizationException');
  });
});
