/**
 * Elapsed session time and net position shown while playing (accounts issue, responsible
 * gaming): responsibleGaming.getSessionSummary reports the real-money game transfers of the
 * current sign-in only, on a real database.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { amountToMinor, minorToAmount } from '#common/money';
import { createTestApp, type TestApp } from '../../../test/api-harness';
import { testDatabaseKinds } from '../../../test/databases';
import { fundPlayer } from '../../../test/host-player';
import { Browser, signedInPlayer } from '../../../test/player';
import { house, move, player } from '../wallet';

interface Summary {
  session_started_at: string;
  elapsed_seconds: number;
  staked: { amount: string; currency: string };
  returned: { amount: string; currency: string };
  net_position: { amount: string; currency: string };
  game_transfers: number;
}
interface PlayAnswer {
  round: { stake: { amount: string }; payout: { amount: string } };
}

describe.each(testDatabaseKinds())('play session summary on %s', (kind) => {
  let t: TestApp;
  let siteId: string;
  let currency: string;
  let sequence = 0;

  beforeAll(async () => {
    t = await createTestApp(kind);
    const site = await t.services.sites.resolveSite('127.0.0.1');
    siteId = site.id;
    currency = site.defaultCurrency;
  });
  afterAll(() => t.close());

  const fund = (uid: number, amount: string) => fundPlayer(t, { uid, siteId, currency }, amount);

  async function rollDice(browser: Browser, mode: 'real' | 'demo'): Promise<PlayAnswer> {
    const bet = JSON.stringify({ stake: '1.00', direction: 'under', target: '49.50' });
    return browser.data<PlayAnswer>(
      await browser.call('games.play', { sysname: 'dice-roll', mode, bet, request_id: `summary-${sequence++}` }),
    );
  }

  const summary = async (browser: Browser) =>
    browser.data<Summary>(await browser.call('responsibleGaming.getSessionSummary', {}, 'GET'));

  it('is refused to an anonymous visitor (spec §4: only signed-in players)', async () => {
    const answer = await new Browser(t).call('responsibleGaming.getSessionSummary', {}, 'GET');
    expect(answer.json.error?.type).toBe('AuthorizationException');
  });

  it('starts at the sign-in with nothing played: elapsed time from the session, net position zero', async () => {
    const { browser } = await signedInPlayer(t);
    const view = await summary(browser);
    expect(Date.now() - Date.parse(view.session_started_at)).toBeLessThan(60_000);
    expect(view.elapsed_seconds).toBeGreaterThanOrEqual(0);
    expect(view.net_position).toEqual({ amount: '0.00', currency });
    expect(view.game_transfers).toBe(0);
  });

  it('net position is the sum of real rounds played in this session; deposits and demo rounds do not count', async () => {
    const { browser, uid } = await signedInPlayer(t);
    await fund(uid, '50.00');
    const rounds: PlayAnswer[] = [];
    for (let index = 0; index < 6; index++) rounds.push(await rollDice(browser, 'real'));
    await rollDice(browser, 'demo');
    const staked = rounds.reduce((sum, round) => sum + amountToMinor(round.round.stake.amount), 0n);
    const paid = rounds.reduce((sum, round) => sum + amountToMinor(round.round.payout.amount), 0n);
    const view = await summary(browser);
    expect(view.staked.amount).toBe(minorToAmount(staked));
    expect(view.returned.amount).toBe(minorToAmount(paid));
    expect(view.net_position.amount).toBe(minorToAmount(paid - staked));
    expect(view.game_transfers).toBe(rounds.length + rounds.filter((round) => round.round.payout.amount !== '0.00').length);
  });

  it('net position counts an external provider game’s bet and win as play (issue 5 seamless wallet); a bonus grant is not play', async () => {
    const { browser, uid } = await signedInPlayer(t);
    await fund(uid, '30.00');
    const ledgerMove = (kind: string, legs: ReturnType<typeof move>, amountMinor: bigint) =>
      t.services.wallet.transfer({
        siteId,
        userId: uid,
        kind,
        currency,
        amountMinor,
        legs,
        idempotencyKey: `summary-provider:${uid}:${sequence++}`,
        actor: 'provider:demo-aggregator',
        reason: 'provider round',
      });
    await ledgerMove('provider_bet', move(player(uid, 'main'), house('game', uid), 500n), 500n);
    await ledgerMove('provider_win', move(house('game', uid), player(uid, 'main'), 200n), 200n);
    await ledgerMove('bonus_grant', move(house('bonus_cost', uid), player(uid, 'bonus'), 1000n), 1000n);
    const view = await summary(browser);
    expect(view.staked.amount).toBe('5.00');
    expect(view.returned.amount).toBe('2.00');
    expect(view.net_position.amount).toBe('-3.00');
    expect(view.game_transfers).toBe(2);
  });

  it('a new sign-in starts a new session: earlier play is not in its net position', async () => {
    const first = await signedInPlayer(t);
    await fund(first.uid, '20.00');
    await rollDice(first.browser, 'real');
    expect((await summary(first.browser)).game_transfers).toBeGreaterThan(0);
    const second = new Browser(t);
    second.data(await second.call('auth.login', { login: first.login, password: first.password }));
    const view = await summary(second);
    expect(view.game_transfers).toBe(0);
    expect(view.net_position.amount).toBe('0.00');
  });
});
