/**
 * The 5×3 slot view: reels that spin and stop one by one, winning lines drawn over them, free
 * spins played in turn with their count, and the win counted up. With reduced motion the reels
 * show the result at once.
 */
import { PAYLINES, REELS, ROWS, type SlotView, type SpinView } from '../../titles/slot-engine';
import { SLOT_DEFINITIONS } from '../../titles/slot-definitions';
import { symbolSvg } from '../art';
import type { ClientView, ViewContext } from '../view';
import { html, nextFrame, sleep } from '../wait';

/** Blurred symbols a reel passes before it stops. */
const SPIN_CELLS = 14;
const LINE_COLOURS = [
  '#ffd54f',
  '#4fc3f7',
  '#ff8a65',
  '#aed581',
  '#f06292',
  '#ba68c8',
  '#4db6ac',
  '#fff176',
  '#90caf9',
  '#ffab91',
];

export const SLOT_STAKES = [10n, 20n, 50n, 100n, 200n, 500n, 1000n, 2000n, 5000n, 10000n];

export function slotView(context: ViewContext, game: string): ClientView {
  const definition = SLOT_DEFINITIONS.find((candidate) => candidate.id === game)!;
  const symbols = [...definition.symbols.map((symbol) => symbol.id), definition.wild.id, definition.scatter.id];
  const randomSymbol = () => symbols[Math.floor(Math.random() * symbols.length)]!;
  const cell = (id: string) => `<div class="reel__cell" data-symbol="${id}" role="img" aria-label="${id}">${symbolSvg(id)}</div>`;

  const machine = html(`<div class="slot" data-lines="${definition.lines}">
    <div class="slot__reels">${Array.from({ length: REELS }, (_, reel) => `<div class="reel" data-reel="${reel}"><div class="reel__strip"></div></div>`).join('')}
      <svg class="slot__lines" viewBox="0 0 ${REELS * 100} ${ROWS * 100}" preserveAspectRatio="none" aria-hidden="true"></svg>
    </div>
    <p class="slot__info">${context.t('lines', { lines: definition.lines })} · ${context.t('freeSpins.start', { count: definition.freeSpins.count, multiplier: definition.freeSpins.multiplier })}</p>
  </div>`);
  context.stage.append(machine);
  const strips = [...machine.querySelectorAll<HTMLElement>('.reel__strip')];
  const overlay = machine.querySelector<SVGSVGElement>('.slot__lines')!;
  // Reels show symbols from the start, never an empty box.
  strips.forEach((strip) => (strip.innerHTML = Array.from({ length: ROWS }, () => cell(randomSymbol())).join('')));

  function clearWins() {
    overlay.innerHTML = '';
    machine.querySelectorAll('.is-winning').forEach((element) => element.classList.remove('is-winning'));
  }

  async function spinTo(reels: string[][], fast: boolean) {
    clearWins();
    if (context.reducedMotion) {
      strips.forEach((strip, reel) => (strip.innerHTML = reels[reel]!.map(cell).join('')));
      return;
    }
    const base = fast ? 350 : 700;
    await Promise.all(
      strips.map(async (strip, reel) => {
        const current = [...strip.querySelectorAll<HTMLElement>('.reel__cell')].map((element) => element.dataset.symbol!);
        const passing = Array.from({ length: SPIN_CELLS }, randomSymbol);
        // The strip runs from the final cells (top) to the current ones (bottom): it moves down as a reel does.
        strip.innerHTML = [...reels[reel]!, ...passing, ...current].map(cell).join('');
        strip.classList.add('is-spinning');
        const total = ROWS + SPIN_CELLS + ROWS;
        strip.style.transition = 'none';
        strip.style.transform = `translateY(${(-(total - ROWS) / total) * 100}%)`;
        await nextFrame();
        await nextFrame();
        const duration = base + reel * (fast ? 120 : 260);
        strip.style.transition = `transform ${duration}ms cubic-bezier(.2,.7,.3,1.08)`;
        strip.style.transform = 'translateY(0)';
        await sleep(duration + 30);
        strip.classList.remove('is-spinning');
        strip.style.transition = 'none';
        strip.innerHTML = reels[reel]!.map(cell).join('');
        strip.style.transform = '';
      }),
    );
  }

  function showLines(spin: SpinView) {
    const paths = spin.lineWins.map((lineWin, index) => {
      const rows = PAYLINES[lineWin.line]!;
      const points = rows.map((row, reel) => `${reel * 100 + 50},${row * 100 + 50}`).join(' ');
      rows.slice(0, lineWin.count).forEach((row, reel) => strips[reel]!.children[row]?.classList.add('is-winning'));
      return `<polyline points="${points}" stroke="${LINE_COLOURS[index % LINE_COLOURS.length]}" class="slot__line" data-line="${lineWin.line}"/>`;
    });
    if (spin.scatters >= 3)
      strips.forEach((strip) =>
        [...strip.children].forEach((element) => {
          if ((element as HTMLElement).dataset.symbol === definition.scatter.id) element.classList.add('is-winning');
        }),
      );
    overlay.innerHTML = paths.join('');
  }

  return {
    actionKey: 'spin',
    stakes: SLOT_STAKES,
    input: (stake) => ({ stake: stake.toString() }),
    async present(answer) {
      const view = answer.round.view as SlotView;
      let total = 0n;
      await spinTo(view.spin.reels, false);
      showLines(view.spin);
      total += BigInt(view.spin.win);
      if (total > 0n) await context.showWin(total);
      if (view.freeSpins.length === 0) return;
      context.say(context.t('freeSpins.start', { count: view.freeSpins.length, multiplier: view.freeSpinMultiplier }));
      machine.classList.add('is-free-spins');
      await context.pause(1400);
      for (const [index, spin] of view.freeSpins.entries()) {
        context.say(context.t('freeSpins.progress', { spin: index + 1, count: view.freeSpins.length }));
        await spinTo(spin.reels, true);
        showLines(spin);
        total += BigInt(spin.win);
        if (BigInt(spin.win) > 0n) await context.showWin(total, context.t('win.total'));
        await context.pause(spin.lineWins.length ? 700 : 250);
      }
      machine.classList.remove('is-free-spins');
      context.say('');
    },
  };
}
