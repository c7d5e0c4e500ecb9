/**
 * The three slots (5×3 paylines with free spins, and the cascade): stake, spin, the window and
 * its wins; the player's freespin packs for the slot and autoplay (slot-extras.tsx). Real spins
 * follow the site's minimum spin duration (games.getSettings): the spin button waits it out.
 * The reels are drawn by slot-reel-view.tsx (issue 15): symbols before the first spin, reels that
 * stop one by one, winning lines and a counted-up win; the result below shows once they stand.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { formatMoney } from '#common/money';
import { useI18n } from '~/i18n';
import { symbolName, type GameComponentProps, type PlayResult } from './shared';
import { useAutoplay } from './autoplay';
import type { FreespinPackView } from '#common/contract';
import { AutoplayPanel, FreespinPanel, useFreespinPacks } from './slot-extras';
import { useGameSettings } from './use-game-settings';
import { SlotReelView, useReelSpin } from './slot-reel-view';
import { isSlotEngine, type SlotEngine } from './slot-reels';
import { useHydrated } from '~/hooks/use-hydrated';
import type { CascadeStepView, LineSpin } from './slot-wins';

const SLOT_STAKES = ['0.10', '0.20', '0.50', '1.00', '2.00', '5.00', '10.00'];

/** Keeps the spin button off until the site's minimum spin duration has passed since the last real spin started. */
function useSpinPacing(minSpinDurationMs: number) {
  const [isWaiting, setWaiting] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  const spinStarted = useCallback(() => {
    if (minSpinDurationMs <= 0) return;
    setWaiting(true);
    clearTimeout(timer.current);
    timer.current = setTimeout(() => setWaiting(false), minSpinDurationMs);
  }, [minSpinDurationMs]);
  return { isWaiting, spinStarted };
}

export function SlotGame(props: GameComponentProps) {
  // The registry gives this component only slot engines; anything else would have no reels to draw.
  return isSlotEngine(props.engine) ? <SlotMachine {...props} engine={props.engine} /> : null;
}

function SlotMachine({
  engine,
  sysname,
  mode,
  api,
  play,
  minBet,
  maxBet,
  settings: loadedSettings,
}: GameComponentProps & { engine: SlotEngine }) {
  const { t, tc } = useI18n();
  const stakes = SLOT_STAKES.filter((stake) => Number(stake) >= Number(minBet) && Number(stake) <= Number(maxBet));
  const [stake, setStake] = useState(stakes.includes('1.00') ? '1.00' : (stakes[0] ?? minBet));
  const [isBusy, setBusy] = useState(false);
  const [result, setResult] = useState<PlayResult | null>(null);
  const [freespinResult, setFreespinResult] = useState(false);
  const settings = useGameSettings(api, loadedSettings);
  // The minimum spin duration is a rule for real money; demo spins are not paced.
  const minSpinDurationMs = mode === 'real' ? (settings?.min_spin_duration_ms ?? 0) : 0;
  const pacing = useSpinPacing(minSpinDurationMs);
  const { packs, reload: reloadPacks } = useFreespinPacks(api, sysname, mode === 'real');
  const reel = useReelSpin(engine);
  const { spin } = reel;

  const spinOnce = useCallback(
    async (pack?: FreespinPackView) => {
      setBusy(true);
      pacing.spinStarted();
      // The reels turn while the round is asked for and stop on its outcome; the result shows once they stand.
      const answer = await spin(
        () => (pack ? play({ stake: pack.stake.amount }, { freespinPackId: pack.id }) : play({ stake })),
        // What the reels light is worked out by slot-wins.tsx, loaded with the first spin (issue 12: a small first script).
        async (round) => (await import('./slot-wins')).outcomeView(engine, round),
      );
      if (answer) {
        setResult(answer);
        setFreespinResult(Boolean(pack));
      }
      if (pack) await reloadPacks();
      setBusy(false);
      return answer;
    },
    [play, stake, pacing, reloadPacks, spin, engine],
  );
  const autoplay = useAutoplay(spinOnce, minSpinDurationMs);
  // Until hydrated the server-rendered button has no handler yet: locked, so no press is lost.
  const isHydrated = useHydrated();
  const isSpinLocked = !isHydrated || isBusy || pacing.isWaiting || autoplay.state.isRunning;

  const isCascade = engine === 'slot-cascade';
  const spins = !isCascade ? ((result?.round.outcome as { spins?: LineSpin[] } | undefined)?.spins ?? []) : [];
  const steps = isCascade ? ((result?.round.outcome as { steps?: CascadeStepView[] } | undefined)?.steps ?? []) : [];
  const paid = spins[0];
  const freeSpins = spins.slice(1);
  const isWin = result ? Number(result.round.payout.amount) > 0 : false;

  return (
    <section className="game-client__panel slot" data-slot={engine}>
      <SlotReelView engine={engine} reel={reel} />
      {!result && <p className="slot__idle">{t('gamePlay.slot.idle')}</p>}
      <div className="slot__controls">
        <label className="field">
          <span className="field__label">{t('gamePlay.stake')}</span>
          <select className="field__input" name="stake" value={stake} onChange={(event) => setStake(event.target.value)}>
            {stakes.map((value) => (
              <option key={value} value={value}>
                {value}
              </option>
            ))}
          </select>
        </label>
        <button
          type="button"
          className="button button--primary"
          data-action="spin"
          disabled={isSpinLocked}
          onClick={() => void spinOnce()}
        >
          {t('gamePlay.slot.spin')}
        </button>
      </div>
      <FreespinPanel packs={packs} isBusy={isSpinLocked} onPlay={(pack) => void spinOnce(pack)} />
      {settings && (
        <AutoplayPanel
          rules={settings.autoplay}
          state={autoplay.state}
          isBusy={isSpinLocked}
          currency={result?.round.stake.currency ?? null}
          onStart={(plan) => void autoplay.start(plan)}
          onStop={autoplay.requestStop}
        />
      )}
      {result && (
        <div
          className={`game-client__result ${isWin ? 'is-win' : 'is-loss'}`}
          data-result={isWin ? 'win' : 'loss'}
          data-round={result.round.id}
          data-freespin-round={freespinResult || undefined}
        >
          {freespinResult && <span className="badge">{t('gamePlay.freespins.badge')}</span>}{' '}
          <strong>{isWin ? t('gamePlay.win', { amount: formatMoney(result.round.payout) }) : t('gamePlay.loss')}</strong>
          {paid && paid.lineWins.length > 0 && (
            <ul className="slot__wins">
              {paid.lineWins.map((win) => (
                <li key={win.line}>
                  {t('gamePlay.slot.lineWin', {
                    line: win.line + 1,
                    symbol: symbolName(t, win.symbol),
                    count: win.count,
                    pays: win.pays,
                  })}
                </li>
              ))}
            </ul>
          )}
          {paid && paid.freeSpinsAwarded > 0 && (
            <p data-free-spins={freeSpins.length}>
              {tc('gamePlay.slot.freeSpins', freeSpins.length, {
                wins: freeSpins.reduce((sum, item) => sum + item.winLineBets, 0),
              })}
            </p>
          )}
          {steps.length > 1 && (
            <p data-cascades={steps.length - 1}>
              {tc('gamePlay.slot.cascades', steps.length - 1, { multiplier: steps.at(-1)?.multiplier ?? 1 })}
            </p>
          )}
        </div>
      )}
    </section>
  );
}
