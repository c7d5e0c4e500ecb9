/**
 * Loyalty on a real database (issue 3 "success loads profile and loyalty info", "character
 * select" in the sign-up form; spec §3 loyalty info and characters list, §4 "loyalty characters
 * are set on the server, then info is refetched", §6 only authenticated users load loyalty info,
 * §7 loyalty.getinfo, getcharacters, setcharacter).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asc, eq } from 'drizzle-orm';
import { amountToMinor } from '#common/money';
import { levelOf, type LoyaltyCharacterList, type LoyaltyInfo } from '#common/loyalty-contract';
import { createTestApp, type TestApp } from '../../../test/api-harness';
import { testDatabaseKinds } from '../../../test/databases';
import { defaultSiteSeed } from '../../../test/fixtures';
import { fundPlayer, hostPlayer } from '../../../test/host-player';
import { Browser, uniqueEmail } from '../../../test/player';
import { house, move, player } from '../wallet';
import { loyaltyProgramme } from './programme';
import { loyaltyAccounts, loyaltyPointEntries } from './tables';

const HOST = '127.0.0.1';
const DICE = 'dice-roll';
const programme = loyaltyProgramme(defaultSiteSeed().settings ?? {});

describe.each(testDatabaseKinds())('loyalty on %s', (kind) => {
  let t: TestApp;
  let sequence = 0;

  beforeAll(async () => {
    t = await createTestApp(kind);
  });
  afterAll(() => t.close());

  const accrueNow = () => t.services.loyalty.accrue({ settledBeforeMs: 0 });

  async function fundedPlayer(amount: string) {
    const who = await hostPlayer(t, HOST);
    await fundPlayer(t, who, amount);
    return who;
  }

  async function accountRow(uid: number) {
    const [row] = await t.db.select().from(loyaltyAccounts).where(eq(loyaltyAccounts.userId, uid));
    return row;
  }

  it('the demo site runs a programme with levels from 0 and characters (content/sites.json)', () => {
    expect(programme.isEnabled).toBe(true);
    expect(programme.levels[0]?.min_points).toBe(0);
    expect(programme.levels.length).toBeGreaterThan(1);
    expect(programme.characters.length).toBeGreaterThan(1);
  });

  it('§6: an anonymous visitor cannot load loyalty info', async () => {
    const answer = await t.api('loyalty.getinfo');
    expect(answer.status).toBe(401);
    expect(answer.body.error?.type).toBe('AuthorizationException');
  });

  it('§3: a new player has loyalty info with the first level, no points, the site points alias and no character', async () => {
    const { browser, uid } = await hostPlayer(t, HOST);
    const info = browser.data<LoyaltyInfo>(await browser.call('loyalty.getinfo', {}, 'GET'));
    expect(info).toMatchObject({
      uid,
      is_active: true,
      points: 0,
      experience: 0,
      character: null,
      pointsAlias: 'points',
      levels: programme.levels,
      level: programme.levels[0],
    });
    expect(info.progress).toEqual({ minValue: 0, maxValue: programme.levels[1]?.min_points, expCount: 0 });
    expect(info.id).toBe((await accountRow(uid))?.id);
  });

  it('§3 characters list: items, offset, limit, total, public for the sign-up form', async () => {
    const all = await t.api('loyalty.getcharacters');
    expect(all.body.data).toEqual({ items: programme.characters, offset: 0, limit: 100, total: programme.characters.length });
    const page = (await t.api('loyalty.getcharacters', { params: { offset: '1', limit: '1' } })).body
      .data as LoyaltyCharacterList;
    expect(page).toEqual({ items: [programme.characters[1]], offset: 1, limit: 1, total: programme.characters.length });
    expect((await t.api('loyalty.getcharacters', { params: { limit: '0' } })).body.error?.type).toBe('InvalidParameterException');
  });

  it('§4: setcharacter answers 1 and the refetched info carries the character; an unknown id is refused and changes nothing', async () => {
    const { browser, uid } = await hostPlayer(t, HOST);
    const [first, second] = programme.characters;
    expect(browser.data(await browser.call('loyalty.setcharacter', { id: String(first!.id) }))).toBe(1);
    expect(browser.data<LoyaltyInfo>(await browser.call('loyalty.getinfo', {}, 'GET')).character).toEqual(first);
    expect(browser.data(await browser.call('loyalty.setcharacter', { id: String(second!.id) }))).toBe(1);
    expect(browser.data<LoyaltyInfo>(await browser.call('loyalty.getinfo', {}, 'GET')).character).toEqual(second);
    for (const id of ['999', 'fox', '-1', '']) {
      const refused = await browser.call('loyalty.setcharacter', { id });
      expect(refused.json.error, id).toMatchObject({ type: 'InvalidParameterException', error_data: { field: 'id' } });
    }
    expect((await accountRow(uid))?.characterId).toBe(second!.id);
    expect((await t.api('loyalty.setcharacter', { method: 'POST', params: { id: String(first!.id) } })).body.error?.type).toBe(
      'AuthorizationException',
    );
  });

  it('registration: the character picked in the form is the account character; an unknown one refuses the sign-up and creates no account', async () => {
    const character = programme.characters.at(-1)!;
    const browser = new Browser(t);
    const login = uniqueEmail();
    browser.data(
      await browser.call('auth.register', { login, password: 'secret12', terms: '1', character: String(character.id) }),
    );
    expect(browser.data<LoyaltyInfo>(await browser.call('loyalty.getinfo', {}, 'GET')).character).toEqual(character);

    const refused = new Browser(t);
    const refusedLogin = uniqueEmail();
    const answer = await refused.call('auth.register', {
      login: refusedLogin,
      password: 'secret12',
      terms: '1',
      character: '999',
    });
    expect(answer.json.error).toMatchObject({ type: 'InvalidParameterException', error_data: { field: 'character' } });
    expect(await t.services.accounts.findUserByLogin('aurora', refusedLogin)).toBeUndefined();
  });

  it('earns a point per whole wager_minor_per_point of real play, from the running total, and climbs a level', async () => {
    const who = await fundedPlayer('100.00');
    const rate = programme.wagerMinorPerPoint[who.currency]!;
    // Stakes that are not whole multiples of the rate: points come from the total, not per bet.
    const stakes = ['0.70', '0.70', '0.70', '2.35'];
    for (const stake of stakes)
      who.browser.data(
        await who.browser.call('games.play', {
          sysname: DICE,
          mode: 'real',
          bet: JSON.stringify({ stake, direction: 'under', target: '50.00' }),
          request_id: `loyal-${sequence++}`,
        }),
      );
    // With the sites cache cold: the accrual must read settings before its transaction (PGlite has one connection).
    t.services.sites.invalidate();
    await accrueNow();
    const wagered = stakes.reduce((sum, stake) => sum + amountToMinor(stake), 0n);
    const expected = Number(wagered / rate);
    const info = who.browser.data<LoyaltyInfo>(await who.browser.call('loyalty.getinfo', {}, 'GET'));
    expect(info).toMatchObject({ points: expected, experience: expected, level: levelOf(programme.levels, expected) });

    // A second run finds nothing new: every stake is counted once.
    await accrueNow();
    expect(who.browser.data<LoyaltyInfo>(await who.browser.call('loyalty.getinfo', {}, 'GET')).points).toBe(expected);

    // Enough wagering for the second level.
    const second = programme.levels[1]!;
    const needed = BigInt(second.min_points - expected) * rate;
    await fundPlayer(t, who, (Number(needed) / 100).toFixed(2));
    await t.services.wallet.transfer({
      siteId: who.siteId,
      userId: who.uid,
      kind: 'provider_bet',
      currency: who.currency,
      amountMinor: needed,
      legs: move(player(who.uid, 'main'), house('game', who.uid), needed),
      idempotencyKey: `loyal-bet-${sequence++}`,
      actor: 'provider:test',
      reason: 'test bet',
    });
    await accrueNow();
    const climbed = who.browser.data<LoyaltyInfo>(await who.browser.call('loyalty.getinfo', {}, 'GET'));
    expect(climbed.level).toEqual(second);
    expect(climbed.progress.minValue).toBe(second.min_points);
  });

  it('earns nothing for demo play; a provider bet rolled back takes its points back', async () => {
    const who = await fundedPlayer('50.00');
    const rate = programme.wagerMinorPerPoint[who.currency]!;
    who.browser.data(
      await who.browser.call('games.play', {
        sysname: DICE,
        mode: 'demo',
        bet: JSON.stringify({ stake: '5.00', direction: 'under', target: '50.00' }),
        request_id: `loyal-${sequence++}`,
      }),
    );
    const stake = rate * 20n;
    const common = {
      siteId: who.siteId,
      userId: who.uid,
      currency: who.currency,
      amountMinor: stake,
      actor: 'provider:test',
      reason: 'test',
    };
    const bet = () =>
      t.services.wallet.transfer({
        ...common,
        kind: 'provider_bet',
        legs: move(player(who.uid, 'main'), house('game', who.uid), stake),
        idempotencyKey: `loyal-bet-${sequence++}`,
      });
    const rollback = () =>
      t.services.wallet.transfer({
        ...common,
        kind: 'provider_rollback',
        legs: move(house('game', who.uid), player(who.uid, 'main'), stake),
        idempotencyKey: `loyal-rollback-${sequence++}`,
      });
    // Read through the service: the account may not exist until the first look.
    const pointsAfterAccrual = async () => {
      await accrueNow();
      const info = await t.services.loyalty.info(who.siteId, who.uid);
      return [info.points, info.experience];
    };
    // A bet and its rollback counted in one run: they cancel out.
    await bet();
    await rollback();
    expect(await pointsAfterAccrual()).toEqual([0, 0]);
    // A bet counted, then rolled back in a later run: its points are taken back.
    await bet();
    expect(await pointsAfterAccrual()).toEqual([20, 20]);
    await rollback();
    expect(await pointsAfterAccrual()).toEqual([0, 0]);
    // The next bet of the same size earns them again.
    await bet();
    expect(await pointsAfterAccrual()).toEqual([20, 20]);
    const account = await accountRow(who.uid);
    const entries = await t.db
      .select()
      .from(loyaltyPointEntries)
      .where(eq(loyaltyPointEntries.accountId, account!.id))
      .orderBy(asc(loyaltyPointEntries.id));
    expect(entries.map((entry) => [entry.reason, entry.pointsDelta])).toEqual([
      ['wager', 20n],
      ['wager_rollback', -20n],
      ['wager', 20n],
    ]);
  });
});
