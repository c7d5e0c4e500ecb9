import { describe, expect, it } from 'vitest';
import {
  hashWithoutMessengerData,
  isSocialMessage,
  messengerInitData,
  SOCIAL_POPUP_SIZE,
  socialInitPath,
  socialPopupFeatures,
  socialReturnAddress,
} from './social-sign-in';

describe('social sign-in pop-up (spec §3 social sign-in parameters, §7 pop-up to /oauth/init, §9 640 by 480)', () => {
  it('opens /oauth/init with service, redirect_url and type_auth', () => {
    const url = new URL(socialInitPath('dev', '/it/promotions?tab=1', 'register'), 'https://site.example');
    expect(url.pathname).toBe('/oauth/init');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      service: 'dev',
      redirect_url: '/it/promotions?tab=1',
      type_auth: 'register',
    });
  });

  it('is 640 by 480, centred over the window', () => {
    expect(SOCIAL_POPUP_SIZE).toEqual({ width: 640, height: 480 });
    expect(socialPopupFeatures({ screenX: 100, screenY: 50, outerWidth: 1440, outerHeight: 900 })).toBe(
      'popup=yes,width=640,height=480,left=500,top=260',
    );
    expect(socialPopupFeatures({ screenX: 0, screenY: 0, outerWidth: 375, outerHeight: 667 })).toContain('left=0,');
  });

  it("accepts only the pop-up's own message shape", () => {
    expect(isSocialMessage({ type: 'social-auth', status: 'success', redirectUrl: '/', isNew: true })).toBe(true);
    expect(isSocialMessage({ type: 'social-auth', status: 'error', reason: 'denied' })).toBe(true);
    expect(isSocialMessage({ type: 'social-auth', status: 'success' })).toBe(false);
    expect(isSocialMessage({ type: 'other', status: 'success', redirectUrl: '/' })).toBe(false);
    expect(isSocialMessage('social-auth')).toBe(false);
  });

  it('returns to the redirectUrl of the anonymous-access rule (spec §2), else the current page, else from the forms to the locale home', () => {
    expect(
      socialReturnAddress({ pathname: '/', search: `?redirectUrl=${encodeURIComponent('/cashier/deposit')}`, hash: '' }),
    ).toBe('/cashier/deposit');
    expect(
      socialReturnAddress({ pathname: '/', search: `?redirectUrl=${encodeURIComponent('https://evil.example')}`, hash: '' }),
    ).toBe('/');
    expect(socialReturnAddress({ pathname: '/game/book', search: '?x=1', hash: '#real' })).toBe('/game/book?x=1#real');
    expect(socialReturnAddress({ pathname: '/it/forms/sign_up', search: '', hash: '' })).toBe('/it');
    expect(socialReturnAddress({ pathname: '/forms/sign_in', search: '', hash: '' })).toBe('/');
  });

  it('returns to the path the sign-in popup was opened with (issue 15: redirectUrl, a game’s #real), validated as a password sign-in’s landing', () => {
    // The popup's own return path wins over what the address holds.
    expect(socialReturnAddress({ pathname: '/it/game/x', search: '', hash: '' }, '/it/game/x#real')).toBe('/it/game/x#real');
    expect(
      socialReturnAddress(
        { pathname: '/', search: `?redirectUrl=${encodeURIComponent('/promotions')}`, hash: '' },
        '/profile/bets?tab=casino',
      ),
    ).toBe('/profile/bets?tab=casino');
    // From the sign-in forms too, which otherwise return home.
    expect(socialReturnAddress({ pathname: '/forms/sign_in', search: '', hash: '' }, '/cashier/deposit')).toBe(
      '/cashier/deposit',
    );
    // Only same-site paths: anything else is the locale home.
    for (const hostile of ['https://evil.example/x', '//evil.example', 'javascript:alert(1)', '/\\evil.example'])
      expect(socialReturnAddress({ pathname: '/it/game/x', search: '', hash: '' }, hostile)).toBe('/it');
  });

  it('returns without the parameters that open the sign-in popup (spec §2: show_popup_auth, show_popup_reg, prevent_close)', () => {
    expect(socialReturnAddress({ pathname: '/promotions', search: '?show_popup_auth=1&prevent_close=1&tab=2', hash: '' })).toBe(
      '/promotions?tab=2',
    );
    expect(socialReturnAddress({ pathname: '/it/game/x', search: '?show_popup_reg=1', hash: '#real' })).toBe('/it/game/x#real');
  });
});

describe('messenger init data (spec §1: entering through the messenger mini-app)', () => {
  const raw = 'query_id=AA&user=%7B%22id%22%3A1%7D&auth_date=1716911000&hash=ab';

  it('comes from the mini-app script when present', () => {
    expect(messengerInitData(`#tgWebAppData=${encodeURIComponent('other')}`, raw)).toBe(raw);
  });

  it('comes from the tgWebAppData parameter of the address hash otherwise, decoded once', () => {
    expect(messengerInitData(`#tgWebAppData=${encodeURIComponent(raw)}&tgWebAppVersion=7.0&tgWebAppPlatform=ios`)).toBe(raw);
    expect(messengerInitData('#real')).toBe('');
    expect(messengerInitData('')).toBe('');
  });

  it('is removed from the address once used, keeping any other hash', () => {
    expect(hashWithoutMessengerData(`#tgWebAppData=${encodeURIComponent(raw)}&tgWebAppVersion=7.0`)).toBe('');
    expect(hashWithoutMessengerData(`#tgWebAppData=x&section=games`)).toBe('#section=games');
    expect(hashWithoutMessengerData('#real')).toBe('#real');
  });
});
