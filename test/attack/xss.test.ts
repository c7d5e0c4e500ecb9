/**
 * Stored and reflected XSS in a real browser (issue 11 probe: "XSS in every player-writable field
 * rendered in a browser"): a player writes script payloads into every field the API lets a player
 * write, and into the address of the pages that read query parameters; Chromium then renders the
 * pages that show them (production build, e2e/global-setup.ts). No payload may run: each calls a
 * recorder the page defines before any script of its own, and dialogs are recorded too.
 */
import { describe, expect, it } from 'vitest';
import type { Frame, Page } from 'playwright-core';
import { useBrowser, waitForHydration } from '../../e2e/browser';
import { apiCall, signedUpPlayer } from '../../e2e/page-api';

/** Payloads that run `__xss(label)` if a page puts them into HTML, an attribute, a script or a link unescaped. */
function payloads(label: string): { short: string; long: string } {
  const call = `__xss('${label}')`;
  return {
    short: `"><img src=x onerror=${call}>`,
    long: `"><img src=x onerror=${call}></script><script>${call}</script><svg onload=${call}>'-${call}-'javascript:${call}`,
  };
}

interface Hits {
  labels: string[];
}

/** Defines the recorder in every document of the page (frames too) before the site's scripts run. */
async function recordInjections(page: Page): Promise<Hits> {
  const hits: Hits = { labels: [] };
  await page.exposeFunction('__xssHit', (label: string) => {
    hits.labels.push(label);
  });
  await page.addInitScript(() => {
    (window as unknown as { __xss: (label: string) => void }).__xss = (label: string) =>
      void (window as unknown as { __xssHit: (label: string) => void }).__xssHit(String(label));
  });
  page.on('dialog', (dialog) => {
    hits.labels.push(`dialog: ${dialog.message()}`);
    void dialog.dismiss();
  });
  return hits;
}

const SLOW_STEP = { timeout: 20_000 };

describe('no player-written text runs as script in the site (issue 11 probe: stored and reflected XSS in Chromium)', () => {
  const browser = useBrowser();
  const base = browser.baseUrl;

  it('renders every field a player writes, and hostile query parameters, as text', async () => {
    const { page } = await signedUpPlayer(browser, 'en', { addressPrefix: '10.111' });
    const hits = await recordInjections(page);
    const accepted: string[] = [];
    const write = async (label: string, name: string, params: Record<string, string>) => {
      const answer = await apiCall(page, 'POST', name, params);
      if (answer.error === undefined) accepted.push(label);
    };

    // A client seed is up to 64 characters of any text but control characters.
    const seed = payloads('client_seed').short;
    await write('profile', 'account.saveProfileInfo', {
      first_name: payloads('first_name').short,
      last_name: payloads('last_name').short,
      address: payloads('address').short,
      home_town: payloads('home_town').short,
      postcode: payloads('postcode').short,
    });
    await write('fakename', 'account.changefakename', { fakename: payloads('fakename').short });
    await write('contact', 'account.addcontact', { contact: `${payloads('contact').short}@example.com` });
    await write('storage', 'storage.set', { key: 'xss_probe', value: payloads('storage').long });
    await write('client_seed', 'games.setClientSeed', { client_seed: seed });
    await write('bet with an unknown field', 'games.play', {
      sysname: 'dice-roll',
      mode: 'demo',
      bet: JSON.stringify({ stake: '1.00', direction: 'under', target: '50.00', note: payloads('bet').long }),
      request_id: `xss-note-${Date.now()}`,
    });
    // A round played on the hostile seed: the fairness panel lists it with its seed.
    await write('round on the seed', 'games.play', {
      sysname: 'dice-roll',
      mode: 'demo',
      bet: JSON.stringify({ stake: '1.00', direction: 'under', target: '50.00' }),
      request_id: `xss-${Date.now()}`,
    });
    await write('event', 'events.handle', {
      event_name: 'xss_probe',
      event_params: JSON.stringify({ text: payloads('event').long }),
    });
    // The control: the client seed is free text, so at least this write is stored and shown below.
    expect(accepted).toEqual(expect.arrayContaining(['client_seed', 'round on the seed', 'storage']));

    const reflected = encodeURIComponent(payloads('query').long);
    const pages = [
      '/profile/settings',
      '/profile/security',
      '/profile/bets',
      '/profile/notification',
      '/cashier/history',
      `/gamehall?query=${reflected}&category=${reflected}&providers=${reflected}`,
      `/?promo_code=${reflected}&popup=${reflected}&redirectUrl=${encodeURIComponent("javascript:__xss('redirectUrl')")}`,
      `/forms/sign_in?redirectUrl=${encodeURIComponent("javascript:__xss('sign_in')")}&backUrl=${reflected}`,
      `/cashier/paysuccess/${reflected}`,
      `/${reflected}`,
    ];
    for (const path of pages) {
      await page.goto(`${base}${path}`);
      await waitForHydration(page);
    }

    await page.goto(`${base}/game/dice-roll`);
    await waitForHydration(page);
    const frame = (await (
      await page.locator('iframe[data-game-frame="demo"]').elementHandle(SLOW_STEP)
    )?.contentFrame()) as Frame;
    // The frame may be between its first blank document and the game's, with no root element yet.
    await frame.waitForFunction(() => Boolean(document.documentElement?.dataset.device), undefined, SLOW_STEP);
    // The stored client seed is on the page, as text in its field: the payload reached the browser.
    await expect.poll(() => frame.locator('input[name="client_seed"]').inputValue(), SLOW_STEP).toBe(seed);

    // The recorder itself works in this document (a payload that ran would have been heard).
    await frame.evaluate(() => (window as unknown as { __xss: (label: string) => void }).__xss('control'));
    await expect.poll(() => hits.labels, SLOW_STEP).toContain('control');
    expect(hits.labels.filter((label) => label !== 'control')).toEqual([]);
  });
});
