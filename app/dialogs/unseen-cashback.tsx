import type { CashbackView } from '#common/contract';
import { formatMoney } from '#common/money';
import type { DialogComponentProps } from './dialog-context';
import { BonusArt } from '~/components/bonus-art';
import { formatDate } from '~/format';
import { useI18n } from '~/i18n';

/** The unseen-cashback popup (spec §2, §4): the newest cashback, with the way to claim it. */
export function UnseenCashback({ close, cashback }: DialogComponentProps & { cashback: CashbackView }) {
  const { t, localePath } = useI18n();
  const period = `${formatDate(cashback.start_date)} – ${formatDate(new Date(Date.parse(cashback.end_date) - 1))}`;
  return (
    <div className="confirm bonus-activated" data-dialog="unseen-cashback" data-cashback-id={cashback.id}>
      <BonusArt size={96} />
      <h2 className="dialog__title">{t('cashback.popup.title')}</h2>
      <p>
        {t(cashback.status === 'active' ? 'cashback.popup.active' : 'cashback.popup.paid', {
          amount: formatMoney(cashback.amount),
          period,
        })}
      </p>
      <div className="confirm__actions">
        <button type="button" className="button button--ghost" onClick={() => close(false)}>
          {t('dialog.close')}
        </button>
        <a className="button button--primary" href={localePath('/profile/cashback')} onClick={() => close(true)}>
          {t('cashback.popup.open')}
        </a>
      </div>
    </div>
  );
}
