/**
 * Auto Roulette's felt: a drawn single-zero wheel (37 pockets in wheel order) whose ball runs to
 * the winning pocket, and the betting layout — zero, the 3 × 12 numbers, columns, dozens and the
 * even-money spots.
 */
import type { ViewContext } from '../../client/view';
import { html } from '../../client/wait';
import { RED_NUMBERS, type RouletteOutcome, WHEEL_ORDER } from '../auto-roulette';
import { chipSvg } from './table-kit';
import type { LiveFelt } from './live-view';

const colourOf = (n: number) => (n === 0 ? 'green' : RED_NUMBERS.has(n) ? 'red' : 'black');
const FILL = { green: '#1b8a3a', red: '#c62828', black: '#1c1b22' };

function wheelSvg(label: string): string {
  const step = 360 / 37;
  const pockets = WHEEL_ORDER.map((n, index) => {
    const a0 = ((index - 0.5) * step - 90) * (Math.PI / 180);
    const a1 = ((index + 0.5) * step - 90) * (Math.PI / 180);
    const point = (r: number, a: number) => `${(100 + r * Math.cos(a)).toFixed(2)} ${(100 + r * Math.sin(a)).toFixed(2)}`;
    const mid = (index * step - 90) * (Math.PI / 180);
    return `<path d="M${point(62, a0)} L${point(92, a0)} A92 92 0 0 1 ${point(92, a1)} L${point(62, a1)} A62 62 0 0 0 ${point(62, a0)} Z" fill="${FILL[colourOf(n)]}" stroke="#d4af37" stroke-width=".6"/>
      <text x="${(100 + 80 * Math.cos(mid)).toFixed(2)}" y="${(100 + 80 * Math.sin(mid)).toFixed(2)}" transform="rotate(${index * step} ${(100 + 80 * Math.cos(mid)).toFixed(2)} ${(100 + 80 * Math.sin(mid)).toFixed(2)})" class="rw__num">${n}</text>`;
  }).join('');
  return `<svg class="rw" viewBox="0 0 200 200" role="img" aria-label="${label}">
    <circle cx="100" cy="100" r="98" fill="#5d3a1a" stroke="#d4af37" stroke-width="2"/>
    <g class="rw__rotor">${pockets}<circle cx="100" cy="100" r="62" fill="#7b4a22" stroke="#d4af37" stroke-width="1.5"/>
    <circle cx="100" cy="100" r="40" fill="#9c6a3a"/><path d="M100 66 L106 100 L100 134 L94 100 Z M66 100 L100 94 L134 100 L100 106 Z" fill="#d4af37"/><circle cx="100" cy="100" r="7" fill="#f5d67a"/></g>
    <g class="rw__ball-track"><circle class="rw__ball" cx="100" cy="32" r="4.6" fill="#fafafa" stroke="#9e9e9e" stroke-width=".8"/></g>
  </svg>`;
}

export function rouletteFelt(context: ViewContext, onSpot: (spot: string) => void): LiveFelt {
  const numberButton = (n: number) =>
    `<button type="button" class="spot rl__n rl__n--${colourOf(n)}" data-spot="straight-${n}" aria-label="${context.t('roulette.straight', { number: n })}"><span>${n}</span><span class="spot__chips" aria-hidden="true"></span></button>`;
  const grid = [3, 2, 1]
    .map(
      (row) =>
        Array.from({ length: 12 }, (_, column) => numberButton(column * 3 + row)).join('') +
        `<button type="button" class="spot rl__out" data-spot="column-${row}">2:1<span class="spot__chips" aria-hidden="true"></span></button>`,
    )
    .join('');
  const outside = (spots: string[]) =>
    spots
      .map(
        (spot) =>
          `<button type="button" class="spot rl__out rl__out--${spot}" data-spot="${spot}"><span>${context.t(`roulette.${spot}`)}</span><span class="spot__chips" aria-hidden="true"></span></button>`,
      )
      .join('');
  const element = html(`<div class="felt rl">
    <div class="rl__wheel">${wheelSvg(context.t('names.auto-roulette'))}<div class="rl__result" aria-live="polite"></div></div>
    <div class="rl__layout">
      <div class="rl__grid">${numberButton(0).replace('class="spot rl__n', 'class="spot rl__zero rl__n')}${grid}</div>
      <div class="rl__dozens">${outside(['dozen-1', 'dozen-2', 'dozen-3'])}</div>
      <div class="rl__evens">${outside(['low', 'even', 'red', 'black', 'odd', 'high'])}</div>
    </div>
  </div>`);
  element.addEventListener('click', (event) => {
    const spot = (event.target as HTMLElement).closest<HTMLElement>('[data-spot]')?.dataset.spot;
    if (spot) onSpot(spot);
  });
  const rotor = element.querySelector<SVGGElement>('.rw__rotor')!;
  const track = element.querySelector<SVGGElement>('.rw__ball-track')!;
  const result = element.querySelector<HTMLElement>('.rl__result')!;
  let turns = 0;

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
        button.classList.toggle('has-bet', amount > 0n);
        button.title = amount > 0n ? context.money(amount) : '';
      });
    },
    reset() {
      result.textContent = '';
      result.className = 'rl__result';
      element.querySelectorAll('.is-hit').forEach((node) => node.classList.remove('is-hit'));
    },
    async present(outcome) {
      const { pocket } = outcome as RouletteOutcome;
      const index = WHEEL_ORDER.indexOf(pocket as (typeof WHEEL_ORDER)[number]);
      turns += 3;
      // The rotor turns on; the ball runs the other way and stops over the pocket.
      rotor.style.transform = `rotate(${turns * 120}deg)`;
      track.style.transform = `rotate(${turns * 120 + index * (360 / 37) - 360 * 2}deg)`;
      await context.pause(3200);
      result.textContent = String(pocket);
      result.className = `rl__result rl__result--${colourOf(pocket)}`;
      element.querySelector(`[data-spot="straight-${pocket}"]`)?.classList.add('is-hit');
    },
    describe(outcome) {
      const { pocket } = outcome as RouletteOutcome;
      const colour = colourOf(pocket);
      return context.t('roulette.result', {
        number: pocket,
        colour: context.t(
          colour === 'green' ? 'roulette.green' : colour === 'red' ? 'roulette.redColour' : 'roulette.blackColour',
        ),
      });
    },
    spotName: (spot) =>
      spot.startsWith('straight-') ? context.t('roulette.straight', { number: spot.slice(9) }) : context.t(`roulette.${spot}`),
  };
}
