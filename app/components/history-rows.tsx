import { Link } from 'react-router';
import type { HistoryItem } from '#common/cashier-contract';
import { formatMoney } from '#common/money';
import { hasReceipt, historyKindKey, historyStamp } from '~/cashier/history';
import { useI18n } from '~/i18n';
import { useStatusLabel } from './payment-summary';

/**
 * Rows of the cashier history and the wallet's recent transactions: date (dd.mm.yyyy hh:mm),
 * amount, status and method; payments link to their receipt.
 */
export function HistoryRows({
  items,
  showType = false,
  methodNames = {},
}: {
  items: readonly HistoryItem[];
  showType?: boolean;
  methodNames?: Record<string, string>;
}) {
  const { t, localePath } = useI18n();
  const statusLabel = useStatusLabel();
  // A payment names its method; a bonus or cashback movement says what happened, in the page's language.
  const label = (item: HistoryItem) => {
    if (item.method) return methodNames[item.method] ?? item.method;
    const key = historyKindKey(item);
    return key ? t(key) : item.description;
  };
  if (items.length === 0)
    return (
      <p className="card__text" data-history-empty>
        {t('cashier.history.empty')}
      </p>
    );
  return (
    <ul className="history-list">
      {items.map((item) => {
        const content = (
          <>
            <span className="history-row__date">{historyStamp(item.created_at)}</span>
            {showType && <span className="history-row__type">{t(`cashier.history.tab.${item.type}`)}</span>}
            <span className="history-row__method" data-kind={item.kind ?? undefined}>
              {label(item)}
            </span>
            <span className="history-row__amount" data-amount>
              {formatMoney(item.amount)}
            </span>
            <span className={`history-row__status status status--${item.status}`}>{statusLabel(item.type, item.status)}</span>
          </>
        );
        return (
          <li key={`${item.type}:${item.id}`} data-history-row={item.id} data-type={item.type} data-status={item.status}>
            {hasReceipt(item) ? (
              <Link
                className="history-row history-row--link"
                to={`${localePath('/cashier/receipt')}?id=${encodeURIComponent(item.id)}`}
              >
                {content}
              </Link>
            ) : (
              <div className="history-row">{content}</div>
            )}
          </li>
        );
      })}
    </ul>
  );
}
