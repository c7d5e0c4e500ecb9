/**
 * Runs one product-API method through every check of architecture §4: method lookup, verb,
 * origin, maintenance, banned or deleted account, blocked country, session, locale and
 * parameters; then the handler. The /api route and the page renderer's in-process calls both
 * come here, so they answer with the same envelope and the same errors.
 */
import type { Logger } from 'pino';
import { ApiError, type ErrorBody } from '#common/errors';
import { isLocale, type Locale } from '#common/locale';
import { isCountryBlocked, type Site } from '../modules/sites';
import type { Services } from '../services';
import { isSameOrigin, isStateChanging } from '../web/same-origin';
import { readDeviceToken } from '../web/device-cookie';
import { methodKey, type ApiContext, type RequestIdentity } from './define';
import { dataBody, toApiError } from './envelope';
import { rejectHostileText, type RawParams } from './params';
import { METHOD_REGISTRY } from './registry';

/** Who calls, on which site: what the request middleware resolved. */
export interface CallerContext {
  site: Site;
  identity: RequestIdentity;
  services: Services;
}

export interface MethodCall {
  /** `service.method` as addressed (matched case-insensitively). */
  call: string;
  /** The HTTP verb (HEAD counts as GET). */
  verb: string;
  /** The public address the call was made to; handlers read its origin. */
  url: string;
  /** A header of that request by its lower-case name (from Node's request where there is one). */
  header: (name: Lowercase<string>) => string | undefined;
  /** The `locale` query value, if any. */
  locale: string | null;
  /** Read only once the checks have passed, as the body of a refused request is never read. */
  readParams: () => Promise<RawParams>;
  /**
   * False for the page renderer's own calls: they carry no browser's Origin, as the internal
   * HTTP requests they replace did not either.
   */
  isCrossSiteChecked: boolean;
}

export interface MethodAnswer {
  status: number;
  body: { data: unknown } | { error: ErrorBody };
  /** Session cookie writes in order: a token to set, or null to clear. */
  sessionWrites: (string | null)[];
  /** A trusted-device cookie to set, after a password sign-in. */
  deviceToken?: string;
}

function requestLocale(value: string | null, fallback: Locale): Locale {
  if (value === null || value === '') return fallback;
  if (!isLocale(value)) throw new ApiError('InvalidParameterException', 'Unknown locale', { field: 'locale' });
  return value;
}

export async function invokeMethod(caller: CallerContext, call: MethodCall, logger: Logger): Promise<MethodAnswer> {
  const sessionWrites: (string | null)[] = [];
  const device: { token?: string } = {};
  try {
    const data = await runMethod(caller, call, sessionWrites, device);
    return { status: 200, body: dataBody(data), sessionWrites, deviceToken: device.token };
  } catch (error) {
    const { apiError, isUnexpected } = toApiError(error);
    if (isUnexpected) logger.error({ err: error, path: `/api/${call.call}` }, 'api method failed');
    return { status: apiError.status, body: { error: apiError.toBody() }, sessionWrites };
  }
}

/**
 * Calls that never write a player's session, account, contacts, loyalty account or likes: the bets,
 * the hottest calls there are, keep the player's rows in memory (issue 12). Any other call that
 * changes state drops them.
 */
const LEAVES_PLAYER_ROWS: ReadonlySet<string> = new Set([
  'games.play',
  'games.placeLiveBet',
  'games.cashOut',
  'sportsbook.placeBet',
  'sportsbook.cashOut',
]);

async function runMethod(
  caller: CallerContext,
  call: MethodCall,
  sessionWrites: (string | null)[],
  device: { token?: string },
): Promise<unknown> {
  const { site, identity, services } = caller;
  // Split at the first dot only: `storage.get.extra` names no method (split('.', 2) would
  // have dropped `.extra` and answered as storage.get).
  const dot = call.call.indexOf('.');
  const service = dot < 0 ? call.call : call.call.slice(0, dot);
  const name = dot < 0 ? '' : call.call.slice(dot + 1);
  const method = METHOD_REGISTRY.get(methodKey(service, name));
  if (!service || !name || !method) {
    throw new ApiError('MethodNotFoundException', `Method ${call.call} not found`);
  }
  const verb = call.verb.toUpperCase() === 'HEAD' ? 'GET' : call.verb.toUpperCase();
  if (!(method.verbs as readonly string[]).includes(verb)) {
    throw new ApiError('InvalidRequestException', `Use ${method.verbs.join(' or ')} for this method`);
  }
  // State-changing: any POST, and the GETs the spec lets change state (auth.logout).
  const isChecked = isStateChanging(call.verb) || method.isCrossSiteRefusedOnGet;
  if (call.isCrossSiteChecked && isChecked && !isSameOrigin(call.header, call.url)) {
    throw new ApiError('AccessDeniedException', 'Cross-site request refused');
  }
  if (site.isMaintenance && !method.isAvailableWhenClosed) {
    throw new ApiError('ApplicationDisabledException', 'The site is under maintenance');
  }
  if (identity.accountStatus === 'banned' || identity.accountStatus === 'deleted') {
    // A banned or deleted player is signed out on the spot (spec §6: user blocked page).
    if (identity.sessionTokenHash) await services.auth.revokeSession(identity.sessionTokenHash);
    sessionWrites.push(null);
    if (!method.isAvailableWhenClosed) {
      throw identity.accountStatus === 'banned'
        ? new ApiError('UserBannedException', 'This account is blocked')
        : new ApiError('UserDeletedException', 'This account has been deleted');
    }
  }
  if (isCountryBlocked(site, identity.country) && !method.isAvailableWhenClosed) {
    throw new ApiError('AccessDeniedException', 'The site is not available in your country');
  }
  if (method.requiresUser && identity.uid <= 0) {
    throw new ApiError('AuthorizationException', 'Sign in to continue');
  }
  let sessionChange: { token: string | null } | undefined;
  const ctx: ApiContext = {
    setSession: (token) => {
      sessionChange = { token };
    },
    // Read when asked (only a password sign-in does): reading it built the request's web Headers on every
    // call. A function, not a getter: V8 defines a literal's getter by a runtime call on every call, and
    // the objects it closes over then outlive the young generation (issue 12, blackjack's shoe showed it).
    readDeviceToken: () => readDeviceToken(call.header('cookie')),
    trustDevice: (token) => {
      device.token = token;
    },
    ...identity,
    site,
    locale: requestLocale(call.locale, site.locales[0] ?? 'en'),
    services,
    url: call.url,
  };
  const raw = await call.readParams();
  rejectHostileText(raw);
  const params = method.params.parse(raw);
  try {
    const result = await method.handler(ctx, params);
    if (sessionChange) sessionWrites.push(sessionChange.token);
    return result;
  } finally {
    // The player's next request must see what this one changed, without waiting for the
    // database's notification to reach this process (player-rows-cache.ts).
    // Their balances are not forgotten here: the wallet forgets them once its writes have committed.
    if (identity.uid > 0 && isChecked && !LEAVES_PLAYER_ROWS.has(method.name)) services.playerRows.forgetPlayer(identity.uid);
  }
}
