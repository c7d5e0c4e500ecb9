/**
 * The demo game aggregator against our seamless wallet, each its own server over real HTTP
 * (issue 15: "it moves money only by calling our seamless wallet over signed HTTP …, retrying on
 * timeouts, sometimes sending duplicates, and rolling back rounds it could not finish — so every
 * wallet rule is exercised by a real client"; docs/game-aggregator.md). Each test names the rule
 * it checks and compares the player's balance with what the rounds' answers add up to.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/api-harness';
import { testDatabaseKinds } from '../../test/databases';
import { startAggregatorRig, type AggregatorRig } from '../../test/aggregator';
import { signedInPlayer, Browser } from '../../test/player';
import { fundPlayer } from '../../test/host-player';
import { checkLedger } from '../modules/wallet';
import { DEMO_PROVIDER, signBody, SIGNATURE_HEADER } from '../modules/provider-wallet';
import type { GameHistoryItem, GamesPage } from '#common/contract';
import { hostedTitleIds } from './titles';

interface RoundAnswer {
  round: { id: string; done: boolean; view: unknown; stake: string; win: string };
  balance: string;
}

async function play(
  launchUrl: string,
  input: unknown,
): Promise<{ status: number; body: RoundAnswer & { error?: { code: string } } }> {
  const response = await fetch(`${launchUrl}/rounds`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ input }),
  });
  return { status: response.status, body: (await response.json()) as never };
}

describe.each(testDatabaseKinds())('the demo aggregator on our wallet, on %s', (kind) => {
  let t: TestApp;
  let rig: AggregatorRig;
  let siteId: string;
  let currency: string;

  beforeAll(async () => {
    t = await createTestApp(kind);
    rig = await startAggregatorRig(t, { AGGREGATOR_WALLET_TIMEOUT_MS: '10000' });
    const site = await t.services.sites.resolveSite('127.0.0.1');
    siteId = site.id;
    currency = site.defaultCurrency;
  });
  afterAll(async () => {
    await rig?.close();
    await t?.close();
  });

  async function funded(amount: string) {
    const player = await signedInPlayer(rig.viaHttp);
    if (amount !== '0') await fundPlayer(t, { uid: player.uid, siteId, currency }, amount);
    return player;
  }

  async function launch(browser: Browser, sysname: string, mode: 'real' | 'demo' = 'real'): Promise<string> {
    return browser.data<{ url: string }>(await browser.call('games.launch', { sysname, mode })).url;
  }
  /** A launch through another rig's aggregator: the site is pointed at it first. */
  async function launchOn(other: AggregatorRig, browser: Browser, sysname: string): Promise<string> {
    t.services.gameLaunch.connect({ url: other.aggregator.url, provider: DEMO_PROVIDER });
    return launch(browser, sysname);
  }
  async function fundedOn(other: AggregatorRig, amount: string) {
    const player = await signedInPlayer(other.viaHttp);
    await fundPlayer(t, { uid: player.uid, siteId, currency }, amount);
    return player;
  }

  const mainOf = async (uid: number) => (await t.services.wallet.balances(siteId, uid, currency)).main;
  const roundIdsOf = (action: string, roundId: string) =>
    rig.seen.filter((request) => request.action === action && request.body.round_id === roundId);

  it('launch: games.launch answers the aggregator’s game URL; real money authenticates the wallet session (issue 15)', async () => {
    const { browser } = await funded('10.00');
    const url = await launch(browser, 'fox-fortune');
    expect(url.startsWith(`${rig.aggregator.url}/play/`)).toBe(true);
    const page = await fetch(url);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('/assets/client.js');
    // Only the site that launched may frame the game.
    expect(page.headers.get('content-security-policy')).toContain(`frame-ancestors ${rig.siteUrl}`);
    const state = (await (await fetch(`${url}/state`)).json()) as { mode: string; balance: string; currency: string };
    expect(state).toMatchObject({ mode: 'real', balance: '1000', currency });
  });

  it('launch refusals: an in-house or unknown game is an invalid sysname, real money needs a player, an unsigned launch is refused', async () => {
    const anonymous = new Browser(rig.viaHttp);
    expect((await anonymous.call('games.launch', { sysname: 'dice-roll', mode: 'demo' })).json.error).toMatchObject({
      type: 'InvalidParameterException',
      error_data: { field: 'sysname' },
    });
    expect((await anonymous.call('games.launch', { sysname: 'no-such-game', mode: 'demo' })).json.error?.type).toBe(
      'InvalidParameterException',
    );
    expect((await anonymous.call('games.launch', { sysname: 'fox-fortune', mode: 'real' })).json.error?.type).toBe(
      'AuthorizationException',
    );
    const body = JSON.stringify({
      operator: DEMO_PROVIDER.name,
      game_id: 'fox-fortune',
      mode: 'demo',
      currency,
      language: 'en',
      return_url: `${rig.siteUrl}/game/fox-fortune`,
      wallet_url: rig.siteUrl,
    });
    const unsigned = await fetch(`${rig.aggregator.url}/api/v1/launch`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', [SIGNATURE_HEADER]: signBody('not-the-secret-0123456789', body) },
      body,
    });
    expect(unsigned.status).toBe(401);
    // A wallet URL off the loopback is refused even with the right signature (the demo key is published).
    const elsewhere = body
      .replace(rig.siteUrl, 'http://wallet.example.com')
      .replace(`"wallet_url":"${rig.siteUrl}"`, '"wallet_url":"http://wallet.example.com"');
    const refused = await fetch(`${rig.aggregator.url}/api/v1/launch`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', [SIGNATURE_HEADER]: signBody(DEMO_PROVIDER.secret, elsewhere) },
      body: elsewhere,
    });
    expect(refused.status).toBe(403);
  });

  it('a real-money slot round: bet, win (also of nothing) and round end reach the wallet; the balance is what the round says; it shows in history and the export', async () => {
    const { browser, uid } = await funded('20.00');
    const url = await launch(browser, 'fox-fortune');
    const { status, body } = await play(url, { stake: '100' });
    expect(status).toBe(200);
    expect(body.round.done).toBe(true);
    const expected = 2000n - 100n + BigInt(body.round.win);
    expect(BigInt(body.balance)).toBe(expected);
    expect(await mainOf(uid)).toBe(expected);
    expect(roundIdsOf('bet', body.round.id)).toHaveLength(1);
    expect(roundIdsOf('win', body.round.id).map((request) => request.body.amount)).toEqual([Number(body.round.win)]);
    expect(roundIdsOf('round-end', body.round.id)).toHaveLength(1);

    // History (/profile/bets): the provider round with its stake and payout, as an in-house round.
    const history = browser.data<{ items: GameHistoryItem[] }>(await browser.call('games.getHistory', {}, 'GET'));
    expect(history.items[0]).toMatchObject({
      kind: 'provider',
      sysname: 'fox-fortune',
      status: 'settled',
      stake: { amount: '1.00', currency },
      payout: { amount: (Number(body.round.win) / 100).toFixed(2), currency },
    });
    const requested = browser.data<{ id: string }>(await browser.call('games.createhistoryexportrequest', {}));
    await t.services.gameHistory.makeExport(Number(requested.id));
    const file = await t.services.gameHistory.findFile({ siteId, userId: uid }, Number(requested.id));
    expect(file?.csv.split('\n')[1]).toMatch(/,fox-fortune,settled,[A-Z]{3},1\.00,/);
    expect(file?.csv).toContain(',provider,');
  });

  it('every title of this branch plays one real round with its own input (slots, cluster, plinko, keno)', async () => {
    const { browser, uid } = await funded('50.00');
    let balance = 5000n;
    for (const [sysname, input] of [
      ['red-hot-sevens', { stake: '100' }],
      ['frozen-fjord', { stake: '100' }],
      ['midnight-aurora', { stake: '100' }],
      ['viking-gold', { stake: '100' }],
      ['polar-pearls', { stake: '100' }],
      ['sugar-blast', { stake: '100' }],
      ['plinko-drop', { stake: '100', risk: 'high' }],
      ['snowball-keno', { stake: '100', picks: [1, 2, 3, 4, 5] }],
    ] as const) {
      const { status, body } = await play(await launch(browser, sysname), input);
      expect(status, sysname).toBe(200);
      balance += BigInt(body.round.win) - 100n;
      expect(BigInt(body.balance), sysname).toBe(balance);
    }
    expect(await mainOf(uid)).toBe(balance);
    expect(await play(await launch(browser, 'plinko-drop'), { stake: '100', risk: 'extreme' })).toMatchObject({
      status: 400,
      body: { error: { code: 'INVALID_INPUT' } },
    });
  });

  it('insufficient funds: the wallet refuses the bet, the client is told, nothing moves (docs/provider-wallet.md INSUFFICIENT_FUNDS)', async () => {
    const { browser, uid } = await funded('0.50');
    const url = await launch(browser, 'viking-gold');
    expect(await play(url, { stake: '100' })).toMatchObject({ status: 402, body: { error: { code: 'INSUFFICIENT_FUNDS' } } });
    expect(await mainOf(uid)).toBe(50n);
  });

  it('a self-excluded player: the launch stands but every bet is refused as PLAYER_BLOCKED (responsible gaming)', async () => {
    const { browser, uid } = await funded('10.00');
    const url = await launch(browser, 'polar-pearls');
    await t.services.responsibleGaming.exclude(uid, 'self_exclusion', new Date(Date.now() + 86_400_000));
    expect(await play(url, { stake: '100' })).toMatchObject({ status: 403, body: { error: { code: 'PLAYER_BLOCKED' } } });
    expect(await mainOf(uid)).toBe(1000n);
  });

  describe('over a slow network (wallet timeout 400 ms, 3 attempts)', () => {
    let timeoutRig: AggregatorRig;
    beforeAll(async () => {
      timeoutRig = await startAggregatorRig(t, { AGGREGATOR_WALLET_TIMEOUT_MS: '400', AGGREGATOR_WALLET_ATTEMPTS: '3' });
    });
    afterAll(async () => {
      await timeoutRig?.close();
      t.services.gameLaunch.connect({ url: rig.aggregator.url, provider: DEMO_PROVIDER });
    });

    it('a bet answered too late is sent again with the same transaction id, and the money moves once', async () => {
      const { browser, uid } = await fundedOn(timeoutRig, '10.00');
      const url = await launchOn(timeoutRig, browser, 'fox-fortune');
      timeoutRig.delay({ action: 'bet', delayMs: 600, times: 1 });
      const { status, body } = await play(url, { stake: '200' });
      expect(status).toBe(200);
      const bets = timeoutRig.seen.filter((request) => request.action === 'bet' && request.body.round_id === body.round.id);
      expect(bets.length).toBeGreaterThanOrEqual(2);
      expect(new Set(bets.map((request) => request.body.transaction_id)).size).toBe(1);
      expect(await mainOf(uid)).toBe(1000n - 200n + BigInt(body.round.win));
    });

    it('a bet whose fate stays unknown is rolled back: the stake comes back and the player is told', async () => {
      const { browser, uid } = await fundedOn(timeoutRig, '10.00');
      const url = await launchOn(timeoutRig, browser, 'frozen-fjord');
      // Every attempt is held past the timeout, but each reaches the wallet: the bet lands unseen.
      timeoutRig.delay({ action: 'bet', delayMs: 700, times: 3 });
      const { status, body } = await play(url, { stake: '300' });
      expect(status).toBe(503);
      expect(body.error?.code).toBe('WALLET_UNAVAILABLE');
      // The held-back copies land after the rollback or are refused by its tombstone: either way nothing stays taken.
      await new Promise((resolve) => setTimeout(resolve, 900));
      expect(timeoutRig.seen.some((request) => request.action === 'rollback')).toBe(true);
      expect(await mainOf(uid)).toBe(1000n);
      expect(await checkLedger(t.db)).toMatchObject({ isSound: true });
    });
  });

  it('duplicates sent on purpose get the first answer back and move nothing more', async () => {
    const twin = await startAggregatorRig(t, { AGGREGATOR_DUPLICATE_RATE: '1' });
    try {
      const { browser, uid } = await signedInPlayer(twin.viaHttp);
      await fundPlayer(t, { uid, siteId, currency }, '10.00');
      const url = await launch(browser, 'red-hot-sevens');
      const { body } = await play(url, { stake: '100' });
      const bets = twin.seen.filter((request) => request.action === 'bet' && request.body.round_id === body.round.id);
      expect(bets).toHaveLength(2);
      expect(bets[0]?.body).toEqual(bets[1]?.body);
      expect(await mainOf(uid)).toBe(1000n - 100n + BigInt(body.round.win));
    } finally {
      await twin.close();
      t.services.gameLaunch.connect({ url: rig.aggregator.url, provider: DEMO_PROVIDER });
    }
  });

  it('demo mode plays on the session’s fun balance and calls no wallet', async () => {
    const anonymous = new Browser(rig.viaHttp);
    const url = await launch(anonymous, 'snowball-keno', 'demo');
    const before = rig.seen.length;
    const { status, body } = await play(url, { stake: '1000', picks: [5, 10, 15] });
    expect(status).toBe(200);
    expect(BigInt(body.balance)).toBe(100_000n - 1000n + BigInt(body.round.win));
    expect(rig.seen.length).toBe(before);
  });

  it('race: parallel rounds for one player in several sessions never spend more than the balance, and the ledger stays sound', async () => {
    const { browser, uid } = await funded('5.00');
    const urls = await Promise.all(['fox-fortune', 'viking-gold', 'sugar-blast'].map((sysname) => launch(browser, sysname)));
    const answers = await Promise.all(urls.flatMap((url) => Array.from({ length: 6 }, () => play(url, { stake: '100' }))));
    const played = answers.filter((answer) => answer.status === 200);
    const refused = answers.filter((answer) => answer.status !== 200);
    expect(refused.map((answer) => answer.body.error?.code).filter((code) => code !== 'INSUFFICIENT_FUNDS')).toEqual([]);
    expect(played.length).toBeGreaterThan(0);
    const expected = played.reduce((sum, answer) => sum - 100n + BigInt(answer.body.round.win), 500n);
    expect(await mainOf(uid)).toBe(expected);
    expect(expected).toBeGreaterThanOrEqual(0n);
    expect(await checkLedger(t.db)).toMatchObject({ isSound: true });
  });

  it('availability: the titles the aggregator serves are listed; when it is down they leave the lobby, search and counts', async () => {
    const list = async () => (await t.api('games.get', { params: { count: '300' } })).body.data as GamesPage;
    t.services.gameLaunch.forgetHealth();
    const up = (await list()).items.map((game) => game.sysname);
    expect(up).toContain('fox-fortune');
    expect(up).toContain('snowball-keno');
    t.services.gameLaunch.connect({ url: 'http://127.0.0.1:9', provider: DEMO_PROVIDER });
    try {
      const down = await list();
      expect(down.items.map((game) => game.sysname)).not.toContain('fox-fortune');
      // Every title the aggregator hosts (player titles and live tables) leaves the list.
      expect(down.total).toBe(up.length - hostedTitleIds().length);
      expect((await t.api('games.get', { params: { query: 'fox' } })).body.data).toMatchObject({ total: 0 });
      const providers = (await t.api('games.getProviders')).body.data as { sysname: string }[];
      expect(providers.map((provider) => provider.sysname)).toEqual(['in-house']);
    } finally {
      t.services.gameLaunch.connect({ url: rig.aggregator.url, provider: DEMO_PROVIDER });
    }
  });
});
