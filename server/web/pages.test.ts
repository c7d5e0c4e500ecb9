/**
 * The loaders' in-process reads answer exactly as the HTTP routes they replace: the same status
 * and envelope for the product API (successes and errors alike), the same configuration and
 * content bodies, and the configuration read once per page request.
 */
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_VERSION } from '#common/api-contract';
import type { InProcessAnswer, PageLoadContext } from '#common/load-context';
import { createTestApp, type TestApp } from '../../test/api-harness';
import { testDatabaseKinds } from '../../test/databases';
import { signedInPlayer } from '../../test/player';
import { pageLoadContext } from './pages';

type Probe = (ctx: PageLoadContext) => Promise<unknown>;

describe.each(testDatabaseKinds())('loaders read in process as over HTTP on %s', (kind) => {
  let testApp: TestApp;
  let probe: Probe = async () => null;

  beforeAll(async () => {
    testApp = await createTestApp(kind);
    // A page request's load context, as the page handler builds it, with what the probe read.
    testApp.app.get('/in-process-probe', async (c) =>
      c.json({ answer: await probe(await pageLoadContext(c, pino({ level: 'silent' }))) }),
    );
  });
  afterAll(() => testApp.close());

  async function inProcess(read: Probe, cookie = ''): Promise<unknown> {
    probe = read;
    const response = await testApp.request('/in-process-probe', { headers: cookie ? { cookie } : {} });
    return ((await response.json()) as { answer: unknown }).answer;
  }

  async function overHttp(path: string, init: RequestInit = {}): Promise<InProcessAnswer> {
    const response = await testApp.request(path, init);
    return { status: response.status, body: await response.json() };
  }

  const cases: { name: string; status: number; path: string; method: 'GET' | 'POST'; body?: string; locale?: string }[] = [
    { name: 'a public method', status: 200, path: 'metadata.getgeneralinfo', method: 'GET' },
    { name: 'a method that needs a player, called anonymously', status: 401, path: 'loyalty.getinfo', method: 'GET' },
    { name: 'an unknown method', status: 404, path: 'cashier.nosuchmethod', method: 'GET' },
    { name: 'the wrong verb', status: 400, path: 'storage.set', method: 'GET' },
    { name: 'a missing parameter', status: 400, path: 'games.getRounds', method: 'GET' },
    { name: 'an unknown locale', status: 400, path: 'games.getCategories', method: 'GET', locale: 'xx' },
    { name: 'a form body', status: 200, path: 'storage.set', method: 'POST', body: 'key=theme&value=dark' },
  ];

  for (const { name, status, path, method, body, locale = 'en' } of cases) {
    it(`${name}: the same status and envelope`, async () => {
      const address = `/api/${path}?v=${API_VERSION}&locale=${locale}`;
      const init = { method, body: body === undefined ? undefined : new URLSearchParams(body) };
      const expected = await overHttp(address, init);
      expect(expected.status).toBe(status);
      const answer = await inProcess((ctx) => ctx.callApi(address, init));
      expect(answer).toEqual(expected);
    });
  }

  it('a signed-in player: the same account over both ways, and AuthorizationException for none', async () => {
    const { browser } = await signedInPlayer(testApp);
    const address = `/api/loyalty.getinfo?v=${API_VERSION}&locale=en`;
    const expected = await overHttp(address, { headers: { cookie: browser.cookie } });
    expect(expected.status).toBe(200);
    expect(await inProcess((ctx) => ctx.callApi(address, { method: 'GET' }), browser.cookie)).toEqual(expected);
    const anonymous = (await inProcess((ctx) => ctx.callApi(address, { method: 'GET' }))) as InProcessAnswer;
    expect(anonymous.status).toBe(401);
    expect((anonymous.body as { error: { type: string } }).error.type).toBe('AuthorizationException');
  });

  it('the configuration and content as /nfx/cms-config and /cms/api answer them', async () => {
    const config = await overHttp('/nfx/cms-config/en');
    expect(await inProcess((ctx) => ctx.siteConfig('en'))).toEqual(config.body);
    const query = new URLSearchParams({ locale: 'en', 'filters[slug][$eq]': 'common' });
    const translations = await overHttp(`/cms/api/translations?${query}`);
    expect(await inProcess((ctx) => ctx.readContent('translations', query))).toEqual(translations);
    const missing = await overHttp(`/cms/api/nosuchcollection?${query}`);
    expect(missing.status).toBe(404);
    expect(await inProcess((ctx) => ctx.readContent('nosuchcollection', query))).toEqual(missing);
  });

  it('reads the configuration once per page request, however many loaders ask', async () => {
    const content = testApp.services.content;
    const original = content.getConfig;
    let reads = 0;
    content.getConfig = async (...args) => {
      reads += 1;
      return original.apply(content, args);
    };
    try {
      await inProcess(async (ctx) => Promise.all([ctx.siteConfig('en'), ctx.siteConfig('en'), ctx.siteConfig('en')]));
    } finally {
      content.getConfig = original;
    }
    expect(reads).toBe(1);
  });
});
