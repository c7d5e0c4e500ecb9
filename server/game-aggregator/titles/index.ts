/**
 * Every title the demo aggregator hosts, by catalogue sysname: the player titles of this folder,
 * and the table titles and shared live tables of ../tables/ (docs/game-aggregator.md).
 */
import type { PlayerTitle, SharedTable } from '../title';
import { SLOT_TITLES } from './slots';
import { SUGAR_BLAST } from './cluster';
import { PLINKO_DROP } from './plinko';
import { SNOWBALL_KENO } from './keno';
import { TABLE_TITLES, SHARED_TABLES } from '../tables';

export const PLAYER_TITLES: ReadonlyMap<string, PlayerTitle> = new Map(
  [...SLOT_TITLES, SUGAR_BLAST, PLINKO_DROP, SNOWBALL_KENO, ...TABLE_TITLES].map((title) => [title.id, title]),
);

export const LIVE_TABLES: ReadonlyMap<string, SharedTable> = new Map(SHARED_TABLES.map((table) => [table.id, table]));

/** The catalogue studios (games' `provider`) of every hosted title. */
export function hostedTitleIds(): string[] {
  return [...PLAYER_TITLES.keys(), ...LIVE_TABLES.keys()];
}
