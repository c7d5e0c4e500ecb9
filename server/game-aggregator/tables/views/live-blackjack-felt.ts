/**
 * Live Blackjack VIP's felt: the dealer's row and the one common hand every seat plays, the hand
 * and pairs spots, and the posted rules; the round is dealt card by card in the real order.
 */
import type { ViewContext } from '../../client/view';
import { html } from '../../client/wait';
import { type CommonDrawRound, handTotal } from '../live-blackjack-rules';
import { BLACKJACK_SPOTS } from '../live-blackjack-vip';
import { chipSvg, dealCard } from './table-kit';
import type { LiveFelt } from './live-view';

export function blackjackFelt(context: ViewContext, onSpot: (spot: string) => void): LiveFelt {
  const element = html(`<div class="felt bj">
    <div class="bj__row"><div class="bj__label">${context.t('bj.dealer')} <span class="bj__total" data-total="dealer"></span></div><div class="bj__cards" data-row="dealer"></div></div>
    <div class="bj__row"><div class="bj__label">${context.t('bj.hand')} <span class="bj__total" data-total="hand"></span></div><div class="bj__cards" data-row="hand"></div><p class="bj__note">${context.t('bj.common')}</p></div>
    <div class="bj__spots">${BLACKJACK_SPOTS.map(
      (spot) =>
        `<button type="button" class="spot bj__spot" data-spot="${spot}" aria-pressed="false"><span class="spot__name">${context.t(`bj.${spot}`)}</span><span class="spot__odds">${spot === 'hand' ? '1:1 · 3:2' : '6 · 12 · 25:1'}</span><span class="spot__chips" aria-hidden="true"></span><span class="spot__amount"></span></button>`,
    ).join('')}</div>
    <p class="bj__rules">${context.t('bj.rules')}</p>
  </div>`);
  element.addEventListener('click', (event) => {
    const spot = (event.target as HTMLElement).closest<HTMLElement>('[data-spot]')?.dataset.spot;
    if (spot) onSpot(spot);
  });
  const rows = { dealer: element.querySelector('[data-row="dealer"]')!, hand: element.querySelector('[data-row="hand"]')! };
  const totals = { dealer: element.querySelector('[data-total="dealer"]')!, hand: element.querySelector('[data-total="hand"]')! };

  return {
    element,
    select(spot) {
      element
        .querySelectorAll<HTMLElement>('[data-spot]')
        .forEach((button) => button.classList.toggle('is-selected', button.dataset.spot === spot));
    },
    setBets(bets) {
      element.querySelectorAll<HTMLElement>('[data-spot]').forEach((button) => {
        const amount = bets.get(button.dataset.spot!) ?? 0n;
        button.querySelector('.spot__chips')!.innerHTML = amount > 0n ? chipSvg(amount) : '';
        button.querySelector('.spot__amount')!.textContent = amount > 0n ? context.money(amount) : '';
        button.setAttribute('aria-pressed', String(amount > 0n));
      });
    },
    reset() {
      rows.dealer.innerHTML = '';
      rows.hand.innerHTML = '';
      totals.dealer.textContent = '';
      totals.hand.textContent = '';
      element.classList.remove('is-doubled');
    },
    async present(outcome) {
      const round = outcome as CommonDrawRound;
      this.reset();
      const order: ['hand' | 'dealer', number][] = [
        ['hand', 0],
        ['dealer', 0],
        ['hand', 1],
        ['dealer', 1],
      ];
      for (let index = 2; index < round.hand.length; index++) order.push(['hand', index]);
      for (let index = 2; index < round.dealer.length; index++) order.push(['dealer', index]);
      for (const [who, index] of order) {
        const cards = who === 'hand' ? round.hand : round.dealer;
        await dealCard(context, rows[who], cards[index]);
        totals[who].textContent = `· ${handTotal(cards.slice(0, index + 1)).total}`;
      }
      element.classList.toggle('is-doubled', round.doubled);
    },
    describe(outcome) {
      const round = outcome as CommonDrawRound;
      return `${round.doubled ? `${context.t('bj.doubled')} · ` : ''}${context.t(`bj.result.${round.result}`)}`;
    },
    spotName: (spot) => context.t(`bj.${spot}`),
  };
}
