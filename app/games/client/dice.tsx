/** Dice (fast): roll under or over a target; chance and multiplier shown before the roll. */
import { useState } from 'react';
import { formatMoney } from '#common/money';
import { DICE_MAX_WINNING_ROLLS, DICE_MIN_WINNING_ROLLS, DICE_OUTCOMES, DICE_RETURN_NUMERATOR } from '#common/games/dice';
import { useI18n } from '~/i18n';
import type { GameComponentProps, PlayResult } from './shared';
import { useHydrated } from '~/hooks/use-hydrated';

export function DiceGame({ play, minBet }: GameComponentProps) {
  const { t } = useI18n();
  const [stake, setStake] = useState(Number(minBet) > 1 ? minBet : '1.00');
  const [direction, setDirection] = useState<'under' | 'over'>('under');
  const [target, setTarget] = useState(50);
  const [isBusy, setBusy] = useState(false);
  const isHydrated = useHydrated();
  const [result, setResult] = useState<PlayResult | null>(null);
  const hundredths = Math.round(target * 100);
  const winning = direction === 'under' ? hundredths : DICE_OUTCOMES - 1 - hundredths;
  const isValidTarget = winning >= DICE_MIN_WINNING_ROLLS && winning <= DICE_MAX_WINNING_ROLLS;
  const chance = (winning / 100).toFixed(2);
  const multiplier = isValidTarget ? (DICE_RETURN_NUMERATOR / winning).toFixed(4) : '—';
  const outcome = result?.round.outcome as { rollHundredths: number; isWin: boolean } | undefined;

  async function roll() {
    setBusy(true);
    const answer = await play({ stake: stake.trim(), direction, target: target.toFixed(2) });
    if (answer) setResult(answer);
    setBusy(false);
  }

  return (
    <section className="game-client__panel dice" data-dice>
      <label className="field">
        <span className="field__label">{t('gamePlay.stake')}</span>
        <input
          className="field__input"
          name="stake"
          inputMode="decimal"
          value={stake}
          onChange={(event) => setStake(event.target.value)}
        />
      </label>
      <div className="dice__direction" role="group" aria-label={t('gamePlay.dice.direction')}>
        {(['under', 'over'] as const).map((side) => (
          <button
            key={side}
            type="button"
            className={`button ${direction === side ? 'button--primary' : 'button--ghost'}`}
            aria-pressed={direction === side}
            data-direction={side}
            onClick={() => setDirection(side)}
          >
            {t(`gamePlay.dice.${side}`)}
          </button>
        ))}
      </div>
      <label className="field">
        <span className="field__label">{t('gamePlay.dice.target')}</span>
        <input
          type="range"
          name="target-range"
          min={1}
          max={98.99}
          step={0.01}
          value={target}
          onChange={(event) => setTarget(Number(event.target.value))}
        />
        <input
          className="field__input"
          type="number"
          name="target"
          min={1}
          max={98.99}
          step={0.01}
          value={target}
          onChange={(event) => setTarget(Math.min(99.99, Math.max(0, Number(event.target.value) || 0)))}
        />
      </label>
      <p className="dice__odds">
        {t('gamePlay.dice.chance', { chance })} · {t('gamePlay.dice.multiplier', { multiplier })}
      </p>
      <button
        type="button"
        className="button button--primary"
        data-action="roll"
        disabled={!isHydrated || isBusy || !isValidTarget}
        onClick={() => void roll()}
      >
        {t('gamePlay.dice.roll')}
      </button>
      {result && outcome && (
        <div
          className={`game-client__result ${outcome.isWin ? 'is-win' : 'is-loss'}`}
          data-result={outcome.isWin ? 'win' : 'loss'}
          data-round={result.round.id}
        >
          <span data-roll>{t('gamePlay.dice.rolled', { roll: (outcome.rollHundredths / 100).toFixed(2) })}</span>{' '}
          <strong>{outcome.isWin ? t('gamePlay.win', { amount: formatMoney(result.round.payout) }) : t('gamePlay.loss')}</strong>
        </div>
      )}
    </section>
  );
}
