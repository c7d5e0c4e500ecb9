/**
 * Forgotten password: ask for the login and send the e-mailed link (auth.restore); the link
 * opens the sign-in page with reset_token, where a new password is chosen (auth.resetpassword).
 */
import { useState, type FormEvent } from 'react';
import { normalizeLogin, validatePassword, validatePasswordLength, validationMessage } from '#common/validators';
import { useI18n } from '~/i18n';
import { configValue, useRootData } from '~/site-data';
import { useApiAction } from '~/hooks/use-api-action';

export function RestoreForm({ onBack }: { onBack: () => void }) {
  const { t } = useI18n();
  const { run, isBusy, errors } = useApiAction();
  const [isSent, setSent] = useState(false);
  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const login = normalizeLogin(String(new FormData(event.currentTarget).get('login') ?? ''));
    void run('auth.restore', { login }, { reload: false }).then((result) => setSent(result === 1));
  }
  return (
    <form className="auth-form" onSubmit={submit} noValidate data-step="restore">
      <h1 className="auth-form__title">{t('auth.restore.title')}</h1>
      {isSent ? (
        <p className="auth-form__hint" role="status">
          {t('auth.restore.sent')}
        </p>
      ) : (
        <>
          <p className="auth-form__hint">{t('auth.restore.hint')}</p>
          <label className={`field${errors.login ? ' field--invalid' : ''}`} data-field="login">
            <span className="field__label">{t('auth.field.login')}</span>
            <input className="field__input" name="login" autoComplete="username" />
            {errors.login && (
              <span className="field__error" role="alert">
                {errors.login}
              </span>
            )}
          </label>
          {errors._form && (
            <p className="field__error" role="alert">
              {errors._form}
            </p>
          )}
          <button className="button button--primary button--wide" type="submit" disabled={isBusy}>
            {t('auth.restore.submit')}
          </button>
        </>
      )}
      <button type="button" className="link-button" onClick={onBack}>
        {t('auth.restore.back')}
      </button>
    </form>
  );
}

export function ResetPasswordForm({ token, onDone }: { token: string; onDone: () => void }) {
  const { t } = useI18n();
  const root = useRootData();
  const dictionary = configValue<Record<string, string>>(root?.config, 'forms-config.validationDict', {});
  const { run, isBusy, errors, setErrors } = useApiAction();
  const [isDone, setDone] = useState(false);
  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const password = String(form.get('password') ?? '');
    const repeated = String(form.get('password_repeated') ?? '');
    const problem = [validatePassword(password), validatePasswordLength(password)].find((result) => !result.isValid);
    if (problem) return setErrors({ password: validationMessage(problem, dictionary) });
    const mismatch = validatePassword(repeated, password);
    if (!mismatch.isValid) return setErrors({ password_repeated: validationMessage(mismatch, dictionary) });
    void run('auth.resetpassword', { token, password }, { reload: false }).then((result) => setDone(result === 1));
  }
  if (isDone) {
    return (
      <div className="auth-form" data-step="reset-done">
        <p className="auth-form__hint" role="status">
          {t('auth.reset.done')}
        </p>
        <button type="button" className="button button--primary button--wide" onClick={onDone}>
          {t('auth.sign_in.title')}
        </button>
      </div>
    );
  }
  return (
    <form className="auth-form" onSubmit={submit} noValidate data-step="reset">
      <h1 className="auth-form__title">{t('auth.reset.title')}</h1>
      {(['password', 'password_repeated'] as const).map((name) => (
        <label key={name} className={`field${errors[name] ? ' field--invalid' : ''}`} data-field={name}>
          <span className="field__label">{t(name === 'password' ? 'security.newPassword' : 'security.repeatPassword')}</span>
          <input className="field__input" name={name} type="password" autoComplete="new-password" />
          {errors[name] && (
            <span className="field__error" role="alert">
              {errors[name]}
            </span>
          )}
        </label>
      ))}
      {(errors._form || errors.token) && (
        <p className="field__error" role="alert">
          {errors._form ?? errors.token}
        </p>
      )}
      <button className="button button--primary button--wide" type="submit" disabled={isBusy}>
        {t('auth.reset.submit')}
      </button>
    </form>
  );
}
