/**
 * The site's recent big wins (issue 15: the home page's rail, games.getWinners): settled
 * real-money in-house rounds and ended rounds at external providers (the aggregator's titles,
 * played on the seamless wallet) that paid at least BIG_WIN_MULTIPLIER times their stake, newest
 * first: each source answers from its own partial index, and the two short lists are merged. Nobody is named: a player shows as the first two letters of the fake name they chose
 * (spec §3 fakename) and stars, or not at all; the login, e-mail and uid never leave the server.
 * The answer is kept a short while per site, so a busy home page reads the rounds table seldom.
 */
import type { Locale } from '#common/locale';
import { minorToAmount } from '#common/money';
import type { GameWinnerView } from '#common/contract';
import type { Database } from '../../db/client';
import { recentBigRounds, type BigRoundRow } from '../game-rounds';
import { bigProviderRoundsQuery } from '../provider-wallet';

export { BIG_WIN_MULTIPLIER } from '../../db/big-win';
const CACHE_MS = 30_000;

/** `ma***` for "marco77": enough to tell two winners apart, too little to find the player. */
export function maskedFakename(fakename: string): string | null {
  const letters = [...fakename.trim()];
  return letters.length === 0 ? null : `${letters.slice(0, 2).join('')}***`;
}

/** Payout ÷ stake in tenths, rounded down, without floating point on the amounts. */
export function winMultiplier(stakeMinor: bigint, payoutMinor: bigint): number {
  return stakeMinor > 0n ? Number((payoutMinor * 10n) / stakeMinor) / 10 : 0;
}

export interface BigWinsDeps {
  db: Database;
  gameNames: (siteId: string, locale: Locale) => Promise<Map<string, string>>;
  /** The players' fake names by uid (account service). */
  fakenames: (userIds: readonly number[]) => Promise<Map<number, string>>;
  now?: () => number;
}

/** A big win of either source; `key` is the list's id (a provider round's is `provider-{id}`, as in game history). */
type BigWinRow = BigRoundRow & { key: string; fakename: string };

/** Newest first; on the same instant the higher id first (the sources' own order). */
const newestFirst = (a: BigRoundRow, b: BigRoundRow) =>
  (b.settledAt?.getTime() ?? 0) - (a.settledAt?.getTime() ?? 0) || b.id - a.id;

export function createBigWins({ db, gameNames, fakenames, now = Date.now }: BigWinsDeps) {
  const cache = new Map<string, { at: number; rows: Promise<BigWinRow[]> }>();

  async function readRows(siteId: string, limit: number): Promise<BigWinRow[]> {
    const [inHouse, provider] = await Promise.all([
      recentBigRounds(db, { siteId, limit }),
      bigProviderRoundsQuery(db, { siteId, limit }),
    ]);
    const rounds = [
      ...inHouse.map((round) => ({ ...round, key: String(round.id) })),
      ...provider.map((round) => ({ ...round, key: `provider-${round.id}` })),
    ]
      .sort(newestFirst)
      .slice(0, limit);
    const names = await fakenames(rounds.map((round) => round.userId));
    return rounds.map((round) => ({ ...round, fakename: names.get(round.userId) ?? '' }));
  }

  /** Rows of the site, read at most once per CACHE_MS (a failed read is not kept). */
  function cachedRows(siteId: string, limit: number): Promise<BigWinRow[]> {
    const key = `${siteId}:${limit}`;
    const hit = cache.get(key);
    if (hit && now() - hit.at < CACHE_MS) return hit.rows;
    const rows = readRows(siteId, limit);
    cache.set(key, { at: now(), rows });
    rows.catch(() => cache.delete(key));
    return rows;
  }

  return async function recentBigWins(siteId: string, locale: Locale, count: number): Promise<GameWinnerView[]> {
    const [rows, names] = await Promise.all([cachedRows(siteId, count), gameNames(siteId, locale)]);
    return rows
      .filter((row) => names.has(row.sysname))
      .map((row) => ({
        id: row.key,
        sysname: row.sysname,
        game_name: names.get(row.sysname)!,
        player: maskedFakename(row.fakename),
        payout: { amount: minorToAmount(row.payoutMinor), currency: row.currency },
        multiplier: winMultiplier(row.stakeMinor, row.payoutMinor),
        settled_at: (row.settledAt ?? new Date(0)).toISOString(),
      }));
  };
}
