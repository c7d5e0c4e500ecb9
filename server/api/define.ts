/**
 * How a product API method is implemented: the contract (common/contract) declares its verbs,
 * parameters, session need and answer; the server adds the handler and the context it runs in.
 */
import {
  API_CONTRACT,
  METHOD_VERBS,
  type HttpVerb,
  type MethodContract,
  type MethodName,
  type ParamsOutput,
  type ResultOf,
} from '#common/contract';
import type { Locale } from '#common/locale';
import type { Site } from '../modules/sites';
import type { Services } from '../services';
import type { AccountStatus, UserRow } from '../modules/account';

export interface RequestIdentity {
  /** Random id of this browser, from the visitor cookie; storage and analytics key on it. */
  visitorId: string;
  /** Signed-in player's uid, 0 for an anonymous visitor. */
  uid: number;
  ip: string;
  userAgent: string;
  /** ISO country from the load balancer's COUNTRY_HEADER (only through a trusted proxy), else null. */
  country: string | null;
  /** Hash of the session token presented, when it names an open session. */
  sessionTokenHash: string | null;
  /** Status of the signed-in account: a banned or deleted one is signed out on its next request. */
  accountStatus: AccountStatus | null;
  /**
   * The signed-in player's row as the session lookup read it at the start of this request: what a
   * read-only answer (account.getInfo, the page's account) may use instead of reading it again
   * (issue 12). Anything that changes the account reads it afresh.
   */
  sessionUser?: UserRow;
}

export type { HttpVerb };

export interface ApiContext extends RequestIdentity {
  site: Site;
  locale: Locale;
  services: Services;
  /** The public address the call was made to (behind a trusted proxy, the origin it forwarded). */
  url: string;
  /** Sets (a token) or clears (null) the session cookie on the answer. */
  setSession: (token: string | null) => void;
  /**
   * The trusted-device cookie the browser sent (issue 11), read when asked (only a password sign-in
   * asks), and how to set a new one on the answer.
   */
  readDeviceToken: () => string | undefined;
  trustDevice: (token: string) => void;
}

/** A method as the dispatcher runs it: its contract entry, its wire name split, and its handler. */
export interface ApiMethod extends MethodContract {
  /** The wire name as the contract spells it, e.g. `account.getInfo`. */
  name: MethodName;
  service: string;
  method: string;
  verbs: readonly HttpVerb[];
  handler: (ctx: ApiContext, params: unknown) => Promise<unknown>;
  /** See MethodImplementation's isAnswerKeptPerSession. */
  isAnswerKeptPerSession: boolean;
}

/** A handler for each method, told apart by name so the handler is typed by the one named. */
export type MethodImplementation = {
  [Name in MethodName]: {
    name: Name;
    handler: (ctx: ApiContext, params: ParamsOutput<Name>) => Promise<ResultOf<Name>>;
    /**
     * A GET whose answer is made only from the caller's session, the player's cached rows and
     * balances, the site and the address: its answer is kept for the session until one of those
     * changes (api/kept-answers.ts, issue 12; a change by another process as soon as its
     * notification arrives). Only for reads that read nothing else:
     * content, the clock, other players.
     */
    isAnswerKeptPerSession?: true;
  };
}[MethodName];

/**
 * Binds a handler to its contract entry: the handler receives the schema's output and must answer
 * the declared result, so a handler and the contract cannot disagree and still compile.
 */
export function defineMethod(implementation: MethodImplementation): ApiMethod {
  const { name, handler, isAnswerKeptPerSession = false } = implementation;
  const dot = name.indexOf('.');
  return {
    ...(API_CONTRACT[name] as MethodContract),
    name,
    service: name.slice(0, dot),
    method: name.slice(dot + 1),
    verbs: METHOD_VERBS[name],
    handler: handler as ApiMethod['handler'],
    isAnswerKeptPerSession,
  };
}

/** Lookup key of a method: names are matched case-insensitively (getInfo = getinfo). */
export function methodKey(service: string, method: string): string {
  return `${service}.${method}`.toLowerCase();
}
