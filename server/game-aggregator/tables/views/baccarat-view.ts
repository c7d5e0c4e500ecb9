/**
 * Baccarat's felt (used by Baccarat Royale and Live Baccarat): the player's and the banker's card
 * rows with their totals, the five bet spots with their odds and chips, and the coup dealt card by
 * card in the real order (player, banker, player, banker, then the third cards).
 */
import type { ClientView, ViewContext } from '../../client/view';
import { html } from '../../client/wait';
import { BACCARAT_SPOTS, type BaccaratCoup, type BaccaratSpot, baccaratTotal } from '../baccarat-rules';
import { BACCARAT_ROYALE_LIMITS } from '../baccarat-royale';
import { chipSvg, dealCard, stakeSteps } from './table-kit';

const ODDS: Record<BaccaratSpot, string> = {
  player: '1:1',
  banker: '0.95:1',
  tie: '8:1',
  playerPair: '11:1',
  bankerPair: '11:1',
};

export interface BaccaratFelt {
  element: HTMLElement;
  /** Adds a stake to a spot's chips (or sets it when `replace`). */
  setChips(spot: BaccaratSpot, amountMinor: bigint): void;
  /** Deals the coup and marks the winning side and each spot's result. */
  showCoup(coup: BaccaratCoup, returns?: Partial<Record<BaccaratSpot, string>>): Promise<void>;
  clearCards(): void;
}

export function baccaratFelt(context: ViewContext, onSpot: (spot: BaccaratSpot) => void): BaccaratFelt {
  const side = (name: 'player' | 'banker') => `<div class="bac__side bac__side--${name}" data-side="${name}">
      <div class="bac__side-head"><span class="bac__side-name">${context.t(`bac.${name}`)}</span><span class="bac__total" aria-live="polite"></span></div>
      <div class="bac__cards" aria-label="${context.t(`bac.${name}`)}"></div></div>`;
  const element = html(`<div class="felt bac">
    <div class="bac__hands">${side('player')}${side('banker')}</div>
    <p class="table-result" aria-live="polite"></p>
    <div class="bac__spots">${BACCARAT_SPOTS.map(
      (spot) => `<button type="button" class="spot bac__spot bac__spot--${spot}" data-spot="${spot}" aria-pressed="false">
        <span class="spot__name">${context.t(`bac.${spot}`)}</span><span class="spot__odds">${ODDS[spot]}</span>
        <span class="spot__chips" aria-hidden="true"></span><span class="spot__amount"></span></button>`,
    ).join('')}</div>
  </div>`);
  element.addEventListener('click', (event) => {
    const spot = (event.target as HTMLElement).closest<HTMLElement>('[data-spot]')?.dataset.spot as BaccaratSpot | undefined;
    if (spot && !element.classList.contains('is-dealing')) onSpot(spot);
  });
  const rows = {
    player: element.querySelector('[data-side="player"] .bac__cards')!,
    banker: element.querySelector('[data-side="banker"] .bac__cards')!,
  };
  const totals = {
    player: element.querySelector<HTMLElement>('[data-side="player"] .bac__total')!,
    banker: element.querySelector<HTMLElement>('[data-side="banker"] .bac__total')!,
  };
  const spotButton = (spot: BaccaratSpot) => element.querySelector<HTMLElement>(`[data-spot="${spot}"]`)!;

  function clearCards() {
    element.querySelector('.table-result')!.textContent = '';
    for (const name of ['player', 'banker'] as const) {
      rows[name].innerHTML = '';
      totals[name].textContent = '';
    }
    element
      .querySelectorAll('.is-winner, .is-won, .is-lost, .is-push')
      .forEach((node) => node.classList.remove('is-winner', 'is-won', 'is-lost', 'is-push'));
  }

  return {
    element,
    clearCards,
    setChips(spot, amountMinor) {
      const button = spotButton(spot);
      button.querySelector('.spot__chips')!.innerHTML = amountMinor > 0n ? chipSvg(amountMinor) : '';
      button.querySelector('.spot__amount')!.textContent = amountMinor > 0n ? context.money(amountMinor) : '';
      button.setAttribute('aria-pressed', String(amountMinor > 0n));
      button.dataset.amount = amountMinor.toString();
    },
    async showCoup(coup, returns) {
      clearCards();
      element.classList.add('is-dealing');
      const order: ['player' | 'banker', number][] = [
        ['player', 0],
        ['banker', 0],
        ['player', 1],
        ['banker', 1],
      ];
      if (coup.player[2]) order.push(['player', 2]);
      if (coup.banker[2]) order.push(['banker', 2]);
      for (const [name, index] of order) {
        await dealCard(context, rows[name], coup[name][index]);
        totals[name].textContent = context.t('bac.total', { total: baccaratTotal(coup[name].slice(0, index + 1)) });
      }
      element.classList.remove('is-dealing');
      if (coup.winner !== 'tie') element.querySelector(`[data-side="${coup.winner}"]`)!.classList.add('is-winner');
      if (returns)
        for (const spot of BACCARAT_SPOTS) {
          const amount = spotButton(spot).dataset.amount;
          if (!amount || amount === '0' || returns[spot] === undefined) continue;
          const back = BigInt(returns[spot]!);
          spotButton(spot).classList.add(back > BigInt(amount) ? 'is-won' : back === BigInt(amount) ? 'is-push' : 'is-lost');
        }
      const line =
        coup.winner === 'tie'
          ? context.t('bac.tied', { total: coup.playerTotal })
          : context.t('bac.wins', {
              side: context.t(`bac.${coup.winner}`),
              winner: Math.max(coup.playerTotal, coup.bankerTotal),
              loser: Math.min(coup.playerTotal, coup.bankerTotal),
            });
      element.querySelector('.table-result')!.textContent = line;
      context.say(line);
    },
  };
}

/** Baccarat Royale: chips are placed on the spots with the selected chip value, then dealt. */
export function baccaratView(context: ViewContext): ClientView {
  const bets = new Map<BaccaratSpot, bigint>();
  const felt = baccaratFelt(context, (spot) => {
    bets.set(spot, (bets.get(spot) ?? 0n) + context.stake());
    felt.setChips(spot, bets.get(spot)!);
    felt.clearCards();
    showTotal();
  });
  context.stage.append(felt.element);
  const tools = html(
    `<div class="table-tools"><span class="table-tools__total" aria-live="polite"></span><button type="button" class="table-tools__clear">${context.t('tables.clear')}</button></div>`,
  );
  context.controls.append(tools);
  const showTotal = () => {
    const total = [...bets.values()].reduce((sum, value) => sum + value, 0n);
    tools.querySelector('.table-tools__total')!.textContent =
      total > 0n ? context.t('tables.totalBet', { amount: context.money(total) }) : context.t('tables.placeBet');
  };
  tools.querySelector('.table-tools__clear')!.addEventListener('click', () => {
    for (const spot of BACCARAT_SPOTS) felt.setChips(spot, 0n);
    bets.clear();
    showTotal();
  });
  showTotal();

  return {
    actionKey: 'deal',
    stakes: stakeSteps(BACCARAT_ROYALE_LIMITS.minMinor, BACCARAT_ROYALE_LIMITS.maxMinor),
    input() {
      if (bets.size === 0) {
        context.say(context.t('tables.placeBet'));
        return undefined;
      }
      return { bets: Object.fromEntries([...bets].map(([spot, amount]) => [spot, amount.toString()])) };
    },
    async present(answer) {
      const view = answer.round.view as BaccaratCoup & { returns: Partial<Record<BaccaratSpot, string>> };
      await felt.showCoup(view, view.returns);
    },
  };
}
