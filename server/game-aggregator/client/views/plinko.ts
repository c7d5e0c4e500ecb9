/**
 * Plinko Drop's view: a triangle of pegs, the 13 slots with their multipliers for the chosen
 * risk, and the ball falling peg by peg along the round's path into its slot.
 */
import { PLINKO_MULTIPLIERS, PLINKO_RISKS, PLINKO_ROWS, type PlinkoRisk, type PlinkoView } from '../../titles/plinko';
import type { ClientView, ViewContext } from '../view';
import { html } from '../wait';

const WIDTH = 560;
const GAP = WIDTH / (PLINKO_ROWS + 2);
const TOP = 30;

const pegX = (row: number, index: number) => WIDTH / 2 + (index - row / 2) * GAP;
const pegY = (row: number) => TOP + row * GAP * 0.86;

/** A slot's label that fits its box on a phone: 166×, 23×, 3.9×, 0.2×. */
function shortMultiplier(hundredths: number): string {
  const value = hundredths / 100;
  return `${value >= 10 ? Math.round(value) : Math.round(value * 10) / 10}×`;
}

export function plinkoView(context: ViewContext): ClientView {
  let risk: PlinkoRisk = 'medium';
  const height = pegY(PLINKO_ROWS) + 46;
  const board =
    html(`<div class="plinko"><svg class="plinko__board" viewBox="0 0 ${WIDTH} ${height}" role="img" aria-label="Plinko">
    <g class="plinko__pegs">${Array.from({ length: PLINKO_ROWS }, (_, row) =>
      Array.from({ length: row + 3 }, (_, index) => `<circle cx="${pegX(row + 2, index)}" cy="${pegY(row)}" r="4.5"/>`).join(''),
    ).join('')}</g>
    <g class="plinko__slots"></g>
    <circle class="plinko__ball" r="9" cx="${WIDTH / 2}" cy="${TOP - 18}"/>
  </svg></div>`);
  context.stage.append(board);
  const slots = board.querySelector<SVGGElement>('.plinko__slots')!;
  const ball = board.querySelector<SVGCircleElement>('.plinko__ball')!;

  function drawSlots(highlight?: number) {
    const multipliers = PLINKO_MULTIPLIERS[risk];
    slots.innerHTML = multipliers
      .map((multiplier, slot) => {
        const x = pegX(PLINKO_ROWS, slot) - GAP / 2 + 2;
        const tone = multiplier >= 1000 ? 'hot' : multiplier >= 150 ? 'warm' : multiplier >= 100 ? 'even' : 'cold';
        return `<g class="plinko__slot plinko__slot--${tone}${slot === highlight ? ' is-hit' : ''}" data-slot="${slot}"><rect x="${x}" y="${pegY(PLINKO_ROWS) + 4}" width="${GAP - 4}" height="30" rx="6"/><text x="${x + (GAP - 4) / 2}" y="${pegY(PLINKO_ROWS) + 24}">${shortMultiplier(multiplier)}</text></g>`;
      })
      .join('');
  }
  drawSlots();

  const riskPicker = html(
    `<fieldset class="choice"><legend>${context.t('risk')}</legend>${PLINKO_RISKS.map(
      (value) =>
        `<label><input type="radio" name="risk" value="${value}"${value === risk ? ' checked' : ''}> ${context.t(`risk.${value}`)}</label>`,
    ).join('')}</fieldset>`,
  );
  riskPicker.addEventListener('change', (event) => {
    risk = (event.target as HTMLInputElement).value as PlinkoRisk;
    drawSlots();
  });
  context.controls.append(riskPicker);

  const place = (x: number, y: number) => {
    ball.setAttribute('cx', String(x));
    ball.setAttribute('cy', String(y));
  };

  return {
    actionKey: 'drop',
    stakes: [10n, 20n, 50n, 100n, 200n, 500n, 1000n, 2000n, 5000n, 10000n],
    input: (stake) => ({ stake: stake.toString(), risk }),
    async present(answer) {
      const view = answer.round.view as PlinkoView;
      drawSlots();
      let position = 0;
      place(WIDTH / 2, TOP - 18);
      for (let row = 0; row < PLINKO_ROWS; row++) {
        await context.pause(110);
        position += view.path[row]!;
        place(pegX(row + 1, position), pegY(row) + GAP * 0.43);
      }
      place(pegX(PLINKO_ROWS, view.slot), pegY(PLINKO_ROWS) + 19);
      drawSlots(view.slot);
      await context.showWin(BigInt(view.win));
    },
  };
}
