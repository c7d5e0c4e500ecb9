/**
 * The intake half: what every in-house bet passes before its transaction opens (mode, currency
 * and exclusion, stake limits), and what identifies it inside (owner key, request hash). The
 * order of the checks is the order of the errors a player sees, so it is the same on every path.
 */
import { createHash } from 'node:crypto';
import { canonicalJson } from '#common/canonical-json';
import { ApiError } from '#common/errors';
import type { GameParams } from '#common/games-contract';
import type { Locale } from '#common/locale';
import { invalidParameter as invalid } from '#common/parameter-errors';
import { checkStake } from '../games';
import type { PlayerBalances } from '../wallet';

/** Who plays: a signed-in player (uid > 0) or an anonymous visitor (demo only). */
export interface Gambler {
  siteId: string;
  uid: number;
  visitorId: string;
  locale: Locale;
  /** The currency of an anonymous visitor's demo rounds: the site's default. */
  siteCurrency: string;
}

export type PlayMode = 'real' | 'demo';

/** A bet as a player sends it: the game, the mode, the engine's bet text and the client's request id. */
export interface BetRequest {
  sysname: string;
  mode: PlayMode;
  bet: string;
  requestId: string;
}

/** What the intake needs to know of the player's account. */
export interface PlayerLookup {
  findUser: (uid: number) => Promise<{ currency: string } | undefined>;
  activeExclusion: (uid: number) => Promise<{ kind: string; endsAt: Date | null } | undefined>;
}

/** An engine's reading of a bet: its stake and the normal form stored and hashed. */
export interface PreparedStake {
  stakeMinor: bigint;
  normal: unknown;
}

/** A bet the intake let in: its prepared form, and what identifies and prices it. */
export type AdmittedBet<P extends PreparedStake> = {
  prepared: P;
  currency: string;
  ownerKey: string;
  requestHash: string;
};

/** A bet an engine cannot read: which parameter is wrong, `stake` (amount) or `bet` (anything else). */
export class BetParamError extends Error {
  constructor(
    readonly field: 'stake' | 'bet',
    message: string,
  ) {
    super(message);
  }
}

export const ownerKeyOf = (who: Pick<Gambler, 'uid' | 'visitorId'>) =>
  who.uid > 0 ? `user:${who.uid}` : `visitor:${who.visitorId}`;

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** Real money needs a signed-in player; a visitor may only play demo. */
export function requireSignedInForReal(who: Gambler, mode: PlayMode): void {
  if (mode === 'real' && who.uid <= 0) throw new ApiError('AuthorizationException', 'Sign in to play for real money');
}

export function requireDemoOffered(game: { has_demo: boolean }, mode: PlayMode): void {
  if (mode === 'demo' && !game.has_demo) throw invalid('mode', 'This game has no demo mode');
}

export function refuseExclusion(exclusion: { kind: string; endsAt: Date | null }): never {
  throw new ApiError('AccessDeniedException', 'The account is excluded from play', {
    exclusion: exclusion.kind,
    until: exclusion.endsAt?.toISOString() ?? null,
  });
}

/**
 * The currency a gambler plays in: the account's, or the site's for an anonymous visitor's demo
 * play. Refuses a player who is gone or excluded from play, before any stake moves.
 */
export async function playingCurrency(who: Gambler, lookup: PlayerLookup): Promise<string> {
  if (who.uid <= 0) return who.siteCurrency;
  // Both reads at once (each on a connection of its own, issue 12); the player's absence is still told first.
  const [user, exclusion] = await Promise.all([lookup.findUser(who.uid), lookup.activeExclusion(who.uid)]);
  if (!user) throw new ApiError('AuthorizationException', 'Sign in to continue');
  if (exclusion) refuseExclusion(exclusion);
  return user.currency;
}

/** Reads the bet with the engine; a bet it cannot read is InvalidParameterException on its field. */
export function prepareStake<P>(prepare: () => P): P {
  try {
    return prepare();
  } catch (error) {
    if (error instanceof BetParamError) throw invalid(error.field, error.message);
    throw error;
  }
}

/**
 * The request hash a request id is bound to: the same id with another bet is a conflict, not a
 * retry. `extra` adds what else the bet depends on (a free spin's pack); an absent value hashes
 * as before it existed.
 */
export function betRequestHash(request: BetRequest, normal: unknown, extra: Record<string, unknown> = {}): string {
  return sha256(canonicalJson({ sysname: request.sysname, mode: request.mode, bet: normal, ...extra }));
}

/**
 * The stake's part of the intake, after the game was found and its mode allowed: the bet read by
 * the engine, the game's stake limits, the player's currency (refusing exclusion), the owner key
 * and the request hash.
 */
export async function admitStake<P extends PreparedStake>(
  who: Gambler,
  request: BetRequest,
  game: { game_params: GameParams },
  prepare: () => P,
  lookup: PlayerLookup,
  hashExtra?: Record<string, unknown>,
): Promise<AdmittedBet<P>> {
  const prepared = prepareStake(prepare);
  checkStake(game.game_params, prepared.stakeMinor);
  const currency = await playingCurrency(who, lookup);
  return { prepared, currency, ownerKey: ownerKeyOf(who), requestHash: betRequestHash(request, prepared.normal, hashExtra) };
}

/** A request id seen before must carry the same request: otherwise it is a conflict, named by `conflict`. */
export function requireSameRequest(earlier: { requestHash: string | null }, requestHash: string, conflict: string): void {
  if (earlier.requestHash !== requestHash) throw invalid('request_id', conflict);
}

/** The answer to a stake the balance does not cover, once its transaction is gone. */
export function shortBalanceError(balances: PlayerBalances, mode: PlayMode, field: string): ApiError {
  if (mode === 'real' && balances.main === 0n)
    return new ApiError('UserNeedDepositException', 'Make a deposit to play for real money');
  return invalid(field, mode === 'real' ? 'The stake is above your balance' : 'The stake is above your demo balance');
}
