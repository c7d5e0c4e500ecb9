/** Live Baccarat's felt: Baccarat Royale's table, one spot chosen at a time for the next bet. */
import type { ViewContext } from '../../client/view';
import { BACCARAT_SPOTS, type BaccaratCoup, type BaccaratSpot } from '../baccarat-rules';
import { baccaratFelt } from './baccarat-view';
import type { LiveFelt } from './live-view';

export function liveBaccaratFelt(context: ViewContext, onSpot: (spot: string) => void): LiveFelt {
  const felt = baccaratFelt(context, onSpot);
  return {
    element: felt.element,
    select(spot) {
      felt.element
        .querySelectorAll<HTMLElement>('[data-spot]')
        .forEach((button) => button.classList.toggle('is-selected', button.dataset.spot === spot));
    },
    setBets(bets) {
      for (const spot of BACCARAT_SPOTS) felt.setChips(spot, bets.get(spot) ?? 0n);
    },
    reset: () => felt.clearCards(),
    present: (outcome) => felt.showCoup(outcome as BaccaratCoup),
    describe(outcome) {
      const coup = outcome as BaccaratCoup;
      return coup.winner === 'tie'
        ? context.t('bac.tied', { total: coup.playerTotal })
        : context.t('bac.wins', {
            side: context.t(`bac.${coup.winner}`),
            winner: Math.max(coup.playerTotal, coup.bankerTotal),
            loser: Math.min(coup.playerTotal, coup.bankerTotal),
          });
    },
    spotName: (spot) => context.t(`bac.${spot as BaccaratSpot}`),
  };
}
