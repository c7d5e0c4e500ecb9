/**
 * Answers to a signed-in player's own reads (account.getInfo, account.getBalance), kept for their
 * session until something they are made from changes (issue 12). A browser asks for them on every
 * page and after every bet, and each such answer is made only from memory: the session and the
 * player's rows (db/player-rows-cache.ts) and the balances kept between their changes. Making the
 * same JSON again from the same values was nearly all of the call's own work.
 *
 * What keeps a kept answer the answer the call would make now:
 * - It lives in a cache of the same kind as the values it is made from, which drop it with them: a
 *   player's balances written, a request of theirs that changed something, a change notification
 *   of the tables behind the session and the player's rows (services.ts wires these as the
 *   caches' dependents), and a read that began before any of those is never kept.
 * - It ends with the session it was made for (the cache's validUntil), so an expired session is
 *   never answered from here; a revoked one is a change of the session's rows, which drops it.
 * - Its key holds everything else the answer is made from: the sites' version (an operator's edit
 *   of a site, its maintenance or blocked countries, makes a new key), the country the trusted
 *   proxy names, the request's whole Cookie header (the session and visitor cookies among it) and
 *   the whole address (host, method, locale, parameters). Equal keys are equal requests to the
 *   call, so a hit needs no parsing, hashing or lookup of its own.
 * - Only a 200 that sets no cookie is kept; a call that would issue the visitor cookie, refuse, or
 *   sign a banned player out goes its whole way every time. The answer's headers (the CSP nonce
 *   among them) and its compression are made per call, after this.
 * - Balances must be kept for answers to be (Services.areBalancesKept): this process writes them
 *   all (the embedded database), or hears every change as it commits (PostgreSQL, migration 0031).
 *   There a transfer committed by another process reaches this one's answers when its notification
 *   arrives, about a millisecond after the commit: an answer may show a balance that old. Bets and
 *   withdrawals never read from here; they lock and read the accounts in their own transaction.
 */
import { parse } from 'hono/utils/cookie';
import type { Services } from '../services';
import { clientCountry, type ProxyTrust } from '../web/client-address';
import { SESSION_COOKIE, sessionTokenOf } from '../web/session-cookie';
import type { ApiRequest } from './dispatcher';
import { METHOD_REGISTRY } from './registry';

/** A call's answer before its headers: status, the envelope's JSON and the cookies it sets. */
export interface MadeAnswer {
  status: number;
  json: string;
  cookies: string[];
}

/** What of the API request the key and the session lookup read. */
type KeptAnswerRequest = Pick<ApiRequest, 'method' | 'url' | 'header' | 'peer'>;

/**
 * Longest Cookie header and address a kept answer's key holds: a session may send any it likes,
 * and the cache's entries are bounded in number, not in size.
 */
const MAX_KEY_LENGTH = 2_048;

interface Kept {
  made: MadeAnswer;
  /** The session's player and end, when the request named an open session. */
  session?: KeptSession;
}

interface KeptSession {
  uid: number;
  siteId: string;
  expiresAtMs: number;
}

const KEPT_RULE = {
  ownerOf: ({ made, session }: Kept) => (made.status === 200 && made.cookies.length === 0 ? session?.uid : undefined),
  validUntil: ({ session }: Kept) => session?.expiresAtMs ?? 0,
};

/**
 * The call's answer: the kept one where it may be kept (a GET of a method that declares it, with a
 * session cookie) and is, else the one `make` makes, kept when it may be.
 */
export async function keptOrMadeAnswer(
  request: KeptAnswerRequest,
  services: Services,
  proxy: ProxyTrust,
  make: () => Promise<MadeAnswer>,
): Promise<MadeAnswer> {
  const key = keyOf(request, services, proxy);
  if (key === undefined || !services.areBalancesKept) return make();
  return (await services.keptAnswers.get(key, () => madeWithSession(request, services, make), KEPT_RULE)).made;
}

function keyOf(request: KeptAnswerRequest, services: Services, proxy: ProxyTrust): string | undefined {
  if (request.method !== 'GET' && request.method !== 'HEAD') return undefined;
  const { href, pathname } = request.url;
  // An escaped address is judged by the whole path (its hostile-address check); a kept method's never is.
  if (href.includes('%')) return undefined;
  if (!METHOD_REGISTRY.get(pathname.slice('/api/'.length).toLowerCase())?.isAnswerKeptPerSession) return undefined;
  const cookieHeader = request.header('cookie');
  if (!cookieHeader || cookieHeader.length + href.length > MAX_KEY_LENGTH) return undefined;
  const country = clientCountry(proxy, request.peer, request.header) ?? '';
  return `${services.sites.version()} ${country} ${href} ${cookieHeader}`;
}

/** The call made its whole way, with the session it was made for (looked up before, so it is no newer than the answer). */
async function madeWithSession(request: KeptAnswerRequest, services: Services, make: () => Promise<MadeAnswer>): Promise<Kept> {
  const session = await sessionOf(request, services);
  return { made: await make(), session };
}

/** The open session the request's cookie names, if any. */
async function sessionOf(request: KeptAnswerRequest, services: Services): Promise<KeptSession | undefined> {
  const token = sessionTokenOf(parse(request.header('cookie') ?? '')[SESSION_COOKIE]);
  if (!token) return undefined;
  const site = await services.sites.resolveSite(request.header('host'));
  const open = await services.auth.resolveSession(token, site.id);
  return open && { uid: open.user.id, siteId: open.user.siteId, expiresAtMs: open.expiresAtMs };
}
