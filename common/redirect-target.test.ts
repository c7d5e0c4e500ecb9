/**
 * The one redirect-target decision (issue 11, point 2: no open redirect). Whatever an address or a
 * stored row holds, the answer, resolved as a browser resolves it, stays on the site, or on an
 * origin the caller explicitly allowed.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { matchRedirect, safeRedirectTarget } from './address';
import { takeBackUrl, storeBackUrl, type KeyValueStorage } from './back-url';
import { socialReturnAddress } from './social-sign-in';

const SITE = 'https://site.test';
/** A deep page: a relative target would resolve against it, so only a rooted path is safe. */
const CURRENT_PAGE = `${SITE}/it/cashier/deposit?x=1#top`;
const PAYMENT_ORIGIN = 'https://pay.example';
/** Seeded, so a failure names an input that reproduces on every run. */
const RUNS = { seed: 20261124, numRuns: 3000 };

/** Where a browser ends when it follows the target from the current page (Location, assign, refresh). */
function landing(target: string): URL {
  // The URL parser strips leading and trailing C0 controls and spaces and drops tabs and newlines,
  // as browsers do; written out so the test does not lean on that alone.
  // eslint-disable-next-line no-control-regex
  return new URL(target.replace(/[\t\n\r]/g, '').replace(/^[\u0000-\u0020]+|[\u0000-\u0020]+$/g, ''), CURRENT_PAGE);
}

/** Pieces attackers chain: slashes, backslashes, dot segments, encodings, controls, look-alikes. */
const HOSTILE_PIECES = [
  '/',
  '//',
  '///',
  '\\',
  '\\\\',
  '.',
  '..',
  './',
  '../',
  '%2e',
  '%2E',
  '%2e%2e',
  '%252e',
  '%2f',
  '%2F',
  '%252f',
  '%5c',
  '%5C',
  '%255c',
  '%09',
  '%0a',
  '%0d',
  '%00',
  '\t',
  '\n',
  '\r',
  '\u0000',
  '\u000b',
  '\u000c',
  ' ',
  '\u00a0',
  '\u2028',
  '\ufeff',
  '\uff0f', // fullwidth solidus
  '\u2044', // fraction slash
  '\u2215', // division slash
  '\u29f8', // big solidus
  '\uff3c', // fullwidth reverse solidus
  '\u3002', // ideographic full stop
  '\uff0e', // fullwidth full stop
  '\uff61', // halfwidth ideographic full stop
  '@',
  ':',
  '?',
  '#',
  '%40',
  'evil.example',
  'evil.example.',
  'EVIL.example',
  'site.test',
  'site.test.evil.example',
  'pay.example',
  '127.0.0.1',
  '[::1]',
  'localhost',
  'http:',
  'https:',
  'HTTPS:',
  'javascript:',
  'data:',
  'https://evil.example',
  'https://pay.example',
  'https://pay.example@evil.example',
  '//evil.example',
  '/\\evil.example',
  'it',
  '/it',
  'promotions',
  'é',
  '\ud800',
  '\udfff',
];

const hostileInput = fc.oneof(
  fc.array(fc.constantFrom(...HOSTILE_PIECES), { minLength: 1, maxLength: 10 }).map((pieces) => pieces.join('')),
  fc
    .tuple(fc.constantFrom('/', '', '\\', ' /'), fc.array(fc.constantFrom(...HOSTILE_PIECES), { maxLength: 8 }))
    .map(([start, pieces]) => start + pieces.join('')),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.webUrl().map((url) => url.replace(/^https?:/, '')),
);

describe('one redirect-target decision (issue 11: redirect targets never leave the site without permission)', () => {
  it.each(['/.//evil.example', '/..//evil.example', '/%2e//evil.example', '/%2E%2E//evil.example', '/./\\evil.example'])(
    'falls back on the reproducer %j instead of ending on //evil.example',
    (input) => {
      const target = safeRedirectTarget(input, '/home');
      expect(target).toBe('/home');
      expect(landing(target).origin).toBe(SITE);
    },
  );

  it('keeps ordinary same-site paths with query and hash, percent-encoded for a Location header', () => {
    expect(safeRedirectTarget('/cashier/deposit?a=1#b')).toBe('/cashier/deposit?a=1#b');
    expect(safeRedirectTarget('/it/promozioni/caffè')).toBe('/it/promozioni/caff%C3%A8');
    expect(safeRedirectTarget('/a/./b/../c')).toBe('/a/c');
  });

  it('leaves the site only for an origin on the allow-list, never by look-alike or credentials', () => {
    const allowed = { allowedOrigins: [PAYMENT_ORIGIN] };
    expect(safeRedirectTarget('https://pay.example/return?id=1', '/', allowed)).toBe('https://pay.example/return?id=1');
    expect(safeRedirectTarget('https://pay.example/return', '/')).toBe('/');
    for (const bad of [
      'https://pay.example.evil.example/',
      'https://pay.example@evil.example/',
      'https://user:pw@pay.example/',
      'http://pay.example/',
      'https://pay.example:8443/',
      'javascript://pay.example/%0aalert(1)',
    ]) {
      expect(safeRedirectTarget(bad, '/', allowed), bad).toBe('/');
    }
  });

  it('property: whatever the input, the browser lands on the site origin, and deciding again changes nothing', () => {
    fc.assert(
      fc.property(hostileInput, (input) => {
        const target = safeRedirectTarget(input, '/fallback');
        expect(target.startsWith('/')).toBe(true);
        expect(target.startsWith('//')).toBe(false);
        expect(target).not.toContain('\\');
        expect(landing(target).origin).toBe(SITE);
        expect(safeRedirectTarget(target, '/other')).toBe(target);
      }),
      RUNS,
    );
  });

  it('property: with an allow-list, the browser lands on the site or on the allowed origin only', () => {
    fc.assert(
      fc.property(hostileInput, fc.constantFrom('', 'https://pay.example'), (input, prefix) => {
        const target = safeRedirectTarget(prefix + input, '/fallback', { allowedOrigins: [PAYMENT_ORIGIN] });
        expect([SITE, PAYMENT_ORIGIN]).toContain(landing(target).origin);
      }),
      RUNS,
    );
  });

  it('property: the redirect table never sends a visitor off the site unless a rule names that origin', () => {
    fc.assert(
      fc.property(
        hostileInput,
        fc.constantFrom('/go/*', '*', '/it/*', 'https://partners.example/*', 'https://*'),
        (captured, to) => {
          const match = matchRedirect([{ from_url: '/go*', to_url: to }], `/go${captured}`);
          if (!match) return;
          const origin = landing(match.to).origin;
          expect(origin === SITE || (to.startsWith('https://partners.example/') && origin === 'https://partners.example')).toBe(
            true,
          );
        },
      ),
      RUNS,
    );
  });

  it('property: backUrl storage and the social return address keep to the site (spec §3)', () => {
    fc.assert(
      fc.property(hostileInput, (input) => {
        const storage = new MapStorage();
        storeBackUrl(storage, input);
        expect(landing(takeBackUrl(storage, '/home')).origin).toBe(SITE);
        storage.setItem('backUrl', input);
        expect(landing(takeBackUrl(storage, '/home')).origin).toBe(SITE);
        const search = `?${new URLSearchParams({ redirectUrl: input })}`;
        expect(landing(socialReturnAddress({ pathname: '/it/cashier', search, hash: '' })).origin).toBe(SITE);
      }),
      RUNS,
    );
  });
});

class MapStorage implements KeyValueStorage {
  private readonly values = new Map<string, string>();
  getItem(key: string): string | null {
    return this.values.get(key) ?? null;
  }
  setItem(key: string, value: string): void {
    this.values.set(key, value);
  }
  removeItem(key: string): void {
    this.values.delete(key);
  }
}
