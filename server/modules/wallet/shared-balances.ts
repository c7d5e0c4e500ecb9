/**
 * Players' balances read for the requests that arrive together in one statement (issue 12). On
 * PostgreSQL a signed-in page or account.getInfo reads its player's balances from the database
 * whenever they are not kept (services.ts: not yet, or changed since); many players' first pages
 * at once meant one statement each, a third of a signed-in page's server CPU. Through shared-reads.ts, requests that ask while a read
 * is in flight wait for the next one, which reads all of them at once; a request never gets a read
 * that started before it asked. Reads inside a transaction go to wallet.balances, never here.
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
