import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/api-harness';
import { testDatabaseKinds } from '../../test/databases';
import { cookiePair } from '../../test/fixtures';
import { isWebHeadersBuilt } from '../../test/node-request';
import { signedInPlayer, type Browser } from '../../test/player';

describe.each(testDatabaseKinds())('same-origin check of state-changing requests on %s (architecture §4)', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind);
  });
  afterAll(() => t?.close());

  async function newVisitor(): Promise<string> {
    const cookie = cookiePair(await t.request('/api/storage.getKeys'), 'vid');
    if (!cookie) throw new Error('no vid cookie issued');
    return cookie;
  }

  async function keysOf(cookie: string) {
    return (await t.api('storage.getKeys', { headers: { cookie } })).body.data;
  }

  it.each([
    ['an Origin of another site', { origin: 'http://evil.example' }],
    ['Sec-Fetch-Site: cross-site', { 'sec-fetch-site': 'cross-site' }],
    ['Sec-Fetch-Site: same-site (a sibling subdomain is another origin)', { 'sec-fetch-site': 'same-site' }],
    ['an opaque Origin: null', { origin: 'null' }],
    ['a same-origin Origin but Sec-Fetch-Site: cross-site', { origin: 'http://127.0.0.1', 'sec-fetch-site': 'cross-site' }],
    ['an Origin on the same host but another port', { origin: 'http://127.0.0.1:8080' }],
  ])('refuses storage.set with %s: 403 AccessDeniedException and nothing written', async (_label, headers) => {
    const cookie = await newVisitor();
    const { status, body } = await t.api('storage.set', {
      method: 'POST',
      params: { key: 'stolen', value: 'yes' },
      headers: { cookie, ...headers },
    });
    expect(status).toBe(403);
    expect(body.error?.type).toBe('AccessDeniedException');
    expect(await keysOf(cookie)).toEqual([]);
  });

  it.each([
    ['an Origin equal to the request origin', { origin: 'http://127.0.0.1' }],
    ['Sec-Fetch-Site: same-origin', { 'sec-fetch-site': 'same-origin', origin: 'http://127.0.0.1' }],
    ['Sec-Fetch-Site: none (typed by the user)', { 'sec-fetch-site': 'none' }],
    ['neither header (a non-browser client carries no victim cookies)', {}],
  ])('accepts storage.set with %s and writes the value', async (_label, headers) => {
    const cookie = await newVisitor();
    const value = `v-${Math.random()}`;
    const { status, body } = await t.api('storage.set', {
      method: 'POST',
      params: { key: 'mine', value },
      headers: { cookie, ...headers },
    });
    expect(status).toBe(200);
    expect(body).toEqual({ data: 1 });
    expect((await t.api('storage.get', { params: { keys: 'mine' }, headers: { cookie } })).body.data).toEqual({ mine: value });
  });

  it('compares the Origin with the host the request was sent to, per site', async () => {
    const host = 'lagoon.localhost';
    const first = await t.request('/api/storage.getKeys', { host });
    const cookie = cookiePair(first, 'vid') ?? '';
    const same = await t.api('storage.set', {
      method: 'POST',
      host,
      params: { key: 'k', value: 'v' },
      headers: { cookie, origin: `http://${host}` },
    });
    expect(same.status).toBe(200);
    const other = await t.api('storage.set', {
      method: 'POST',
      host,
      params: { key: 'k2', value: 'v' },
      headers: { cookie, origin: 'http://aurora.localhost' },
    });
    expect(other.status).toBe(403);
    expect(other.body.error?.type).toBe('AccessDeniedException');
  });

  it('over a real listener, checks a POST by the headers Node parsed: same-origin accepted, cross-site refused, and neither builds the web Headers (issue 12)', async () => {
    const requests: Request[] = [];
    const server = serve({
      fetch: (request, env) => {
        requests.push(request);
        return t.app.fetch(request, env);
      },
      port: 0,
      hostname: '127.0.0.1',
    });
    await new Promise((resolve) => server.once('listening', resolve));
    try {
      const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const cookie = await newVisitor();
      const post = (origin: string, key: string) =>
        fetch(`${base}/api/storage.set?v=2.34&locale=en`, {
          method: 'POST',
          headers: { cookie, origin },
          body: new URLSearchParams({ key, value: 'v' }),
        });
      const same = await post(base, 'own');
      const cross = await post('http://evil.example', 'stolen');
      expect([same.status, cross.status]).toEqual([200, 403]);
      expect(((await cross.json()) as { error: { type: string } }).error.type).toBe('AccessDeniedException');
      expect(await keysOf(cookie)).toEqual(['own']);
      expect(requests.map(isWebHeadersBuilt)).toEqual([false, false]);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('applies to state-changing verbs only: a cross-site GET read is answered', async () => {
    const { status } = await t.api('storage.getKeys', {
      headers: { origin: 'http://evil.example', 'sec-fetch-site': 'cross-site' },
    });
    expect(status).toBe(200);
  });

  describe("auth.logout (issue 11: a cross-site logout is refused, the spec's GET kept for same-site use)", () => {
    async function isSignedIn(browser: Browser): Promise<boolean> {
      const info = (await browser.call('account.getInfo', {}, 'GET')).json.data as { uid?: number } | undefined;
      return (info?.uid ?? 0) > 0;
    }

    function logout(browser: Browser, method: 'GET' | 'POST', headers: Record<string, string>) {
      return t.api('auth.logout', { method, headers: { cookie: browser.cookie, ...headers } });
    }

    it.each([
      ['GET', 'Sec-Fetch-Site: cross-site (a link or an image on another site)', { 'sec-fetch-site': 'cross-site' }],
      ['GET', 'Sec-Fetch-Site: same-site (a sibling subdomain is another site)', { 'sec-fetch-site': 'same-site' }],
      ['GET', 'an Origin of another site', { origin: 'http://evil.example' }],
      ['GET', 'only a Referer of another site (an older browser following a link)', { referer: 'http://evil.example/page' }],
      ['POST', 'Sec-Fetch-Site: cross-site', { 'sec-fetch-site': 'cross-site' }],
      ['POST', 'an Origin of another site', { origin: 'http://evil.example' }],
    ] as const)(
      'refuses %s with %s: 403 AccessDeniedException and the player stays signed in',
      async (method, _label, headers) => {
        const { browser } = await signedInPlayer(t);
        const { status, body } = await logout(browser, method, headers);
        expect(status).toBe(403);
        expect(body.error?.type).toBe('AccessDeniedException');
        expect(await isSignedIn(browser)).toBe(true);
      },
    );

    it.each([
      ['GET', "Sec-Fetch-Site: same-origin (the site's own call)", { 'sec-fetch-site': 'same-origin' }],
      ['GET', 'an Origin of the site', { origin: 'http://127.0.0.1' }],
      ['GET', 'neither header (a non-browser client)', {}],
      ['POST', 'Sec-Fetch-Site: same-origin', { 'sec-fetch-site': 'same-origin' }],
    ] as const)('signs out on %s with %s', async (method, _label, headers) => {
      const { browser } = await signedInPlayer(t);
      const { status, body } = await logout(browser, method, headers);
      expect(status).toBe(200);
      expect(body.data).toBe(1);
      expect(await isSignedIn(browser)).toBe(false);
    });
  });
});
