/** Form pieces shared by the deposit and withdrawal forms: the sum with its presets, requisites, and the form error. */
import { Link } from 'react-router';
import type { Bank, RequisiteField } from '#common/cashier-contract';
import { formatMoney, money } from '#common/money';
import type { SumBounds } from '#common/validators';
import type { CashierError } from '~/cashier/errors';
import { requisiteKey } from '~/cashier/requisites';
import { useI18n } from '~/i18n';

export function AmountField({
  value,
  onChange,
  presets = [],
  bounds,
  error,
}: {
  value: string;
  onChange: (value: string) => void;
  presets?: readonly number[];
  bounds: SumBounds;
  error?: string;
}) {
  const { t } = useI18n();
  const currency = bounds.currency ?? 'USD';
  const whole = (units: number) => formatMoney(money(BigInt(units) * 100n, currency));
  return (
    <div className="amount-field">
      {presets.length > 0 && (
        <div className="amount-presets" role="group" aria-label={t('cashier.amount.presets')}>
          {presets.map((amount) => (
            <button
              key={amount}
              type="button"
              className={`chip amount-presets__chip${value === String(amount) ? ' is-selected' : ''}`}
              aria-pressed={value === String(amount)}
              data-preset={amount}
              onClick={() => onChange(String(amount))}
            >
              {whole(amount)}
            </button>
          ))}
        </div>
      )}
      <label className={`field${error ? ' field--invalid' : ''}`} data-field="amount">
        <span className="field__label">{t('cashier.amount.label', { currency })}</span>
        <input
          className="field__input"
          name="amount"
          inputMode="numeric"
          autoComplete="off"
          value={value}
          onChange={(event) => onChange(event.target.value)}
          aria-invalid={error ? true : undefined}
        />
        {error ? (
          <span className="field__error" role="alert">
            {error}
          </span>
        ) : (
          bounds.max >= bounds.min && (
            <span className="field__hint">{t('cashier.amount.bounds', { min: whole(bounds.min), max: whole(bounds.max) })}</span>
          )
        )}
      </label>
    </div>
  );
}

/** A label for a requisite: its translation, or the field name when content has none. */
function useRequisiteLabel() {
  const { t } = useI18n();
  return (name: string) => {
    const key = `cashier.requisite.${name}`;
    const text = t(key);
    return text === key ? name : text;
  };
}

export function RequisiteFields({
  fields,
  values,
  onChange,
  errors,
  banks = [],
}: {
  fields: readonly RequisiteField[];
  values: Record<string, string>;
  onChange: (name: string, value: string) => void;
  errors: Record<string, string | undefined>;
  banks?: readonly Bank[];
}) {
  const { t } = useI18n();
  const label = useRequisiteLabel();
  return (
    <>
      {fields.map((field) => {
        const error = errors[requisiteKey(field.name)];
        const options =
          field.name === 'bank' && banks.length > 0
            ? banks.map((bank) => ({ value: bank.code, label: bank.name }))
            : field.options?.map((option) => ({ value: option, label: option }));
        return (
          <label key={field.name} className={`field${error ? ' field--invalid' : ''}`} data-field={requisiteKey(field.name)}>
            <span className="field__label">
              {label(field.name)}
              {!field.isRequired && <span className="field__optional"> {t('cashier.requisite.optional')}</span>}
            </span>
            {options ? (
              <select
                className="field__input"
                name={requisiteKey(field.name)}
                value={values[field.name] ?? ''}
                onChange={(event) => onChange(field.name, event.target.value)}
              >
                <option value="">{t('cashier.requisite.choose')}</option>
                {options.map((option) => (
                  <option key={option.value} value={option.value}>
                    {option.label}
                  </option>
                ))}
              </select>
            ) : (
              <input
                className="field__input"
                name={requisiteKey(field.name)}
                value={values[field.name] ?? ''}
                autoComplete="off"
                inputMode={field.validator === 'cardNumber' ? 'numeric' : undefined}
                onChange={(event) => onChange(field.name, event.target.value)}
              />
            )}
            {error && (
              <span className="field__error" role="alert">
                {error}
              </span>
            )}
          </label>
        );
      })}
    </>
  );
}

/** A form-level error: the message, and for KYC / confirm-contact the configured button (spec §8). */
export function CashierFormError({ error }: { error: CashierError | null }) {
  const { t, localePath } = useI18n();
  if (!error) return null;
  return (
    <div className="notice notice--error cashier-error" role="alert" data-error-type={error.type}>
      <span>{error.text}</span>
      {error.link && (
        <Link className="button button--primary" to={localePath(error.link)} data-error-link>
          {t(`cashier.error.button.${error.type}`)}
        </Link>
      )}
    </div>
  );
}
