import type { BonusView } from '#common/contract';
import { formatMoney } from '#common/money';
import type { DialogComponentProps } from './dialog-context';
import { BonusArt } from '~/components/bonus-art';
import { useI18n } from '~/i18n';

/**
 * The betting-bonus-activated dialog (spec §2 confirm dialogs): what the player now holds and the
 * rule a bet must meet to use it, with the way to the betting area.
 */
export function BettingBonusActivated({ close, bonus }: DialogComponentProps & { bonus: BonusView }) {
  const { t, localePath } = useI18n();
  return (
    <div className="confirm bonus-activated" data-dialog="betting-bonus-activated">
      <BonusArt size={96} />
      <h2 className="dialog__title">{t('bonus.betting.activated.title')}</h2>
      <p>
        {t(bonus.is_free_bet ? 'bonus.betting.activated.freeBet' : 'bonus.betting.activated.money', {
          amount: formatMoney(bonus.balance),
          odds: bonus.min_odds?.toFixed(2) ?? '1.00',
        })}
      </p>
      <div className="confirm__actions">
        <button type="button" className="button button--ghost" onClick={() => close(false)}>
          {t('dialog.close')}
        </button>
        <a className="button button--primary" href={localePath('/betting')} onClick={() => close(true)}>
          {t('bonus.betting.activated.go')}
        </a>
      </div>
    </div>
  );
}
