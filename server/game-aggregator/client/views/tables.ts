/**
 * The views of the table titles (baccarat, three-card poker, the live tables): the
 * aggregator-tables branch fills this map (docs/game-aggregator.md, "Client views").
 */
import type { ViewFactory } from '../view';
import { TABLE_VIEW_FACTORIES } from '../../tables/views';

export const TABLE_VIEWS: Record<string, ViewFactory> = TABLE_VIEW_FACTORIES;
