/**
 * Issue 12, the shared signed-in render: players of one shape share one render, each answer holds
 * its own player's values (escaped as React writes HTML and as React Router writes the data script)
 * and its own CSP nonce (issue 11), a made-up render never sees a real player, and a page the fill
 * cannot reproduce exactly is rendered per player. The header shows the login, the total of main +
 * bonus + betting bonus (spec §9) and the loyalty points (spec §4).
 */
import { gunzipSync } from 'node:zlib';
import { createElement } from 'react';
import { renderToString } from 'react-dom/server';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AccountInfo } from '#common/api-contract';
import { formatMoney, groupThousands, totalBalance } from '#common/money';
import { accountInfo } from '../../test/account-info';
import { CallRecord, createPlayerPageCache, kindOfCall, type PlayerPageRequest } from './player-pages';
import type { PlayerView } from './player-view';

const LOYALTY_CALL = '/api/loyalty.getinfo?locale=en';

interface Player {
  account: AccountInfo;
  points: number;
}

function player(uid: number, login: string, main: string, points: number): Player {
  const day = String(10 + (uid % 18)).padStart(2, '0');
  return {
    points,
    account: accountInfo({ uid, login, reg_time: `2026-11-${day}T10:00:00.000Z` }, [main, '0.00', '0.00', '0.00']),
  };
}

function loyaltyAnswer(uid: number, points: number) {
  return {
    status: 200,
    body: { data: { id: uid + 100, uid, is_active: true, points, experience: points, pointsAlias: 'points' } },
  };
}

/** As react-router writes a stream line into the page (StreamTransfer). */
function dataScript(value: unknown, nonce: string): string {
  const line = JSON.stringify(value).replace(
    /[&<>\u2028\u2029]/g,
    (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
  return `<script nonce="${nonce}">window.__reactRouterContext.streamController.enqueue(${line});</script>`;
}

type Header = (view: PlayerView) => string;

/** The header as React renders it: the login in an attribute, the total and the points as text. */
const reactHeader: Header = (view) => {
  const loyalty = (view.calls[LOYALTY_CALL]?.body as { data: { points: number } } | undefined)?.data;
  return renderToString(
    createElement(
      'header',
      null,
      createElement('a', { 'data-account-login': view.account.login, href: '/profile' }, 'My profile'),
      createElement('span', { 'data-balance': '' }, formatMoney(totalBalance(view.account.balances))),
      loyalty ? createElement('span', null, `${groupThousands(String(loyalty.points))} points`) : null,
    ),
  );
};

/** What the page shows every player: an operator may edit it. */
interface Content {
  text: string;
}

function page(view: PlayerView, nonce: string, header: Header, content: Content): string {
  return (
    `<!DOCTYPE html><html><head><script nonce="${nonce}">boot()</script></head><body>${header(view)}` +
    `<main>${content.text}</main>${dataScript(JSON.stringify(['root', view.account, view.calls]), nonce)}</body></html>`
  );
}

/** A site of one page: counts its renders and what each made-up render was given. */
function site(header: Header = reactHeader, extraCall?: string, content: Content = { text: 'Games for everyone' }) {
  const counts = { own: 0, madeUp: 0 };
  const madeUpViews: PlayerView[] = [];
  const html = (body: string) => new Response(body, { status: 200, headers: { 'content-type': 'text/html' } });
  function request(who: Player, nonce: string, encoding: 'gzip' | 'identity' = 'identity'): PlayerPageRequest {
    const ownView: PlayerView = { account: who.account, calls: { [LOYALTY_CALL]: loyaltyAnswer(who.account.uid, who.points) } };
    return {
      pageKey: 'aurora /gamehall en',
      nonce,
      encoding,
      account: who.account,
      renderOwn: async (ownNonce) => {
        counts.own += 1;
        const calls = new CallRecord();
        calls.note(LOYALTY_CALL, 'GET');
        calls.note('/api/games.get?count=15', 'GET');
        if (extraCall) calls.note(extraCall, 'GET');
        return { response: html(page(ownView, ownNonce, header, content)), calls };
      },
      readPlayerCall: async (path) => {
        expect(path).toBe(LOYALTY_CALL);
        return loyaltyAnswer(who.account.uid, who.points);
      },
      renderFor: async (view, madeUpNonce) => {
        counts.madeUp += 1;
        madeUpViews.push(structuredClone(view));
        await new Promise((resolve) => setTimeout(resolve, 5));
        const calls = new CallRecord();
        calls.note(LOYALTY_CALL, 'GET');
        if (extraCall) calls.note(extraCall, 'GET');
        return { response: html(page(view, madeUpNonce, header, content)), calls };
      },
    };
  }
  const expected = (who: Player, nonce: string) =>
    page({ account: who.account, calls: { [LOYALTY_CALL]: loyaltyAnswer(who.account.uid, who.points) } }, nonce, header, content);
  return { counts, madeUpViews, request, expected };
}

const PLAYERS = [
  player(1, 'anna@example.com', '12.50', 1250),
  player(2, 'bruno.rossi@example.it', '99999.99', 40),
  player(3, 'chiara@example.org', '0.10', 7),
  player(40, 'dario+casino@example.com', '5000.00', 1),
  player(515, 'elena@example.net', '1.00', 123456),
];

describe('the shared signed-in render (issue 12)', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('answers many players at once from one render per shape, each with exactly its own page and nonce', async () => {
    const cache = createPlayerPageCache({ maxAgeMs: 60_000 });
    const shop = site();
    // The first request tells the page's player calls: it is the player's own render.
    expect(await (await cache.answer(shop.request(PLAYERS[0]!, 'nonce-first-00000000000'))).text()).toBe(
      shop.expected(PLAYERS[0]!, 'nonce-first-00000000000'),
    );
    const nonces = PLAYERS.map((_, i) => `nonce-of-answer-${i}-000000`);
    const answers = await Promise.all(PLAYERS.map((who, i) => cache.answer(shop.request(who, nonces[i]!))));
    for (const answer of answers) expect(answer.headers.get('x-page-render')).toBe('shared');
    const bodies = await Promise.all(answers.map((answer) => answer.text()));
    bodies.forEach((body, i) => expect(body).toBe(shop.expected(PLAYERS[i]!, nonces[i]!)));
    // One own render, then one template: the made-up player and the one that checks it.
    expect(shop.counts).toEqual({ own: 1, madeUp: 2 });
  });

  it('never gives a made-up render a real player’s values', async () => {
    const cache = createPlayerPageCache({ maxAgeMs: 60_000 });
    const shop = site();
    await cache.answer(shop.request(PLAYERS[0]!, 'n1'));
    for (const who of PLAYERS) await cache.answer(shop.request(who, 'n2'));
    const seen = JSON.stringify(shop.madeUpViews);
    expect(shop.madeUpViews.length).toBeGreaterThan(0);
    for (const who of PLAYERS) {
      expect(seen).not.toContain(who.account.login);
      expect(seen).not.toContain(`"${who.account.balances.balance_main.amount}"`);
      expect(seen).not.toContain(who.account.reg_time);
    }
  });

  it('reads the player’s values afresh for every answer: a balance that changed shows at once', async () => {
    const cache = createPlayerPageCache({ maxAgeMs: 60_000 });
    const shop = site();
    const anna = PLAYERS[0]!;
    await cache.answer(shop.request(anna, 'n1'));
    await cache.answer(shop.request(anna, 'n2'));
    const richer = structuredClone(anna);
    richer.account.balances.balance_main.amount = '80.25';
    richer.points = 1300;
    const body = await (await cache.answer(shop.request(richer, 'n3'))).text();
    expect(body).toBe(shop.expected(richer, 'n3'));
    expect(body).toContain('€80.25');
    expect(shop.counts.madeUp).toBe(2);
  });

  it('renders per player a page that shows a value in a form the fill does not know, and says why', async () => {
    const refusals: string[] = [];
    const cache = createPlayerPageCache({ maxAgeMs: 60_000, onRefused: (_, reason) => refusals.push(reason) });
    const shouting: Header = (view) => `<header>${view.account.login.toUpperCase()}</header>`;
    const shop = site(shouting);
    await cache.answer(shop.request(PLAYERS[0]!, 'n0'));
    for (const [i, who] of PLAYERS.entries()) {
      expect(await (await cache.answer(shop.request(who, `n${i}`))).text()).toBe(shop.expected(who, `n${i}`));
    }
    expect(refusals).toEqual([expect.stringMatching(/not the first one filled/)]);
    expect(shop.counts.own).toBe(1 + PLAYERS.length);
  });

  it('renders per player a page that makes a call whose answer may differ by player', async () => {
    const cache = createPlayerPageCache({ maxAgeMs: 60_000 });
    const shop = site(reactHeader, '/api/games.get?options=%7B%22favorites%22%3Atrue%7D');
    for (const [i, who] of PLAYERS.entries()) {
      expect(await (await cache.answer(shop.request(who, `n${i}`))).text()).toBe(shop.expected(who, `n${i}`));
    }
    expect(shop.counts).toEqual({ own: PLAYERS.length, madeUp: 0 });
  });

  it('a template past its age is made again: one render when the page is unchanged, checked again when an edit changed it, refused when it no longer fills', async () => {
    const refusals: string[] = [];
    const cache = createPlayerPageCache({ maxAgeMs: 1_000, onRefused: (_, reason) => refusals.push(reason) });
    const content: Content = { text: 'Games for everyone' };
    let isShouting = false;
    const header: Header = (view) => (isShouting ? `<header>${view.account.login.toUpperCase()}</header>` : reactHeader(view));
    const shop = site(header, undefined, content);
    const [anna, bruno, chiara] = PLAYERS as [Player, Player, Player];
    /** Past the template's age, an answer starts the refresh (and gets the old template once more); the next gets the new one. */
    const afterRefresh = async (who: Player, nonce: string) => {
      await vi.advanceTimersByTimeAsync(1_001);
      await cache.answer(shop.request(who, `${nonce}-old`));
      await vi.advanceTimersByTimeAsync(50);
      // A shape refused meanwhile is tried again: that answer waits for renders on the test's clock too.
      const answer = cache.answer(shop.request(who, nonce));
      await vi.advanceTimersByTimeAsync(50);
      return (await answer).text();
    };
    await cache.answer(shop.request(anna, 'n0'));
    await cache.answer(shop.request(anna, 'n1'));
    expect(shop.counts).toEqual({ own: 1, madeUp: 2 });
    // From here the clock is the test's: a template's age passes exactly when the test says.
    vi.useFakeTimers({ toFake: ['Date', 'setTimeout'] });

    expect(await afterRefresh(bruno, 'n2')).toBe(shop.expected(bruno, 'n2'));
    expect(shop.counts.madeUp).toBe(3);

    content.text = 'New this week: <b>Gem Cascade</b>';
    expect(await afterRefresh(chiara, 'n3')).toBe(shop.expected(chiara, 'n3'));
    expect(shop.counts.madeUp).toBe(5);

    isShouting = true;
    expect(await afterRefresh(anna, 'n4')).toBe(shop.expected(anna, 'n4'));
    // The refresh is refused, and so is the shape's next try: the page is rendered per player.
    expect(refusals.length).toBeGreaterThan(0);
    for (const refusal of refusals) expect(refusal).toMatch(/not the first one filled/);
    vi.useRealTimers();
  });

  it('answers gzip put together from the template’s compressed parts and the player’s values', async () => {
    const cache = createPlayerPageCache({ maxAgeMs: 60_000 });
    const shop = site();
    await cache.answer(shop.request(PLAYERS[0]!, 'n0'));
    for (const [i, who] of PLAYERS.entries()) {
      const nonce = `gzip-nonce-${i}-00000000000`;
      const answer = await cache.answer(shop.request(who, nonce, 'gzip'));
      expect(answer.headers.get('content-encoding')).toBe('gzip');
      expect(answer.headers.get('x-page-render')).toBe('shared');
      expect(gunzipSync(Buffer.from(await answer.arrayBuffer())).toString()).toBe(shop.expected(who, nonce));
    }
  });
});

describe('which calls a shared render may make (issue 12)', () => {
  it('tells the player’s own calls, calls that answer every player alike, and the rest', () => {
    expect(kindOfCall('/api/loyalty.getInfo?locale=it', 'GET')).toBe('player');
    expect(kindOfCall('/api/games.getLikes?locale=en', 'GET')).toBe('player');
    expect(kindOfCall('/api/banners.get?offset=0&count=10', 'GET')).toBe('same-for-everyone');
    expect(kindOfCall('/api/games.get?count=15&options=%7B%22category%22%3A%22slots%22%7D', 'GET')).toBe('same-for-everyone');
    expect(kindOfCall('/api/games.get?options=%7B%22favorites%22%3Atrue%7D', 'GET')).toBe('other');
    expect(kindOfCall('/api/account.getBalance', 'GET')).toBe('other');
    expect(kindOfCall('/api/banners.get', 'POST')).toBe('other');
  });
});
