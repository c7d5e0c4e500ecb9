import { useState } from 'react';
import type { DialogComponentProps } from './dialog-context';
import { AuthForm, type AuthMode, type SecondFactorTicket } from '~/components/auth-form';
import { RestoreForm } from '~/components/restore-form';
import { useI18n } from '~/i18n';

/**
 * The authorization/registration popup: sign in and sign up as tabs, and the forgotten-password
 * step; opened with a second-factor ticket, only the code step of a social or messenger sign-in.
 */
export function AuthPopup({
  mode: initialMode = 'sign_in',
  secondFactor,
  returnTo,
}: DialogComponentProps & { mode?: AuthMode; secondFactor?: SecondFactorTicket; returnTo?: string }) {
  const { t } = useI18n();
  const [mode, setMode] = useState<AuthMode | 'restore'>(initialMode);
  if (secondFactor)
    return (
      <div className="auth-popup">
        <AuthForm mode="sign_in" secondFactor={secondFactor} />
      </div>
    );
  if (mode === 'restore') return <RestoreForm onBack={() => setMode('sign_in')} />;
  return (
    <div className="auth-popup">
      <div className="tabs" role="tablist">
        {(['sign_in', 'sign_up'] as const).map((tab) => (
          <button
            key={tab}
            type="button"
            role="tab"
            aria-selected={mode === tab}
            className="tabs__tab"
            onClick={() => setMode(tab)}
          >
            {t(`auth.${tab}.title`)}
          </button>
        ))}
      </div>
      <AuthForm mode={mode} onForgotPassword={() => setMode('restore')} returnTo={returnTo} />
    </div>
  );
}
