/**
 * The table titles' client views by title kind (the shell picks a view by the session's kind) and
 * their texts, added to the shell's en/it texts when this module loads.
 */
import { extendTexts } from '../../client/i18n';
import type { ViewFactory } from '../../client/view';
import { baccaratView } from './baccarat-view';
import { liveView } from './live-view';
import { TABLE_TEXTS_EN, TABLE_TEXTS_IT } from './texts';
import { threeCardPokerView } from './three-card-poker-view';

extendTexts({
  en: { ...TABLE_TEXTS_EN, 'error.BETTING_CLOSED': 'No more bets: this round has closed. Bet in the next one.' },
  it: { ...TABLE_TEXTS_IT, 'error.BETTING_CLOSED': 'Puntate chiuse per questo round. Punta nel prossimo.' },
});

export const TABLE_VIEW_FACTORIES: Record<string, ViewFactory> = {
  baccarat: baccaratView,
  'three-card-poker': threeCardPokerView,
  'live-table': liveView,
};
