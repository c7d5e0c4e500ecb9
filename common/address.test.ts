import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  EXTERNAL_NOT_ALLOWED,
  NavigationError,
  anonymousRedirectTarget,
  assertNavigable,
  blockedProtocolMessage,
  canonicalPath,
  collapseSlashes,
  fixedRedirect,
  isProtectedPath,
  matchRedirect,
  normalizedPath,
  removeTrailingSlash,
  rewriteUnmatchedLocale,
  safeRedirectTarget,
  type RedirectRule,
} from './address';

describe('trailing slash (spec §2: a trailing slash is removed)', () => {
  it('removes it everywhere but the root', () => {
    expect(removeTrailingSlash('/promotions/')).toBe('/promotions');
    expect(removeTrailingSlash('/it/')).toBe('/it');
    expect(removeTrailingSlash('/')).toBe('/');
  });
  it('a normalized path never starts with two slashes, so it cannot leave the site', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[/\\a-z.]{1,20}$/), (raw) => {
        const path = `/${raw}`;
        const result = normalizedPath(path) ?? path;
        expect(result.startsWith('//')).toBe(false);
      }),
    );
    expect(collapseSlashes('//evil.com/')).toBe('/evil.com/');
    expect(normalizedPath('//evil.com')).toBe('/evil.com');
    expect(normalizedPath('/promotions')).toBeUndefined();
  });
});

describe('anonymous access rule (spec §2, §6)', () => {
  it('protects paths with bets, cashier, profile or responsible-game segments in both locales', () => {
    for (const path of [
      '/cashier',
      '/cashier/deposit',
      '/it/profile/settings',
      '/bets/live/1',
      '/responsible-game',
      '/it/responsible-game',
    ]) {
      expect(isProtectedPath(path), path).toBe(true);
    }
    for (const path of ['/', '/promotions', '/it', '/profiles-of-winners', '/gamehall']) {
      expect(isProtectedPath(path), path).toBe(false);
    }
  });
  it('sends the visitor to the locale home with the encoded full path in redirectUrl', () => {
    expect(anonymousRedirectTarget('/cashier/deposit?x=1', 'en')).toBe(
      `/?redirectUrl=${encodeURIComponent('/cashier/deposit?x=1')}`,
    );
    expect(anonymousRedirectTarget('/it/profile', 'it')).toBe(`/it?redirectUrl=${encodeURIComponent('/it/profile')}`);
  });
});

describe('redirect targets from the address are same-origin paths only (architecture §4)', () => {
  it('keeps a plain path with query and hash', () => {
    expect(safeRedirectTarget('/cashier/deposit?a=1#b')).toBe('/cashier/deposit?a=1#b');
  });
  it('refuses other origins, protocol-relative and backslash tricks', () => {
    for (const bad of ['https://evil.com', '//evil.com', '/\\evil.com', 'javascript:alert(1)', '/\tevil', 'evil.com', '']) {
      expect(safeRedirectTarget(bad, '/home'), bad).toBe('/home');
    }
  });
  it('never returns something that leaves the origin, whatever the input', () => {
    fc.assert(
      fc.property(fc.string(), (value) => {
        const target = safeRedirectTarget(value);
        expect(new URL(target, 'https://site.test').origin).toBe('https://site.test');
      }),
    );
  });
});

describe('redirect table (spec §2: from_url patterns with wildcards to to_url targets)', () => {
  const rules: RedirectRule[] = [
    { from_url: '/casino', to_url: '/gamehall' },
    { from_url: '/promo/*', to_url: '/promotions/*' },
    { from_url: '/old-*-page', to_url: '/support', status: 302 },
    { from_url: '/partners', to_url: 'https://partners.example.com/' },
    { from_url: '/loop', to_url: '/loop' },
  ];
  it('matches exact paths and keeps the locale prefix of internal targets', () => {
    expect(matchRedirect(rules, '/casino')).toEqual({ to: '/gamehall', status: 301, isExternal: false });
    expect(matchRedirect(rules, '/it/casino')?.to).toBe('/it/gamehall');
  });
  it('carries what the wildcard matched into the target', () => {
    expect(matchRedirect(rules, '/promo/summer-2026')?.to).toBe('/promotions/summer-2026');
    expect(matchRedirect(rules, '/old-faq-page')).toMatchObject({ to: '/support', status: 302 });
  });
  it('goes to external targets as they are (explicitly permitted by configuration)', () => {
    expect(matchRedirect(rules, '/partners')).toEqual({ to: 'https://partners.example.com/', status: 301, isExternal: true });
  });
  it('does not match other paths, and never redirects a path to itself', () => {
    expect(matchRedirect(rules, '/casino/slots')).toBeUndefined();
    expect(matchRedirect(rules, '/loop')).toBeUndefined();
  });
  it('treats regular-expression characters in patterns literally', () => {
    expect(matchRedirect([{ from_url: '/a.b', to_url: '/x' }], '/aXb')).toBeUndefined();
    expect(matchRedirect([{ from_url: '/a.b', to_url: '/x' }], '/a.b')?.to).toBe('/x');
  });
  it('refuses a javascript: target with the spec message', () => {
    expect(() => matchRedirect([{ from_url: '/x', to_url: 'javascript:alert(1)' }], '/x')).toThrow(
      blockedProtocolMessage('javascript:'),
    );
  });
});

describe('canonical links (spec §2: /platform inserted after the locale prefix for game paths)', () => {
  it('inserts /platform for game paths only', () => {
    expect(canonicalPath('/game/aurora-fortune')).toBe('/platform/game/aurora-fortune');
    expect(canonicalPath('/it/game/aurora-fortune')).toBe('/it/platform/game/aurora-fortune');
    expect(canonicalPath('/platform/game/dice-roll/demo')).toBe('/platform/game/dice-roll/demo');
    expect(canonicalPath('/it/platform/game/dice-roll/play')).toBe('/it/platform/game/dice-roll/play');
    expect(canonicalPath('/gamehall')).toBe('/gamehall');
    expect(canonicalPath('/it/promotions')).toBe('/it/promotions');
  });
});

describe('unmatched route (spec §2: the locale prefix is rewritten to the current locale)', () => {
  it('rewrites to the current locale and leaves a path already in it alone', () => {
    expect(rewriteUnmatchedLocale('/it/a/b', 'en')).toBe('/a/b');
    expect(rewriteUnmatchedLocale('/a/b', 'it')).toBe('/it/a/b');
    expect(rewriteUnmatchedLocale('/it/a/b', 'it')).toBeUndefined();
    expect(rewriteUnmatchedLocale('/a/b', 'en')).toBeUndefined();
  });
});

describe('fixed redirects (spec §2: /cashier, /cashier/billing, /profile)', () => {
  it('sends them to their screens in the same locale', () => {
    expect(fixedRedirect('/cashier')).toBe('/cashier/deposit');
    expect(fixedRedirect('/cashier/billing')).toBe('/cashier/deposit');
    expect(fixedRedirect('/it/profile')).toBe('/it/profile/settings');
    expect(fixedRedirect('/cashier/deposit')).toBeUndefined();
  });
});

describe('external navigation (spec §5, §8)', () => {
  it('needs explicit permission, with the spec message', () => {
    expect(() => assertNavigable('https://example.com')).toThrow(EXTERNAL_NOT_ALLOWED);
    expect(() => assertNavigable('//example.com')).toThrow(NavigationError);
    expect(() => assertNavigable('https://example.com', { external: true })).not.toThrow();
    expect(() => assertNavigable('/promotions')).not.toThrow();
  });
  it('refuses javascript-type protocols even with permission, whatever their spelling', () => {
    for (const target of [
      'javascript:alert(1)',
      'JavaScript:alert(1)',
      ' java\tscript:alert(1)',
      'vbscript:x',
      'data:text/html,x',
    ]) {
      expect(() => assertNavigable(target, { external: true }), target).toThrow(
        /Cannot navigate to a URL with '(javascript|vbscript|data):' protocol\./,
      );
    }
  });
});
