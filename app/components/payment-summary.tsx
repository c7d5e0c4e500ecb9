import { Link } from 'react-router';
import type { DepositDetail } from '#common/cashier-contract';
import { formatMoney } from '#common/money';
import { historyStamp } from '~/cashier/history';
import { useI18n } from '~/i18n';

/** A payment's status in words; an unknown status shows as it came. */
export function useStatusLabel() {
  const { t } = useI18n();
  return (type: string, status: string) => {
    const group = type === 'withdrawal' ? 'withdrawal' : type === 'deposit' ? 'deposit' : 'movement';
    const key = `cashier.status.${group}.${status}`;
    const text = t(key);
    return text === key ? status : text;
  };
}

/** The short summary of a payment under a result screen, with a link to its receipt. */
export function PaymentSummary({ detail, methodName }: { detail: DepositDetail; methodName?: string }) {
  const { t, localePath } = useI18n();
  const statusLabel = useStatusLabel();
  return (
    <div className="payment-summary card" data-payment-summary={detail.id} data-status={detail.status}>
      <dl className="facts">
        <div>
          <dt>{t('cashier.receipt.amount')}</dt>
          <dd data-amount>{formatMoney(detail.amount)}</dd>
        </div>
        <div>
          <dt>{t('cashier.receipt.method')}</dt>
          <dd>{methodName ?? detail.method}</dd>
        </div>
        <div>
          <dt>{t('cashier.receipt.status')}</dt>
          <dd data-status-label>{statusLabel(detail.type, detail.status)}</dd>
        </div>
        <div>
          <dt>{t('cashier.receipt.date')}</dt>
          <dd>{historyStamp(detail.created_at)}</dd>
        </div>
      </dl>
      <Link className="text-link" to={`${localePath('/cashier/receipt')}?id=${encodeURIComponent(detail.id)}`} data-receipt-link>
        {t('cashier.receipt.open')}
      </Link>
    </div>
  );
}
