/** /profile/verification: the account's verification state and the way to start or resume it. */
import { useRevalidator } from 'react-router';
import type { Route } from './+types/profile-verification';
import { pageMeta } from '~/seo';
import { useI18n } from '~/i18n';
import { useRootData } from '~/site-data';
import { ProfileLayout } from '~/components/profile-layout';
import { useApiAction } from '~/hooks/use-api-action';
import { useDialogs } from '~/dialogs/dialog-context';
import { useToasts } from '~/toasts/toast-provider';

export const meta: Route.MetaFunction = (args) => pageMeta(args, 'page.profile-index-verification.title');

export function verificationState(account: {
  is_verified: boolean;
  is_on_verification: boolean;
  is_kyc_block_enabled: boolean;
}): 'verified' | 'pending' | 'rejected' | 'none' {
  if (account.is_verified) return 'verified';
  if (account.is_kyc_block_enabled) return 'rejected';
  if (account.is_on_verification) return 'pending';
  return 'none';
}

export default function ProfileVerification() {
  const { t } = useI18n();
  const root = useRootData();
  const { run, isBusy, errors } = useApiAction();
  const { open } = useDialogs();
  const { show } = useToasts();
  const revalidator = useRevalidator();
  const state = root ? verificationState(root.account) : 'none';

  async function start() {
    if ((await run('account.setUserOnVerification', {}, { reload: false })) !== 1) return;
    if (!(await run('verification.createApplicant', {}, { reload: false }))) return;
    const access = await run('verification.getAccessToken', {}, { reload: false });
    if (!access) return;
    const status = await open('verification', { componentProps: { url: access.url } }).closed;
    if (status === 'approved' || status === 'rejected')
      show(t(`verification.result.${status}`), { tone: status === 'approved' ? 'success' : 'error' });
    void revalidator.revalidate();
  }

  return (
    <ProfileLayout page="verification">
      <div className="card form-grid" data-verification={state}>
        <h2 className="card__title">{t(`verification.state.${state}`)}</h2>
        <p className="card__text">{t(`verification.text.${state}`)}</p>
        {state !== 'verified' && (
          <button type="button" className="button button--primary" disabled={isBusy} onClick={() => void start()}>
            {t(state === 'none' ? 'verification.start' : 'verification.again')}
          </button>
        )}
        {errors._form && (
          <p className="field__error" role="alert">
            {errors._form}
          </p>
        )}
      </div>
    </ProfileLayout>
  );
}
