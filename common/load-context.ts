/**
 * What the server hands the app's loaders during SSR. The app never imports server code: it
 * sees only this contract, and talks to the API through `fetchInternal` (an in-process call of
 * the same HTTP surface the browser uses).
 */
import type { AccountInfo } from './api-contract';
import type { Locale } from './locale';

export interface SiteSummary {
  id: string;
  name: string;
  defaultCurrency: string;
  locales: Locale[];
  isMaintenance: boolean;
}

export interface PageLoadContext {
  site: SiteSummary;
  account: AccountInfo;
  /** Calls our own HTTP surface in-process, forwarding the visitor's cookies and host. */
  fetchInternal: (path: string, init?: RequestInit) => Promise<Response>;
  /** A banned or deleted player's session: the page is the user-blocked page (spec §2). */
  accountStatus: 'active' | 'banned' | 'deleted' | null;
  /** The visitor's country is one the site keeps out: every page is forbidden (403). */
  isCountryBlocked: boolean;
  /** Locale from the cookie, for the unmatched-route rewrite. */
  cookieLocale: Locale | undefined;
}
