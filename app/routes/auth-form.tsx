/** /forms/sign_in and /forms/sign_up: the auth forms on a page of their own, in the empty layout. */
import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import type { Route } from './+types/auth-form';
import { parseRouteName } from '#common/locale';
import { pageMeta } from '~/seo';
import { AuthForm } from '~/components/auth-form';
import { ResetPasswordForm, RestoreForm } from '~/components/restore-form';
import { useCurrentRoute } from '~/route-info';
import { useI18n } from '~/i18n';

export const meta: Route.MetaFunction = (args) => {
  const leaf = args.matches[args.matches.length - 1];
  return pageMeta(args, parseRouteName(leaf?.id ?? '').name === 'forms-sign_up' ? 'auth.sign_up.title' : 'auth.sign_in.title');
};

export default function AuthFormPage() {
  const { name } = useCurrentRoute();
  const { t, localePath } = useI18n();
  const [search, setSearch] = useSearchParams();
  const resetToken = search.get('reset_token');
  const [isRestoring, setRestoring] = useState(false);
  const mode = name === 'forms-sign_up' ? 'sign_up' : 'sign_in';
  const form = resetToken ? (
    <ResetPasswordForm token={resetToken} onDone={() => setSearch({}, { replace: true })} />
  ) : isRestoring ? (
    <RestoreForm onBack={() => setRestoring(false)} />
  ) : (
    <AuthForm mode={mode} onForgotPassword={() => setRestoring(true)} />
  );
  return (
    <div className="auth-page">
      <Link to={localePath('/')} className="auth-page__logo">
        <img src="/brand/logo.svg" alt="" height={40} />
      </Link>
      <div className="auth-page__card">{form}</div>
      {!resetToken && (
        <Link className="auth-page__switch" to={localePath(mode === 'sign_up' ? '/forms/sign_in' : '/forms/sign_up')}>
          {t(mode === 'sign_up' ? 'auth.switch.toSignIn' : 'auth.switch.toSignUp')}
        </Link>
      )}
    </div>
  );
}
