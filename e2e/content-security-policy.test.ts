/**
 * Issue 11: a strict Content-Security-Policy with a fresh nonce on every page. The main routes (en
 * and /it), the game frame, a payment through the sandbox PSP's pages and the server-made pages
 * (OAuth provider, offline page) load, hydrate and run without one `securitypolicyviolation` event
 * or console CSP error, in the page or in any of its frames.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { closeContext, useBrowser, waitForHydration } from './browser';
import { signedUpPlayer } from './page-api';
import { depositWithSandboxCard } from './sandbox-deposit';
import { GAME_SYSNAME, rawGet } from './site-facts';

declare global {
  interface Window {
    __cspViolations?: string[];
  }
}

/** Records every violation a page or frame reports, from before its first script runs. */
async function watchViolations(page: Page): Promise<string[]> {
  const consoleErrors: string[] = [];
  page.on('console', (message) => {
    if (/Content.Security.Policy/i.test(message.text())) consoleErrors.push(message.text());
  });
  await page.addInitScript(() => {
    window.__cspViolations = [];
    document.addEventListener('securitypolicyviolation', (event) => {
      window.__cspViolations?.push(`${event.violatedDirective} blocked ${event.blockedURI || 'inline'} on ${location.pathname}`);
    });
  });
  return consoleErrors;
}

async function violationsIn(page: Page): Promise<string[]> {
  const lists = await Promise.all(
    page.frames().map((frame) => frame.evaluate(() => window.__cspViolations ?? []).catch(() => [] as string[])),
  );
  return lists.flat();
}

/** The directives of a policy header by name. */
function directives(policy: string): Map<string, string[]> {
  return new Map(
    policy
      .split(';')
      .map((part) => part.trim().split(/\s+/))
      .filter((words) => words[0])
      .map(([name = '', ...values]) => [name, values]),
  );
}

function nonceOf(policy: string): string | undefined {
  return /'nonce-([^']+)'/.exec(directives(policy).get('script-src')?.join(' ') ?? '')?.[1];
}

describe('Content-Security-Policy (issue 11)', () => {
  const browser = useBrowser();
  const base = browser.baseUrl;

  it('sends a strict policy whose nonce differs between two loads and is the one on the page scripts', async () => {
    const [first, second] = [await rawGet(base, '/'), await rawGet(base, '/')];
    const policy = String(first.headers['content-security-policy'] ?? '');
    const rules = directives(policy);
    expect(rules.get('script-src')).toContain("'strict-dynamic'");
    expect(rules.get('script-src')).not.toContain("'unsafe-inline'");
    expect(rules.get('object-src')).toEqual(["'none'"]);
    expect(rules.get('base-uri')).toEqual(["'none'"]);
    expect(rules.get('frame-ancestors')).toEqual(["'self'"]);
    const nonce = nonceOf(policy);
    expect(nonce).toMatch(/^[A-Za-z0-9+/=]{16,}$/);
    expect(nonceOf(String(second.headers['content-security-policy'] ?? ''))).not.toBe(nonce);
    const scriptNonces = [...first.body.matchAll(/<script\b([^>]*)>/g)]
      .filter(([, attributes]) => !/type="application\/ld\+json"/.test(attributes ?? ''))
      .map(([, attributes]) => /nonce="([^"]*)"/.exec(attributes ?? '')?.[1]);
    expect(scriptNonces.length).toBeGreaterThan(0);
    expect(new Set(scriptNonces)).toEqual(new Set([nonce]));
  });

  describe('pages load without a violation', () => {
    let context: BrowserContext;
    let page: Page;
    let consoleErrors: string[];
    beforeAll(async () => {
      ({ context, page } = await signedUpPlayer(browser, 'en', { addressPrefix: '10.91' }));
      consoleErrors = await watchViolations(page);
    });
    afterAll(() => closeContext(context));

    async function expectNoViolations(): Promise<void> {
      expect(await violationsIn(page)).toEqual([]);
      expect(consoleErrors).toEqual([]);
    }

    it.each([
      '/',
      '/gamehall',
      `/game/${GAME_SYSNAME}`,
      `/platform/game/${GAME_SYSNAME}/demo`,
      '/profile/security',
      '/it',
      '/it/gamehall',
      `/it/game/${GAME_SYSNAME}`,
      '/no-such-page',
    ])('%s', async (path) => {
      await page.goto(`${base}${path}`);
      await waitForHydration(page);
      if (path.includes('/game/') && !path.startsWith('/platform')) {
        const frame = page.frameLocator('iframe').first();
        await frame.locator('body').waitFor();
      }
      await expectNoViolations();
    });

    it('a deposit through the sandbox PSP pages to the payment result page', async () => {
      await depositWithSandboxCard(page, base, '10');
      await expectNoViolations();
    });

    it.each(['/offline.html', '/oauth/dev/authorize?client_id=nobody'])('the server-made page %s', async (path) => {
      await page.goto(`${base}${path}`);
      await page.locator('body').waitFor();
      const policy = (await page.context().request.get(`${base}${path}`)).headers()['content-security-policy'] ?? '';
      expect(nonceOf(policy)).toBeTruthy();
      await expectNoViolations();
    });
  });
});
