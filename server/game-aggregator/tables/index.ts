/** The table titles the demo aggregator hosts: two Red Fox tables played alone, four LiveWave shared tables. */
import type { PlayerTitle, SharedTable } from '../title';
import { autoRoulette } from './auto-roulette';
import { baccaratRoyale } from './baccarat-royale';
import { lightningWheel } from './lightning-wheel';
import { liveBaccarat } from './live-baccarat';
import { liveBlackjackVip } from './live-blackjack-vip';
import { ABANDONED_ROUND_ACTION, threeCardPoker } from './three-card-poker';

export const TABLE_TITLES: readonly PlayerTitle[] = [baccaratRoyale, threeCardPoker];
export const SHARED_TABLES: readonly SharedTable[] = [liveBaccarat, autoRoulette, lightningWheel, liveBlackjackVip];

/**
 * What the aggregator plays for a round a player left unfinished, by title (docs/games-rtp.md §6):
 * Three Card Poker folds. Titles not listed have their bets rolled back.
 */
export const ABANDONED_ROUND_ACTIONS: Readonly<Record<string, unknown>> = { [threeCardPoker.id]: ABANDONED_ROUND_ACTION };
