/**
 * The API's lane (web/api-lane.ts, issue 12): over Node's HTTP server, /api/ requests are answered
 * by the dispatcher without the Hono app, and every answer is the one the app gives through its
 * own /api route (architecture §4: one envelope, one set of checks, whichever way a call comes).
 */
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_VERSION } from '#common/api-contract';
import { createTestApp, TEST_MAX_BODY_BYTES, type TestApp } from '../../test/api-harness';
import { testDatabaseKinds } from '../../test/databases';
import { cookiePair } from '../../test/fixtures';
import { apiOptionsOf } from '../http';
import { serveSite } from './api-lane';
import { isFromTrustedProxy, peerAddress, type ProxyTrust } from './client-address';
import { withForwardedOrigin } from './forwarded';
import { createMetrics, type Metrics } from './metrics';

type Listener = ReturnType<typeof serve>;

interface Answer {
  status: number;
  headers: Record<string, string>;
  cookies: string[];
  body: string;
}

/** The answer with what differs by chance between two answers (the nonce, the date, fresh ids) written the same. */
async function comparable(response: Response): Promise<Answer> {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    if (name === 'date' || name === 'set-cookie' || name === 'content-length') return;
    headers[name] = name === 'content-security-policy' ? value.replace(/'nonce-[^']+'/g, "'nonce-N'") : value;
  });
  const cookies = response.headers.getSetCookie().map((cookie) => cookie.replace(/^(vid|sid)=[^;]*/, '$1=…'));
  return { status: response.status, headers, cookies, body: await response.text() };
}

async function listening(server: Listener): Promise<string> {
  if (!server.listening) await new Promise((resolve) => server.once('listening', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe.each(testDatabaseKinds())('the API lane on %s (issue 12)', (kind) => {
  const trust: ProxyTrust = { mode: 'hops', hops: 1 };
  let t: TestApp;
  let metrics: Metrics;
  let lane: Listener;
  let appOnly: Listener;
  let laneUrl: string;
  let appUrl: string;
  /** Paths of the requests that reached the Hono app behind the lane. */
  const reachedApp: string[] = [];

  beforeAll(async () => {
    t = await createTestApp(kind, { proxy: trust });
    metrics = createMetrics();
    const countingApp = {
      fetch: (request: Request, env: unknown) => {
        reachedApp.push(new URL(request.url).pathname);
        return t.app.fetch(request, env);
      },
    };
    lane = serveSite(countingApp, { ...apiOptionsOf(t.appOptions), metrics }, { port: 0, hostname: '127.0.0.1' });
    // The app alone over Node, as main.ts served it before the lane: every request through Hono.
    appOnly = serve({
      fetch: (request, env) => t.app.fetch(withForwardedOrigin(request, isFromTrustedProxy(trust, peerAddress(env))), env),
      port: 0,
      hostname: '127.0.0.1',
    });
    laneUrl = await listening(lane);
    appUrl = await listening(appOnly);
  });
  afterAll(async () => {
    lane?.close();
    appOnly?.close();
    await t?.close();
  });

  /** The same request to both servers, one after the other, as comparable answers. */
  async function both(path: string, init: RequestInit = {}): Promise<{ viaLane: Answer; viaApp: Answer }> {
    const send = async (base: string) => {
      const headers = new Headers(init.headers);
      if (headers.get('origin') === 'SELF') headers.set('origin', base);
      return comparable(await fetch(base + path, { ...init, headers }));
    };
    return { viaLane: await send(laneUrl), viaApp: await send(appUrl) };
  }

  const api = (call: string, query = '') => `/api/${call}?v=${API_VERSION}&locale=en${query}`;

  async function signedInCookie(): Promise<string> {
    const response = await fetch(`${appUrl}${api('auth.register')}`, {
      method: 'POST',
      headers: { origin: appUrl },
      body: new URLSearchParams({ login: `lane${Date.now()}@example.com`, password: 'secret12', terms: '1' }),
    });
    const sid = cookiePair(response, 'sid');
    const vid = cookiePair(response, 'vid');
    if (!sid || !vid) throw new Error(`registration answered ${response.status} without its cookies`);
    return `${sid}; ${vid}`;
  }

  it.each([
    ['a first visit (the visitor cookie is issued)', api('account.getInfo'), {}],
    ['a method that does not exist', api('no.suchMethod'), {}],
    ['a path below a method', '/api/storage.get/extra', {}],
    ['NUL in the address', api('account.getInfo', '&x=%00'), {}],
    ['an unknown locale', `/api/account.getInfo?v=${API_VERSION}&locale=xx`, {}],
    ['HEAD', api('account.getInfo'), { method: 'HEAD' }],
    ['a large answer the client takes compressed', api('games.get', '&count=100'), { headers: { 'accept-encoding': 'br' } }],
    ['a large answer the client takes as gzip', api('games.get', '&count=100'), { headers: { 'accept-encoding': 'gzip' } }],
    ['a large answer the client takes plain', api('games.get', '&count=100'), { headers: { 'accept-encoding': 'identity' } }],
    [
      'a cross-site POST',
      api('storage.set'),
      { method: 'POST', headers: { origin: 'http://evil.example' }, body: new URLSearchParams({ key: 'k', value: 'v' }) },
    ],
    [
      'a body declared larger than the limit',
      api('storage.set'),
      { method: 'POST', headers: { origin: 'SELF', 'content-type': 'text/plain' }, body: 'x'.repeat(TEST_MAX_BODY_BYTES + 1) },
    ],
    [
      'a JSON body that is no object',
      api('storage.set'),
      { method: 'POST', headers: { origin: 'SELF', 'content-type': 'application/json' }, body: '[1]' },
    ],
    [
      'behind the trusted proxy, an https origin (the visitor cookie is Secure)',
      api('account.getInfo'),
      { headers: { 'x-forwarded-proto': 'https', 'x-forwarded-host': 'example.com' } },
    ],
  ])('answers %s as the app does', async (_label, path, init: RequestInit) => {
    const { viaLane, viaApp } = await both(path, init);
    expect(viaLane).toEqual(viaApp);
    expect(viaLane.headers['content-type']).toBe('application/json');
  });

  it('compresses a large answer as the client asks (issue 12: nothing went out compressed) and issues a Secure visitor cookie behind https', async () => {
    const encodingOf = async (acceptEncoding: string) =>
      (await fetch(`${laneUrl}${api('games.get', '&count=100')}`, { headers: { 'accept-encoding': acceptEncoding } })).headers;
    expect((await encodingOf('br')).get('content-encoding')).toBe('br');
    expect((await encodingOf('gzip')).get('content-encoding')).toBe('gzip');
    const plain = await encodingOf('identity');
    expect(plain.get('content-encoding')).toBeNull();
    expect(plain.get('vary')).toBe('Accept-Encoding');
    const behindHttps = await fetch(`${laneUrl}${api('account.getInfo')}`, { headers: { 'x-forwarded-proto': 'https' } });
    expect(behindHttps.headers.getSetCookie().find((set) => set.startsWith('vid='))).toMatch(/; Secure/);
  });

  it('answers a signed-in player and a write the way the app does, with the same cookies', async () => {
    const cookie = await signedInCookie();
    const info = await both(api('account.getInfo'), { headers: { cookie } });
    expect(info.viaLane).toEqual(info.viaApp);
    expect(JSON.parse(info.viaLane.body).data.uid).toBeGreaterThan(0);
    const write = await both(api('storage.set'), {
      method: 'POST',
      headers: { cookie, origin: 'SELF' },
      body: new URLSearchParams({ key: 'lane', value: 'same' }),
    });
    expect(write.viaLane).toEqual(write.viaApp);
    expect(write.viaLane.status).toBe(200);
    const signOut = await both(api('auth.logout'), { method: 'POST', headers: { cookie, origin: 'SELF' } });
    expect(signOut.viaLane.cookies).toEqual(signOut.viaApp.cookies);
    expect(signOut.viaLane.cookies.some((set) => set.startsWith('sid=…') && /Max-Age=0/.test(set))).toBe(true);
  });

  it('answers API requests without the app and hands it everything else; the lane counts its answers', async () => {
    reachedApp.length = 0;
    await fetch(`${laneUrl}${api('account.getInfo')}`);
    await fetch(`${laneUrl}${api('storage.getKeys')}`, { method: 'POST', headers: { origin: laneUrl } });
    await fetch(`${laneUrl}/robots.txt`);
    expect(reachedApp).toEqual(['/robots.txt']);
    expect(await metrics.render()).toMatch(/http_requests_total\{kind="api",status="200"\} [1-9]/);
  });
});
