/**
 * /cashier/deposit and /cashier/deposit/{sysname} (spec §2, §3 deposit state): the methods, and
 * the chosen method's form: amount presets of the player's currency, the sum (spec §5),
 * requisites, the deposit offer, the deposit limit, the registration hint, and the Deposit button
 * that starts the provider's page in this window, a new window, or the mobile flow.
 */
import { useEffect, useState, type FormEvent } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import type { Route } from './+types/cashier-deposit';
import type { DepositLimitView, PaymentMethodView } from '#common/cashier-contract';
import { isAuthenticated } from '#common/api-contract';
import { parseRouteName } from '#common/locale';
import { formatMoney } from '#common/money';
import { deviceClass } from '#common/device';
import { storeBackUrl } from '#common/back-url';
import { validateSum } from '#common/validators';
import { pageMeta } from '~/seo';
import { useI18n } from '~/i18n';
import { configValue, useRootData } from '~/site-data';
import { browserApi } from '~/api/client';
import { loaderApi } from '~/api/loader-api';
import { loadOrFail } from '~/api/errors';
import { formatDateTime } from '~/format';
import { shouldShowRegistrationHint } from '~/hints';
import { cashierApi } from '~/cashier/cashier-api';
import { amountPresets, initialAmount, normalizeSum, wholeUnitBounds, type AmountPresetList } from '~/cashier/amounts';
import { CURRENT_TRANSACTION_KEY, canOpenNewWindow, chooseDepositFlow, nextStep } from '~/cashier/deposit-flow';
import { findMethodBySegment, methodPath, methodUrlDisplay, type MethodUrlDisplay } from '~/cashier/method-url';
import { NO_OFFER_ID, keptOfferId, offerText, offerTitle, visibleOffers, type DepositOffer } from '~/cashier/offers';
import { paymentFormErrors } from '~/cashier/requisites';
import type { CashierError } from '~/cashier/errors';
import { CashierLayout } from '~/components/cashier-layout';
import { PromoCodeForm } from '~/components/promo-code-form';
import { AmountField, CashierFormError, RequisiteFields } from '~/components/cashier-fields';
import { useCashierError, usePlayerCurrency, useValidationDictionary } from '~/hooks/use-cashier-error';

export const meta: Route.MetaFunction = (args) => {
  const leaf = args.matches[args.matches.length - 1];
  return pageMeta(args, `page.${parseRouteName(leaf?.id ?? '').name}.title`);
};

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const api = cashierApi(loaderApi(request, context));
  const [methods, settings, offers] = await Promise.all([
    loadOrFail(api.paymentMethods('deposit')),
    loadOrFail(api.depositSettings()),
    api.depositOffers(),
  ]);
  return { methods, settings, offers, segment: (params as { sysname?: string }).sysname ?? null };
}

/** Key under which the player hid the registration hint (spec §4: it can be hidden). */
const REG_HINT_HIDDEN_KEY = 'reg_hint_hidden';

function RegistrationHint({ depositCount }: { depositCount: number }) {
  const { t } = useI18n();
  const root = useRootData();
  const isEnabled = configValue(root?.config, 'cashier-config.regHintConfig.showRegHint', false);
  const regTime = root?.account.reg_time ?? null;
  const [isVisible, setVisible] = useState(false);
  useEffect(() => {
    // Time and storage are the browser's: decided after hydration.
    setVisible(
      isEnabled &&
        shouldShowRegistrationHint({
          regTime,
          nowMs: Date.now(),
          hasDeposits: depositCount > 0,
          isHidden: window.localStorage.getItem(REG_HINT_HIDDEN_KEY) !== null,
        }),
    );
  }, [isEnabled, regTime, depositCount]);
  if (!isVisible) return null;
  return (
    <div className="hint-bar" role="status" data-hint="registration">
      <span>{t('cashier.regHint.text')}</span>
      <button
        type="button"
        className="button button--ghost"
        onClick={() => {
          window.localStorage.setItem(REG_HINT_HIDDEN_KEY, '1');
          setVisible(false);
        }}
      >
        {t('cashier.regHint.hide')}
      </button>
    </div>
  );
}

/**
 * A strict jurisdiction (the Sprint site) asks for a deposit limit before the first deposit: the
 * page says so in place of the form, with the way to set one (issue 15: it said so only after
 * Deposit was pressed).
 */
function DepositLimitRequired() {
  const { t, localePath } = useI18n();
  return (
    <div className="card deposit-limit-required" role="status" data-deposit-limit-required>
      <h2 className="card__title">{t('cashier.limitRequired.title')}</h2>
      <p className="card__text">{t('cashier.error.depositLimitRequired')}</p>
      <Link to={`${localePath('/profile/responsible-game')}#limits`} className="button button--primary" data-action="set-limit">
        {t('cashier.limitRequired.action')}
      </Link>
    </div>
  );
}

function DepositLimitNotice({ limit }: { limit: DepositLimitView }) {
  const { t, localePath } = useI18n();
  if (limit.period === 'none' || limit.limit_amount === null) return null;
  const money = (amount: string | null) => formatMoney({ amount: amount ?? '0.00', currency: limit.currency });
  return (
    <div className="notice deposit-limit" data-deposit-limit={limit.period}>
      <span>
        {t('cashier.limit.text', {
          available: money(limit.available_amount),
          limit: money(limit.limit_amount),
          period: t(`cashier.period.${limit.period}`),
        })}
        {limit.expired_at &&
          ` ${t('cashier.limit.resets', { date: formatDateTime(limit.expired_at, t('format.dateTimeJoiner')) })}`}
      </span>
      {limit.can_edit && (
        <Link className="text-link" to={localePath('/profile/responsible-game')}>
          {t('cashier.limit.change')}
        </Link>
      )}
    </div>
  );
}

function MethodList({
  methods,
  selected,
  display,
}: {
  methods: PaymentMethodView[];
  selected: PaymentMethodView | undefined;
  display: MethodUrlDisplay;
}) {
  const { t, localePath } = useI18n();
  return (
    <ul className="method-list" aria-label={t('cashier.deposit.methods')}>
      {methods.map((method) => {
        const isSelected = method.sysname === selected?.sysname;
        return (
          <li key={method.sysname}>
            <Link
              to={localePath(methodPath(method, display))}
              className={`method-card${isSelected ? ' is-selected' : ''}`}
              aria-current={isSelected ? 'page' : undefined}
              data-method={method.sysname}
              preventScrollReset
            >
              <img className="method-card__icon" src={method.icons.default} alt="" width={48} height={32} />
              <span className="method-card__text">
                <span className="method-card__name">{method.name}</span>
                <span className="method-card__description">{method.description}</span>
                <span className="method-card__limits">
                  {t('cashier.method.limits', {
                    min: formatMoney({ amount: method.min_amount, currency: method.currency }),
                    max: formatMoney({ amount: method.max_amount, currency: method.currency }),
                  })}
                </span>
              </span>
            </Link>
          </li>
        );
      })}
    </ul>
  );
}

function OfferChoice({ offers, value, onChange }: { offers: DepositOffer[]; value: number; onChange: (id: number) => void }) {
  const { t } = useI18n();
  if (offers.length === 0) return null;
  return (
    <fieldset className="offer-choice" data-field="campaign_offer_id">
      <legend className="field__label">{t('cashier.offer.title')}</legend>
      <label className="offer-choice__item">
        <input
          type="radio"
          name="campaign_offer_id"
          value={NO_OFFER_ID}
          checked={value === NO_OFFER_ID}
          onChange={() => onChange(NO_OFFER_ID)}
        />
        <span>{t('cashier.offer.none')}</span>
      </label>
      {offers.map((offer) => (
        <label key={offer.id} className="offer-choice__item" data-offer={offer.id}>
          <input
            type="radio"
            name="campaign_offer_id"
            value={offer.id}
            checked={value === offer.id}
            onChange={() => onChange(offer.id)}
          />
          <span>
            <strong>{offerTitle(offer)}</strong>
            {offerText(offer) && <span className="offer-choice__text">{offerText(offer)}</span>}
          </span>
        </label>
      ))}
    </fieldset>
  );
}

function DepositForm({ method, offers }: { method: PaymentMethodView; offers: DepositOffer[] }) {
  const { t, locale, localePath } = useI18n();
  const root = useRootData();
  const navigate = useNavigate();
  const [search] = useSearchParams();
  const dictionary = useValidationDictionary();
  const describe = useCashierError();
  const currency = usePlayerCurrency();
  const bounds = wholeUnitBounds(method.min_amount, method.max_amount, method.currency || currency);
  const presets = amountPresets(
    configValue<AmountPresetList[]>(root?.config, 'cashier-config.amountList', []),
    bounds.currency ?? currency,
    bounds,
  );
  const shown = visibleOffers(offers, { isAuthenticated: isAuthenticated(root?.account), method: method.sysname });

  const [amount, setAmount] = useState(() => initialAmount(presets, bounds));
  const [requisites, setRequisites] = useState<Record<string, string>>({});
  // An offer page's "Deposit with this offer" arrives with ?offer={id}: preselected when it applies here.
  const [offerId, setOfferId] = useState(() => keptOfferId(Number(search.get('offer') ?? NO_OFFER_ID), shown));
  const [wantsNewWindow, setWantsNewWindow] = useState(() => configValue(root?.config, 'cashier-config.openInNewWindow', false));
  const [canUseNewWindow, setCanUseNewWindow] = useState(false);
  const [errors, setErrors] = useState<Record<string, string | undefined>>({});
  const [formError, setFormError] = useState<CashierError | null>(null);
  const [isBusy, setBusy] = useState(false);

  useEffect(() => setCanUseNewWindow(canOpenNewWindow(method.flows, deviceClass(window.innerWidth))), [method.flows]);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setFormError(null);
    const fieldErrors = paymentFormErrors(amount, bounds, method.requisites, requisites, dictionary);
    setErrors(fieldErrors);
    if (Object.keys(fieldErrors).length > 0) return;

    const flow = chooseDepositFlow({ flows: method.flows, device: deviceClass(window.innerWidth), wantsNewWindow });
    // A window opened later than the click would be blocked: open it now, point it at the provider after.
    let providerWindow = flow === 'new_window' ? window.open('', '_blank') : null;
    setBusy(true);
    try {
      storeBackUrl(window.localStorage, search.get('backUrl'));
      const start = await cashierApi(browserApi(locale)).makeDeposit({
        method: method.sysname,
        amount: normalizeSum(amount),
        currency,
        campaignOfferId: keptOfferId(offerId, shown),
        flow,
        requisites,
      });
      window.sessionStorage.setItem(CURRENT_TRANSACTION_KEY, start.id);
      const step = nextStep(start);
      if (step.kind === 'provider') {
        window.location.assign(step.href);
        return;
      }
      if (providerWindow && !providerWindow.closed) providerWindow.location.href = step.providerHref;
      else providerWindow = window.open(step.providerHref, '_blank');
      if (!providerWindow) {
        // Pop-ups blocked: the provider's page opens here instead, and returns to the result screen.
        window.location.assign(step.providerHref);
        return;
      }
      setBusy(false);
      void navigate(localePath(step.path));
    } catch (error) {
      providerWindow?.close();
      const described = describe(error);
      if (described.field && described.field !== 'method' && described.field !== 'flow' && described.field !== 'currency')
        setErrors({ [described.field]: described.text });
      else setFormError(described);
      setBusy(false);
    }
  }

  return (
    <form
      className="card form-grid deposit-form"
      onSubmit={(event) => void submit(event)}
      noValidate
      data-form="deposit"
      data-method-form={method.sysname}
    >
      <h2 className="card__title">
        <img src={method.icons.default} alt="" width={36} height={24} /> {method.name}
      </h2>
      {method.description && <p className="card__text">{method.description}</p>}
      <AmountField value={amount} onChange={setAmount} presets={presets} bounds={bounds} error={errors.amount} />
      <RequisiteFields
        fields={method.requisites}
        values={requisites}
        onChange={(name, value) => setRequisites((current) => ({ ...current, [name]: value }))}
        errors={errors}
      />
      <OfferChoice offers={shown} value={keptOfferId(offerId, shown)} onChange={setOfferId} />
      {canUseNewWindow && (
        <label className="checkbox" data-field="new_window">
          <input type="checkbox" checked={wantsNewWindow} onChange={(event) => setWantsNewWindow(event.target.checked)} />
          <span>{t('cashier.deposit.newWindow')}</span>
        </label>
      )}
      <CashierFormError error={formError} />
      <button className="button button--primary button--large" type="submit" disabled={isBusy} data-action="deposit">
        {t('cashier.deposit.submit', {
          amount: validateSum(amount, bounds).isValid
            ? formatMoney({ amount: `${normalizeSum(amount)}.00`, currency: bounds.currency ?? currency })
            : '',
        }).trim()}
      </button>
      <p className="field__hint">{t('cashier.deposit.secure')}</p>
    </form>
  );
}

export default function CashierDeposit({ loaderData }: Route.ComponentProps) {
  const { t } = useI18n();
  const root = useRootData();
  const { methods, settings, offers, segment } = loaderData;
  const display = methodUrlDisplay(configValue<unknown>(root?.config, 'cashier-config.paymentMethodsUrlDisplay', 'sysname'));
  const view =
    configValue<string>(root?.config, 'cashier-config.depositView', 'ContainerView') === 'ContainerScrollView'
      ? 'scroll'
      : 'container';
  const named = findMethodBySegment(methods, segment ?? undefined, display);
  const selected = named ?? (segment ? undefined : methods[0]);
  return (
    <CashierLayout page="deposit">
      <RegistrationHint depositCount={settings.deposit_count} />
      <DepositLimitNotice limit={settings.deposit_limit} />
      {segment && !named && (
        <p className="notice notice--warn" role="alert" data-method-missing>
          {t('cashier.deposit.methodMissing')}
        </p>
      )}
      {settings.is_deposit_limit_required ? (
        <DepositLimitRequired />
      ) : methods.length === 0 ? (
        <p className="notice" data-no-methods>
          {t('cashier.deposit.noMethods')}
        </p>
      ) : (
        <div className={`deposit deposit--${view}`}>
          <MethodList methods={methods} selected={selected} display={display} />
          {selected && <DepositForm key={selected.sysname} method={selected} offers={offers} />}
        </div>
      )}
      <PromoCodeForm className="card promo-form promo-form--cashier" />
    </CashierLayout>
  );
}
