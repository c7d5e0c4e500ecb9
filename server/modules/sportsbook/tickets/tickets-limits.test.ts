/**
 * Limits on a real database (issue 14 "Bet slip": "minimum and maximum stake, maximum payout per
 * bet and exposure per market (the most restrictive of player, market, league and site limits
 * applies)"). The operator sets player, market and league limits through the back-office API;
 * the site's limits come from its settings; refusals are InvalidParameterException with the
 * slip's problem code and the limit in minor units (spec §8), and move nothing. Exposure is raced:
 * parallel slips on one market never take it past its limit. Players' debts are listed and
 * written off through the same back office.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isApiError } from '#common/errors';
import { amountToMinor } from '#common/money';
import { backofficeApp, createTestApp, type TestApp } from '../../../../test/api-harness';
import { testDatabaseKinds } from '../../../../test/databases';
import { fundPlayer, hostPlayer } from '../../../../test/host-player';
import type { Gambler } from '../../round-intake';
import { checkLedger, house, move, player } from '../../wallet';
import { inTransaction } from '../../../db/retry';
import { LOST, WON } from '../rules/settlement';
import type { SlipSelection } from '../rules/slip';
import type { createTicketBook } from './service';
import { priceBoard, testTicketBook } from './test-ticket-book';
import { sportsbookLimits } from './limits';

const HOST = '127.0.0.1';
const TOKEN = 'op-token-sport';

describe.each(testDatabaseKinds())('sports bet limits on %s', (kind) => {
  let t: TestApp;
  let book: ReturnType<typeof createTicketBook>;
  let sequence = 0;
  const prices = priceBoard();
  /** The site's settings.sportsbook.limits, as the site would name them. */
  /** How often the list asks the market store for prices and names (issue 14 "My bets": no read per ticket). */
  const calls = { current: 0, describe: 0 };
  const siteBlock = { EUR: { min_stake: '0.50', max_stake: '300.00', max_payout: '5000.00', max_exposure: '100000.00' } };

  beforeAll(async () => {
    t = await createTestApp(kind);
    book = testTicketBook(t, prices, {
      markets: {
        current: async (_executor, selections) => {
          calls.current++;
          return selections.map((item) => prices.get(item));
        },
      },
      siteLimits: async (_siteId, currency) => sportsbookLimits({ sportsbook: { limits: siteBlock } }, currency),
      describeLegs: async (_executor, legs) => {
        calls.describe++;
        return legs.map((leg) => ({ event: leg.eventId, market: leg.marketKey, outcome: leg.outcomeId }));
      },
    });
  });
  afterAll(() => t.close());

  function offer(name: string, outcomeId: string, odds: string, marketKey = '1x2', league = 'lim:league'): SlipSelection {
    const eventId = `lim:${kind}:${name}`;
    const oddsUnits = BigInt(Math.round(Number(odds) * 10_000));
    prices.set({ eventId, marketKey, outcomeId }, { oddsUnits, isOpen: true, isLive: false, tournamentId: league });
    return { eventId, marketKey, outcomeId, oddsUnits };
  }

  async function bettor(amount: string): Promise<Gambler & { currency: string }> {
    const { uid, siteId, currency } = await hostPlayer(t, HOST);
    await fundPlayer(t, { uid, siteId, currency }, amount);
    return { siteId, uid, visitorId: '', locale: 'en', siteCurrency: currency, currency };
  }

  const place = (
    who: Gambler,
    selections: SlipSelection[],
    stake: string,
    options: Partial<Parameters<typeof book.place>[1]> = {},
  ) =>
    book.place(who, {
      selections,
      betType: { kind: 'single' },
      stakePerLineMinor: amountToMinor(stake),
      oddsChange: 'none',
      requestId: `lim-${kind}-${sequence++}`,
      channel: 'web',
      ...options,
    });
  const refusal = async (attempt: Promise<unknown>) => {
    const error = await attempt.then(
      () => undefined,
      (caught: unknown) => caught,
    );
    return isApiError(error) ? { type: error.type, ...error.errorData } : error;
  };
  const main = async (who: Gambler & { currency: string }) =>
    (await t.services.wallet.balances(who.siteId, who.uid, who.currency)).main;

  const backoffice = () => {
    const app = backofficeApp(t, { [TOKEN]: 'dora' });
    return (method: string, path: string, body?: unknown) =>
      app.request(`http://${HOST}/backoffice/sportsbook${path}`, {
        method,
        headers: { host: HOST, authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
  };

  it('the site minimum and maximum stake and maximum payout refuse with their code and limit; nothing moves', async () => {
    const who = await bettor('500.00');
    const home = offer('site', '1', '20.00');
    expect(await refusal(place(who, [home], '0.20'))).toMatchObject({
      type: 'InvalidParameterException',
      field: 'selections',
      errorType: 'STAKE_MINIMUM',
      limit: amountToMinor('0.50').toString(),
      scope: 'site',
    });
    expect(await refusal(place(who, [home], '301.00'))).toMatchObject({
      errorType: 'STAKE_LIMIT',
      limit: '30000',
      scope: 'site',
    });
    // 300.00 at 20.00 returns 6000.00, above the 5000.00 payout limit.
    expect(await refusal(place(who, [home], '300.00'))).toMatchObject({
      errorType: 'PAYOUT_LIMIT',
      limit: '500000',
      scope: 'site',
    });
    expect(await main(who)).toBe(amountToMinor('500.00'));
    expect((await place(who, [home], '0.50')).ticket.status).toBe('open');
  });

  it('player, market and league limits set in the back office apply when they are the most restrictive, each naming its scope', async () => {
    const send = backoffice();
    const who = await bettor('500.00');
    const other = await bettor('500.00');
    const put = async (body: Record<string, unknown>) => {
      const answer = await send('PUT', '/limits', body);
      expect(answer.status, JSON.stringify(await answer.clone().json())).toBe(200);
      return ((await answer.json()) as { data: Record<string, unknown> }).data;
    };
    expect(await put({ scope: 'player', target: String(who.uid), max_stake: '50.00' })).toMatchObject({
      scope: 'player',
      currency: 'EUR',
      max_stake: '50.00',
      min_stake: null,
    });
    await put({ scope: 'market', target: 'total', currency: 'EUR', max_payout: '400.00' });
    await put({ scope: 'league', target: 'lim:small-league', currency: 'EUR', min_stake: '2.00', max_exposure: '1000.00' });

    const home = offer('player', '1', '2.00');
    expect(await refusal(place(who, [home], '60.00'))).toMatchObject({
      errorType: 'STAKE_LIMIT',
      limit: '5000',
      scope: 'player',
    });
    // The player's limit is theirs alone.
    expect((await place(other, [home], '60.00')).ticket.totalStakeMinor).toBe(amountToMinor('60.00'));
    const over = offer('market', 'over', '2.00', 'total|total=2.5');
    expect(await refusal(place(other, [over], '250.00'))).toMatchObject({
      errorType: 'PAYOUT_LIMIT',
      limit: '40000',
      scope: 'market',
    });
    const small = offer('league', '1', '2.00', '1x2', 'lim:small-league');
    expect(await refusal(place(other, [small], '1.00'))).toMatchObject({
      errorType: 'STAKE_MINIMUM',
      limit: '200',
      scope: 'league',
    });

    const listed = await send('GET', '/limits?scope=market');
    expect(((await listed.json()) as { data: unknown[] }).data).toEqual([
      expect.objectContaining({ scope: 'market', target: 'total', max_payout: '400.00', updated_by: 'dora' }),
    ]);
    // Bad input answers 400 naming the field, never a 500.
    for (const [body, field] of [
      [{ scope: 'galaxy', target: 'x' }, 'scope'],
      [{ scope: 'market', target: 'total', max_stake: '-1' }, 'max_stake'],
      [{ scope: 'market', target: 'total', min_stake: '5.00', max_stake: '1.00' }, 'min_stake'],
      [{ scope: 'player', target: '999999999' }, 'user_id'],
    ] as const) {
      const answer = await send('PUT', '/limits', body);
      expect(answer.status).toBe(400);
      expect(((await answer.json()) as { error: { error_data: { field: string } } }).error.error_data.field).toBe(field);
    }
  });

  it('exposure per market: parallel slips never take a market past its limit; a settled market frees its exposure', async () => {
    const send = backoffice();
    await send('PUT', '/limits', { scope: 'league', target: 'lim:exposed', currency: 'EUR', max_exposure: '100.00' });
    const home = offer('exposure', '1', '2.00', '1x2', 'lim:exposed');
    const players = await Promise.all(Array.from({ length: 4 }, () => bettor('100.00')));
    // Each slip returns 20.00: five fit under 100.00, whatever order the twelve arrive in.
    const attempts = await Promise.allSettled(players.flatMap((who) => [1, 2, 3].map(() => place(who, [home], '10.00'))));
    const placed = attempts.filter((item) => item.status === 'fulfilled');
    expect(placed).toHaveLength(5);
    for (const item of attempts)
      if (item.status === 'rejected')
        expect(isApiError(item.reason) && item.reason.errorData).toMatchObject({
          errorType: 'EXPOSURE_LIMIT',
          limit: '10000',
          scope: 'league',
          available: '0',
        });
    const staked = (await Promise.all(players.map(main))).reduce((sum, balance) => sum + amountToMinor('100.00') - balance, 0n);
    expect(staked).toBe(amountToMinor('50.00'));

    await inTransaction(t.db, (tx) =>
      book.onMarketEffects(tx, home.eventId, [
        { kind: 'settle', key: '1x2', certainty: 'confirmed', results: { '1': LOST, X: WON, '2': LOST }, correction: false },
      ]),
    );
    expect((await place(players[0]!, [home], '10.00')).ticket.status).toBe('open');
    const report = await checkLedger(t.db);
    expect(report, JSON.stringify(report)).toMatchObject({ isSound: true });
  });

  it('the operator sees a player’s debt after a rollback and can write it off; the ledger stays sound', async () => {
    const send = backoffice();
    const who = await bettor('10.00');
    const home = offer('debt', '1', '3.00');
    await place(who, [home], '10.00');
    const settle = (kindOf: 'settle' | 'rollback_settlement') =>
      inTransaction(t.db, (tx) =>
        book.onMarketEffects(tx, home.eventId, [
          kindOf === 'settle'
            ? { kind: 'settle', key: '1x2', certainty: 'confirmed', results: { '1': WON, X: LOST, '2': LOST }, correction: false }
            : { kind: 'rollback_settlement', key: '1x2' },
        ]),
      );
    await settle('settle');
    await t.services.wallet.transfer({
      siteId: who.siteId,
      userId: who.uid,
      kind: 'game_bet',
      currency: who.currency,
      amountMinor: amountToMinor('30.00'),
      legs: move(player(who.uid, 'main'), house('game', who.uid), amountToMinor('30.00')),
      idempotencyKey: `lim-spend:${kind}:${who.uid}`,
      actor: `player:${who.uid}`,
      reason: 'a casino round',
    });
    await settle('rollback_settlement');
    const listed = await send('GET', `/debts?user_id=${who.uid}`);
    const [debt] = ((await listed.json()) as { data: { id: number; owed: string; status: string; reference: string }[] }).data;
    expect(debt).toMatchObject({ owed: '30.00', status: 'open', reference: expect.stringMatching(/^sport:\d+:reversal:1$/) });

    const written = await send('POST', `/debts/${debt!.id}/write-off`, { reason: 'goodwill after a feed error' });
    expect(((await written.json()) as { data: unknown }).data).toMatchObject({
      status: 'written_off',
      owed: '0.00',
      written_off: '30.00',
    });
    expect(await t.services.debts.owed(who.siteId, who.uid, who.currency)).toBe(0n);
    expect((await send('GET', `/debts?user_id=${who.uid}`)).status).toBe(200);
    expect((await send('POST', '/debts/0/write-off', {})).status).toBe(400);
    const report = await checkLedger(t.db);
    expect(report, JSON.stringify(report)).toMatchObject({ isSound: true });
  });

  it('a page of my bets asks the market store once for names and once for cash-out prices, whatever its length', async () => {
    const who = await bettor('100.00');
    const legs = [offer('list-a', '1', '2.00'), offer('list-b', '2', '3.00'), offer('list-c', 'X', '3.40')];
    for (const leg of legs) await place(who, [leg], '1.00');
    await place(who, [legs[0]!, legs[1]!], '1.00', { betType: { kind: 'multiple' } });
    calls.current = 0;
    calls.describe = 0;
    const page = await book.list(who.siteId, who.uid, { status: 'all', offset: 0, count: 10 });
    expect(page).toHaveLength(4);
    expect(page.every((ticket) => ticket.cash_out !== null)).toBe(true);
    expect(page[0]?.legs.map((leg) => leg.event_name)).toEqual([legs[0]!.eventId, legs[1]!.eventId]);
    expect(calls).toEqual({ current: 1, describe: 1 });
  });
});
