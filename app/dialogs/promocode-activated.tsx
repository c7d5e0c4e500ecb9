import type { PromoActivation } from '#common/contract';
import { formatMoney } from '#common/money';
import type { DialogComponentProps } from './dialog-context';
import { BonusArt } from '~/components/bonus-art';
import { useI18n } from '~/i18n';

/**
 * The promocode-activated dialog (spec §2): which offer the code was for and the bonus it
 * granted, active now or waiting in the profile when another bonus must end first (isolation).
 */
export function PromocodeActivated({ close, activation }: DialogComponentProps & { activation: PromoActivation }) {
  const { t, localePath } = useI18n();
  return (
    <div className="confirm bonus-activated" data-dialog="promocode-activated" data-bonus-status={activation.bonus_status}>
      <BonusArt size={96} />
      <h2 className="dialog__title">{t('promocode.activated.title')}</h2>
      <p>
        {t(activation.bonus_status === 'active' ? 'promocode.activated.active' : 'promocode.activated.available', {
          title: activation.title,
          amount: formatMoney(activation.bonus),
        })}
      </p>
      <div className="confirm__actions">
        <button type="button" className="button button--ghost" onClick={() => close(false)}>
          {t('dialog.close')}
        </button>
        <a className="button button--primary" href={localePath('/profile/bonuses')} onClick={() => close(true)}>
          {t('promocode.activated.toBonuses')}
        </a>
      </div>
    </div>
  );
}
