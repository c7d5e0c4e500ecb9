/**
 * The promo code field (spec §4 promo code; issue 13 "promo code on sign-up and in the cashier"):
 * activates the code and opens the promocode-activated dialog; a failure shows the code table's
 * message (spec §4: the first code in error_data.promo_code, else the invalid-code message). A
 * visitor is asked to sign up first. On /promotions and on the cashier's deposit page.
 */
import { useState, type FormEvent } from 'react';
import { isApiError } from '#common/errors';
import { useI18n } from '~/i18n';
import { browserApi } from '~/api/client';
import { useDialogs } from '~/dialogs/dialog-context';
import { useRootData } from '~/site-data';

export function PromoCodeForm({ className = 'card promo-form' }: { className?: string }) {
  const { t, locale } = useI18n();
  const { open } = useDialogs();
  const root = useRootData();
  const [code, setCode] = useState('');
  const [error, setError] = useState<string>();
  const [isBusy, setBusy] = useState(false);
  const isSignedIn = (root?.account?.uid ?? 0) > 0;

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!isSignedIn) {
      open('auth', { componentProps: { mode: 'sign_up' } });
      return;
    }
    setBusy(true);
    setError(undefined);
    try {
      const activated = await browserApi(locale).call('campaigns.activateOffer', { promo_code: code });
      setCode('');
      open('promocodeActivated', { componentProps: { activation: activated } });
    } catch (failure) {
      const codes = isApiError(failure) ? failure.errorData?.promo_code : undefined;
      const first = Array.isArray(codes) && typeof codes[0] === 'string' ? codes[0] : 'INVALID';
      const key = `promo_code.error.${first}`;
      setError(t(key) === key ? t('promo_code.error.INVALID') : t(key));
    } finally {
      setBusy(false);
    }
  }

  return (
    <form className={className} data-form="promo-code" onSubmit={(event) => void submit(event)} noValidate>
      <label className="field" data-field="promo_code">
        <span className="field__label">{t('promotions.code.label')}</span>
        <input
          name="promo_code"
          value={code}
          autoComplete="off"
          autoCapitalize="characters"
          aria-invalid={error ? true : undefined}
          onChange={(event) => setCode(event.target.value)}
        />
        {error && (
          <span className="field__error" role="alert">
            {error}
          </span>
        )}
      </label>
      <button type="submit" className="button button--primary" disabled={isBusy || code.trim() === ''}>
        {t('promotions.code.activate')}
      </button>
    </form>
  );
}
