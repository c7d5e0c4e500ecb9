/**
 * Issue 12, the rendered-output cache for anonymous visitors: one render answers the same
 * anonymous request for a second, each answer still carries its own CSP nonce (issue 11: a nonce
 * never repeats), a signed-in request or any other difference in what the render reads is a
 * different key, and only a 200 HTML answer without cookies is shared.
 */
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { anonymousPageKey, createAnonymousPageCache, type AnonymousRequestFacts } from './page-cache';
import { newCspNonce } from './csp';

const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36';
const CRAWLER = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';

function facts(overrides: Partial<AnonymousRequestFacts> = {}): AnonymousRequestFacts {
  return {
    method: 'GET',
    url: new URL('http://127.0.0.1/gamehall?category=slots'),
    isAnonymous: true,
    isCountryBlocked: false,
    cookieLocale: undefined,
    acceptLanguage: 'en',
    userAgent: BROWSER,
    siteId: 'aurora',
    dataVersion: '0.0',
    ...overrides,
  };
}

/** A renderer that counts its renders and writes the nonce it was given into the page. */
function countingRenderer(init: ResponseInit = { status: 200, headers: { 'content-type': 'text/html' } }) {
  let renders = 0;
  return {
    get renders() {
      return renders;
    },
    render: async (nonce: string) => {
      renders += 1;
      await new Promise((resolve) => setTimeout(resolve, 5));
      return new Response(`<script nonce="${nonce}">render ${renders}</script>`, init);
    },
  };
}

describe('the anonymous page cache (issue 12)', () => {
  it('renders once for many anonymous visitors at once, and gives each answer its own nonce', async () => {
    const cache = createAnonymousPageCache(60_000);
    const renderer = countingRenderer();
    const key = anonymousPageKey(facts()) ?? '';
    const nonces = Array.from({ length: 10 }, (_, i) => `nonce-of-answer-${i}`);
    const answers = await Promise.all(nonces.map((nonce) => cache.answer(key, nonce, renderer.render)));
    expect(renderer.renders).toBe(1);
    const bodies = await Promise.all(answers.map((answer) => answer.text()));
    bodies.forEach((body, i) => expect(body).toBe(`<script nonce="${nonces[i]}">render 1</script>`));
  });

  it('past its age answers the old render once more while exactly one new render replaces it', async () => {
    const cache = createAnonymousPageCache(0);
    const renderer = countingRenderer();
    const key = anonymousPageKey(facts()) ?? '';
    expect(await (await cache.answer(key, 'a', renderer.render)).text()).toContain('render 1');
    await new Promise((resolve) => setTimeout(resolve, 2));
    const during = await Promise.all(
      ['b', 'c', 'd'].map(async (nonce) => (await cache.answer(key, nonce, renderer.render)).text()),
    );
    expect(during).toEqual(['b', 'c', 'd'].map((nonce) => `<script nonce="${nonce}">render 1</script>`));
    expect(renderer.renders).toBe(2);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(await (await cache.answer(key, 'e', renderer.render)).text()).toBe('<script nonce="e">render 2</script>');
  });

  it('shares no answer that is not a 200 HTML page without cookies', async () => {
    const inits: ResponseInit[] = [
      { status: 200, headers: { 'content-type': 'text/html', 'set-cookie': 'x=1' } },
      { status: 404, headers: { 'content-type': 'text/html' } },
      { status: 200, headers: { 'content-type': 'text/html', 'cache-control': 'private' } },
    ];
    for (const init of inits) {
      const cache = createAnonymousPageCache(60_000);
      const renderer = countingRenderer(init);
      const key = anonymousPageKey(facts()) ?? '';
      await (await cache.answer(key, 'a', renderer.render)).text();
      expect(await (await cache.answer(key, 'b', renderer.render)).text()).toBe('<script nonce="b">render 2</script>');
    }
  });

  it('caches no signed-in, non-GET or data request', () => {
    expect(anonymousPageKey(facts({ isAnonymous: false }))).toBeUndefined();
    expect(anonymousPageKey(facts({ method: 'POST' }))).toBeUndefined();
    expect(anonymousPageKey(facts({ method: 'HEAD' }))).toBeUndefined();
    expect(anonymousPageKey(facts({ url: new URL('http://127.0.0.1/gamehall.data') }))).toBeUndefined();
  });

  it('keys apart every request detail the render reads, and every edit of sites or content', () => {
    const base = anonymousPageKey(facts());
    const variants: Partial<AnonymousRequestFacts>[] = [
      { url: new URL('http://127.0.0.1/gamehall?category=live') },
      { url: new URL('http://127.0.0.1/it/gamehall?category=slots') },
      { url: new URL('http://localhost/gamehall?category=slots') },
      { cookieLocale: 'it' },
      { acceptLanguage: 'it' },
      { userAgent: CRAWLER },
      { isCountryBlocked: true },
      { siteId: 'lagoon' },
      { dataVersion: '0.1' },
    ];
    const keys = variants.map((variant) => anonymousPageKey(facts(variant)));
    for (const key of keys) expect(key).not.toBe(base);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('keys Accept-Language by the locale it names (spec §2 root locale choice), so browsers saying English one way or another share one render', () => {
    const english = ['en', 'en-US,en;q=0.9', 'en-GB,en;q=0.8,de;q=0.5', undefined, 'de-DE,de;q=0.9'].map((acceptLanguage) =>
      anonymousPageKey(facts({ acceptLanguage: acceptLanguage === undefined ? undefined : acceptLanguage })),
    );
    // English however written is one key; no header and a header naming none of our locales are another.
    expect(new Set(english.slice(0, 3)).size).toBe(1);
    expect(english[3]).toBe(english[4]);
    const italian = ['it', 'it-IT,it;q=0.9,en;q=0.8', 'de;q=0.9,it;q=0.8'].map((acceptLanguage) =>
      anonymousPageKey(facts({ acceptLanguage })),
    );
    expect(new Set(italian).size).toBe(1);
    expect(italian[0]).not.toBe(english[0]);
  });
});

describe('cached pages answered compressed (issue 12: no compression per answer)', () => {
  /** A renderer whose page is large enough to compress, with the nonce in two places. */
  const bigPage = async (nonce: string) =>
    new Response(
      `<html><script nonce="${nonce}">a</script>${'<li>game tile</li>'.repeat(300)}<script nonce="${nonce}">b</script></html>`,
      { status: 200, headers: { 'content-type': 'text/html' } },
    );

  it('answers gzip that decodes to the page with each answer’s own nonce, and says so in its headers', async () => {
    const cache = createAnonymousPageCache(60_000);
    const key = anonymousPageKey(facts()) ?? '';
    const nonces = [newCspNonce(), newCspNonce()];
    const answers = await Promise.all(nonces.map((nonce) => cache.answer(key, nonce, bigPage, 'gzip')));
    for (const [index, nonce] of nonces.entries()) {
      const answer = answers[index]!;
      expect(answer.headers.get('content-encoding')).toBe('gzip');
      expect(answer.headers.get('vary')).toMatch(/accept-encoding/i);
      const body = Buffer.from(await answer.arrayBuffer());
      expect(Number(answer.headers.get('content-length'))).toBe(body.length);
      expect(gunzipSync(body).toString()).toBe(await (await bigPage(nonce)).text());
    }
  });

  it('answers the same entry plain to a client that takes no gzip, and a small page plain either way', async () => {
    const cache = createAnonymousPageCache(60_000);
    const key = anonymousPageKey(facts()) ?? '';
    await cache.answer(key, newCspNonce(), bigPage, 'gzip');
    const nonce = newCspNonce();
    const plain = await cache.answer(key, nonce, bigPage, 'identity');
    expect(plain.headers.get('content-encoding')).toBeNull();
    expect(await plain.text()).toBe(await (await bigPage(nonce)).text());
    // A nonce of another length than the render's placeholder cannot take the compressed pieces' places.
    const odd = await cache.answer(key, 'short', bigPage, 'gzip');
    expect(odd.headers.get('content-encoding')).toBeNull();
    expect(await odd.text()).toBe(await (await bigPage('short')).text());

    const smallNonce = newCspNonce();
    const small = await createAnonymousPageCache(60_000).answer(key, smallNonce, countingRenderer().render, 'gzip');
    expect(small.headers.get('content-encoding')).toBeNull();
    expect(await small.text()).toBe(`<script nonce="${smallNonce}">render 1</script>`);
  });
});
