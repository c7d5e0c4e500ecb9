/**
 * Issue 12: what a signed-in request reads about its player is kept in memory — "caches are
 * invalidated across processes so an operator's edit shows at once everywhere", and the ledger's
 * guarantees stay. These check the cache's own rules (a read racing a change is never kept; an
 * expired session is never answered from memory) and, on both databases through the API, that a
 * player's own change, an operator's SQL and a sign-out elsewhere show on the very next request.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../../test/api-harness';
import { eventually } from '../../test/eventually';
import { testDatabaseKinds } from '../../test/databases';
import { Browser, signedInPlayer } from '../../test/player';
import { fundPlayer } from '../../test/host-player';
import { createPlayerRowsCache } from './player-rows-cache';
import { exclusions, users } from './schema';

function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((done) => (resolve = done));
  return { promise, resolve };
}

const owned = (owner: number) => ({ ownerOf: () => owner });

describe('player rows cache rules (issue 12)', () => {
  it('keeps a read and answers it again without loading', async () => {
    const cache = createPlayerRowsCache({ maxAgeMs: 60_000, maxEntries: 100 });
    let loads = 0;
    const load = async () => ({ loads: ++loads });
    expect(await cache.get('a', load, owned(7))).toEqual({ loads: 1 });
    expect(await cache.get('a', load, owned(7))).toEqual({ loads: 1 });
  });

  it('does not keep a read that started before the player changed something (it may predate the commit)', async () => {
    const cache = createPlayerRowsCache({ maxAgeMs: 60_000, maxEntries: 100 });
    const slow = deferred<string>();
    const racing = cache.get('profile', () => slow.promise, owned(7));
    cache.forgetPlayer(7);
    slow.resolve('before the change');
    expect(await racing).toBe('before the change');
    expect(await cache.get('profile', async () => 'after the change', owned(7))).toBe('after the change');
  });

  it("keeps another player's read when one player changes something", async () => {
    const cache = createPlayerRowsCache({ maxAgeMs: 60_000, maxEntries: 100 });
    const slow = deferred<string>();
    const other = cache.get('other', () => slow.promise, owned(8));
    cache.forgetPlayer(7);
    slow.resolve('kept');
    await other;
    expect(await cache.get('other', async () => 'reloaded', owned(8))).toBe('kept');
  });

  it('does not keep a read that started before a change notification, and drops everything on one', async () => {
    const cache = createPlayerRowsCache({ maxAgeMs: 60_000, maxEntries: 100 });
    await cache.get('kept', async () => 'old', owned(1));
    const slow = deferred<string>();
    const racing = cache.get('racing', () => slow.promise, owned(2));
    cache.invalidate();
    slow.resolve('stale');
    await racing;
    expect(await cache.get('kept', async () => 'new', owned(1))).toBe('new');
    expect(await cache.get('racing', async () => 'fresh', owned(2))).toBe('fresh');
  });

  it('never answers a value past its own end (a session past its expiry) or an ownerless one from memory', async () => {
    const cache = createPlayerRowsCache({ maxAgeMs: 60_000, maxEntries: 100 });
    await cache.get('expired', async () => 'first', { ownerOf: () => 3, validUntil: () => Date.now() - 1 });
    expect(await cache.get('expired', async () => 'second', owned(3))).toBe('second');
    await cache.get('unknown', async () => undefined, { ownerOf: () => undefined });
    expect(await cache.get('unknown', async () => 'now known', owned(4))).toBe('now known');
  });

  it('drops what was made from its values with them: a dependent forgets the player it forgets, and everything it drops (issue 12, kept answers)', async () => {
    const made = createPlayerRowsCache({ maxAgeMs: 60_000, maxEntries: 100 });
    const source = createPlayerRowsCache({ maxAgeMs: 60_000, maxEntries: 100, dependents: [made] });
    await made.get('answer:5', async () => 'made from 5', owned(5));
    await made.get('answer:6', async () => 'made from 6', owned(6));
    source.forgetPlayer(5);
    expect(await made.get('answer:5', async () => 'made again', owned(5))).toBe('made again');
    expect(await made.get('answer:6', async () => 'made again', owned(6))).toBe('made from 6');
    source.invalidate();
    expect(await made.get('answer:6', async () => 'after the notification', owned(6))).toBe('after the notification');
  });

  it("does not keep a dependent's value made while its source forgot the player (a round's balance written mid-answer)", async () => {
    const made = createPlayerRowsCache({ maxAgeMs: 60_000, maxEntries: 100 });
    const source = createPlayerRowsCache({ maxAgeMs: 60_000, maxEntries: 100, dependents: [made] });
    const slow = deferred<string>();
    const racing = made.get('answer', () => slow.promise, owned(7));
    source.forgetPlayer(7);
    slow.resolve('balance before the round');
    expect(await racing).toBe('balance before the round');
    expect(await made.get('answer', async () => 'balance after the round', owned(7))).toBe('balance after the round');
  });

  it('when full, makes room by its longest kept entries only, and what was made from the others stays (issue 12: more players than it holds)', async () => {
    const made = createPlayerRowsCache({ maxAgeMs: 60_000, maxEntries: 100 });
    const cache = createPlayerRowsCache({ maxAgeMs: 60_000, maxEntries: 3, dependents: [made] });
    await made.get('answer:2', async () => 'made from 2', owned(2));
    for (const owner of [1, 2, 3]) await cache.get(`row:${owner}`, async () => `row of ${owner}`, owned(owner));
    // Read again, the first row is kept anew: the second is now the longest kept.
    await cache.get('row:1', async () => 'row of 1 again', { ...owned(1), isCurrent: () => false });
    await cache.get('row:4', async () => 'row of 4', owned(4));
    expect(await cache.get('row:2', async () => 'loaded again', owned(2))).toBe('loaded again');
    expect(await cache.get('row:1', async () => 'loaded again', owned(1))).toBe('row of 1 again');
    expect(await cache.get('row:4', async () => 'loaded again', owned(4))).toBe('row of 4');
    expect(await made.get('answer:2', async () => 'made again', owned(2))).toBe('made from 2');
  });

  it('requests asking together for one key share one read; one asking after any forgetting starts its own', async () => {
    const cache = createPlayerRowsCache({ maxAgeMs: 60_000, maxEntries: 10 });
    const first = deferred<string>();
    let loads = 0;
    const load = () => {
      loads += 1;
      return first.promise;
    };
    const together = [cache.get('row:1', load, owned(1)), cache.get('row:1', load, owned(1))];
    expect(loads).toBe(1);
    // Another player's change: the read in flight may still be kept, but a request from now on is not sure of it.
    cache.forgetPlayer(2);
    const after = cache.get('row:1', async () => 'read after the forgetting', owned(1));
    first.resolve('read together');
    expect(await Promise.all(together)).toEqual(['read together', 'read together']);
    expect(await after).toBe('read after the forgetting');
    expect(loads).toBe(1);
  });

  it('counts a value stored again by a second read of its key as the newest kept (two requests of one player missing at once)', async () => {
    const cache = createPlayerRowsCache({ maxAgeMs: 60_000, maxEntries: 2 });
    const first = deferred<string>();
    const second = deferred<string>();
    const firstRead = cache.get('row:1', () => first.promise, owned(1));
    // Another player forgotten in between: the second read cannot join the first, both store.
    cache.forgetPlayer(99);
    const secondRead = cache.get('row:1', () => second.promise, owned(1));
    first.resolve('first read');
    await firstRead;
    await cache.get('row:2', async () => 'row of 2', owned(2));
    second.resolve('second read');
    await secondRead;
    await cache.get('row:3', async () => 'row of 3', owned(3));
    expect(await cache.get('row:1', async () => 'loaded again', owned(1))).toBe('second read');
    expect(await cache.get('row:2', async () => 'loaded again', owned(2))).toBe('loaded again');
  });

  it('forgets players beyond its bound without dropping the others while no read is in flight', async () => {
    const cache = createPlayerRowsCache({ maxAgeMs: 60_000, maxEntries: 2 });
    await cache.get('row:100', async () => 'kept', owned(100));
    for (let player = 1; player <= 10; player++) cache.forgetPlayer(player);
    expect(await cache.get('row:100', async () => 'loaded again', owned(100))).toBe('kept');
  });

  it('refuses a read that started before its player was forgotten while other reads end and other players are forgotten', async () => {
    const cache = createPlayerRowsCache({ maxAgeMs: 60_000, maxEntries: 100 });
    const slow = deferred<string>();
    const other = deferred<string>();
    const racing = cache.get('row:7', () => slow.promise, owned(7));
    const otherRead = cache.get('row:9', () => other.promise, owned(9));
    cache.forgetPlayer(7);
    other.resolve('row of 9');
    await otherRead;
    cache.forgetPlayer(8);
    slow.resolve('before the change');
    expect(await racing).toBe('before the change');
    expect(await cache.get('row:7', async () => 'after the change', owned(7))).toBe('after the change');
    // A read that started after the forgetting is kept, though a later forgetting of another player came while it ran.
    const later = deferred<string>();
    const afterwards = cache.get('likes:7', () => later.promise, owned(7));
    cache.forgetPlayer(8);
    later.resolve('likes after the change');
    await afterwards;
    expect(await cache.get('likes:7', async () => 'loaded again', owned(7))).toBe('likes after the change');
  });

  it('past its bound of forgettings during a hung read, reads everything again and refuses that read', async () => {
    const made = createPlayerRowsCache({ maxAgeMs: 60_000, maxEntries: 100 });
    const cache = createPlayerRowsCache({ maxAgeMs: 60_000, maxEntries: 3, dependents: [made] });
    await made.get('answer:100', async () => 'made from 100', owned(100));
    const hung = deferred<string>();
    const racing = cache.get('row:50', () => hung.promise, owned(50));
    for (const player of [1, 2, 3, 4]) cache.forgetPlayer(player);
    hung.resolve('read before the forgettings');
    await racing;
    expect(await cache.get('row:50', async () => 'read again', owned(50))).toBe('read again');
    expect(await made.get('answer:100', async () => 'made again', owned(100))).toBe('made again');
  });

  it('forgets a player by every key of theirs', async () => {
    const cache = createPlayerRowsCache({ maxAgeMs: 60_000, maxEntries: 100 });
    await cache.get('session:x', async () => 'row', owned(5));
    await cache.get('likes:5', async () => 'likes', owned(5));
    cache.forgetPlayer(5);
    expect(await cache.get('session:x', async () => 'row again', owned(5))).toBe('row again');
    expect(await cache.get('likes:5', async () => 'likes again', owned(5))).toBe('likes again');
  });
});

describe.each(testDatabaseKinds())('signed-in reads kept in memory on %s (issue 12)', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind);
  });
  afterAll(async () => {
    await t?.close();
  });

  const infoOf = async (browser: Browser) =>
    browser.data<{ uid: number; fakename: string; is_subscribed: boolean }>(await browser.call('account.getInfo', {}, 'GET'));

  it("shows the player's own change on their very next request (spec §7 changefakename, getInfo)", async () => {
    const { browser } = await signedInPlayer(t);
    await infoOf(browser);
    await infoOf(browser);
    const fakename = `Cached${Date.now() % 100_000}`;
    expect((await browser.call('account.changefakename', { fakename })).json.data).toBe(1);
    expect((await infoOf(browser)).fakename).toBe(fakename);
  });

  it("drops the player's rows itself after their change, not waiting for the notification (which may come later)", async () => {
    const { browser, uid } = await signedInPlayer(t);
    const forgotten: number[] = [];
    const { playerRows } = t.services;
    const forget = playerRows.forgetPlayer;
    playerRows.forgetPlayer = (userId) => {
      forgotten.push(userId);
      forget(userId);
    };
    try {
      await infoOf(browser);
      expect(forgotten).toEqual([]);
      expect((await browser.call('account.changefakename', { fakename: `Forget${Date.now() % 100_000}` })).json.data).toBe(1);
      expect(forgotten).toEqual([uid]);
    } finally {
      playerRows.forgetPlayer = forget;
    }
  });

  it('a session signed out from another browser of the player is refused on its next request', async () => {
    const { browser, login, password } = await signedInPlayer(t);
    const other = new Browser(t);
    other.data(await other.call('auth.login', { login, password }));
    expect((await infoOf(other)).uid).toBeGreaterThan(0);
    // Password change ends every other session (spec §7 changepassword).
    expect(
      (await browser.call('account.changepassword', { old_password: password, new_password: 'cached-new-12' })).json.data,
    ).toBe(1);
    expect((await infoOf(other)).uid).toBe(0);
  });

  it("an operator's ban made in SQL reaches a session kept in memory, without any service call", async () => {
    const { browser } = await signedInPlayer(t);
    const { uid } = await infoOf(browser);
    expect(uid).toBeGreaterThan(0);
    await t.db.execute(sql`update ${users} set status = 'banned' where ${users.id} = ${uid}`);
    const refused = await eventually(
      () => browser.call('account.getInfo', {}, 'GET'),
      (answer) => answer.status !== 200,
    );
    // Spec §6: a blocked player is signed out on the spot.
    expect(refused.json.error?.type).toBe('UserBannedException');
  });

  it('getInfo racing a sign-out: once the sign-out has answered, no request of that session is signed in', async () => {
    const { browser } = await signedInPlayer(t);
    // A copy of the cookie kept after sign-out, as a stolen one would be.
    const copy = new Browser(t);
    copy.cookie = browser.cookie;
    const readers = Array.from({ length: 12 }, () => infoOf(copy));
    const signOut = browser.call('auth.logout', {});
    await Promise.all([...readers, signOut]);
    expect(browser.cookie).not.toBe(copy.cookie);
    const after = await Promise.all(Array.from({ length: 5 }, () => infoOf(copy)));
    expect(after.map((info) => info.uid)).toEqual([0, 0, 0, 0, 0]);
  });

  it("an exclusion an operator adds in SQL reaches the bet path's kept check; one that starts later is in force when its time comes (spec §4 self-exclusion)", async () => {
    const { uid } = await signedInPlayer(t);
    const rg = t.services.responsibleGaming;
    expect(await rg.activeExclusionForPlay(uid)).toBeUndefined();
    expect(await rg.activeExclusionForPlay(uid)).toBeUndefined();
    const startsAt = new Date(Date.now() + 60_000);
    const endsAt = new Date(Date.now() + 3_600_000);
    await t.db.insert(exclusions).values({ userId: uid, kind: 'timeout', startsAt, endsAt });
    // Not yet in force, even once the notification has dropped the kept "none"…
    expect(await rg.activeExclusionForPlay(uid)).toBeUndefined();
    // …and in force at its start, with no further change to the table.
    const later = new Date(startsAt.getTime() + 1_000);
    const inForce = await eventually(
      () => rg.activeExclusionForPlay(uid, later),
      (row) => row !== undefined,
    );
    expect(inForce).toMatchObject({ kind: 'timeout', endsAt });
    expect(await rg.activeExclusionForPlay(uid, new Date(endsAt.getTime() + 1))).toBeUndefined();
  });
});

describe('balances kept in memory where this process is the database’s only user (PGlite, issue 12)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp('pglite', { services: { isOnlyProcess: true } });
  });
  afterAll(async () => {
    await t?.close();
  });

  type Info = { balances: { balance_main: { amount: string } } };
  const mainOf = async (browser: Browser) =>
    browser.data<Info>(await browser.call('account.getInfo', {}, 'GET')).balances.balance_main.amount;
  const ledgerMainOf = async (uid: number) => {
    const site = await t.services.sites.resolveSite('127.0.0.1');
    const balances = await t.services.wallet.balances(site.id, uid, site.defaultCurrency);
    return (Number(balances.main) / 100).toFixed(2);
  };

  it('getInfo shows every balance the wallet wrote at once: a deposit, then parallel rounds racing the reads (spec §7 getInfo, architecture §5)', async () => {
    const { browser, uid } = await signedInPlayer(t);
    const site = await t.services.sites.resolveSite('127.0.0.1');
    expect(await mainOf(browser)).toBe('0.00');
    await fundPlayer(t, { uid, siteId: site.id, currency: site.defaultCurrency }, '50.00');
    expect(await mainOf(browser)).toBe('50.00');
    let request = 0;
    const round = () =>
      browser.call('games.play', {
        sysname: 'dice-roll',
        mode: 'real',
        bet: JSON.stringify({ stake: '1.00', direction: 'under', target: '50.00' }),
        request_id: `kept-${uid}-${request++}`,
      });
    // Rounds and reads interleaved: a read that raced a round must never be kept past it.
    await Promise.all(Array.from({ length: 8 }, (_, i) => (i % 2 === 0 ? round() : mainOf(browser))));
    expect(await mainOf(browser)).toBe(await ledgerMainOf(uid));
  });
});
