/**
 * Players' balances read for the requests that arrive together in one statement (issue 12). On
 * PostgreSQL other processes may write any balance, so a signed-in page or account.getInfo reads
 * its player's balances from the database every time; ten requests in flight meant ten statements,
 * a third of a signed-in page's server CPU. Through shared-reads.ts, requests that ask while a read
 * is in flight wait for the next one, which reads all of them at once; a request never gets a read
 * that started before it asked. Reads inside a transaction go to wallet.balances, never here.
 * The stamps of players' accounts (api/kept-answers.ts checks its kept answers with them there)
 * are read the same way.
 */
import { createSharedReads } from '../../db/shared-reads';
import type { PlayerBalances, WalletService } from './service';

interface BalancesKey {
  siteId: string;
  userId: number;
  currency: string;
}

/** One player's balances in one currency, shared with the requests that ask at the same time. */
export type SharedBalances = (siteId: string, userId: number, currency: string) => Promise<PlayerBalances>;

export function createSharedBalances(
  wallet: Pick<WalletService, 'balancesOfPlayers'>,
  options: { lanes: number },
): SharedBalances {
  const reads = createSharedReads<string, PlayerBalances>(async (keys) => {
    const wanted = keys
      .map((key) => JSON.parse(key) as [string, number, string])
      .map(([siteId, userId, currency]) => ({ siteId, userId, currency }));
    const sites = [...bySite(wanted)];
    const answers = await Promise.all(sites.map(([siteId, players]) => wallet.balancesOfPlayers(siteId, players)));
    return new Map(
      sites.flatMap(([, players], site) => players.map((player, index) => [keyOf(player), answers[site]![index]!] as const)),
    );
  }, options);
  // Each caller its own object: the requests sharing a read must not see each other's changes to it.
  return async (siteId, userId, currency) => ({ ...(await reads.read(keyOf({ siteId, userId, currency }))) });
}

const keyOf = (key: BalancesKey) => JSON.stringify([key.siteId, key.userId, key.currency]);
const stampKeyOf = (siteId: string, userId: number) => JSON.stringify([siteId, userId]);

/** The keys grouped by site: one statement per site, side by side (a read rarely spans sites). */
function bySite<Key extends { siteId: string }>(keys: readonly Key[]): Map<string, Key[]> {
  const sites = new Map<string, Key[]>();
  for (const key of keys) {
    const players = sites.get(key.siteId);
    if (players) players.push(key);
    else sites.set(key.siteId, [key]);
  }
  return sites;
}

/** A stamp of one player's accounts on a site (wallet.balanceStampsOfPlayers), read for the requests that ask together. */
export type SharedBalanceStamps = (siteId: string, userId: number) => Promise<string>;

export function createSharedBalanceStamps(
  wallet: Pick<WalletService, 'balanceStampsOfPlayers'>,
  options: { lanes: number },
): SharedBalanceStamps {
  const reads = createSharedReads<string, string>(async (keys) => {
    const wanted = keys.map((key) => JSON.parse(key) as [string, number]).map(([siteId, userId]) => ({ siteId, userId }));
    const answers = await Promise.all(
      [...bySite(wanted)].map(async ([siteId, players]) => {
        const stamps = await wallet.balanceStampsOfPlayers(
          siteId,
          players.map((player) => player.userId),
        );
        return [...stamps].map(([userId, stamp]) => [stampKeyOf(siteId, userId), stamp] as const);
      }),
    );
    return new Map(answers.flat());
  }, options);
  return (siteId, userId) => reads.read(stampKeyOf(siteId, userId));
}
