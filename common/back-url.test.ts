import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { BACK_URL_KEY, fullPageLoad, leaveByBackUrl, storeBackUrl, takeBackUrl, type KeyValueStorage } from './back-url';

function memoryStorage(initial: Record<string, string> = {}): KeyValueStorage & { data: Map<string, string> } {
  const data = new Map(Object.entries(initial));
  return {
    data,
    getItem: (key) => data.get(key) ?? null,
    setItem: (key, value) => void data.set(key, value),
    removeItem: (key) => void data.delete(key),
  };
}

function fakeLocation(href: string) {
  const calls: string[] = [];
  return {
    calls,
    location: { href, assign: (url: string) => void calls.push(`assign ${url}`), reload: () => void calls.push('reload') },
  };
}

describe('backUrl (spec §3: a return address stored under backUrl is read once, removed, then navigated to)', () => {
  it('is stored under the key backUrl', () => {
    const storage = memoryStorage();
    expect(storeBackUrl(storage, '/promotions?tab=2#top')).toBe(true);
    expect(storage.data.get(BACK_URL_KEY)).toBe('/promotions?tab=2#top');
    expect(BACK_URL_KEY).toBe('backUrl');
  });

  it('is read once: the key is gone after the first read and the second read gives the fallback', () => {
    const storage = memoryStorage({ backUrl: '/it/promotions' });
    expect(takeBackUrl(storage, '/')).toBe('/it/promotions');
    expect(storage.data.has(BACK_URL_KEY)).toBe(false);
    expect(takeBackUrl(storage, '/home-fallback')).toBe('/home-fallback');
  });

  it('follows same-origin paths only: another origin, //host, javascript: and backslash tricks give the fallback, and are removed too', () => {
    for (const value of [
      'https://evil.example/',
      '//evil.example',
      '/\\evil.example',
      'javascript:alert(1)',
      '/\t/evil.example',
      'promotions',
    ]) {
      const storage = memoryStorage({ backUrl: value });
      expect(takeBackUrl(storage, '/'), value).toBe('/');
      expect(storage.data.has(BACK_URL_KEY)).toBe(false);
    }
  });

  it('is never stored when it is not a same-origin path (and clears an older one)', () => {
    const storage = memoryStorage({ backUrl: '/old' });
    expect(storeBackUrl(storage, 'https://evil.example/')).toBe(false);
    expect(storage.data.has(BACK_URL_KEY)).toBe(false);
  });

  it('whatever is stored, what is followed stays on the site', () => {
    fc.assert(
      fc.property(fc.string(), (value) => {
        const target = takeBackUrl(memoryStorage({ backUrl: value }), '/');
        const url = new URL(target, 'https://site.example/start');
        return url.origin === 'https://site.example' && target.startsWith('/') && !target.startsWith('//');
      }),
    );
  });

  it('is navigated to by a full page load', () => {
    const storage = memoryStorage({ backUrl: '/promotions' });
    const { calls, location } = fakeLocation('https://site.example/forms/sign_in');
    const replaced: string[] = [];
    expect(leaveByBackUrl(storage, '/', location, (href) => replaced.push(href))).toBe('/promotions');
    expect(calls).toEqual(['assign https://site.example/promotions']);
    expect(replaced).toEqual([]);
    expect(storage.data.has(BACK_URL_KEY)).toBe(false);
  });

  it('reloads when the return address is the current page, even with another hash (assigning would not load it)', () => {
    expect(fullPageLoad('/game/x#real', 'https://site.example/game/x')).toEqual({
      action: 'reload',
      href: 'https://site.example/game/x#real',
    });
    expect(fullPageLoad('/game/x', 'https://site.example/game/x')).toEqual({
      action: 'reload',
      href: 'https://site.example/game/x',
    });
    expect(fullPageLoad('/game/x?a=1', 'https://site.example/game/x').action).toBe('assign');
    const storage = memoryStorage({ backUrl: '/game/x#real' });
    const { calls, location } = fakeLocation('https://site.example/game/x');
    const replaced: string[] = [];
    leaveByBackUrl(storage, '/', location, (href) => replaced.push(href));
    expect(replaced).toEqual(['https://site.example/game/x#real']);
    expect(calls).toEqual(['reload']);
  });
});
