/** /profile/security: change the password; set up, confirm or turn off two-factor authentication. */
import type { ParamsInput, TwoFactorSetup } from '#common/contract';
import { useState, type FormEvent } from 'react';
import type { Route } from './+types/profile-security';
import { pageMeta } from '~/seo';
import { useI18n } from '~/i18n';
import { useRootData } from '~/site-data';
import { ProfileLayout } from '~/components/profile-layout';
import { useApiAction } from '~/hooks/use-api-action';

export const meta: Route.MetaFunction = (args) => pageMeta(args, 'page.profile-index-security.title');

function Field({
  name,
  label,
  error,
  type = 'text',
  ...rest
}: { name: string; label: string; error?: string; type?: string } & React.InputHTMLAttributes<HTMLInputElement>) {
  return (
    <label className={`field${error ? ' field--invalid' : ''}`} data-field={name}>
      <span className="field__label">{label}</span>
      <input className="field__input" name={name} type={type} {...rest} />
      {error && (
        <span className="field__error" role="alert">
          {error}
        </span>
      )}
    </label>
  );
}

function ChangePassword() {
  const { t } = useI18n();
  const { run, isBusy, errors } = useApiAction();
  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const params = Object.fromEntries([...new FormData(form).entries()].map(([key, value]) => [key, String(value)]));
    // The form's fields are the method's parameters; the server checks each one.
    void run('account.changepassword', params as ParamsInput<'account.changepassword'>, {
      successKey: 'security.passwordChanged',
    }).then((result) => result === 1 && form.reset());
  }
  return (
    <form className="card form-grid" onSubmit={submit} noValidate data-form="password">
      <h2 className="card__title">{t('security.password')}</h2>
      <Field
        name="old_password"
        type="password"
        autoComplete="current-password"
        label={t('security.oldPassword')}
        error={errors.old_password}
      />
      <Field
        name="new_password"
        type="password"
        autoComplete="new-password"
        label={t('security.newPassword')}
        error={errors.new_password}
      />
      <Field
        name="new_password_repeated"
        type="password"
        autoComplete="new-password"
        label={t('security.repeatPassword')}
        error={errors.new_password_repeated}
      />
      {errors._form && (
        <p className="field__error" role="alert">
          {errors._form}
        </p>
      )}
      <button className="button button--primary" type="submit" disabled={isBusy}>
        {t('security.changePassword')}
      </button>
    </form>
  );
}

function TwoFactor({ isEnabled }: { isEnabled: boolean }) {
  const { t } = useI18n();
  const { run, isBusy, errors } = useApiAction();
  const [setup, setSetup] = useState<TwoFactorSetup | null>(null);
  const [code, setCode] = useState('');

  async function start() {
    const result = await run('account.changeTwoFactorAuth', { enable: '1' }, { reload: false });
    if (typeof result === 'object') setSetup(result);
  }
  async function confirm(event: FormEvent) {
    event.preventDefault();
    // A full reload: the header and account info change with two-factor on.
    if ((await run('account.confirmTwoFactorAuth', { code }, { successKey: 'security.twoFactorOn' })) === 1) setSetup(null);
  }
  async function disable(event: FormEvent) {
    event.preventDefault();
    if ((await run('account.changeTwoFactorAuth', { enable: '0', code }, { successKey: 'security.twoFactorOff' })) === 1)
      setCode('');
  }

  return (
    <div className="card form-grid" data-form="two-factor" data-enabled={isEnabled}>
      <h2 className="card__title">{t('security.twoFactor')}</h2>
      <p className="card__text">{t(isEnabled ? 'security.twoFactorEnabled' : 'security.twoFactorDisabled')}</p>
      {!isEnabled && !setup && (
        <button type="button" className="button button--primary" disabled={isBusy} onClick={() => void start()}>
          {t('security.enable')}
        </button>
      )}
      {!isEnabled && setup && (
        <form className="form-grid" onSubmit={(event) => void confirm(event)} noValidate>
          <p className="card__text">{t('security.scan')}</p>
          <div className="qr" dangerouslySetInnerHTML={{ __html: setup.qr_svg }} />
          <p className="card__text">
            {t('security.manualKey')} <code data-secret>{setup.secret}</code>
          </p>
          <Field
            name="code"
            inputMode="numeric"
            maxLength={6}
            label={t('auth.field.code')}
            value={code}
            onChange={(event) => setCode(event.target.value)}
            error={errors.code}
          />
          {errors._form && (
            <p className="field__error" role="alert">
              {errors._form}
            </p>
          )}
          <button className="button button--primary" type="submit" disabled={isBusy}>
            {t('security.confirm')}
          </button>
        </form>
      )}
      {isEnabled && (
        <form className="form-grid" onSubmit={(event) => void disable(event)} noValidate>
          <Field
            name="code"
            inputMode="numeric"
            maxLength={6}
            label={t('auth.field.code')}
            value={code}
            onChange={(event) => setCode(event.target.value)}
            error={errors.code}
          />
          {errors._form && (
            <p className="field__error" role="alert">
              {errors._form}
            </p>
          )}
          <button className="button button--ghost" type="submit" disabled={isBusy}>
            {t('security.disable')}
          </button>
        </form>
      )}
    </div>
  );
}

export default function ProfileSecurity() {
  const root = useRootData();
  return (
    <ProfileLayout page="security">
      <ChangePassword />
      <TwoFactor isEnabled={root?.account.two_factor_auth ?? false} />
    </ProfileLayout>
  );
}
