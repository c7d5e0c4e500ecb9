/**
 * The ticket book on a real database (issue 14 "Bet slip": placing is one idempotent call, a
 * changed price stops the slip unless the player's setting takes it, related selections are
 * refused in a multiple, limits apply, the stake leaves the main balance or a free bet;
 * "Settlement": every affected ticket settles in its own ledger transfer, multiples with a void
 * leg at 1.00, systems line by line, a cancelled market voids its legs; the wager record keeps
 * every status change). The market store is stood in by a price table the test moves, as the
 * feed would; money, tickets and the ledger are the product's own. The ledger check after each.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { isApiError } from '#common/errors';
import { amountToMinor, minorToAmount } from '#common/money';
import { floorTimes, product } from '#common/sportsbook/ratio';
import { oddsRatio } from '#common/sportsbook/odds';
import { createTestApp, type TestApp } from '../../../../test/api-harness';
import { testDatabaseKinds } from '../../../../test/databases';
import { fundPlayer, hostPlayer } from '../../../../test/host-player';
import { inTransaction } from '../../../db/retry';
import type { Gambler } from '../../round-intake';
import { checkLedger } from '../../wallet';
import { cashOutPrice, partialCashOut } from '../rules/cash-out';
import { LOST, VOID, WON, type OutcomeResult } from '../rules/settlement';
import type { SlipSelection } from '../rules/slip';
import type { createTicketBook } from './service';
import { priceBoard, testTicketBook } from './test-ticket-book';
import { sportTickets } from './tables';

const MATCH = 'sr:match:1';
const OTHER = 'sr:match:2';
const THIRD = 'sr:match:3';

describe.each(testDatabaseKinds())('sports tickets on %s', (kind) => {
  let t: TestApp;
  let sequence = 0;
  /** The market store as the feed left it: a price and whether the market takes bets, per selection. */
  const prices = priceBoard();

  let book: ReturnType<typeof createTicketBook>;

  beforeAll(async () => {
    t = await createTestApp(kind);
    book = testTicketBook(t, prices);
  });
  afterAll(() => t.close());

  function offer(eventId: string, outcomeId: string, odds: string, marketKey = '1x2'): SlipSelection {
    const oddsUnits = BigInt(Math.round(Number(odds) * 10_000));
    prices.set({ eventId, marketKey, outcomeId }, { oddsUnits, isOpen: true, isLive: false });
    return { eventId: `${eventId}`, marketKey, outcomeId, oddsUnits };
  }

  /** The operator grants the player the site's 5.00 free bet, active at once. */
  async function grantFreeBet(who: Gambler & { currency: string }) {
    const { row } = await t.services.bonuses.grantAndActivate({
      siteId: who.siteId,
      userId: who.uid,
      currency: who.currency,
      templateId: 'freebet5',
      source: 'operator',
      sourceRef: `tickets:${sequence++}`,
    });
    return row;
  }

  async function bettor(amount: string): Promise<Gambler & { currency: string }> {
    const { uid, siteId, currency } = await hostPlayer(t, '127.0.0.1');
    if (amount !== '0.00') await fundPlayer(t, { uid, siteId, currency }, amount);
    return { siteId, uid, visitorId: '', locale: 'en', siteCurrency: currency, currency };
  }

  const main = async (who: Gambler & { currency: string }) =>
    (await t.services.wallet.balances(who.siteId, who.uid, who.currency)).main;
  const place = (who: Gambler, selections: SlipSelection[], options: Partial<Parameters<typeof book.place>[1]> = {}) =>
    book.place(who, {
      selections,
      betType: { kind: 'single' },
      stakePerLineMinor: amountToMinor('10.00'),
      oddsChange: 'none',
      requestId: `slip-${kind}-${sequence++}`,
      channel: 'web',
      ...options,
    });
  const settle = (eventId: string, marketKey: string, results: Record<string, OutcomeResult>) =>
    inTransaction(t.db, (tx) =>
      book.onMarketEffects(tx, eventId, [{ kind: 'settle', key: marketKey, certainty: 'confirmed', results, correction: false }]),
    );
  const refusal = (error: unknown) => (isApiError(error) ? error.errorData : error);
  const expectSoundLedger = async () => {
    const report = await checkLedger(t.db);
    expect(report, JSON.stringify(report)).toMatchObject({ isSound: true });
  };

  it('a single is placed once per request id, its stake leaves the main balance, and a win pays stake × the accepted price', async () => {
    const who = await bettor('50.00');
    const home = offer(`${MATCH}-${kind}-a`, '1', '2.35');
    const requestId = `twin-${kind}-${sequence++}`;
    const placed = await Promise.all(Array.from({ length: 4 }, () => place(who, [home], { requestId })));
    expect(new Set(placed.map((item) => item.ticket.id)).size).toBe(1);
    expect(await main(who)).toBe(amountToMinor('40.00'));
    const [ticket] = placed;
    expect(ticket?.legs.map((leg) => leg.oddsUnits)).toEqual([home.oddsUnits]);

    await settle(home.eventId, '1x2', { '1': WON, X: LOST, '2': LOST });
    const [row] = await t.db.select().from(sportTickets).where(eq(sportTickets.id, ticket!.ticket.id));
    expect(row).toMatchObject({ status: 'won', payoutMinor: floorTimes(amountToMinor('10.00'), oddsRatio(home.oddsUnits)) });
    expect(await main(who)).toBe(amountToMinor('40.00') + row!.payoutMinor);
    expect((await book.changesOf(row!.id)).map((change) => change.status)).toEqual(['open', 'won']);
    // Settling the same market again pays nothing more.
    await settle(home.eventId, '1x2', { '1': WON, X: LOST, '2': LOST });
    expect(await main(who)).toBe(amountToMinor('40.00') + row!.payoutMinor);
    await expectSoundLedger();
  });

  it('a changed price stops the slip with the old and new price unless the setting takes it; a closed market refuses; nothing moves', async () => {
    const who = await bettor('50.00');
    const away = offer(`${MATCH}-${kind}-b`, '2', '3.10');
    prices.set(away, { oddsUnits: 29_000n, isOpen: true, isLive: false });
    expect(refusal(await place(who, [away]).catch((e: unknown) => e))).toMatchObject({
      errorType: 'ODDS_CHANGED',
      old_odds: '31000',
      new_odds: '29000',
    });
    // Lower than the slip: "higher only" refuses too; "any" takes the new price.
    expect(refusal(await place(who, [away], { oddsChange: 'higher' }).catch((e: unknown) => e))).toMatchObject({
      errorType: 'ODDS_CHANGED',
    });
    const taken = await place(who, [away], { oddsChange: 'any' });
    expect(taken.legs[0]?.oddsUnits).toBe(29_000n);
    prices.set(away, { oddsUnits: 29_000n, isOpen: false, isLive: true });
    expect(refusal(await place(who, [{ ...away, oddsUnits: 29_000n }]).catch((e: unknown) => e))).toMatchObject({
      errorType: 'SELECTION_UNAVAILABLE',
    });
    expect(await main(who)).toBe(amountToMinor('40.00'));
    await expectSoundLedger();
  });

  it('two selections of one event are refused in a multiple, a stake above the limit is refused, and a short balance refuses with nothing moved', async () => {
    const who = await bettor('20.00');
    const event = `${MATCH}-${kind}-c`;
    const both = [offer(event, '1', '2.00'), offer(event, 'over', '1.90', 'total=2.5')];
    expect(refusal(await place(who, both, { betType: { kind: 'multiple' } }).catch((e: unknown) => e))).toMatchObject({
      errorType: 'RELATED_SELECTIONS',
      selections: [0, 1],
    });
    expect(
      refusal(await place(who, [both[0]!], { stakePerLineMinor: amountToMinor('600.00') }).catch((e: unknown) => e)),
    ).toMatchObject({ errorType: 'STAKE_LIMIT' });
    const short = await place(who, [both[0]!], { stakePerLineMinor: amountToMinor('25.00') }).catch((e: unknown) => e);
    expect(isApiError(short) && short.errorData).toMatchObject({ field: 'stake' });
    expect(await main(who)).toBe(amountToMinor('20.00'));
    expect(await book.list(who.siteId, who.uid, { status: 'all', offset: 0, count: 10 })).toEqual([]);
  });

  it('a multiple with a cancelled market counts that leg at 1.00; another settles as lost as soon as one leg loses', async () => {
    const who = await bettor('100.00');
    const a = offer(`${MATCH}-${kind}-d`, '1', '1.50');
    const b = offer(`${OTHER}-${kind}-d`, '2', '2.40');
    const first = await place(who, [a, b], { betType: { kind: 'multiple' } });
    const second = await place(who, [a, b], { betType: { kind: 'multiple' } });
    expect(second.ticket.id).not.toBe(first.ticket.id);
    // b's market is cancelled: its leg is void on both tickets, which then win on a alone.
    await inTransaction(t.db, (tx) => book.onMarketEffects(tx, b.eventId, [{ kind: 'cancel', key: '1x2' }]));
    expect(await book.list(who.siteId, who.uid, { status: 'open', offset: 0, count: 10 })).toHaveLength(2);
    await settle(a.eventId, '1x2', { '1': WON, X: LOST, '2': LOST });
    const rows = await book.list(who.siteId, who.uid, { status: 'settled', offset: 0, count: 10 });
    const expected = floorTimes(amountToMinor('10.00'), oddsRatio(a.oddsUnits));
    expect(rows.map((item) => [item.status, item.payout.amount, item.legs.map((leg) => leg.result)])).toEqual([
      ['won', minorToAmount(expected), ['won', 'void']],
      ['won', minorToAmount(expected), ['won', 'void']],
    ]);

    const c = offer(`${THIRD}-${kind}-d`, '1', '1.80');
    const d = offer(`${OTHER}-${kind}-e`, '1', '2.10');
    const early = await place(who, [c, d], { betType: { kind: 'multiple' } });
    await settle(c.eventId, '1x2', { '1': LOST, X: WON, '2': LOST });
    const [row] = await t.db.select().from(sportTickets).where(eq(sportTickets.id, early.ticket.id));
    expect(row).toMatchObject({ status: 'lost', payoutMinor: 0n });
    await expectSoundLedger();
  });

  it('a Trixie settles line by line: three doubles and a treble, each line its own product, paid as their sum', async () => {
    const who = await bettor('100.00');
    const legs = [
      offer(`${MATCH}-${kind}-f`, '1', '1.90'),
      offer(`${OTHER}-${kind}-f`, '1', '2.20'),
      offer(`${THIRD}-${kind}-f`, '1', '1.60'),
    ];
    const placed = await place(who, legs, {
      betType: { kind: 'named', name: 'trixie' },
      stakePerLineMinor: amountToMinor('2.00'),
    });
    expect(placed.ticket.totalStakeMinor).toBe(amountToMinor('8.00'));
    await settle(legs[0]!.eventId, '1x2', { '1': WON, X: LOST, '2': LOST });
    await settle(legs[1]!.eventId, '1x2', { '1': LOST, X: WON, '2': LOST });
    await settle(legs[2]!.eventId, '1x2', { '1': WON, X: LOST, '2': LOST });
    // Only the double of legs 0 and 2 wins.
    const winning = floorTimes(amountToMinor('2.00'), product([oddsRatio(legs[0]!.oddsUnits), oddsRatio(legs[2]!.oddsUnits)]));
    const [row] = await t.db.select().from(sportTickets).where(eq(sportTickets.id, placed.ticket.id));
    expect(row).toMatchObject({ status: 'partial', payoutMinor: winning });
    expect(await main(who)).toBe(amountToMinor('92.00') + winning);
    await expectSoundLedger();
  });

  it('a free bet stakes from the betting bonus and pays only its winnings as real money; parallel slips never overdraw the main balance', async () => {
    const who = await bettor('0.00');
    const freeBet = await grantFreeBet(who);
    const pick = offer(`${MATCH}-${kind}-g`, '1', '2.50');
    await place(who, [pick], { bonusId: freeBet.id, stakePerLineMinor: amountToMinor('5.00') });
    await settle(pick.eventId, '1x2', { '1': WON, X: LOST, '2': LOST });
    expect(await main(who)).toBe(amountToMinor('7.50'));

    const rich = await bettor('30.00');
    const slips = Array.from({ length: 6 }, (_, index) => offer(`${OTHER}-${kind}-h${index}`, '1', '1.70'));
    const outcomes = await Promise.allSettled(slips.map((slip) => place(rich, [slip])));
    expect(outcomes.filter((item) => item.status === 'fulfilled')).toHaveLength(3);
    expect(await main(rich)).toBe(0n);
    await Promise.all(slips.map((slip) => settle(slip.eventId, '1x2', { '1': VOID, X: LOST, '2': LOST })));
    expect(await main(rich)).toBe(amountToMinor('30.00'));
    await expectSoundLedger();
  });

  it('issue 14 free bet: the potential return quoted and recorded at placement and the settled payout are the winnings only, the stake not returned', async () => {
    const who = await bettor('0.00');
    const freeBet = await grantFreeBet(who);
    const pick = offer(`${MATCH}-${kind}-fb`, '1', '2.50');
    const stake = freeBet.balanceMinor;
    const placed = await place(who, [pick], { bonusId: freeBet.id, stakePerLineMinor: stake });
    const winnings = floorTimes(stake, oddsRatio(pick.oddsUnits)) - stake;
    expect(placed.ticket.potentialReturnMinor).toBe(winnings);
    const [view] = await book.list(who.siteId, who.uid, { status: 'open', offset: 0, count: 1 });
    expect(view?.potential_return).toEqual({ amount: minorToAmount(winnings), currency: who.currency });
    await settle(pick.eventId, '1x2', { '1': WON, X: LOST, '2': LOST });
    const [row] = await t.db.select().from(sportTickets).where(eq(sportTickets.id, placed.ticket.id));
    expect(row).toMatchObject({ status: 'won', payoutMinor: winnings });
    expect(await main(who)).toBe(winnings);
    await expectSoundLedger();
  });

  it('cash-out buys an open single back at its price from current odds less the margin; a moved price or a suspended market refuses; partial keeps the rest of the stake on the bet', async () => {
    const who = await bettor('100.00');
    const pick = offer(`${MATCH}-${kind}-i`, '1', '2.00');
    const placed = await place(who, [pick], { stakePerLineMinor: amountToMinor('10.00') });
    // The price shortens to 1.60: the bet is worth 10 × 2.00 / 1.60 less 5 %.
    prices.set(pick, { oddsUnits: 16_000n, isOpen: true, isLive: true });
    const price = cashOutPrice(amountToMinor('10.00'), [
      { state: 'open', placedOddsUnits: pick.oddsUnits, currentOddsUnits: 16_000n },
    ])!;
    // The player's list shows the price to cash out for.
    const [listed] = await book.list(who.siteId, who.uid, { status: 'open', offset: 0, count: 1 });
    expect(listed?.cash_out).toEqual({ amount: minorToAmount(price), currency: who.currency });
    const moved = await book
      .cashOut(who, { ticketId: placed.ticket.id, expectedPriceMinor: price + 1n })
      .catch((e: unknown) => e);
    expect(refusal(moved)).toMatchObject({ errorType: 'CASH_OUT_PRICE_CHANGED', price: price.toString() });

    const half = price / 2n;
    const partly = await book.cashOut(who, { ticketId: placed.ticket.id, expectedPriceMinor: price, amountMinor: half });
    expect(partly.ticket).toMatchObject({ status: 'open', cashedOutMinor: half });
    const remaining = partialCashOut(amountToMinor('10.00'), price, half).remainingStakeMinor;
    expect(partly.ticket.stakePerLineMinor).toBe(remaining);
    expect(await main(who)).toBe(amountToMinor('90.00') + half);

    prices.set(pick, { oddsUnits: 16_000n, isOpen: false, isLive: true });
    expect((await book.list(who.siteId, who.uid, { status: 'open', offset: 0, count: 1 }))[0]?.cash_out).toBeNull();
    const suspended = await book.cashOut(who, { ticketId: placed.ticket.id, expectedPriceMinor: 1n }).catch((e: unknown) => e);
    expect(refusal(suspended)).toMatchObject({ errorType: 'CASH_OUT_UNAVAILABLE' });

    // The rest of the bet wins at its placed price: the remaining stake × 2.00, on top of the half cashed out.
    await settle(pick.eventId, '1x2', { '1': WON, X: LOST, '2': LOST });
    const [row] = await t.db.select().from(sportTickets).where(eq(sportTickets.id, placed.ticket.id));
    const settledPart = floorTimes(remaining, oddsRatio(pick.oddsUnits));
    expect(row).toMatchObject({ status: 'won', payoutMinor: half + settledPart });
    expect(await main(who)).toBe(amountToMinor('90.00') + half + settledPart);
    await expectSoundLedger();
  });

  it('two tabs cashing out one bet at once: one is paid, the other finds it cashed out; nothing is paid twice', async () => {
    const who = await bettor('50.00');
    const pick = offer(`${OTHER}-${kind}-j`, 'X', '3.40');
    const placed = await place(who, [pick]);
    const price = cashOutPrice(amountToMinor('10.00'), [
      { state: 'open', placedOddsUnits: pick.oddsUnits, currentOddsUnits: pick.oddsUnits },
    ])!;
    const tabs = await Promise.allSettled([
      book.cashOut(who, { ticketId: placed.ticket.id, expectedPriceMinor: price }),
      book.cashOut(who, { ticketId: placed.ticket.id, expectedPriceMinor: price }),
    ]);
    expect(tabs.filter((tab) => tab.status === 'fulfilled')).toHaveLength(1);
    expect(await main(who)).toBe(amountToMinor('40.00') + price);
    const [row] = await t.db.select().from(sportTickets).where(eq(sportTickets.id, placed.ticket.id));
    expect(row).toMatchObject({ status: 'cashed_out', payoutMinor: price });
    // Settling the market afterwards changes nothing for a cashed-out bet.
    await settle(pick.eventId, '1x2', { '1': LOST, X: WON, '2': LOST });
    expect(await main(who)).toBe(amountToMinor('40.00') + price);
    const other = await bettor('0.00');
    expect(
      refusal(await book.cashOut(other, { ticketId: placed.ticket.id, expectedPriceMinor: price }).catch((e: unknown) => e)),
    ).toMatchObject({
      field: 'ticket_id',
    });
    await expectSoundLedger();
  });

  it('a provisional result settles nothing (it may still be corrected); the confirmed one settles; a cancel voids only the bets placed in its window', async () => {
    const who = await bettor('50.00');
    const pick = offer(`${MATCH}-${kind}-k`, '1', '2.00');
    const placed = await place(who, [pick]);
    await inTransaction(t.db, (tx) =>
      book.onMarketEffects(tx, pick.eventId, [
        { kind: 'settle', key: '1x2', certainty: 'provisional', results: { '1': LOST, X: WON, '2': LOST }, correction: false },
      ]),
    );
    expect((await book.list(who.siteId, who.uid, { status: 'open', offset: 0, count: 5 })).map((item) => item.id)).toEqual([
      placed.ticket.id,
    ]);
    await settle(pick.eventId, '1x2', { '1': WON, X: LOST, '2': LOST });
    const [won] = await t.db.select().from(sportTickets).where(eq(sportTickets.id, placed.ticket.id));
    expect(won?.status).toBe('won');

    // Two bets on another market; the cancel's window covers only the time after the first was placed.
    const other = offer(`${OTHER}-${kind}-k`, '2', '3.00');
    const before = await place(who, [other]);
    const windowStart = before.ticket.placedAt.getTime() + 1;
    await new Promise((resolve) => setTimeout(resolve, 5));
    const inside = await place(who, [other]);
    await inTransaction(t.db, (tx) =>
      book.onMarketEffects(tx, other.eventId, [{ kind: 'cancel', key: '1x2', startTime: windowStart }]),
    );
    const statuses = Object.fromEntries(
      (await book.list(who.siteId, who.uid, { status: 'all', offset: 0, count: 10 })).map((item) => [item.id, item.status]),
    );
    expect([statuses[before.ticket.id], statuses[inside.ticket.id]]).toEqual(['open', 'void']);
    await expectSoundLedger();
  });
});
