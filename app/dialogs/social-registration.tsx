/**
 * The registration-completion popup (spec §2: type socialRegistration), open while a signed-in
 * player's registration is not complete: the terms checkbox when the auth configuration has
 * terms active, and the account currency; auth.completeRegistration finishes it.
 */
import { useState, type FormEvent } from 'react';
import { useRevalidator } from 'react-router';
import { isApiError } from '#common/errors';
import { validateCheckbox, validationMessage } from '#common/validators';
import type { DialogComponentProps } from './dialog-context';
import { browserApi } from '~/api/client';
import { useI18n } from '~/i18n';
import { configValue, useRootData } from '~/site-data';
import { signOut } from '~/account-actions';

export function SocialRegistration({ close }: DialogComponentProps) {
  const { t, locale, localePath } = useI18n();
  const root = useRootData();
  const revalidator = useRevalidator();
  const dictionary = configValue<Record<string, string>>(root?.config, 'forms-config.validationDict', {});
  const isTermsActive = configValue<boolean>(root?.config, 'auth-config.registration.terms.isActive', false);
  const currencies = root?.generalInfo.available_currencies ?? [];
  const [currency, setCurrency] = useState(
    root?.account.balances.balance_main.currency ?? root?.generalInfo.default_currency ?? '',
  );
  const [terms, setTerms] = useState(configValue<boolean>(root?.config, 'auth-config.registration.terms.defaultValue', false));
  const [errors, setErrors] = useState<Partial<Record<'terms' | 'currency' | 'form', string>>>({});
  const [isBusy, setBusy] = useState(false);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const termsError = isTermsActive ? validationMessage(validateCheckbox(terms), dictionary) : '';
    setErrors(termsError ? { terms: termsError } : {});
    if (termsError) return;
    setBusy(true);
    try {
      await browserApi(locale).call('auth.completeRegistration', { terms: terms ? '1' : '0', currency });
      close();
      await revalidator.revalidate();
    } catch (error) {
      if (!isApiError(error)) return setErrors({ form: t('error.UnknownErrorException') });
      const field = error.errorData?.field;
      const errorType = typeof error.errorData?.errorType === 'string' ? error.errorData.errorType : '';
      const text = (errorType && dictionary[errorType]) || t(`error.${error.type}`);
      setErrors(field === 'terms' || field === 'currency' ? { [field]: text } : { form: text });
    } finally {
      setBusy(false);
    }
  }

  return (
    <form className="auth-form social-registration" onSubmit={submit} noValidate data-social-registration>
      <h2 className="dialog__title">{t('socialRegistration.title')}</h2>
      <p className="auth-form__hint">{t('socialRegistration.hint')}</p>
      {currencies.length > 1 && (
        <label className={`field${errors.currency ? ' field--invalid' : ''}`} data-field="currency">
          <span className="field__label">{t('auth.field.currency')}</span>
          <select className="field__input" name="currency" value={currency} onChange={(e) => setCurrency(e.target.value)}>
            {currencies.map((code) => (
              <option key={code} value={code}>
                {code}
              </option>
            ))}
          </select>
          {errors.currency && (
            <span className="field__error" role="alert">
              {errors.currency}
            </span>
          )}
        </label>
      )}
      {isTermsActive && (
        <label className={`checkbox${errors.terms ? ' field--invalid' : ''}`} data-field="terms">
          <input
            type="checkbox"
            name="terms"
            checked={terms}
            onChange={(e) => {
              setTerms(e.target.checked);
              setErrors((current) => ({ ...current, terms: undefined }));
            }}
          />
          <span>{t('auth.field.terms')}</span>
          {errors.terms && (
            <span className="field__error" role="alert">
              {errors.terms}
            </span>
          )}
        </label>
      )}
      {errors.form && (
        <p className="field__error" role="alert">
          {errors.form}
        </p>
      )}
      <button className="button button--primary button--wide" type="submit" disabled={isBusy}>
        {t('socialRegistration.submit')}
      </button>
      <button type="button" className="link-button" onClick={() => void signOut(locale, localePath('/'))}>
        {t('header.logout')}
      </button>
    </form>
  );
}
