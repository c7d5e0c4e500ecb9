/**
 * The home page's recent big wins (issue 15: "recent big wins" from real settled rounds;
 * games.getWinners): real dice rounds played through games.play on a real database; the list
 * holds the real-money rounds that paid at least BIG_WIN_MULTIPLIER stakes, newest first, and
 * names no player (spec §3 fakename: only a masked fake name, never the login).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { desc, eq } from 'drizzle-orm';
import { minorToAmount } from '#common/money';
import type { GameWinnersPage } from '#common/contract';
import { createTestApp, type TestApp } from '../../../test/api-harness';
import { testDatabaseKinds } from '../../../test/databases';
import { fundPlayer, hostPlayer, type HostBrowser } from '../../../test/host-player';
import { gameRounds, users } from '../../db/schema';
import { BIG_WIN_MULTIPLIER, maskedFakename, winMultiplier } from './big-wins';

const DICE = 'dice-roll';
const HOST = '127.0.0.1';

describe('big win display rules', () => {
  it('a player shows only as the first two letters of the fake name and stars, or not at all', () => {
    expect(maskedFakename('luckystar')).toBe('lu***');
    expect(maskedFakename('  Zoë9 ')).toBe('Zo***');
    expect(maskedFakename('')).toBeNull();
  });

  it('the multiplier is payout ÷ stake rounded down to a tenth', () => {
    expect(winMultiplier(100n, 660n)).toBe(6.6);
    expect(winMultiplier(30n, 199n)).toBe(6.6);
    expect(winMultiplier(100n, 0n)).toBe(0);
  });
});

describe.each(testDatabaseKinds())('games.getWinners on %s', (kind) => {
  let t: TestApp;
  let sequence = 0;
  beforeAll(async () => {
    t = await createTestApp(kind);
  });
  afterAll(() => t.close());

  /** A dice round "under target": under 15.00 pays 6.6 stakes (a big win), under 50.00 pays 1.98. */
  const roll = async (browser: HostBrowser, mode: 'real' | 'demo', target: string) =>
    browser.data<{ round: { payout: { amount: string } } }>(
      await browser.call('games.play', {
        sysname: DICE,
        mode,
        bet: JSON.stringify({ stake: '0.10', direction: 'under', target }),
        request_id: `big-win-${sequence++}`,
      }),
    );

  /** Plays until `wins` rounds of the target won (each wins with a fixed chance: the loop ends with certainty). */
  async function playUntilWins(browser: HostBrowser, mode: 'real' | 'demo', target: string, wins: number) {
    for (let won = 0; won < wins;) if (Number((await roll(browser, mode, target)).round.payout.amount) > 0) won++;
  }

  it('lists real-money rounds that paid at least five stakes, newest first, with the game name in the locale and no player named', async () => {
    const named = await hostPlayer(t, HOST);
    const unnamed = await hostPlayer(t, HOST);
    for (const who of [named, unnamed]) await fundPlayer(t, who, '100.00');
    named.browser.data(await named.browser.call('account.changefakename', { fakename: 'luckystar' }));
    await playUntilWins(named.browser, 'real', '15.00', 2);
    await playUntilWins(unnamed.browser, 'real', '15.00', 1);
    // Small wins and play-money wins are not big wins of the site.
    await playUntilWins(named.browser, 'real', '50.00', 2);
    await playUntilWins(named.browser, 'demo', '15.00', 1);

    const big = (await t.db.select().from(gameRounds).where(eq(gameRounds.sysname, DICE)).orderBy(desc(gameRounds.settledAt)))
      .filter((row) => row.mode === 'real' && row.payoutMinor >= row.stakeMinor * BigInt(BIG_WIN_MULTIPLIER))
      .filter((row) => row.userId === named.uid || row.userId === unnamed.uid);
    expect(big.length).toBe(3);

    const answer = await t.api('games.getWinners', { params: { count: '50' } });
    const { items } = answer.body.data as GameWinnersPage;
    const ours = items.filter((item) => big.some((row) => String(row.id) === item.id));
    expect(ours.map((item) => item.id)).toEqual(big.map((row) => String(row.id)));
    for (const item of items) expect(item.multiplier).toBeGreaterThanOrEqual(BIG_WIN_MULTIPLIER);
    for (const row of big) {
      const item = ours.find((candidate) => candidate.id === String(row.id))!;
      expect(item.sysname).toBe(DICE);
      expect(item.game_name).toBe('Dice');
      expect(item.payout).toEqual({ amount: minorToAmount(row.payoutMinor), currency: row.currency });
      expect(item.multiplier).toBe(winMultiplier(row.stakeMinor, row.payoutMinor));
      expect(item.player).toBe(row.userId === named.uid ? 'lu***' : null);
    }
    // Nothing that finds the player leaves the server: no login, no uid.
    const logins = await t.db.select({ login: users.login }).from(users).where(eq(users.id, named.uid));
    const text = JSON.stringify(answer.body);
    expect(text).not.toContain(logins[0]!.login);
    expect(text).not.toContain('luckystar');
    expect(Object.keys(ours[0]!).sort()).toEqual(['game_name', 'id', 'multiplier', 'payout', 'player', 'settled_at', 'sysname']);

    // The same wins in Italian carry the Italian name.
    const italian = (await t.api('games.getWinners', { params: { count: '50' }, locale: 'it' })).body.data as GameWinnersPage;
    expect(italian.items.find((item) => item.id === ours[0]!.id)?.game_name).toBe('Dadi');
  });

  it('a count outside 1 … 50 is InvalidParameterException naming count', async () => {
    for (const count of ['0', '51', 'x']) {
      const answer = await t.api('games.getWinners', { params: { count } });
      expect(answer.body.error?.type).toBe('InvalidParameterException');
    }
  });
});
