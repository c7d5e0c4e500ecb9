/**
 * What a slot round lights on the reels (issue 15), loaded with the first spin: the cells and
 * lines that won (from the engine's outcome: nothing is decided here), the lines drawn over the
 * reels and the win counted up (at once with reduced motion).
 */
import { useEffect, useState } from 'react';
import { formatMoney, minorToAmount, amountToMinor, type Money } from '#common/money';
import { useI18n } from '~/i18n';
import type { PlayResult } from './shared';
import type { SlotOutcomeView } from './slot-reel-view';
import { SLOT_SHAPES, countUpMinor, lineWinCells, paylinePoints, type SlotEngine } from './slot-reels';

const COUNT_UP_MS = 1200;

export interface LineSpin {
  window: string[][];
  lineWins: { line: number; symbol: string; count: number; pays: number }[];
  scatterCount: number;
  winLineBets: number;
  freeSpinsAwarded: number;
}
export interface CascadeStepView {
  grid: string[][];
  multiplier: number;
  clusters: { symbol: string; cells: number[]; pays: number }[];
}

const SCATTERS = new Set(['STAR', 'BASKET']);

/** What the reels draw of a round: the paid spin's window and lines, or the cascade's first grid and clusters. */
export function outcomeView(engine: SlotEngine, result: PlayResult): SlotOutcomeView {
  const payout = result.round.payout;
  if (engine === 'slot-cascade') {
    const step = (result.round.outcome as { steps?: CascadeStepView[] } | undefined)?.steps?.[0];
    const grid = step?.grid ?? [];
    const rows = grid[0]?.length ?? 1;
    const cells = (step?.clusters ?? []).flatMap((cluster) => cluster.cells);
    return {
      window: grid,
      lines: [],
      winCells: new Set(cells.map((cell) => `${Math.floor(cell / rows)}:${cell % rows}`)),
      payout,
    };
  }
  const paid = (result.round.outcome as { spins?: LineSpin[] } | undefined)?.spins?.[0];
  const window = paid?.window ?? [];
  const winCells = new Set(
    (paid?.lineWins ?? []).flatMap((win) => lineWinCells(engine, win.line, win.count).map(({ reel, row }) => `${reel}:${row}`)),
  );
  // Scatters pay anywhere from three up: those cells light too.
  if ((paid?.scatterCount ?? 0) >= 3)
    window.forEach((reel, index) => reel.forEach((symbol, row) => SCATTERS.has(symbol) && winCells.add(`${index}:${row}`)));
  return { window, lines: (paid?.lineWins ?? []).map(({ line, count }) => ({ line, count })), winCells, payout };
}

/** The win counted up from nothing to the payout; at once with reduced motion. */
export function WinMeter({ payout, isReduced }: { payout: Money; isReduced: boolean }) {
  const { t } = useI18n();
  const totalMinor = Number(amountToMinor(payout.amount));
  const [shownMinor, setShownMinor] = useState(isReduced ? totalMinor : 0);
  useEffect(() => {
    if (isReduced || totalMinor === 0) {
      setShownMinor(totalMinor);
      return;
    }
    const started = performance.now();
    let frame = requestAnimationFrame(function step(now) {
      const value = countUpMinor(totalMinor, now - started, COUNT_UP_MS);
      setShownMinor(value);
      if (value < totalMinor) frame = requestAnimationFrame(step);
    });
    return () => cancelAnimationFrame(frame);
  }, [totalMinor, isReduced]);
  const isDone = shownMinor === totalMinor;
  return (
    <output className="slot__meter" data-win-meter={isDone ? 'done' : 'counting'} data-win-total={payout.amount}>
      <span className="slot__meter-label">{t('gamePlay.slot.winMeter')}</span>{' '}
      <strong>{formatMoney({ amount: minorToAmount(BigInt(shownMinor)), currency: payout.currency })}</strong>
    </output>
  );
}

/** The paylines that won, drawn through the middle of their cells (a view box of 100 units a cell). */
export function WinLines({ engine, lines }: { engine: Exclude<SlotEngine, 'slot-cascade'>; lines: SlotOutcomeView['lines'] }) {
  const { reels, rows } = SLOT_SHAPES[engine];
  return (
    <svg className="slot__lines" viewBox={`0 0 ${reels * 100} ${rows * 100}`} preserveAspectRatio="none" aria-hidden="true">
      {lines.map((win, order) => (
        <polyline
          key={win.line}
          data-win-line={win.line}
          className={`slot__line slot__line--${order % 5}`}
          points={paylinePoints(engine, win.line)}
          vectorEffect="non-scaling-stroke"
        />
      ))}
    </svg>
  );
}
