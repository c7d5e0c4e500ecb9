/**
 * Where a sign-in or sign-up from a popup lands (issue 15: redirectUrl was not honoured). A
 * visitor bounced home from a guarded page carries its path in redirectUrl (spec §2 anonymous
 * access rule): signing in returns there. A sign-up from a game's real-money popup returns to the
 * game in real mode. Only same-site paths are followed (the one redirect-target decision).
 */
import { safeRedirectTarget } from './address';

export const REDIRECT_URL_PARAM = 'redirectUrl';
/** The mark of a finished sign-up on the page it lands on (spec §4). */
export const REGISTER_SUCCESS_PARAM = 'register';

/** The same-site path redirectUrl holds, or undefined when it holds none (or nothing safe). */
export function redirectUrlTarget(search: string): string | undefined {
  const value = new URLSearchParams(search).get(REDIRECT_URL_PARAM);
  return safeRedirectTarget(value, '') || undefined;
}

/** Where a sign-in lands: the return path when there is a safe one, else the locale home. */
export function signInLanding(returnTo: string | undefined, home: string): string {
  return safeRedirectTarget(returnTo, home);
}

/** Where a sign-up lands: the return path (or the locale home) marked with register=success, its hash kept. */
export function signUpLanding(returnTo: string | undefined, home: string): string {
  const target = new URL(safeRedirectTarget(returnTo, home), 'https://site.invalid');
  target.searchParams.set(REGISTER_SUCCESS_PARAM, 'success');
  return `${target.pathname}${target.search}${target.hash}`;
}
