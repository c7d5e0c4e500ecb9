/**
 * The site's side of social sign-in and of the messenger mini-app entry, as pure functions:
 * the pop-up address and size (spec §3, §7, §9), the message the pop-up sends back, where to
 * return afterwards, and where the messenger's init data is found.
 */
import { safeRedirectTarget } from './address';
import { localeFromPath, localizePath, DEFAULT_LOCALE } from './locale';
import { signInLanding } from './sign-in-return';

/** Spec §9: the social sign-in pop-up is 640 by 480. */
export const SOCIAL_POPUP_SIZE = { width: 640, height: 480 } as const;
export const SOCIAL_MESSAGE_TYPE = 'social-auth';
export type TypeAuth = 'login' | 'register';

/** /oauth/init with the three parameters of spec §3: service, redirect_url, type_auth. */
export function socialInitPath(service: string, redirectUrl: string, typeAuth: TypeAuth): string {
  return `/oauth/init?${new URLSearchParams({ service, redirect_url: redirectUrl, type_auth: typeAuth })}`;
}

/** window.open features: the pop-up size, centred over the current window. */
export function socialPopupFeatures(
  view: { screenX: number; screenY: number; outerWidth: number; outerHeight: number },
  size: { width: number; height: number } = SOCIAL_POPUP_SIZE,
): string {
  const left = Math.max(0, Math.round(view.screenX + (view.outerWidth - size.width) / 2));
  const top = Math.max(0, Math.round(view.screenY + (view.outerHeight - size.height) / 2));
  return `popup=yes,width=${size.width},height=${size.height},left=${left},top=${top}`;
}

export type SocialMessage =
  | { type: typeof SOCIAL_MESSAGE_TYPE; status: 'success'; redirectUrl: string; isNew: boolean }
  | { type: typeof SOCIAL_MESSAGE_TYPE; status: 'two_factor'; redirectUrl: string; ticket: string }
  | { type: typeof SOCIAL_MESSAGE_TYPE; status: 'error'; reason: string };

/**
 * Session-storage key of a social sign-in's two-factor ticket when the pop-up was blocked and the
 * whole tab went through the flow: the page it comes back to asks for the code.
 */
export const SECOND_FACTOR_TICKET_KEY = 'second_factor_ticket';

export function isSocialMessage(data: unknown): data is SocialMessage {
  if (typeof data !== 'object' || data === null) return false;
  const message = data as Record<string, unknown>;
  if (message.type !== SOCIAL_MESSAGE_TYPE) return false;
  if (message.status === 'two_factor') return typeof message.redirectUrl === 'string' && typeof message.ticket === 'string';
  return (
    (message.status === 'success' && typeof message.redirectUrl === 'string') ||
    (message.status === 'error' && typeof message.reason === 'string')
  );
}

/** Address parameters that open the sign-in popup (spec §2): a signed-in player must not get it again. */
const AUTH_POPUP_PARAMS = ['show_popup_reg', 'show_popup_auth', 'prevent_close'];

/**
 * Where a player returns after signing in socially: the return path the sign-in popup was opened
 * with (issue 15: redirectUrl, a game's #real; as a password sign-in lands, see
 * common/sign-in-return.ts), else the redirectUrl the anonymous-access rule put in the address
 * (spec §2), else the page they are on without the sign-in popup parameters; from the sign-in
 * forms themselves, the locale home. Only same-site paths: anything else is the locale home.
 */
export function socialReturnAddress(location: { pathname: string; search: string; hash: string }, returnTo?: string): string {
  const locale = localeFromPath(location.pathname) ?? DEFAULT_LOCALE;
  const home = localizePath('/', locale);
  if (returnTo !== undefined) return signInLanding(returnTo, home);
  const params = new URLSearchParams(location.search);
  const redirectUrl = params.get('redirectUrl');
  if (redirectUrl) return safeRedirectTarget(redirectUrl, home);
  if (/(^|\/)forms\//.test(location.pathname)) return home;
  AUTH_POPUP_PARAMS.forEach((name) => params.delete(name));
  const search = params.toString();
  return safeRedirectTarget(`${location.pathname}${search ? `?${search}` : ''}${location.hash}`, home);
}

/**
 * The messenger's init data: the mini-app script's WebApp.initData when present, else the
 * tgWebAppData parameter of the address hash, which is how the messenger passes it to the page.
 */
export function messengerInitData(hash: string, scriptInitData?: string | null): string {
  if (scriptInitData) return scriptInitData;
  const params = new URLSearchParams(hash.replace(/^#/, ''));
  return params.get('tgWebAppData') ?? '';
}

/** The address hash without the messenger's tgWebApp* parameters (kept when it holds anything else). */
export function hashWithoutMessengerData(hash: string): string {
  const raw = hash.replace(/^#/, '');
  if (!raw.includes('tgWebApp')) return hash;
  const params = new URLSearchParams(raw);
  for (const name of [...params.keys()]) if (name.startsWith('tgWebApp')) params.delete(name);
  const rest = params.toString();
  return rest ? `#${rest}` : '';
}
