/**
 * What the server hands the app's loaders during SSR. The app never imports server code: it
 * sees only this contract. The product API, the configuration and the content platform are read
 * in process, through the same code and checks as their HTTP routes, without a second trip
 * through the HTTP stack.
 */
import type { AccountInfo } from './api-contract';
import type { Locale } from './locale';
import type { VersionedTranslations } from './translations';

export interface SiteSummary {
  id: string;
  name: string;
  defaultCurrency: string;
  locales: Locale[];
  isMaintenance: boolean;
  /** A demo site (settings.is_demo): sandbox providers only, and every page shows the demo ribbon. */
  isDemo: boolean;
}

/** An answer as its HTTP route would give it: the status and the parsed JSON body. */
export interface InProcessAnswer {
  status: number;
  body: unknown;
}

/** A product-API request as the client builds it: `/api/{service}.{method}?{query}`, form body for POST. */
export interface ApiRequest {
  method: 'GET' | 'POST';
  body?: URLSearchParams;
}

export interface PageLoadContext {
  site: SiteSummary;
  account: AccountInfo;
  /** Runs a product-API call in process through the /api pipeline: the same envelope and errors. */
  callApi: (path: string, request: ApiRequest) => Promise<InProcessAnswer>;
  /** /nfx/cms-config/{locale}'s body, loaded once per page request however many loaders ask. */
  siteConfig: (locale: string) => Promise<Record<string, unknown>>;
  /** The site's translation table of a locale with its version (the page ships only the version). */
  translations: (locale: Locale) => Promise<VersionedTranslations>;
  /** /cms/api/{collection}?{query} in process: the same status and Strapi body. */
  readContent: (collection: string, query: URLSearchParams) => Promise<InProcessAnswer>;
  /** A banned or deleted player's session: the page is the user-blocked page (spec §2). */
  accountStatus: 'active' | 'banned' | 'deleted' | null;
  /** The visitor's country is one the site keeps out: every page is forbidden (403). */
  isCountryBlocked: boolean;
  /** Locale from the cookie, for the unmatched-route rewrite. */
  cookieLocale: Locale | undefined;
  /** This answer's Content-Security-Policy nonce: the server entry puts it on every script it renders. */
  cspNonce: string;
}
