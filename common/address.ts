/**
 * Address rules of spec §2: trailing slashes, protected paths, redirect table, canonical links,
 * the unmatched-route locale rewrite and safe redirect targets. Pure functions, shared by the
 * server (which answers with redirects) and the app (which builds links).
 */
import { type Locale, localeFromPath, localizePath, stripLocalePrefix, DEFAULT_LOCALE } from './locale';

/** Collapses repeated slashes so `//evil.com` can never become a protocol-relative target. */
export function collapseSlashes(pathname: string): string {
  return pathname.replace(/[/\\]{2,}/g, '/');
}

/** A trailing slash is removed (spec §2); the root keeps its only slash. */
export function removeTrailingSlash(pathname: string): string {
  if (pathname.length > 1 && pathname.endsWith('/')) return pathname.replace(/\/+$/, '') || '/';
  return pathname;
}

/** The path a request should be served at, or undefined when it already is canonical. */
export function normalizedPath(pathname: string): string | undefined {
  const normalized = removeTrailingSlash(collapseSlashes(pathname));
  return normalized === pathname ? undefined : normalized;
}

/** Path segments an anonymous visitor may not open (spec §2, §6). */
export const PROTECTED_SEGMENTS = ['bets', 'cashier', 'profile', 'responsible-game'] as const;

export function isProtectedPath(pathname: string): boolean {
  const segments = stripLocalePrefix(pathname).split('/');
  return segments.some((segment) => (PROTECTED_SEGMENTS as readonly string[]).includes(segment));
}

/** Where an anonymous visitor opening a protected path goes: the locale home with redirectUrl. */
export function anonymousRedirectTarget(fullPath: string, locale: Locale): string {
  return `${localizePath('/', locale)}?redirectUrl=${encodeURIComponent(fullPath)}`;
}

/**
 * Any fixed origin serves to check a same-site path: what matters is whether resolving the path
 * against it keeps that origin. `.invalid` is reserved, so it can never be a real site.
 */
const PROBE_ORIGIN = 'https://same-site.invalid';

/** Explicit permission for a redirect target to leave the site (by default it may not). */
export interface RedirectPermission {
  /** Origins (`https://host[:port]`) an absolute http(s) target may lead to. */
  allowedOrigins?: readonly string[];
}

/**
 * The one decision on every redirect target taken from an address or a stored value
 * (redirectUrl, backUrl, redirect_url of /oauth/init, the redirect table, payment returns;
 * architecture §4). The answer is a same-site path — one leading slash, never `//host` or a
 * backslash form once a browser resolves it — or an absolute URL of an explicitly allowed
 * origin; anything else gives the fallback. The path comes back as the URL parser serialises it
 * (percent-encoded ASCII), so it also fits a Location header.
 */
export function safeRedirectTarget(value: unknown, fallback = '/', permission: RedirectPermission = {}): string {
  if (typeof value !== 'string' || value === '') return fallback;
  // Browsers drop tabs and newlines and trim control characters before parsing (`/\t/evil.com`),
  // and treat a backslash as a slash: none of them belongs in a target we build.
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f\\]/.test(value)) return fallback;
  if (/^https?:/i.test(value)) return allowedAbsoluteTarget(value, permission.allowedOrigins ?? []) ?? fallback;
  return sameSitePath(value) ?? fallback;
}

/** A path that resolves on the site itself, as the URL parser serialises it; undefined otherwise. */
function sameSitePath(value: string): string | undefined {
  if (!value.startsWith('/') || value.startsWith('//')) return undefined;
  const url = parseUrl(value, PROBE_ORIGIN);
  // Dot segments, also percent-encoded (`/.//evil.com`, `/%2e//evil.com`), can resolve to `//evil.com`.
  if (!url || url.origin !== PROBE_ORIGIN || url.pathname.startsWith('//')) return undefined;
  return `${url.pathname}${url.search}${url.hash}`;
}

/** An absolute http(s) URL whose origin is on the allow-list, without credentials; undefined otherwise. */
function allowedAbsoluteTarget(value: string, allowedOrigins: readonly string[]): string | undefined {
  const url = parseUrl(value);
  if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:') || url.username || url.password) return undefined;
  // Kept to the same shape as a same-site path, so that no later step can make it protocol-relative.
  if (url.pathname.startsWith('//')) return undefined;
  const isAllowed = allowedOrigins.some((origin) => parseUrl(origin)?.origin === url.origin);
  return isAllowed ? url.href : undefined;
}

function parseUrl(value: string, base?: string): URL | undefined {
  try {
    return new URL(value, base);
  } catch {
    return undefined;
  }
}

/** A row of the configured redirect table (settings-seo redirects). */
export interface RedirectRule {
  from_url: string;
  to_url: string;
  /** HTTP status; 301 unless configured. */
  status?: number;
}

export interface RedirectMatch {
  to: string;
  status: number;
  isExternal: boolean;
}

function wildcardToRegExp(pattern: string): RegExp {
  const escaped = pattern.split('*').map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'));
  return new RegExp(`^${escaped.join('(.*)')}$`);
}

export function isExternalUrl(target: string): boolean {
  return /^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('//');
}

/**
 * An internal target in the visitor's locale. Decided again after the locale prefix changes, as
 * taking `/it` off `/it//evil.com` leaves `//evil.com`.
 */
function internalRuleTarget(to: string, locale: Locale): string {
  const home = localizePath('/', locale);
  return safeRedirectTarget(localizePath(safeRedirectTarget(to), locale), home);
}

/**
 * An external rule permits the origin its to_url names; what a wildcard carried into the target
 * may change the path, never the host (`https://*.example.com` permits nothing).
 */
function externalRuleTarget(ruleTarget: string, to: string): string | undefined {
  const permitted = parseUrl(ruleTarget.replaceAll('*', ''))?.origin;
  if (!permitted || permitted === 'null') return undefined;
  return safeRedirectTarget(to, '', { allowedOrigins: [permitted] }) || undefined;
}

/**
 * The first rule whose from_url matches the path (with or without the locale prefix). `*` in
 * from_url matches anything; a `*` in to_url is replaced by what the first one matched. An
 * internal target keeps the visitor's locale prefix.
 */
export function matchRedirect(rules: readonly RedirectRule[], pathname: string): RedirectMatch | undefined {
  const locale = localeFromPath(pathname) ?? DEFAULT_LOCALE;
  const bare = stripLocalePrefix(pathname);
  for (const rule of rules) {
    if (!rule.from_url || !rule.to_url) continue;
    const regexp = wildcardToRegExp(rule.from_url);
    const match = regexp.exec(bare) ?? regexp.exec(pathname);
    if (!match) continue;
    const captured = match[1] ?? '';
    const to = rule.to_url.includes('*') ? rule.to_url.replace('*', captured) : rule.to_url;
    // The configured to_url decides whether a rule leaves the site; what a wildcard carried from
    // the address never does.
    const isExternal = isExternalUrl(rule.to_url);
    if (isExternal) assertNavigable(rule.to_url, { external: true });
    const target = isExternal ? externalRuleTarget(rule.to_url, to) : internalRuleTarget(to, locale);
    if (!target || (!isExternal && target === pathname)) continue;
    return { to: target, status: rule.status ?? 301, isExternal };
  }
  return undefined;
}

/** Canonical links of game pages get /platform after the locale prefix (spec §2). */
export function canonicalPath(pathname: string): string {
  const locale = localeFromPath(pathname);
  const bare = stripLocalePrefix(pathname);
  // The game client's own address (/platform/game/{sysname}/{mode}) has its /platform segment already.
  if (!/(^|\/)game(\/|$)/.test(bare) || bare.startsWith('/platform/')) return pathname;
  const withPlatform = `/platform${bare}`;
  return locale ? `/${locale}${withPlatform}` : withPlatform;
}

/**
 * On an unmatched route the locale prefix is rewritten to the current locale (spec §2).
 * Returns the rewritten path, or undefined when nothing changes.
 */
export function rewriteUnmatchedLocale(pathname: string, currentLocale: Locale): string | undefined {
  const rewritten = localizePath(pathname, currentLocale);
  return rewritten === pathname ? undefined : rewritten;
}

/** Fixed redirects of the route table (spec §2). */
export function fixedRedirect(pathname: string): string | undefined {
  const locale = localeFromPath(pathname) ?? DEFAULT_LOCALE;
  const bare = stripLocalePrefix(pathname);
  const to: Record<string, string> = {
    '/cashier': '/cashier/deposit',
    '/cashier/billing': '/cashier/deposit',
    '/profile': '/profile/settings',
  };
  const target = to[bare];
  return target ? localizePath(target, locale) : undefined;
}

export const EXTERNAL_NOT_ALLOWED = 'Navigating to an external URL is not allowed by default.';
export function blockedProtocolMessage(protocol: string): string {
  return `Cannot navigate to a URL with '${protocol}' protocol.`;
}

export class NavigationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'NavigationError';
  }
}

/**
 * External navigation needs explicit permission, and javascript-type protocols are refused
 * (spec §5, §8). Throws NavigationError with the spec's messages.
 */
export function assertNavigable(target: string, options: { external?: boolean } = {}): void {
  // Browsers ignore whitespace and control characters inside a scheme ('java\tscript:').
  // eslint-disable-next-line no-control-regex
  const compact = target.replace(/[\u0000-\u0020]/g, '');
  const protocol = /^([a-z][a-z0-9+.-]*):/i.exec(compact)?.[1]?.toLowerCase();
  if (protocol && ['javascript', 'vbscript', 'data'].includes(protocol)) {
    throw new NavigationError(blockedProtocolMessage(`${protocol}:`));
  }
  if (isExternalUrl(compact) && !options.external) throw new NavigationError(EXTERNAL_NOT_ALLOWED);
}
