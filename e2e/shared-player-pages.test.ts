/**
 * Issue 12 on the production build: a signed-in player's home, game hall and game page come from
 * the shared render (server/web/player-pages.ts) and are exactly what the player's own render is:
 * the same HTML and the same loader data, the player's login, the header's total of main + bonus +
 * betting bonus (spec §9) and the liked games (spec §3 canVisibleFavoriteIcon), in English and in
 * Italian; and the browser hydrates such a page without a mismatch.
 */
import { describe, expect, it } from 'vitest';
import { UNSAFE_decodeViaTurboStream as decodeViaTurboStream } from 'react-router';
import { formatMoney } from '#common/money';
import { useBrowser, waitForHydration } from './browser';
import { apiCall, signedUpPlayer } from './page-api';
import { depositBySandboxCalls } from './sandbox-deposit';
import { inLocale, type Locale } from './site-facts';

const browser = useBrowser();
const ADDRESS_PREFIX = '10.109';
const DEPOSIT = '25';

/** The page without its scripts, and with every nonce alike: what the browser shows. */
function visible(html: string): string {
  return html.replace(/<script\b[^>]*>[\s\S]*?<\/script>/g, '').replace(/nonce="[^"]*"/g, 'nonce=""');
}

/** The loader data the page's data script carries, decoded as the browser decodes it. */
async function loaderData(html: string): Promise<unknown> {
  const lines = [...html.matchAll(/streamController\.enqueue\(("(?:[^"\\]|\\.)*")\);/g)].map(
    (match) => JSON.parse(match[1]!) as string,
  );
  expect(lines.length).toBeGreaterThan(0);
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(new TextEncoder().encode(lines.join('')));
      controller.close();
    },
  });
  const decoded = await decodeViaTurboStream(stream, globalThis);
  await decoded.done;
  return decoded.value;
}

async function page(path: string, cookie: string): Promise<{ html: string; render: string | null }> {
  const response = await fetch(`${browser.baseUrl}${path}`, { headers: { cookie, 'accept-encoding': 'gzip' } });
  expect(response.status).toBe(200);
  return { html: await response.text(), render: response.headers.get('x-page-render') };
}

let fresh = 0;
/** An address no request has asked for yet: its first signed-in request is the player's own render. */
const freshPath = (path: string) => `${path}${path.includes('?') ? '&' : '?'}shared=${Date.now()}${fresh++}`;

describe.each<Locale>(['en', 'it'])('signed-in pages from the shared render (issue 12, %s)', (locale) => {
  it('answers a player with money and a liked game, and a player without, exactly as their own renders', async () => {
    const rich = await signedUpPlayer(browser, locale, { addressPrefix: ADDRESS_PREFIX });
    await depositBySandboxCalls(rich.page, browser.baseUrl, DEPOSIT);
    const hall = await fetch(`${browser.baseUrl}${inLocale('/gamehall', locale)}`);
    const gamePath = /href="((?:\/it)?\/game\/[A-Za-z0-9_-]+)"/.exec(await hall.text())?.[1];
    expect(gamePath).toBeDefined();
    const liked = gamePath!.split('/').pop()!;
    expect((await apiCall(rich.page, 'POST', 'games.addLike', { sysname: liked })).error).toBeUndefined();
    const broke = await signedUpPlayer(browser, locale, { addressPrefix: ADDRESS_PREFIX });

    for (const who of [rich, broke]) {
      const cookie = (await who.context.cookies()).map((item) => `${item.name}=${item.value}`).join('; ');
      for (const path of [inLocale('/', locale), inLocale('/gamehall', locale), gamePath!]) {
        const address = freshPath(path);
        const own = await page(address, cookie);
        const shared = await page(address, cookie);
        expect(own.render, address).toBeNull();
        expect(shared.render, address).toBe('shared');
        expect(visible(shared.html)).toBe(visible(own.html));
        expect(await loaderData(shared.html)).toEqual(await loaderData(own.html));
        expect(shared.html).toContain(`data-account-login="${who.login}"`);
        const total =
          who === rich
            ? formatMoney({ amount: `${DEPOSIT}.00`, currency: 'EUR' })
            : formatMoney({ amount: '0.00', currency: 'EUR' });
        expect(visible(shared.html)).toContain(`data-balance="true">${total}<`);
      }
    }
  });

  it('hydrates a shared page in the browser without a mismatch, showing the player’s own header', async () => {
    const player = await signedUpPlayer(browser, locale, { addressPrefix: ADDRESS_PREFIX });
    await depositBySandboxCalls(player.page, browser.baseUrl, DEPOSIT);
    const address = freshPath(inLocale('/gamehall', locale));
    // The browser's first visit is its own render (its language and agent are part of the page's key).
    expect((await player.page.goto(`${browser.baseUrl}${address}`))?.headers()['x-page-render']).toBeUndefined();
    await waitForHydration(player.page);

    const reactErrors: string[] = [];
    player.page.on('console', (message) => {
      if (message.type() === 'error' && /hydrat|Minified React error/i.test(message.text())) reactErrors.push(message.text());
    });
    player.page.on('pageerror', (error) => reactErrors.push(error.message));
    const answer = await player.page.goto(`${browser.baseUrl}${address}`);
    expect(answer?.headers()['x-page-render']).toBe('shared');
    await waitForHydration(player.page);
    expect(await player.page.locator('[data-balance]').textContent()).toBe(
      formatMoney({ amount: `${DEPOSIT}.00`, currency: 'EUR' }),
    );
    expect(await player.page.locator('[data-account-login]').getAttribute('data-account-login')).toBe(player.login);
    expect(reactErrors).toEqual([]);
  });
});
