/**
 * The slot's freespin packs and autoplay form (issue 5), drawn only when a player has packs or
 * opens autoplay: slot-extras.tsx loads this module then, so a slot page's first script stays
 * small (issue 12: initial JavaScript per page ≤ 150 KB; the reels of issue 15 take their share).
 */
import { useState } from 'react';
import { formatMoney, minorToAmount, amountToMinor } from '#common/money';
import { useI18n } from '~/i18n';
import type { AutoplayPlan, AutoplayState } from './autoplay';
import type { AutoplaySettings } from './use-game-settings';
import type { FreespinPackView } from '#common/contract';

export function FreespinPanel({
  packs,
  isBusy,
  onPlay,
}: {
  packs: readonly FreespinPackView[];
  isBusy: boolean;
  onPlay: (pack: FreespinPackView) => void;
}) {
  const { t } = useI18n();
  if (packs.length === 0) return null;
  return (
    <ul className="slot-freespins" data-freespins>
      {packs.map((pack) => (
        <li key={pack.id} className="slot-freespins__pack" data-freespin-pack={pack.id} data-remaining={pack.remaining_count}>
          <span>
            {t('gamePlay.freespins.left', {
              count: pack.remaining_count,
              total: pack.total_count,
              stake: formatMoney(pack.stake),
            })}
          </span>
          <span className="slot-freespins__meta">
            {t('gamePlay.freespins.won', { amount: formatMoney(pack.win) })} ·{' '}
            {t(pack.win_balance === 'bonus' ? 'gamePlay.freespins.toBonus' : 'gamePlay.freespins.toMain')}
          </span>
          <button
            type="button"
            className="button button--primary"
            data-action="play-freespin"
            disabled={isBusy}
            onClick={() => onPlay(pack)}
          >
            {t('gamePlay.freespins.play')}
          </button>
        </li>
      ))}
    </ul>
  );
}

/** An amount field's value in minor units; null when empty, undefined when not an amount. */
function limitOf(text: string): bigint | null | undefined {
  const trimmed = text.trim().replace(',', '.');
  if (trimmed === '') return null;
  if (!/^\d+(\.\d{1,2})?$/.test(trimmed) || Number(trimmed) <= 0) return undefined;
  return amountToMinor(Number(trimmed).toFixed(2));
}

export function AutoplayForm({
  rules,
  state,
  isBusy,
  currency,
  onStart,
  onStop,
}: {
  rules: AutoplaySettings;
  state: AutoplayState;
  isBusy: boolean;
  currency: string | null;
  onStart: (plan: AutoplayPlan) => void;
  onStop: () => void;
}) {
  const { t, tc } = useI18n();
  const [rounds, setRounds] = useState(rules.round_options[0] ?? rules.max_rounds);
  const [lossLimit, setLossLimit] = useState('');
  const [winLimit, setWinLimit] = useState('');
  const [problem, setProblem] = useState<string | null>(null);

  function start() {
    const loss = limitOf(lossLimit);
    const win = limitOf(winLimit);
    if (loss === undefined || win === undefined) return setProblem(t('gamePlay.autoplay.error.amount'));
    if (rules.is_loss_limit_required && loss === null) return setProblem(t('gamePlay.autoplay.error.lossRequired'));
    if (rules.is_single_win_limit_required && win === null) return setProblem(t('gamePlay.autoplay.error.winRequired'));
    setProblem(null);
    onStart({ rounds: Math.min(rounds, rules.max_rounds), lossLimitMinor: loss, singleWinLimitMinor: win });
  }

  // The run's net in the round currency, once a round has told it.
  const net = currency ? formatMoney({ amount: minorToAmount(state.netMinor), currency }) : minorToAmount(state.netMinor);
  return (
    <>
      {state.isRunning ? (
        <div className="slot-autoplay__run" role="status">
          <span data-autoplay-progress={state.played}>
            {t('gamePlay.autoplay.progress', { played: state.played, planned: state.planned, net })}
          </span>
          <button type="button" className="button button--ghost" data-action="stop-autoplay" onClick={onStop}>
            {t('gamePlay.autoplay.stop')}
          </button>
        </div>
      ) : (
        <div className="slot-autoplay__form">
          <label className="field">
            <span className="field__label">{t('gamePlay.autoplay.rounds')}</span>
            <select
              className="field__input"
              name="autoplay-rounds"
              value={rounds}
              onChange={(event) => setRounds(Number(event.target.value))}
            >
              {rules.round_options.map((count) => (
                <option key={count} value={count}>
                  {count}
                </option>
              ))}
            </select>
          </label>
          <label className="field">
            <span className="field__label">
              {t(rules.is_loss_limit_required ? 'gamePlay.autoplay.lossLimitRequired' : 'gamePlay.autoplay.lossLimit')}
            </span>
            <input
              className="field__input"
              name="autoplay-loss-limit"
              inputMode="decimal"
              value={lossLimit}
              onChange={(event) => setLossLimit(event.target.value)}
            />
          </label>
          <label className="field">
            <span className="field__label">
              {t(rules.is_single_win_limit_required ? 'gamePlay.autoplay.winLimitRequired' : 'gamePlay.autoplay.winLimit')}
            </span>
            <input
              className="field__input"
              name="autoplay-win-limit"
              inputMode="decimal"
              value={winLimit}
              onChange={(event) => setWinLimit(event.target.value)}
            />
          </label>
          <button type="button" className="button button--primary" data-action="start-autoplay" disabled={isBusy} onClick={start}>
            {t('gamePlay.autoplay.start')}
          </button>
          {problem && (
            <p className="field__error" role="alert">
              {problem}
            </p>
          )}
          {state.stop && (
            <p className="card__text" data-autoplay-stop={state.stop}>
              {tc(`gamePlay.autoplay.stopped.${state.stop}`, state.played, { net })}
            </p>
          )}
        </div>
      )}
    </>
  );
}
