/**
 * Issue 11's headers on every answer, and issue 12's complete answers: a small API answer that sets
 * no cookie goes out with its headers in one plain record, and must carry exactly what the
 * middlewares put on every other answer.
 */
import type { AddressInfo } from 'node:net';
import { serve, type ServerType } from '@hono/node-server';
import { Hono } from 'hono';
import { secureHeaders } from 'hono/secure-headers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_VERSION } from '#common/api-contract';
import { createTestApp, type TestApp } from '../../test/api-harness';
import { SECURITY_HEADERS } from './answer-headers';
import { MIN_COMPRESSED_BYTES } from './compression';

/** Headers that differ between any two answers whatever made them. */
const PER_ANSWER = new Set(['date', 'connection', 'keep-alive', 'content-length', 'set-cookie']);
const KNOWN_VISITOR = 'vid=known-visitor-0123456789';

function comparable(headers: Headers): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const [name, value] of headers) {
    if (PER_ANSWER.has(name)) continue;
    // Each answer has its own nonce; the policy around it must be the same.
    kept[name] = name === 'content-security-policy' ? value.replace(/'nonce-[^']+'/g, "'nonce-N'") : value;
  }
  return kept;
}

function nonceOf(headers: Headers): string | undefined {
  return /'nonce-([^']+)'/.exec(headers.get('content-security-policy') ?? '')?.[1];
}

describe('the security headers (issue 11)', () => {
  it("are what hono's secureHeaders sends with the site's options", async () => {
    const reference = new Hono();
    reference.use(
      '*',
      secureHeaders({
        crossOriginEmbedderPolicy: false,
        crossOriginResourcePolicy: false,
        xFrameOptions: 'SAMEORIGIN',
        referrerPolicy: 'strict-origin-when-cross-origin',
      }),
    );
    reference.get('*', (c) => c.text('x'));
    const sent = Object.fromEntries((await reference.request('/')).headers);
    delete sent['content-type'];
    expect(SECURITY_HEADERS).toEqual(sent);
  });
});

describe('complete API answers (issue 12) carry every header the middlewares add', () => {
  let t: TestApp;
  let server: ServerType;
  let baseUrl: string;
  beforeAll(async () => {
    t = await createTestApp('pglite');
    server = serve({ fetch: t.app.fetch, port: 0, hostname: '127.0.0.1' });
    await new Promise((resolve) => server.once('listening', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => server?.close(() => resolve()));
    await t?.close();
  });

  /** How a test reaches the app: a GET with an optional cookie, or a POST of a body. */
  type Send = (path: string, request?: { cookie?: string; body?: string }) => Promise<Response>;
  const init = ({ cookie, body }: { cookie?: string; body?: string } = {}): RequestInit => ({
    method: body === undefined ? 'GET' : 'POST',
    headers: cookie ? { cookie } : {},
    body,
  });
  const transports: [string, Send][] = [
    ['over a real listener', (path, request) => fetch(`${baseUrl}${path}`, init(request))],
    ['through app.request', (path, request) => t.request(path, init(request))],
  ];

  it.each(transports)(
    '%s: a known visitor’s small answer has the same headers as one that issues the visitor cookie',
    async (_, send) => {
      const path = `/api/account.getInfo?v=${API_VERSION}&locale=en`;
      const complete = await send(path, { cookie: KNOWN_VISITOR });
      const issuing = await send(path);
      expect(complete.status).toBe(200);
      expect(issuing.status).toBe(200);
      expect(await complete.json()).toEqual(await issuing.json());
      // The visitor cookie waits in Hono's prepared headers: that answer must still carry it.
      expect(issuing.headers.getSetCookie().some((cookie) => cookie.startsWith('vid='))).toBe(true);
      expect(complete.headers.getSetCookie()).toEqual([]);
      expect(comparable(complete.headers)).toEqual(comparable(issuing.headers));
      for (const [name, value] of Object.entries(SECURITY_HEADERS)) expect(complete.headers.get(name), name).toBe(value);
      expect(complete.headers.get('content-type')).toBe('application/json');
      expect(complete.headers.get('cache-control')).toBe('no-store');
      expect(complete.headers.get('vary')).toBe('Accept-Encoding');
      expect(nonceOf(complete.headers)).toBeTruthy();
      expect(nonceOf(complete.headers)).not.toBe(nonceOf(issuing.headers));
    },
  );

  it.each(transports)('%s: an error answer goes out complete with the same headers', async (_, send) => {
    const path = `/api/account.getInfo?v=${API_VERSION}&locale=xx`;
    const complete = await send(path, { cookie: KNOWN_VISITOR });
    const issuing = await send(path);
    expect(complete.status).toBe(400);
    expect(((await complete.json()) as { error: { type: string } }).error.type).toBe('InvalidParameterException');
    expect(comparable(complete.headers)).toEqual(comparable(issuing.headers));
  });

  it.each(transports)(
    '%s: a provider wallet answer carries the same headers (the wallet sets no Cache-Control)',
    async (_, send) => {
      const wallet = await send('/provider-api/no-such-provider/bet', { body: '{}' });
      expect(((await wallet.json()) as { code: string }).code).toBe('UNKNOWN_PROVIDER');
      const issuing = await send(`/api/account.getInfo?v=${API_VERSION}&locale=en`);
      const { 'cache-control': noStore, ...expected } = comparable(issuing.headers);
      expect(noStore).toBe('no-store');
      expect(comparable(wallet.headers)).toEqual(expected);
      expect(nonceOf(wallet.headers)).toBeTruthy();
    },
  );

  it('a sign-in answer still sets its session cookie, and a large answer is still compressed', async () => {
    const registered = await fetch(`${baseUrl}/api/auth.register?v=${API_VERSION}&locale=en`, {
      method: 'POST',
      headers: { cookie: KNOWN_VISITOR, origin: baseUrl },
      body: new URLSearchParams({ login: `complete${Date.now()}@example.com`, password: 'complete-secret-12', terms: '1' }),
    });
    expect(registered.status).toBe(200);
    expect(registered.headers.getSetCookie().some((cookie) => cookie.startsWith('sid='))).toBe(true);
    const games = await fetch(
      `${baseUrl}/api/games.get?v=${API_VERSION}&locale=en&count=100&fields=name,image_url,provider,categories`,
      {
        headers: { cookie: KNOWN_VISITOR, 'accept-encoding': 'gzip' },
      },
    );
    expect(games.status).toBe(200);
    expect(JSON.stringify(await games.clone().json()).length).toBeGreaterThan(MIN_COMPRESSED_BYTES);
    expect(games.headers.get('content-encoding')).toBe('gzip');
    expect(games.headers.get('x-frame-options')).toBe('SAMEORIGIN');
    expect(nonceOf(games.headers)).toBeTruthy();
  });
});
