/**
 * Lightning Wheel's felt: the 54-segment money wheel under its pointer, the six number spots,
 * lightning striking numbers with their multipliers before the spin, and the wheel coming to rest
 * on the round's segment.
 */
import type { ViewContext } from '../../client/view';
import { html } from '../../client/wait';
import { WHEEL_SEGMENTS, WHEEL_SPOTS, type WheelOutcome } from '../lightning-wheel';
import { chipSvg } from './table-kit';
import type { LiveFelt } from './live-view';

const COLOUR: Record<number, string> = { 1: '#f9a825', 2: '#1e88e5', 5: '#8e24aa', 10: '#2e7d32', 20: '#e65100', 40: '#c62828' };
const BOLT = '<path d="M13 0 L3 13 L9 13 L6 24 L17 9 L11 9 Z" fill="#ffeb3b" stroke="#f57f17" stroke-width="1"/>';

function wheelSvg(label: string): string {
  const step = 360 / WHEEL_SEGMENTS.length;
  const segments = WHEEL_SEGMENTS.map((value, index) => {
    const a0 = ((index - 0.5) * step - 90) * (Math.PI / 180);
    const a1 = ((index + 0.5) * step - 90) * (Math.PI / 180);
    const point = (r: number, a: number) => `${(100 + r * Math.cos(a)).toFixed(2)} ${(100 + r * Math.sin(a)).toFixed(2)}`;
    const mid = (index * step - 90) * (Math.PI / 180);
    const x = (100 + 76 * Math.cos(mid)).toFixed(2);
    const y = (100 + 76 * Math.sin(mid)).toFixed(2);
    return `<path d="M${point(30, a0)} L${point(94, a0)} A94 94 0 0 1 ${point(94, a1)} L${point(30, a1)} Z" fill="${COLOUR[value]}" stroke="#fff8e1" stroke-width=".7"/>
      <text x="${x}" y="${y}" transform="rotate(${index * step + 90} ${x} ${y})" class="lw__num">${value}</text>`;
  }).join('');
  return `<svg class="lw" viewBox="0 0 200 212" role="img" aria-label="${label}">
    <g class="lw__rotor">${segments}<circle cx="100" cy="100" r="30" fill="#1a1030" stroke="#ffd54f" stroke-width="3"/>
    <g transform="translate(88 88)">${BOLT}</g></g>
    <path d="M92 0 L108 0 L100 16 Z" fill="#ffd54f" stroke="#1a1030" stroke-width="1.5"/>
  </svg>`;
}

export function wheelFelt(context: ViewContext, onSpot: (spot: string) => void): LiveFelt {
  const element = html(`<div class="felt lwf">
    <div class="lwf__wheel">${wheelSvg(context.t('names.lightning-wheel'))}</div>
    <div class="lwf__spots">${WHEEL_SPOTS.map(
      (
        spot,
      ) => `<button type="button" class="spot lwf__spot" data-spot="${spot}" aria-label="${context.t('wheel.spot', { value: spot })}">
        <span class="lwf__value">${spot}</span><span class="spot__odds">${spot}:1</span><span class="lwf__strike" hidden><svg viewBox="0 0 20 24" aria-hidden="true">${BOLT}</svg><span class="lwf__mult"></span></span><span class="spot__chips" aria-hidden="true"></span><span class="spot__amount"></span></button>`,
    ).join('')}</div>
  </div>`);
  element.querySelectorAll<HTMLElement>('.lwf__spot').forEach((button) => {
    // The spot's colour as a custom property, set through the CSSOM: the page's style policy
    // allows no inline style attribute.
    button.style.setProperty('--spot', COLOUR[Number(button.dataset.spot)]!);
  });
  element.addEventListener('click', (event) => {
    const spot = (event.target as HTMLElement).closest<HTMLElement>('[data-spot]')?.dataset.spot;
    if (spot) onSpot(spot);
  });
  const rotor = element.querySelector<SVGGElement>('.lw__rotor')!;
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
        button.querySelector('.spot__amount')!.textContent = amount > 0n ? context.money(amount) : '';
      });
    },
    reset() {
      element.querySelectorAll<HTMLElement>('.lwf__strike').forEach((strike) => (strike.hidden = true));
      element.querySelectorAll('.is-hit').forEach((node) => node.classList.remove('is-hit'));
    },
    async present(outcome) {
      const { segment, strikes } = outcome as WheelOutcome;
      for (const [spot, multiplier] of Object.entries(strikes)) {
        const strike = element.querySelector<HTMLElement>(`[data-spot="${spot}"] .lwf__strike`);
        if (!strike) continue;
        strike.querySelector('.lwf__mult')!.textContent = `×${multiplier}`;
        strike.hidden = false;
        await context.pause(450);
      }
      turns += 4;
      rotor.style.transform = `rotate(${turns * 360 - segment * (360 / WHEEL_SEGMENTS.length)}deg)`;
      await context.pause(3600);
      element.querySelector(`[data-spot="${WHEEL_SEGMENTS[segment]}"]`)?.classList.add('is-hit');
    },
    describe(outcome) {
      const { segment, strikes } = outcome as WheelOutcome;
      const value = WHEEL_SEGMENTS[segment]!;
      const strike = strikes[String(value)];
      return `${context.t('wheel.result', { value })}${strike ? ` · ${context.t('wheel.strike', { value, multiplier: strike })}` : ''}`;
    },
    spotName: (spot) => spot,
  };
}
