/**
 * Three Card Poker's view: the dealer's three cards (face down until the decision), the player's
 * three, the ante / play / pair plus circles, and the decision — Play (stakes the ante again) or
 * Fold — asked inside the round, after which the dealer's cards turn over and each bet settles.
 */
import type { ClientView, RoundAnswer, ViewContext } from '../../client/view';
import { html } from '../../client/wait';
import type { Card } from '../cards';
import { THREE_CARD_POKER_LIMITS } from '../three-card-poker';
import { chipSvg, dealCard, revealCard, stakeSteps } from './table-kit';

interface DecideView {
  phase: 'decide';
  ante: string;
  pairPlus: string;
  player: Card[];
  playerHand: string;
}

interface SettledView {
  phase: 'settled';
  ante: string;
  pairPlus: string;
  play: string;
  player: Card[];
  dealer: Card[];
  playerHand: string;
  dealerHand: string;
  outcome: string;
  returns: { ante: string; play: string; anteBonus: string; pairPlus: string };
  winMinor: string;
}

export function threeCardPokerView(context: ViewContext): ClientView {
  let pairPlus = false;
  const element = html(`<div class="felt tcp">
    <div class="tcp__row"><div class="tcp__label">${context.t('tcp.dealer')} <span class="tcp__hand" data-hand="dealer"></span></div><div class="tcp__cards" data-row="dealer"></div></div>
    <div class="tcp__row"><div class="tcp__label">${context.t('tcp.you')} <span class="tcp__hand" data-hand="player"></span></div><div class="tcp__cards" data-row="player"></div></div>
    <div class="tcp__bets">${(['pairPlus', 'ante', 'play'] as const)
      .map(
        (bet) =>
          `<div class="tcp__bet" data-bet="${bet}"><span class="tcp__circle"><span class="spot__chips"></span></span><span class="tcp__bet-name">${context.t(`tcp.${bet}`)}</span><span class="tcp__bet-amount"></span></div>`,
      )
      .join('')}</div>
    <p class="table-result" aria-live="polite"></p>
    <div class="tcp__decision" hidden>
      <p class="tcp__question"></p>
      <div class="tcp__buttons"><button type="button" class="tcp__fold" data-action="fold">${context.t('tcp.fold')}</button><button type="button" class="tcp__play" data-action="play"></button></div>
    </div>
    <p class="tcp__rules">${context.t('tcp.rules')}</p>
  </div>`);
  context.stage.append(element);
  const toggle = html(
    `<label class="table-toggle"><input type="checkbox" name="pair-plus"> ${context.t('tcp.addPairPlus')}</label>`,
  );
  toggle.querySelector('input')!.addEventListener('change', (event) => (pairPlus = (event.target as HTMLInputElement).checked));
  context.controls.append(toggle);

  const rows = { dealer: element.querySelector('[data-row="dealer"]')!, player: element.querySelector('[data-row="player"]')! };
  const handLabel = (who: 'dealer' | 'player', hand: string) =>
    (element.querySelector<HTMLElement>(`[data-hand="${who}"]`)!.textContent = hand ? `· ${context.t(`tcp.hand.${hand}`)}` : '');
  const decision = element.querySelector<HTMLElement>('.tcp__decision')!;

  function setBet(bet: 'ante' | 'play' | 'pairPlus', amount: string, result?: 'won' | 'lost' | 'push') {
    const box = element.querySelector<HTMLElement>(`[data-bet="${bet}"]`)!;
    box.querySelector('.spot__chips')!.innerHTML = amount !== '0' ? chipSvg(BigInt(amount)) : '';
    box.querySelector('.tcp__bet-amount')!.textContent = amount !== '0' ? context.money(amount) : '';
    box.classList.remove('is-won', 'is-lost', 'is-push');
    if (result) box.classList.add(`is-${result}`);
  }

  /** Waits for Play or Fold and sends it; asks again when the action was refused. */
  function decide(roundId: string, ante: string): Promise<RoundAnswer> {
    decision.hidden = false;
    decision.querySelector('.tcp__question')!.textContent = context.t('tcp.decide', { amount: context.money(ante) });
    decision.querySelector('.tcp__play')!.textContent = context.t('tcp.playFor', { amount: context.money(ante) });
    const buttons = [...decision.querySelectorAll<HTMLButtonElement>('button')];
    buttons[1]!.focus();
    return new Promise((resolve) => {
      const onClick = async (event: Event) => {
        const action = (event.currentTarget as HTMLElement).dataset.action!;
        buttons.forEach((button) => (button.disabled = true));
        const answer = await context.act(roundId, { action });
        buttons.forEach((button) => (button.disabled = false));
        if (!answer) return;
        buttons.forEach((button) => button.removeEventListener('click', onClick));
        decision.hidden = true;
        resolve(answer);
      };
      buttons.forEach((button) => button.addEventListener('click', onClick));
    });
  }

  return {
    actionKey: 'deal',
    // After a reload the hand stays on the felt as it ended (a settled view carries the player's cards too).
    showsLastRound: true,
    stakes: stakeSteps(THREE_CARD_POKER_LIMITS.minMinor, THREE_CARD_POKER_LIMITS.maxMinor),
    input: (stake) => ({ ante: stake.toString(), pairPlus: pairPlus ? stake.toString() : '0' }),
    async present(answer) {
      const first = answer.round.view as DecideView;
      rows.dealer.innerHTML = '';
      rows.player.innerHTML = '';
      element.querySelector('.table-result')!.textContent = '';
      handLabel('dealer', '');
      handLabel('player', '');
      setBet('ante', first.ante);
      setBet('pairPlus', first.pairPlus);
      setBet('play', '0');
      const dealerSlots: HTMLElement[] = [];
      for (let index = 0; index < 3; index++) {
        await dealCard(context, rows.player, first.player[index]);
        dealerSlots.push(await dealCard(context, rows.dealer, undefined));
      }
      handLabel('player', first.playerHand);
      let last = answer;
      if (!answer.round.done) {
        last = await decide(answer.round.id, first.ante);
        // The shell reads the round's win and the balance from this answer once present() ends:
        // the round's final step carries them (the first step paid nothing).
        answer.round = last.round;
        answer.balance = last.balance;
      }
      const settled = last.round.view as SettledView;
      setBet('play', settled.play);
      for (let index = 0; index < 3; index++) await revealCard(context, dealerSlots[index]!, settled.dealer[index]!);
      handLabel('dealer', settled.dealerHand);
      const result = (staked: string, back: string) =>
        BigInt(back) > BigInt(staked) ? 'won' : BigInt(back) === BigInt(staked) && back !== '0' ? 'push' : 'lost';
      setBet(
        'ante',
        settled.ante,
        result(settled.ante, (BigInt(settled.returns.ante) + BigInt(settled.returns.anteBonus)).toString()),
      );
      if (settled.play !== '0') setBet('play', settled.play, result(settled.play, settled.returns.play));
      if (settled.pairPlus !== '0') setBet('pairPlus', settled.pairPlus, result(settled.pairPlus, settled.returns.pairPlus));
      const bonus = BigInt(settled.returns.anteBonus);
      element.querySelector('.table-result')!.textContent = context.t(`tcp.outcome.${settled.outcome}`);
      context.say(
        `${context.t(`tcp.outcome.${settled.outcome}`)}${bonus > 0n ? ` · ${context.t('tcp.anteBonus')} ${context.money(bonus)}` : ''}`,
      );
    },
  };
}
