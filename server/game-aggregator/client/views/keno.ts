/**
 * Snowball Keno's view: a board of 40 snowballs to pick 1 to 10 from, the pay table of the pick
 * count, and the ten drawn numbers revealed one by one, hits marked.
 */
import { KENO_MAX_PICKS, KENO_NUMBERS, KENO_PAYS, type KenoView } from '../../titles/keno';
import type { ClientView, ViewContext } from '../view';
import { html } from '../wait';

export function kenoView(context: ViewContext): ClientView {
  const picks = new Set<number>([3, 7, 12, 19, 26]);
  const panel = html(`<div class="keno">
    <p class="keno__hint"></p>
    <div class="keno__board">${Array.from({ length: KENO_NUMBERS }, (_, index) => `<button type="button" class="keno__ball" data-number="${index + 1}" aria-pressed="false">${index + 1}</button>`).join('')}</div>
    <div class="keno__side"><p class="keno__pays-title"></p><ol class="keno__pays"></ol>
    <div class="keno__tools"><button type="button" class="keno__tool" data-tool="random">${context.t('keno.random')}</button><button type="button" class="keno__tool" data-tool="clear">${context.t('keno.clear')}</button></div></div>
  </div>`);
  context.stage.append(panel);
  const balls = [...panel.querySelectorAll<HTMLButtonElement>('.keno__ball')];

  function refresh() {
    for (const ball of balls) {
      const isPicked = picks.has(Number(ball.dataset.number));
      ball.classList.toggle('is-picked', isPicked);
      ball.setAttribute('aria-pressed', String(isPicked));
    }
    panel.querySelector('.keno__hint')!.textContent =
      `${context.t('keno.pick')} · ${context.t('keno.picked', { count: picks.size })}`;
    panel.querySelector('.keno__pays-title')!.textContent = picks.size ? context.t('keno.pays', { count: picks.size }) : '';
    const pays = picks.size ? KENO_PAYS[picks.size - 1]! : [];
    panel.querySelector('.keno__pays')!.innerHTML = pays
      .map((pay, hits) =>
        pay > 0
          ? `<li data-hits="${hits}"><span>${hits}</span><strong>${(pay / 100).toLocaleString(undefined, { maximumFractionDigits: 2 })}×</strong></li>`
          : '',
      )
      .join('');
  }
  refresh();

  panel.addEventListener('click', (event) => {
    const target = event.target as HTMLElement;
    const number = Number(target.closest<HTMLElement>('.keno__ball')?.dataset.number);
    const tool = target.closest<HTMLElement>('[data-tool]')?.dataset.tool;
    if (panel.classList.contains('is-drawing')) return;
    balls.forEach((ball) => ball.classList.remove('is-drawn', 'is-hit'));
    if (number) {
      if (picks.has(number)) picks.delete(number);
      else if (picks.size < KENO_MAX_PICKS) picks.add(number);
    } else if (tool === 'clear') picks.clear();
    else if (tool === 'random') {
      picks.clear();
      while (picks.size < 5) picks.add(1 + Math.floor(Math.random() * KENO_NUMBERS));
    }
    refresh();
  });

  return {
    actionKey: 'draw',
    stakes: [10n, 20n, 50n, 100n, 200n, 500n, 1000n, 2000n, 5000n, 10000n],
    input(stake) {
      if (picks.size === 0) {
        context.say(context.t('keno.pick'));
        return undefined;
      }
      return { stake: stake.toString(), picks: [...picks] };
    },
    async present(answer) {
      const view = answer.round.view as KenoView;
      panel.classList.add('is-drawing');
      balls.forEach((ball) => ball.classList.remove('is-drawn', 'is-hit'));
      let hits = 0;
      for (const number of view.drawn) {
        await context.pause(180);
        const ball = balls[number - 1]!;
        ball.classList.add('is-drawn');
        if (view.hits.includes(number)) {
          hits++;
          ball.classList.add('is-hit');
        }
        context.say(context.t('keno.hits', { hits, count: view.picks.length }));
      }
      panel
        .querySelectorAll('.keno__pays li')
        .forEach((item) => item.classList.toggle('is-hit', Number((item as HTMLElement).dataset.hits) === view.hits.length));
      panel.classList.remove('is-drawing');
      await context.showWin(BigInt(view.win));
    },
  };
}
