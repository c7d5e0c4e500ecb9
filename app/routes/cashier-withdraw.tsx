/**
 * /cashier/withdraw: the withdrawal methods, a sum between the method's minimum and the smaller
 * of its maximum and the available balance (spec §5), requisites (banks from cashier.getbanks),
 * the Withdraw button, and the pending withdrawals with Cancel. KYC and confirm-contact errors
 * show their message and a button whose link comes from configuration (spec §8).
 */
import { useState, type FormEvent } from 'react';
import { useRevalidator } from 'react-router';
import type { Route } from './+types/cashier-withdraw';
import type { Bank, PaymentMethodView, WithdrawSettings, WithdrawalView } from '#common/cashier-contract';
import { formatMoney } from '#common/money';
import { isApiError } from '#common/errors';
import { pageMeta } from '~/seo';
import { useI18n } from '~/i18n';
import { browserApi } from '~/api/client';
import { loaderApi } from '~/api/loader-api';
import { loadOrFail } from '~/api/errors';
import { useBalances } from '~/balance';
import { useToasts } from '~/toasts/toast-provider';
import { useDialogs } from '~/dialogs/dialog-context';
import { formatDateTime } from '~/format';
import { cashierApi } from '~/cashier/cashier-api';
import { normalizeSum, withdrawalBounds } from '~/cashier/amounts';
import { DEFAULT_WITHDRAW_ERROR_LINKS, type CashierError } from '~/cashier/errors';
import { historyStamp } from '~/cashier/history';
import { paymentFormErrors } from '~/cashier/requisites';
import { CashierLayout } from '~/components/cashier-layout';
import { AmountField, CashierFormError, RequisiteFields } from '~/components/cashier-fields';
import { useStatusLabel } from '~/components/payment-summary';
import { useCashierError, useValidationDictionary } from '~/hooks/use-cashier-error';
import { configValue, useRootData } from '~/site-data';

export const meta: Route.MetaFunction = (args) => pageMeta(args, 'page.cashier-index-withdraw.title');

export async function loader({ request, context }: Route.LoaderArgs) {
  const api = cashierApi(loaderApi(request, context));
  const [settings, methods] = await Promise.all([
    loadOrFail(api.withdrawSettings()),
    loadOrFail(api.paymentMethods('withdrawal')),
  ]);
  const banks = methods.some((method) => method.type === 'bank_transfer') ? await loadOrFail(api.banks()) : [];
  return { settings, methods, banks };
}

/** The KYC requirement told before the player fills the form, with the same button as its error. */
function KycGate({ settings }: { settings: WithdrawSettings }) {
  const { t } = useI18n();
  const root = useRootData();
  if (!settings.is_kyc_required || settings.is_verified) return null;
  const links = {
    ...DEFAULT_WITHDRAW_ERROR_LINKS,
    ...configValue<Record<string, string>>(root?.config, 'cashier-config.withdrawErrorLinks', {}),
  };
  return (
    <CashierFormError
      error={{ type: 'KycWithdrawalException', text: t('cashier.withdraw.kycRequired'), link: links.KycWithdrawalException }}
    />
  );
}

function WithdrawSummary({ settings }: { settings: WithdrawSettings }) {
  const { t } = useI18n();
  const money = (amount: string) => formatMoney({ amount, currency: settings.currency });
  const limit = settings.period_limit;
  return (
    <dl className="facts card" data-withdraw-summary>
      <div>
        <dt>{t('cashier.withdraw.available')}</dt>
        <dd data-available>{money(settings.available_amount)}</dd>
      </div>
      <div>
        <dt>{t('cashier.withdraw.periodLimit', { period: t(`cashier.period.${limit.period}`) })}</dt>
        <dd>{t('cashier.withdraw.periodUsed', { used: money(limit.used_amount), limit: money(limit.limit_amount) })}</dd>
      </div>
      <div>
        <dt>{t('cashier.withdraw.resets')}</dt>
        <dd>{formatDateTime(limit.resets_at, t('format.dateTimeJoiner'))}</dd>
      </div>
    </dl>
  );
}

function WithdrawForm({ method, settings, banks }: { method: PaymentMethodView; settings: WithdrawSettings; banks: Bank[] }) {
  const { t, locale } = useI18n();
  const dictionary = useValidationDictionary();
  const describe = useCashierError();
  const revalidator = useRevalidator();
  const { refresh } = useBalances();
  const { show } = useToasts();
  const bounds = withdrawalBounds(method, settings.available_amount, settings.currency);
  const [amount, setAmount] = useState('');
  const [requisites, setRequisites] = useState<Record<string, string>>({});
  const [errors, setErrors] = useState<Record<string, string | undefined>>({});
  const [formError, setFormError] = useState<CashierError | null>(null);
  const [isBusy, setBusy] = useState(false);
  const { open } = useDialogs();

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setFormError(null);
    const fieldErrors = paymentFormErrors(amount, bounds, method.requisites, requisites, dictionary);
    setErrors(fieldErrors);
    if (Object.keys(fieldErrors).length > 0) return;
    setBusy(true);
    try {
      const api = cashierApi(browserApi(locale));
      const input = { method: method.sysname, amount: normalizeSum(amount), requisites };
      try {
        await api.makeWithdrawal(input);
      } catch (error) {
        // Issue 13: with an active bonus the server asks first; the burn-bonuses dialog asks the player.
        if (!isActiveBonusRefusal(error)) throw error;
        const isAgreed = await open('confirm', {
          type: 'confirm',
          componentProps: { titleKey: 'cashier.withdraw.burn.title', textKey: 'cashier.withdraw.burn.text' },
        }).closed;
        if (isAgreed !== true) return;
        await api.makeWithdrawal({ ...input, burnBonuses: true });
      }
      show(t('cashier.withdraw.requested'), { tone: 'success' });
      setAmount('');
      setRequisites({});
      await Promise.all([refresh(), revalidator.revalidate()]);
    } catch (error) {
      const described = describe(error);
      if (described.field && described.field !== 'method') setErrors({ [described.field]: described.text });
      else setFormError(described);
    } finally {
      setBusy(false);
    }
  }

  return (
    <form
      className="card form-grid withdraw-form"
      onSubmit={(event) => void submit(event)}
      noValidate
      data-form="withdraw"
      data-method-form={method.sysname}
    >
      {bounds.max < bounds.min && (
        <p className="notice notice--warn" data-below-minimum>
          {t('cashier.withdraw.belowMinimum', { min: formatMoney({ amount: method.min_amount, currency: settings.currency }) })}
        </p>
      )}
      <AmountField value={amount} onChange={setAmount} bounds={bounds} error={errors.amount} />
      <RequisiteFields
        fields={method.requisites}
        values={requisites}
        onChange={(name, value) => setRequisites((current) => ({ ...current, [name]: value }))}
        errors={errors}
        banks={banks}
      />
      <CashierFormError error={formError} />
      <button className="button button--primary button--large" type="submit" disabled={isBusy} data-action="withdraw">
        {t('cashier.withdraw.submit')}
      </button>
    </form>
  );
}

function PendingWithdrawals({ pending, methods }: { pending: WithdrawalView[]; methods: PaymentMethodView[] }) {
  const { t, locale } = useI18n();
  const describe = useCashierError();
  const revalidator = useRevalidator();
  const { refresh } = useBalances();
  const { show } = useToasts();
  const statusLabel = useStatusLabel();
  const [busyId, setBusyId] = useState<string | null>(null);
  if (pending.length === 0) return null;

  async function cancel(id: string) {
    setBusyId(id);
    try {
      await cashierApi(browserApi(locale)).cancelWithdrawal(id);
      show(t('cashier.withdraw.cancelled'), { tone: 'success' });
      await Promise.all([refresh(), revalidator.revalidate()]);
    } catch (error) {
      show(describe(error).text, { tone: 'error' });
    } finally {
      setBusyId(null);
    }
  }

  return (
    <section className="card pending-withdrawals" data-pending-withdrawals>
      <h2 className="card__title">{t('cashier.withdraw.pending')}</h2>
      <ul className="history-list">
        {pending.map((withdrawal) => (
          <li key={withdrawal.id} className="history-row" data-withdrawal={withdrawal.id} data-status={withdrawal.status}>
            <span className="history-row__date">{historyStamp(withdrawal.created_at)}</span>
            <span className="history-row__method">
              {methods.find((method) => method.sysname === withdrawal.method)?.name ?? withdrawal.method}
            </span>
            <span className="history-row__amount">{formatMoney(withdrawal.amount)}</span>
            <span className="history-row__status">{statusLabel('withdrawal', withdrawal.status)}</span>
            {withdrawal.status === 'pending' && (
              <button
                type="button"
                className="button button--ghost"
                disabled={busyId !== null}
                onClick={() => void cancel(withdrawal.id)}
                data-action="cancel-withdrawal"
              >
                {t('cashier.withdraw.cancel')}
              </button>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}

export default function CashierWithdraw({ loaderData }: Route.ComponentProps) {
  const { t } = useI18n();
  const { settings, methods, banks } = loaderData;
  const [sysname, setSysname] = useState(methods[0]?.sysname);
  const selected = methods.find((method) => method.sysname === sysname) ?? methods[0];
  return (
    <CashierLayout page="withdraw">
      <KycGate settings={settings} />
      <WithdrawSummary settings={settings} />
      {methods.length === 0 ? (
        <p className="notice" data-no-methods>
          {t('cashier.withdraw.noMethods')}
        </p>
      ) : (
        <div className="withdraw">
          <ul className="method-list" role="radiogroup" aria-label={t('cashier.withdraw.methods')}>
            {methods.map((method) => {
              const isSelected = method.sysname === selected?.sysname;
              return (
                <li key={method.sysname}>
                  <button
                    type="button"
                    role="radio"
                    aria-checked={isSelected}
                    className={`method-card${isSelected ? ' is-selected' : ''}`}
                    data-method={method.sysname}
                    onClick={() => setSysname(method.sysname)}
                  >
                    <img className="method-card__icon" src={method.icons.default} alt="" width={48} height={32} />
                    <span className="method-card__text">
                      <span className="method-card__name">{method.name}</span>
                      <span className="method-card__limits">
                        {t('cashier.method.limits', {
                          min: formatMoney({ amount: method.min_amount, currency: method.currency }),
                          max: formatMoney({ amount: method.max_amount, currency: method.currency }),
                        })}
                      </span>
                    </span>
                  </button>
                </li>
              );
            })}
          </ul>
          {selected && <WithdrawForm key={selected.sysname} method={selected} settings={settings} banks={banks} />}
        </div>
      )}
      <PendingWithdrawals pending={settings.pending} methods={methods} />
    </CashierLayout>
  );
}

/** The server's "active bonuses would be forfeited" answer to a withdrawal (WithdrawalDeclinedException ACTIVE_BONUSES). */
function isActiveBonusRefusal(error: unknown): boolean {
  return isApiError(error) && error.type === 'WithdrawalDeclinedException' && error.errorData?.reason === 'ACTIVE_BONUSES';
}
