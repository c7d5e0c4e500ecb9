/**
 * Rollbacks on a real database (issue 14 "Settlement": "a rollback reverses the settlement (and
 * its payout, even if the player already spent it — the balance may not go negative, so the
 * difference is recorded as a debt the next deposit clears, or the operator's policy configured
 * per site) and waits for the corrected result"; "Bad input and races": "settlement arriving
 * twice … a rollback after cash-out: each gets a clear error or is absorbed, and
 * `npm run ledger:check` passes afterwards"). The market store is a price table the test moves;
 * deposits go through the cashier and a provider's notification; money, tickets, debts and the
 * ledger are the product's own. The ledger check after each.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { isApiError } from '#common/errors';
import { amountToMinor } from '#common/money';
import { floorTimes } from '#common/sportsbook/ratio';
import { oddsRatio } from '#common/sportsbook/odds';
import { createTestApp, type TestApp } from '../../../../test/api-harness';
import { testDatabaseKinds } from '../../../../test/databases';
import { signedInPlayer } from '../../../../test/player';
import { RecordingProvider } from '../../../../test/recording-provider';
import { inTransaction } from '../../../db/retry';
import { playerDebts, sites } from '../../../db/schema';
import type { Gambler } from '../../round-intake';
import { checkLedger, debtPolicyOf, house, move, player } from '../../wallet';
import type { MarketEffect } from '../feed/market-state';
import { LOST, WON, type OutcomeResult } from '../rules/settlement';
import type { SlipSelection } from '../rules/slip';
import { cashOutPrice } from '../rules/cash-out';
import type { createTicketBook } from './service';
import { priceBoard, testTicketBook } from './test-ticket-book';
import { sportTickets } from './tables';

describe.each(testDatabaseKinds())('sports ticket rollbacks on %s', (kind) => {
  let t: TestApp;
  let book: ReturnType<typeof createTicketBook>;
  let siteId = '';
  let sequence = 0;
  const provider = new RecordingProvider();
  const prices = priceBoard();

  beforeAll(async () => {
    t = await createTestApp(kind);
    t.services.paymentProviders.set('sandbox', provider);
    siteId = (await t.services.sites.resolveSite('127.0.0.1')).id;
    book = testTicketBook(t, prices, {
      // As services.ts wires it: the site's settings, read in the feed's transaction.
      debtPolicy: async (tx, site) => debtPolicyOf(await t.services.sites.settingsIn(tx, site)),
    });
  });
  afterAll(() => t.close());

  function offer(name: string, outcomeId: string, odds: string, marketKey = '1x2'): SlipSelection {
    const eventId = `rb:${kind}:${name}`;
    const oddsUnits = BigInt(Math.round(Number(odds) * 10_000));
    prices.set({ eventId, marketKey, outcomeId }, { oddsUnits, isOpen: true, isLive: false });
    return { eventId, marketKey, outcomeId, oddsUnits };
  }

  type Bettor = Gambler & { currency: string; browser: Awaited<ReturnType<typeof signedInPlayer>>['browser'] };

  /** A player who has deposited through the cashier: the provider's notification credits it. */
  async function bettor(amount: string): Promise<Bettor> {
    const { uid, browser } = await signedInPlayer(t);
    const who: Bettor = { siteId, uid, visitorId: '', locale: 'en', siteCurrency: 'EUR', currency: 'EUR', browser };
    await deposit(who, amount);
    return who;
  }

  /** A deposit of whole units (the cashier takes no cents). */
  async function deposit(who: Bettor, amount: string) {
    const whole = amount.replace(/\.00$/, '');
    const started = who.browser.data<{ id: string }>(
      await who.browser.call('cashier.makedeposit', { method: 'card', amount: whole }),
    );
    await t.services.cashier.applyProviderEvent(siteId, 'sandbox', provider.event(started.id, 'success', amountToMinor(amount)));
  }

  /** The player loses money elsewhere (a casino round): what they won is spent. */
  const spend = (who: Bettor, amount: string) =>
    t.services.wallet.transfer({
      siteId,
      userId: who.uid,
      kind: 'game_bet',
      currency: who.currency,
      amountMinor: amountToMinor(amount),
      legs: move(player(who.uid, 'main'), house('game', who.uid), amountToMinor(amount)),
      idempotencyKey: `rb-spend:${kind}:${sequence++}`,
      actor: `player:${who.uid}`,
      reason: 'a casino round',
    });

  const main = async (who: Bettor) => (await t.services.wallet.balances(siteId, who.uid, who.currency)).main;
  const owed = (who: Bettor) => t.services.debts.owed(siteId, who.uid, who.currency);
  const place = (who: Gambler, selections: SlipSelection[], options: Partial<Parameters<typeof book.place>[1]> = {}) =>
    book.place(who, {
      selections,
      betType: { kind: 'single' },
      stakePerLineMinor: amountToMinor('10.00'),
      oddsChange: 'none',
      requestId: `rb-${kind}-${sequence++}`,
      channel: 'web',
      ...options,
    });
  const apply = (eventId: string, effects: MarketEffect[]) =>
    inTransaction(t.db, (tx) => book.onMarketEffects(tx, eventId, effects));
  const settle = (selection: SlipSelection, results: Record<string, OutcomeResult>, correction = false) =>
    apply(selection.eventId, [{ kind: 'settle', key: selection.marketKey, certainty: 'confirmed', results, correction }]);
  const rollback = (selection: SlipSelection) =>
    apply(selection.eventId, [{ kind: 'rollback_settlement', key: selection.marketKey }]);
  const ticketRow = async (id: number) => (await t.db.select().from(sportTickets).where(eq(sportTickets.id, id)))[0]!;
  const history = async (id: number) => (await book.changesOf(id)).map((change) => `${change.status}: ${change.reason}`);
  const expectSoundLedger = async () => {
    const report = await checkLedger(t.db);
    expect(report, JSON.stringify(report)).toMatchObject({ isSound: true });
  };
  const winOf = (selection: SlipSelection, stake = '10.00') => floorTimes(amountToMinor(stake), oddsRatio(selection.oddsUnits));

  it('a rollback takes back a spent payout: the balance stops at zero, the rest is a debt, the ticket waits for the corrected result, and the next deposit repays the debt first', async () => {
    const who = await bettor('10.00');
    const home = offer('spent', '1', '3.00');
    const placed = await place(who, [home]);
    await settle(home, { '1': WON, X: LOST, '2': LOST });
    const won = winOf(home);
    expect(await main(who)).toBe(won);
    await spend(who, '25.00');
    const left = won - amountToMinor('25.00');

    await rollback(home);
    expect(await main(who)).toBe(0n);
    expect(await owed(who)).toBe(won - left);
    expect(await ticketRow(placed.ticket.id)).toMatchObject({ status: 'open', payoutMinor: 0n, settledAt: null });
    expect((await book.list(siteId, who.uid, { status: 'open', offset: 0, count: 5 }))[0]?.legs[0]?.result).toBe('open');
    await expectSoundLedger();

    // The corrected result: the bet lost. It settles again, under a new key, paying nothing.
    await settle(home, { '1': LOST, X: WON, '2': LOST });
    expect(await ticketRow(placed.ticket.id)).toMatchObject({ status: 'lost', payoutMinor: 0n, settlements: 2 });
    const record = await history(placed.ticket.id);
    expect(record.map((line) => line.split(':')[0])).toEqual(['open', 'won', 'open', 'lost']);
    expect(record[2]).toContain(`payout of ${won} taken back, ${won - left} of it owed as a debt`);

    // The next deposit repays the debt before anything else.
    await deposit(who, '50.00');
    expect(await owed(who)).toBe(0n);
    expect(await main(who)).toBe(amountToMinor('50.00') - (won - left));
    const [debt] = await t.db.select().from(playerDebts).where(eq(playerDebts.userId, who.uid));
    expect(debt).toMatchObject({ status: 'cleared', clearedMinor: won - left });
    await expectSoundLedger();
  });

  it('under the site policy write_off the shortfall is written off, still recorded for the operator, and no deposit is taken for it', async () => {
    const [site] = await t.db.select({ settings: sites.settings }).from(sites).where(eq(sites.id, siteId));
    const before = site?.settings ?? {};
    await t.db
      .update(sites)
      .set({ settings: { ...before, wallet: { debt_policy: 'write_off' } } })
      .where(eq(sites.id, siteId));
    try {
      const who = await bettor('10.00');
      const home = offer('write-off', '1', '2.50');
      await place(who, [home]);
      await settle(home, { '1': WON, X: LOST, '2': LOST });
      await spend(who, '20.00');
      await rollback(home);
      expect(await main(who)).toBe(0n);
      expect(await owed(who)).toBe(0n);
      const [debt] = await t.db.select().from(playerDebts).where(eq(playerDebts.userId, who.uid));
      expect(debt).toMatchObject({ status: 'written_off', amountMinor: winOf(home) - amountToMinor('5.00') });
      expect(debt?.writtenOffMinor).toBe(debt?.amountMinor);
      await deposit(who, '20.00');
      expect(await main(who)).toBe(amountToMinor('20.00'));
      await expectSoundLedger();
    } finally {
      await t.db.update(sites).set({ settings: before }).where(eq(sites.id, siteId));
    }
  });

  it('a rollback of a cancel takes the refunded stake back and the ticket waits for the result; a confirmed correction replaces a result', async () => {
    const who = await bettor('30.00');
    const away = offer('cancel', '2', '2.00');
    const placed = await place(who, [away]);
    await apply(away.eventId, [{ kind: 'cancel', key: away.marketKey }]);
    expect(await ticketRow(placed.ticket.id)).toMatchObject({ status: 'void', payoutMinor: amountToMinor('10.00') });
    expect(await main(who)).toBe(amountToMinor('30.00'));
    await apply(away.eventId, [{ kind: 'rollback_cancel', key: away.marketKey }]);
    expect(await ticketRow(placed.ticket.id)).toMatchObject({ status: 'open', payoutMinor: 0n });
    expect(await main(who)).toBe(amountToMinor('20.00'));
    expect(await owed(who)).toBe(0n);

    await settle(away, { '1': WON, X: LOST, '2': LOST });
    expect(await ticketRow(placed.ticket.id)).toMatchObject({ status: 'lost' });
    // The feed corrects the confirmed result: the earlier one is rolled back and the new one pays.
    await settle(away, { '1': LOST, X: LOST, '2': WON }, true);
    expect(await ticketRow(placed.ticket.id)).toMatchObject({ status: 'won', payoutMinor: winOf(away), settlements: 3 });
    expect(await main(who)).toBe(amountToMinor('20.00') + winOf(away));
    await expectSoundLedger();
  });

  it('after a cash-out a rollback moves no money (the cash-out stands); after a partial cash-out only the settlement is taken back', async () => {
    const who = await bettor('40.00');
    const full = offer('cashed', '1', '2.20');
    const whole = await place(who, [full]);
    const price = cashOutPrice(amountToMinor('10.00'), [
      { state: 'open', placedOddsUnits: full.oddsUnits, currentOddsUnits: full.oddsUnits },
    ])!;
    await book.cashOut(who, { ticketId: whole.ticket.id, expectedPriceMinor: price });
    await settle(full, { '1': WON, X: LOST, '2': LOST });
    const afterCashOut = await main(who);
    await rollback(full);
    expect(await main(who)).toBe(afterCashOut);
    expect(await ticketRow(whole.ticket.id)).toMatchObject({ status: 'cashed_out', payoutMinor: price });
    expect((await history(whole.ticket.id)).at(-1)).toContain('the cash-out stands');

    const part = offer('partial', '1', '2.00');
    const partly = await place(who, [part]);
    const partPrice = cashOutPrice(amountToMinor('10.00'), [
      { state: 'open', placedOddsUnits: part.oddsUnits, currentOddsUnits: part.oddsUnits },
    ])!;
    const cashed = await book.cashOut(who, {
      ticketId: partly.ticket.id,
      expectedPriceMinor: partPrice,
      amountMinor: partPrice / 2n,
    });
    await settle(part, { '1': WON, X: LOST, '2': LOST });
    const settledRow = await ticketRow(partly.ticket.id);
    const settlementPaid = settledRow.payoutMinor - cashed.paidMinor;
    expect(settlementPaid).toBe(floorTimes(cashed.ticket.stakePerLineMinor, oddsRatio(part.oddsUnits)));
    const beforeRollback = await main(who);
    await rollback(part);
    expect(await main(who)).toBe(beforeRollback - settlementPaid);
    expect(await ticketRow(partly.ticket.id)).toMatchObject({
      status: 'open',
      payoutMinor: cashed.paidMinor,
      cashedOutMinor: cashed.paidMinor,
    });
    await expectSoundLedger();
  });

  it('races: a settlement twice at once pays once; two rollbacks at once take back once', async () => {
    const who = await bettor('10.00');
    const home = offer('twice', '1', '1.80');
    const placed = await place(who, [home]);
    await Promise.all([settle(home, { '1': WON, X: LOST, '2': LOST }), settle(home, { '1': WON, X: LOST, '2': LOST })]);
    expect(await main(who)).toBe(winOf(home));
    expect(await ticketRow(placed.ticket.id)).toMatchObject({ status: 'won', settlements: 1 });
    await Promise.all([rollback(home), rollback(home)]);
    expect(await main(who)).toBe(0n);
    expect(await ticketRow(placed.ticket.id)).toMatchObject({ status: 'open', settlements: 1 });
    expect(await owed(who)).toBe(0n);
    await expectSoundLedger();
  });

  it('races: a rollback and a deposit at once — whichever comes first, the debt never outlives the deposit and nothing goes negative', async () => {
    const players = await Promise.all(Array.from({ length: 4 }, () => bettor('10.00')));
    for (const [index, who] of players.entries()) {
      const home = offer(`deposit-race-${index}`, '1', '4.00');
      await place(who, [home]);
      await settle(home, { '1': WON, X: LOST, '2': LOST });
      await spend(who, '35.00');
      // 40.00 won, 35.00 spent: 5.00 left; the rollback takes 40.00; 50.00 arrives meanwhile.
      await Promise.all([rollback(home), deposit(who, '50.00')]);
      expect(await owed(who)).toBe(0n);
      expect(await main(who)).toBe(amountToMinor('5.00') + amountToMinor('50.00') - amountToMinor('40.00'));
    }
    await expectSoundLedger();
  });

  it('races: a rollback and a cash-out at once — either the cash-out is paid and stands, or it is refused on the reopened leg; never both, never neither', async () => {
    const outcomes: string[] = [];
    for (let round = 0; round < 4; round++) {
      const who = await bettor('20.00');
      const first = offer(`cash-race-a-${round}`, '1', '1.50');
      const second = offer(`cash-race-b-${round}`, '1', '2.00');
      const multiple = await place(who, [first, second], { betType: { kind: 'multiple' } });
      await settle(first, { '1': WON, X: LOST, '2': LOST });
      const [view] = await book.list(siteId, who.uid, { status: 'open', offset: 0, count: 1 });
      const price = amountToMinor(view!.cash_out!.amount);
      // The rollback suspends the first leg's market, as the feed's reducer does.
      const rolled = async () => {
        prices.set(first, { ...prices.get(first)!, isOpen: false });
        await rollback(first);
      };
      const [cash] = await Promise.allSettled([
        book.cashOut(who, { ticketId: multiple.ticket.id, expectedPriceMinor: price }),
        rolled(),
      ]);
      const row = await ticketRow(multiple.ticket.id);
      if (cash.status === 'fulfilled') {
        expect(row).toMatchObject({ status: 'cashed_out', payoutMinor: price });
        expect(await main(who)).toBe(amountToMinor('10.00') + price);
      } else {
        expect(isApiError(cash.reason) && cash.reason.errorData).toMatchObject({ errorType: 'CASH_OUT_UNAVAILABLE' });
        expect(row).toMatchObject({ status: 'open', payoutMinor: 0n });
        expect(await main(who)).toBe(amountToMinor('10.00'));
      }
      outcomes.push(cash.status);
    }
    expect(outcomes).toHaveLength(4);
    await expectSoundLedger();
  });
});
