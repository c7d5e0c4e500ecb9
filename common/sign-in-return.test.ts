import { describe, expect, it } from 'vitest';
import { redirectUrlTarget, signInLanding, signUpLanding } from './sign-in-return';

describe('return after sign-in (spec §2 anonymous access rule: redirectUrl; issue 15)', () => {
  it('reads the guarded path the bounce put in redirectUrl', () => {
    expect(redirectUrlTarget('?redirectUrl=%2Fit%2Fprofile%2Fbets%3Ftab%3D2')).toBe('/it/profile/bets?tab=2');
    expect(redirectUrlTarget('?other=1')).toBeUndefined();
  });

  it('follows no address off the site', () => {
    for (const hostile of ['https://evil.example/', '//evil.example', '/\\evil.example', 'javascript:alert(1)'])
      expect(redirectUrlTarget(`?redirectUrl=${encodeURIComponent(hostile)}`)).toBeUndefined();
    expect(signInLanding('//evil.example', '/it')).toBe('/it');
  });

  it('a sign-in lands on the return path, or home without one', () => {
    expect(signInLanding('/cashier/deposit', '/')).toBe('/cashier/deposit');
    expect(signInLanding(undefined, '/it')).toBe('/it');
  });

  it('a sign-up lands on the return path marked register=success, keeping its query and hash (#real)', () => {
    expect(signUpLanding('/it/game/dice-roll#real', '/it')).toBe('/it/game/dice-roll?register=success#real');
    expect(signUpLanding('/profile/bets?tab=2', '/')).toBe('/profile/bets?tab=2&register=success');
    expect(signUpLanding(undefined, '/')).toBe('/?register=success');
  });
});
