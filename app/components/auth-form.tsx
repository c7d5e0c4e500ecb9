/**
 * Sign-in and sign-up (spec §2, §4, §5), driven by the auth and form configuration: fields,
 * promo code, terms and notify checkboxes with their defaults, loyalty character, currency choice. Fields are
 * checked with the shared validators (eagerly or on submit, as configured) and the server's
 * answer is shown on the field it names. A sign-in the server answers with "two-factor already
 * enabled" moves to the 6-digit code step, keeping login and password until it succeeds.
 */
import { useEffect, useState, type FormEvent } from 'react';
import type { LoyaltyCharacter } from '#common/loyalty-contract';
import { isApiError } from '#common/errors';
import {
  normalizeLogin,
  validateCheckbox,
  validateCode,
  validateEmail,
  validatePassword,
  validatePasswordLength,
  validatePhone,
  validationMessage,
  type ValidationResult,
} from '#common/validators';
import { useI18n } from '~/i18n';
import { browserApi } from '~/api/client';
import { configValue, useRootData } from '~/site-data';
import { PROMO_CODE_KEY } from '~/hooks/use-address-popups';
import { markSignedIn } from '~/sign-in-events';
import { signInLanding, signUpLanding } from '#common/sign-in-return';
import { fullPageLoad } from '#common/back-url';
import { formatDate, formatTime } from '~/format';
import { SocialButtons } from '~/components/social-buttons';
import { CharacterPicker } from '~/components/character-picker';

export type AuthMode = 'sign_in' | 'sign_up';

interface CheckboxConfig {
  isActive?: boolean;
  defaultValue?: boolean;
}

interface RegistrationConfig {
  showCharacterSelect?: boolean;
  showPromocode?: boolean;
  showPromoFieldByDefault?: boolean;
  terms?: CheckboxConfig;
  notify?: CheckboxConfig;
}

type Errors = Partial<Record<string, string>>;

function validateLogin(value: string): ValidationResult {
  const login = normalizeLogin(value);
  return login.includes('@') ? validateEmail(login) : validatePhone(login);
}

function firstFailure(...results: ValidationResult[]): ValidationResult {
  return results.find((result) => !result.isValid) ?? { isValid: true };
}

/**
 * Spec §4 registration: "activates a stored promo code if present". The account exists either
 * way: a code that does not work must not undo the sign-up, so its failure is only forgotten.
 */
async function activateStoredPromoCode(api: ReturnType<typeof browserApi>, code: string | undefined): Promise<void> {
  if (!code?.trim()) return;
  try {
    await api.call('campaigns.activateOffer', { promo_code: code.trim() });
    localStorage.removeItem(PROMO_CODE_KEY);
  } catch {
    // The player can enter the code again later; the registration stands.
  }
}

/** The loyalty characters a new player may pick (public list); none when the form shows no select. */
function useRegistrationCharacters(isShown: boolean): LoyaltyCharacter[] {
  const { locale } = useI18n();
  const [characters, setCharacters] = useState<LoyaltyCharacter[]>([]);
  useEffect(() => {
    if (!isShown) return;
    let isCurrent = true;
    browserApi(locale)
      .call('loyalty.getcharacters')
      .then((list) => isCurrent && setCharacters(list.items))
      // Without the list the form still works: the player picks a character later in the profile.
      .catch(() => undefined);
    return () => {
      isCurrent = false;
    };
  }, [isShown, locale]);
  return characters;
}

/**
 * A social or messenger sign-in of a player with two-factor on ends at the code step: the
 * ticket the server gave stands for the login and password, and `onSignedIn` says where to go.
 */
export interface SecondFactorTicket {
  ticket: string;
  onSignedIn: () => void;
}

/** Leaves for the landing page by a full page load, also when only its hash differs (#real). */
function leaveFor(target: string): void {
  const load = fullPageLoad(target, window.location.href);
  if (load.action === 'reload') {
    window.history.replaceState(window.history.state, '', load.href);
    window.location.reload();
  } else window.location.assign(load.href);
}

export function AuthForm({
  mode,
  onForgotPassword,
  secondFactor,
  returnTo,
}: {
  mode: AuthMode;
  onForgotPassword?: () => void;
  secondFactor?: SecondFactorTicket;
  /** The same-site path to land on after signing in or up (redirectUrl, a game's #real); home without it. */
  returnTo?: string;
}) {
  const { t, locale, localePath } = useI18n();
  const root = useRootData();
  const dictionary = configValue<Record<string, string>>(root?.config, 'forms-config.validationDict', {});
  const isEager = configValue<string>(root?.config, 'forms-config.registrationFormValidationStrategy', 'onSubmit') === 'eager';
  const registration = configValue<RegistrationConfig>(root?.config, 'auth-config.registration', {});
  const currencies = root?.generalInfo.available_currencies ?? [];

  const [values, setValues] = useState<Record<string, string>>(() => ({
    login: '',
    password: '',
    code: '',
    currency: root?.generalInfo.default_currency ?? '',
    promo_code: typeof window === 'undefined' ? '' : (localStorage.getItem(PROMO_CODE_KEY) ?? ''),
  }));
  const [checks, setChecks] = useState({
    terms: registration.terms?.defaultValue ?? false,
    notify: registration.notify?.defaultValue ?? false,
  });
  const [isPromoOpen, setPromoOpen] = useState(Boolean(registration.showPromoFieldByDefault));
  const [errors, setErrors] = useState<Errors>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [isCodeStep, setCodeStep] = useState(secondFactor !== undefined);
  const [isBusy, setBusy] = useState(false);
  const characters = useRegistrationCharacters(mode === 'sign_up' && registration.showCharacterSelect === true);
  const [characterId, setCharacterId] = useState<number | null>(null);
  const chosenCharacter = characterId ?? characters[0]?.id ?? null;

  function check(field: string, value: string, allChecks = checks): ValidationResult {
    if (field === 'login') return validateLogin(value);
    if (field === 'password')
      return mode === 'sign_up'
        ? firstFailure(validatePassword(value), validatePasswordLength(value))
        : firstFailure(validatePasswordLength(value));
    if (field === 'code') return validateCode(value);
    if (field === 'terms') return validateCheckbox(allChecks.terms);
    return { isValid: true };
  }

  function fieldsToCheck(): string[] {
    if (isCodeStep) return ['code'];
    return mode === 'sign_up' && registration.terms?.isActive ? ['login', 'password', 'terms'] : ['login', 'password'];
  }

  function update(field: string, value: string) {
    setValues((current) => ({ ...current, [field]: value }));
    if (isEager || errors[field])
      setErrors((current) => ({ ...current, [field]: validationMessage(check(field, value), dictionary) || undefined }));
  }

  /**
   * A time-out or self-exclusion refuses the sign-in with its kind and end (issue 15: the form
   * said only "Access denied."): the player reads which one and until when.
   */
  function exclusionMessage(errorData: Record<string, unknown> | undefined): string | undefined {
    const kind = errorData?.exclusion;
    if (kind !== 'self_exclusion' && kind !== 'timeout') return undefined;
    const until = typeof errorData?.until === 'string' ? errorData.until : null;
    if (!until) return t('auth.error.selfExcludedPermanent');
    const date = `${formatDate(until)} ${formatTime(until)}`;
    return t(kind === 'timeout' ? 'auth.error.timeout' : 'auth.error.selfExcluded', { date });
  }

  function serverError(error: unknown) {
    if (!isApiError(error)) return setFormError(t('error.UnknownErrorException'));
    const exclusion = error.type === 'AccessDeniedException' ? exclusionMessage(error.errorData) : undefined;
    if (exclusion) return setFormError(exclusion);
    const field = typeof error.errorData?.field === 'string' ? error.errorData.field : undefined;
    const errorType = typeof error.errorData?.errorType === 'string' ? error.errorData.errorType : undefined;
    const text = (errorType && dictionary[errorType]) || t(`error.${error.type}`);
    if (field && field in values) setErrors((current) => ({ ...current, [field]: text }));
    else if (error.type === 'AuthorizationException' && !isCodeStep) setFormError(t('auth.error.credentials'));
    else setFormError(text);
  }

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const found: Errors = {};
    for (const field of fieldsToCheck()) {
      const message = validationMessage(check(field, field === 'terms' ? '' : (values[field] ?? '')), dictionary);
      if (message) found[field] = message;
    }
    setErrors(found);
    setFormError(null);
    if (Object.keys(found).length > 0) return;
    setBusy(true);
    const api = browserApi(locale);
    try {
      if (secondFactor) {
        // The form's rules above have checked the fields it sends.
        await api.call('auth.confirmSecondFactor', { ticket: secondFactor.ticket, code: values.code as string });
        markSignedIn();
        secondFactor.onSignedIn();
      } else if (mode === 'sign_in') {
        await api.call('auth.login', {
          login: normalizeLogin(values.login ?? ''),
          password: values.password as string,
          code: isCodeStep ? values.code : undefined,
        });
        markSignedIn();
        leaveFor(signInLanding(returnTo, localePath('/')));
      } else {
        await api.call('auth.register', {
          login: normalizeLogin(values.login ?? ''),
          password: values.password as string,
          currency: values.currency,
          terms: checks.terms ? '1' : '0',
          notify: checks.notify ? '1' : '0',
          promo_code: values.promo_code || undefined,
          character: chosenCharacter ?? undefined,
        });
        await activateStoredPromoCode(api, values.promo_code);
        markSignedIn();
        leaveFor(signUpLanding(returnTo, localePath('/')));
      }
    } catch (error) {
      const isSecondFactor =
        isApiError(error) && error.type === 'AuthorizationException' && error.errorData?.two_factor !== undefined;
      if (isSecondFactor && error.errorData?.two_factor === 'required') {
        setCodeStep(true);
      } else if (isSecondFactor && error.errorData?.two_factor === 'expired') {
        setFormError(t('auth.twoFactor.expired'));
      } else if (isSecondFactor) {
        setErrors({ code: t('auth.twoFactor.invalid') });
      } else serverError(error);
    } finally {
      setBusy(false);
    }
  }

  const field = (name: string, label: string, input: React.ReactNode) => (
    <label className={`field${errors[name] ? ' field--invalid' : ''}`} data-field={name}>
      <span className="field__label">{label}</span>
      {input}
      {errors[name] && (
        <span className="field__error" role="alert">
          {errors[name]}
        </span>
      )}
    </label>
  );

  if (isCodeStep) {
    return (
      <form className="auth-form" onSubmit={submit} noValidate data-step="two-factor">
        <h1 className="auth-form__title">{t('auth.twoFactor.title')}</h1>
        <p className="auth-form__hint">{t('auth.twoFactor.hint')}</p>
        {field(
          'code',
          t('auth.field.code'),
          <input
            className="field__input field__input--code"
            name="code"
            inputMode="numeric"
            autoComplete="one-time-code"
            maxLength={6}
            value={values.code}
            onChange={(e) => update('code', e.target.value)}
            autoFocus
          />,
        )}
        {formError && (
          <p className="field__error" role="alert">
            {formError}
          </p>
        )}
        <button className="button button--primary button--wide" type="submit" disabled={isBusy}>
          {t('auth.twoFactor.submit')}
        </button>
      </form>
    );
  }

  return (
    <form className="auth-form" onSubmit={submit} noValidate data-mode={mode}>
      <h1 className="auth-form__title">{t(`auth.${mode}.title`)}</h1>
      {field(
        'login',
        t('auth.field.login'),
        <input
          className="field__input"
          name="login"
          autoComplete="username"
          value={values.login}
          onChange={(e) => update('login', e.target.value)}
        />,
      )}
      {field(
        'password',
        t('auth.field.password'),
        <input
          className="field__input"
          name="password"
          type="password"
          autoComplete={mode === 'sign_in' ? 'current-password' : 'new-password'}
          value={values.password}
          onChange={(e) => update('password', e.target.value)}
        />,
      )}
      {mode === 'sign_up' &&
        currencies.length > 1 &&
        field(
          'currency',
          t('auth.field.currency'),
          <select
            className="field__input"
            name="currency"
            value={values.currency}
            onChange={(e) => update('currency', e.target.value)}
          >
            {currencies.map((code) => (
              <option key={code} value={code}>
                {code}
              </option>
            ))}
          </select>,
        )}
      {characters.length > 0 && (
        <CharacterPicker
          characters={characters}
          value={chosenCharacter}
          onChange={setCharacterId}
          label={t('auth.field.character')}
        />
      )}
      {mode === 'sign_up' &&
        registration.showPromocode &&
        (isPromoOpen ? (
          field(
            'promo_code',
            t('auth.field.promoCode'),
            <input
              className="field__input"
              name="promo_code"
              value={values.promo_code}
              onChange={(e) => update('promo_code', e.target.value)}
            />,
          )
        ) : (
          <button type="button" className="link-button" onClick={() => setPromoOpen(true)}>
            {t('auth.promo.open')}
          </button>
        ))}
      {mode === 'sign_up' && registration.terms?.isActive && (
        <label className={`checkbox${errors.terms ? ' field--invalid' : ''}`} data-field="terms">
          <input
            type="checkbox"
            name="terms"
            checked={checks.terms}
            onChange={(e) => {
              const next = { ...checks, terms: e.target.checked };
              setChecks(next);
              if (errors.terms)
                setErrors((c) => ({ ...c, terms: validationMessage(check('terms', '', next), dictionary) || undefined }));
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
      {mode === 'sign_up' && registration.notify?.isActive && (
        <label className="checkbox" data-field="notify">
          <input
            type="checkbox"
            name="notify"
            checked={checks.notify}
            onChange={(e) => setChecks({ ...checks, notify: e.target.checked })}
          />
          <span>{t('auth.field.notify')}</span>
        </label>
      )}
      {formError && (
        <p className="field__error" role="alert" data-form-error>
          {formError}
        </p>
      )}
      <button className="button button--primary button--wide" type="submit" disabled={isBusy}>
        {t(`auth.${mode}.submit`)}
      </button>
      {mode === 'sign_in' && onForgotPassword && (
        <button type="button" className="link-button" onClick={onForgotPassword}>
          {t('auth.restore.open')}
        </button>
      )}
      <SocialButtons mode={mode} returnTo={returnTo} />
    </form>
  );
}
