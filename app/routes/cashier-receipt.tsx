/** /cashier/receipt?id=…: a deposit's or withdrawal's details (cashier.getdepositinfo) as a printable receipt. */
import type { Route } from './+types/cashier-receipt';
import type { DepositDetail } from '#common/cashier-contract';
import { isApiError } from '#common/errors';
import { formatMoney } from '#common/money';
import { pageMeta } from '~/seo';
import { useI18n } from '~/i18n';
import { useRootData } from '~/site-data';
import { loaderApi } from '~/api/loader-api';
import { fatalPageError } from '~/api/errors';
import { cashierApi, loadMethodNames } from '~/cashier/cashier-api';
import { historyStamp } from '~/cashier/history';
import { CashierLayout } from '~/components/cashier-layout';
import { useStatusLabel } from '~/components/payment-summary';

export const meta: Route.MetaFunction = (args) => pageMeta(args, 'page.cashier-index-receipt.title');

export async function loader({ request, context }: Route.LoaderArgs) {
  const id = new URL(request.url).searchParams.get('id');
  if (!id) return { detail: null, methodNames: {} };
  const api = cashierApi(loaderApi(request, context));
  try {
    const [detail, methodNames] = await Promise.all([api.depositInfo(id), loadMethodNames(api)]);
    return { detail: detail as DepositDetail | null, methodNames };
  } catch (error) {
    // Another player's id and an unknown one answer alike; the receipt page says there is none.
    if (isApiError(error) && (error.type === 'AccessDeniedException' || error.type === 'InvalidParameterException'))
      return { detail: null, methodNames: {} };
    return fatalPageError(error);
  }
}

export default function CashierReceipt({ loaderData }: Route.ComponentProps) {
  const { t } = useI18n();
  const root = useRootData();
  const statusLabel = useStatusLabel();
  const { detail, methodNames } = loaderData;
  return (
    <CashierLayout page="receipt">
      {!detail ? (
        <p className="notice" data-receipt-missing>
          {t('cashier.receipt.missing')}
        </p>
      ) : (
        <article className="card receipt" data-receipt={detail.id} data-status={detail.status}>
          <header className="receipt__header">
            <strong>{root?.site.name}</strong>
            <span>{t(detail.type === 'withdrawal' ? 'cashier.receipt.withdrawal' : 'cashier.receipt.deposit')}</span>
          </header>
          <dl className="facts receipt__facts">
            <div>
              <dt>{t('cashier.receipt.id')}</dt>
              <dd data-receipt-id>{detail.id}</dd>
            </div>
            <div>
              <dt>{t('cashier.receipt.amount')}</dt>
              <dd data-amount>{formatMoney(detail.amount)}</dd>
            </div>
            <div>
              <dt>{t('cashier.receipt.method')}</dt>
              <dd>{methodNames[detail.method] ?? detail.method}</dd>
            </div>
            <div>
              <dt>{t('cashier.receipt.status')}</dt>
              <dd data-status-label>{statusLabel(detail.type, detail.status)}</dd>
            </div>
            <div>
              <dt>{t('cashier.receipt.date')}</dt>
              <dd>{historyStamp(detail.created_at)}</dd>
            </div>
            <div>
              <dt>{t('cashier.receipt.updated')}</dt>
              <dd>{historyStamp(detail.updated_at)}</dd>
            </div>
            {Object.entries(detail.requisites).map(([name, value]) => (
              <div key={name}>
                <dt>{t(`cashier.requisite.${name}`) === `cashier.requisite.${name}` ? name : t(`cashier.requisite.${name}`)}</dt>
                <dd>{value}</dd>
              </div>
            ))}
          </dl>
          <button
            type="button"
            className="button button--ghost receipt__print"
            onClick={() => window.print()}
            data-action="print"
          >
            {t('cashier.receipt.print')}
          </button>
        </article>
      )}
    </CashierLayout>
  );
}
