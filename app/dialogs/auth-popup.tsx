import { useState } from 'react';
import type { DialogComponentProps } from './registry';
import { AuthForm, type AuthMode } from '~/components/auth-form';
import { RestoreForm } from '~/components/restore-form';
import { useI18n } from '~/i18n';

/** The authorization/registration popup: sign in and sign up as tabs, and the forgotten-password step. */
export function AuthPopup({ mode: initialMode = 'sign_in' }: DialogComponentProps & { mode?: AuthMode }) {
  const { t } = useI18n();
  const [mode, setMode] = useState<AuthMode | 'restore'>(initialMode);
  if (mode === 'restore') return <RestoreForm onBack={() => setMode('sign_in')} />;
  return (
    <div className="auth-popup">
      <div className="tabs" role="tablist">
        {(['sign_in', 'sign_up'] as const).map((tab) => (
          <button key={tab} type="button" role="tab" aria-selected={mode === tab} className="tabs__tab" onClick={() => setMode(tab)}>
            {t(`auth.${tab}.title`)}
          </button>
        ))}
      </div>
      <AuthForm mode={mode} onForgotPassword={() => setMode('restore')} />
    </div>
  );
}
