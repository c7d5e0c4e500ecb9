/**
 * Favourite games through the API (spec §4 "game favourite: adding or removing a like, then the
 * list is refetched"; §6 only authenticated users load favourites; §7 games.getLikes answers
 * data.sysnames, addLike and removeLike take a sysname).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GameLikes, GameRecord, GamesPage } from '#common/games-contract';
import { createTestApp, type TestApp } from '../../../test/api-harness';
import { testDatabaseKinds } from '../../../test/databases';
import { signedInPlayer } from '../../../test/player';

describe.each(testDatabaseKinds())('favourite games on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind);
  });
  afterAll(() => t.close());

  it('adding likes answers 1 and the refetched list holds them, newest first; liking twice keeps one', async () => {
    const { browser } = await signedInPlayer(t);
    expect(browser.data<GameLikes>(await browser.call('games.getLikes', {}, 'GET'))).toEqual({ sysnames: [] });
    expect(browser.data(await browser.call('games.addLike', { sysname: 'dice-roll' }))).toBe(1);
    expect(browser.data(await browser.call('games.addLike', { sysname: 'frozen-fjord' }))).toBe(1);
    expect(browser.data(await browser.call('games.addLike', { sysname: 'dice-roll' }))).toBe(1);
    expect(browser.data<GameLikes>(await browser.call('games.getLikes', {}, 'GET'))).toEqual({
      sysnames: ['frozen-fjord', 'dice-roll'],
    });
  });

  it('removing a like answers 1 and the refetched list no longer holds it; removing it again changes nothing', async () => {
    const { browser } = await signedInPlayer(t);
    for (const sysname of ['mines-field', 'crash-rocket']) browser.data(await browser.call('games.addLike', { sysname }));
    expect(browser.data(await browser.call('games.removeLike', { sysname: 'mines-field' }))).toBe(1);
    expect(browser.data<GameLikes>(await browser.call('games.getLikes', {}, 'GET')).sysnames).toEqual(['crash-rocket']);
    expect(browser.data(await browser.call('games.removeLike', { sysname: 'mines-field' }))).toBe(1);
    expect(browser.data<GameLikes>(await browser.call('games.getLikes', {}, 'GET')).sysnames).toEqual(['crash-rocket']);
  });

  it('an unknown or missing sysname is InvalidParameterException naming sysname, and nothing is stored', async () => {
    const { browser } = await signedInPlayer(t);
    for (const method of ['games.addLike', 'games.removeLike']) {
      const answer = await browser.call(method, { sysname: 'no-such-game' });
      expect(answer.status).toBe(400);
      expect(answer.json.error).toMatchObject({
        type: 'InvalidParameterException',
        error_data: { field: 'sysname' },
      });
      expect((await browser.call(method, {})).json.error).toMatchObject({
        type: 'InvalidParameterException',
        error_data: { field: 'sysname' },
      });
    }
    expect(browser.data<GameLikes>(await browser.call('games.getLikes', {}, 'GET')).sysnames).toEqual([]);
  });

  it('one player’s likes are theirs alone; each player sees is_liked on their own favourites only', async () => {
    const first = await signedInPlayer(t);
    const second = await signedInPlayer(t);
    first.browser.data(
      await first.browser.call('games.addLike', {
        sysname: 'blackjack-classic',
      }),
    );
    expect(second.browser.data<GameLikes>(await second.browser.call('games.getLikes', {}, 'GET')).sysnames).toEqual([]);
    const seenByFirst = first.browser.data<GamesPage>(
      await first.browser.call('games.get', { sysnames: 'blackjack-classic,dice-roll' }, 'GET'),
    );
    expect(Object.fromEntries(seenByFirst.items.map((item) => [item.sysname, item.is_liked]))).toEqual({
      'blackjack-classic': true,
      'dice-roll': false,
    });
    const seenBySecond = second.browser.data<GamesPage>(
      await second.browser.call('games.get', { sysnames: 'blackjack-classic' }, 'GET'),
    );
    expect(seenBySecond.items[0]?.is_liked).toBe(false);
  });

  it('options {"favorites":true} lists only the player’s likes, with paging totals and the other filters', async () => {
    const { browser } = await signedInPlayer(t);
    for (const sysname of ['aurora-fortune', 'european-roulette', 'golden-reels'])
      browser.data(await browser.call('games.addLike', { sysname }));
    const favourites = browser.data<GamesPage>(await browser.call('games.get', { options: '{"favorites":true}' }, 'GET'));
    expect(favourites.total).toBe(3);
    expect(favourites.items.map((item) => item.sysname)).toEqual(['aurora-fortune', 'golden-reels', 'european-roulette']);
    expect(favourites.items.every((item) => item.is_liked === true)).toBe(true);
    const slots = browser.data<GamesPage>(
      await browser.call('games.get', { options: '{"favorites":true}', types: 'slot', count: '1' }, 'GET'),
    );
    expect(slots).toMatchObject({
      total: 2,
      items: [{ sysname: 'aurora-fortune' }],
    });
    const projected = browser.data<GamesPage>(
      await browser.call('games.get', { options: '{"favorites":false}', fields: 'name', count: '2' }, 'GET'),
    );
    expect(projected.items.every((item) => Object.keys(item).join() === 'sysname,name')).toBe(true);
    const withLike = browser.data<GamesPage>(
      await browser.call('games.get', { fields: 'is_liked', sysnames: 'golden-reels' }, 'GET'),
    );
    expect(withLike.items).toEqual([{ sysname: 'golden-reels', is_liked: true }]);
  });

  it('an anonymous visitor cannot read or change likes (AuthorizationException) and sees no is_liked', async () => {
    expect((await t.api('games.getLikes')).body.error?.type).toBe('AuthorizationException');
    for (const method of ['games.addLike', 'games.removeLike']) {
      const answer = await t.api(method, {
        method: 'POST',
        params: { sysname: 'dice-roll' },
      });
      expect(answer.status).toBe(401);
      expect(answer.body.error?.type).toBe('AuthorizationException');
    }
    const page = (await t.api('games.get', { params: { count: '300' } })).body.data as GamesPage;
    expect(page.items.some((item: Partial<GameRecord>) => 'is_liked' in item)).toBe(false);
  });

  it('likes change only through POST', async () => {
    const { browser } = await signedInPlayer(t);
    const answer = await browser.call('games.addLike', { sysname: 'dice-roll' }, 'GET');
    expect(answer.json.error).toBeDefined();
    expect(browser.data<GameLikes>(await browser.call('games.getLikes', {}, 'GET')).sysnames).toEqual([]);
  });

  it('a page of tiles without is_liked does not read the likes (issue 12: one statement less per signed-in hall page); with it, or the favourites filter, the likes are right', async () => {
    const { browser } = await signedInPlayer(t);
    browser.data(await browser.call('games.addLike', { sysname: 'dice-roll' }));
    const statementsOf = async (params: Record<string, string>) => {
      // The likes read counts only when it runs: the player-rows cache would answer a second one from memory.
      t.services.playerRows.invalidate();
      const before = t.database.handle.statements();
      const page = browser.data<GamesPage>(await browser.call('games.get', params, 'GET'));
      return { statements: t.database.handle.statements() - before, page };
    };
    // Twice first, so the session and catalogue reads are warm in both measurements alike.
    await statementsOf({ fields: 'sysname,name' });
    const tiles = await statementsOf({ fields: 'sysname,name' });
    const liked = await statementsOf({ fields: 'sysname,name,is_liked' });
    expect(liked.statements - tiles.statements).toBe(1);
    expect(tiles.page.items.every((item) => !('is_liked' in item))).toBe(true);
    expect(liked.page.items.find((item) => item.sysname === 'dice-roll')?.is_liked).toBe(true);
    const favourites = await statementsOf({ fields: 'sysname', options: JSON.stringify({ favorites: true }) });
    expect(favourites.page.items.map((item) => item.sysname)).toEqual(['dice-roll']);
  });
});
