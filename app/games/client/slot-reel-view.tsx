/**
 * The slot's reels (issue 15): drawn symbols (slot-symbols.svg, one file the browser keeps),
 * shown before the first spin; on a spin every reel runs until the answer is in, then they stop
 * one by one from the left; the winning lines are drawn over the reels and the win is counted
 * up. With prefers-reduced-motion the reels do not run: the result is shown at once. The view
 * draws the engine's outcome and decides nothing. Each reel tells its state in data-reel-state
 * (spinning, stopped) and the window its phase in data-spin-phase (idle, spinning, shown).
 */
import { lazy, Suspense, useCallback, useState, type CSSProperties } from 'react';
import type { Money } from '#common/money';
import { useI18n } from '~/i18n';
import spriteUrl from './slot-symbols.svg?url';
import { SLOT_SHAPES, idleWindow, spinningStrip, type SlotEngine } from './slot-reels';

// The win's lines and count-up come with the module that works out the outcome (slot-wins.tsx),
// loaded by the first spin: a page that has not spun yet carries no code for them.
const WinLines = lazy(async () => ({ default: (await import('./slot-wins')).WinLines }));
const WinMeter = lazy(async () => ({ default: (await import('./slot-wins')).WinMeter }));

/** What the reels stop on and what they light: the engine's window and its wins. */
export interface SlotOutcomeView {
  /** window[reel][row], row 0 at the top. */
  window: string[][];
  /** The paylines that won (line slots). */
  lines: { line: number; count: number }[];
  /** Lit cells as `reel:row`. */
  winCells: ReadonlySet<string>;
  /** The round's payout, counted up once the reels stand. */
  payout: Money;
}

/** The shortest run of the reels before the first one stops, and the pause between two stops. */
const MIN_RUN_MS = 450;
const STOP_GAP_MS = 220;
const REDUCED_MOTION = '(prefers-reduced-motion: reduce)';

function prefersReducedMotion(): boolean {
  return typeof window !== 'undefined' && typeof window.matchMedia === 'function' && window.matchMedia(REDUCED_MOTION).matches;
}

const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * The reels' state and the spin that drives them: `spin` runs the request while the reels
 * turn, stops them one by one on its outcome, and resolves with the answer once they stand.
 */
export function useReelSpin(engine: SlotEngine) {
  const { reels } = SLOT_SHAPES[engine];
  const [shown, setShown] = useState<string[][]>(() => idleWindow(engine));
  const [stopped, setStopped] = useState(reels);
  const [isRunning, setRunning] = useState(false);
  const [outcome, setOutcome] = useState<SlotOutcomeView | null>(null);
  const [isReduced, setReduced] = useState(false);

  const spin = useCallback(
    async <T,>(
      request: () => Promise<T | undefined>,
      toOutcome: (answer: T) => Promise<SlotOutcomeView>,
    ): Promise<T | undefined> => {
      const isStill = prefersReducedMotion();
      setReduced(isStill);
      setOutcome(null);
      if (!isStill) {
        setStopped(0);
        setRunning(true);
      }
      const started = Date.now();
      let answer: T | undefined;
      try {
        answer = await request();
      } finally {
        if (answer === undefined) {
          // Refused or failed: the reels come to rest on what they showed.
          setStopped(reels);
          setRunning(false);
        }
      }
      if (answer === undefined) return undefined;
      const view = await toOutcome(answer);
      setShown(view.window);
      if (!isStill) {
        await wait(Math.max(0, MIN_RUN_MS - (Date.now() - started)));
        for (let reel = 1; reel <= reels; reel++) {
          setStopped(reel);
          if (reel < reels) await wait(STOP_GAP_MS);
        }
      } else setStopped(reels);
      setRunning(false);
      setOutcome(view);
      return answer;
    },
    [reels],
  );

  return { shown, stopped, isRunning, outcome, isReduced, spin };
}

function SymbolArt({ symbol }: { symbol: string }) {
  return (
    <svg className="slot-symbol" viewBox="0 0 64 64" aria-hidden="true" focusable="false">
      <use href={`${spriteUrl}#${symbol.toLowerCase()}`} />
    </svg>
  );
}

export function SlotReelView({ engine, reel }: { engine: SlotEngine; reel: ReturnType<typeof useReelSpin> }) {
  const { t } = useI18n();
  const { reels, rows } = SLOT_SHAPES[engine];
  const { shown, stopped, isRunning, outcome, isReduced } = reel;
  const phase = isRunning ? 'spinning' : outcome ? 'shown' : 'idle';
  const hasWin = outcome !== null && Number(outcome.payout.amount) > 0;
  // A reel that has just stopped lands with a short bounce (not with reduced motion).
  const landing = isRunning && !isReduced ? stopped - 1 : -1;
  return (
    <div
      className={`slot__window slot__window--${engine}`}
      data-reels
      data-spin-phase={phase}
      data-reels-stopped={stopped}
      style={{ '--reels': reels, '--rows': rows } as CSSProperties}
    >
      <div className="slot__reels" role="img" aria-label={t('gamePlay.slot.reels')}>
        {Array.from({ length: reels }, (_, index) => {
          const isSpinning = isRunning && index >= stopped;
          return (
            <div className="slot__reel" key={index} data-reel={index} data-reel-state={isSpinning ? 'spinning' : 'stopped'}>
              {isSpinning ? (
                <span className="slot__strip">
                  {[...spinningStrip(engine, index), ...spinningStrip(engine, index)].map((symbol, row) => (
                    <span className="slot__strip-cell" key={row}>
                      <SymbolArt symbol={symbol} />
                    </span>
                  ))}
                </span>
              ) : (
                (shown[index] ?? []).map((symbol, row) => (
                  <span
                    key={row}
                    className={`slot-tile${outcome?.winCells.has(`${index}:${row}`) ? ' is-win' : ''}${index === landing ? ' is-landing' : ''}`}
                    data-symbol={symbol}
                  >
                    <SymbolArt symbol={symbol} />
                  </span>
                ))
              )}
            </div>
          );
        })}
        {outcome && outcome.lines.length > 0 && engine !== 'slot-cascade' && (
          <Suspense fallback={null}>
            <WinLines engine={engine} lines={outcome.lines} />
          </Suspense>
        )}
      </div>
      {hasWin && outcome && (
        <WinMeter key={outcome.payout.amount + outcome.window.flat().join()} payout={outcome.payout} isReduced={isReduced} />
      )}
    </div>
  );
}
