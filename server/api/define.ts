/**
 * How a product API method is declared: its service and method names, the verbs it answers,
 * its parameters (zod), whether it needs a signed-in player, and its handler.
 */
import type { z } from 'zod';
import type { Locale } from '#common/locale';
import type { Site } from '../modules/sites/service';
import type { Services } from '../services';
import type { AccountStatus } from '../modules/account/tables';

export interface RequestIdentity {
  /** Random id of this browser, from the visitor cookie; storage and analytics key on it. */
  visitorId: string;
  /** Signed-in player's uid, 0 for an anonymous visitor. */
  uid: number;
  ip: string;
  userAgent: string;
  /** ISO country from the load balancer's header (only with TRUST_PROXY), else null. */
  country: string | null;
  /** Hash of the session token presented, when it names an open session. */
  sessionTokenHash: string | null;
  /** Status of the signed-in account: a banned or deleted one is signed out on its next request. */
  accountStatus: AccountStatus | null;
}

export interface ApiContext extends RequestIdentity {
  site: Site;
  locale: Locale;
  services: Services;
  request: Request;
  /** Sets (a token) or clears (null) the session cookie on the answer. */
  setSession: (token: string | null) => void;
}

export type HttpVerb = 'GET' | 'POST';

export interface ApiMethod<Schema extends z.ZodType = z.ZodType> {
  service: string;
  method: string;
  verbs: readonly HttpVerb[];
  params: Schema;
  requiresUser?: boolean;
  /**
   * Answers even while the site is closed to this visitor (maintenance, blocked country): the
   * site needs it to render the page that says so.
   */
  isAvailableWhenClosed?: boolean;
  handler: (ctx: ApiContext, params: z.infer<Schema>) => Promise<unknown>;
}

export function defineMethod<Schema extends z.ZodType>(method: ApiMethod<Schema>): ApiMethod<Schema> {
  return method;
}

/** Lookup key of a method: names are matched case-insensitively (getInfo = getinfo). */
export function methodKey(service: string, method: string): string {
  return `${service}.${method}`.toLowerCase();
}
