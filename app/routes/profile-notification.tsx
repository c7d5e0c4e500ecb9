/** /profile/notification: news and offers on or off per contact (account.changeSubscription). */
import type { Route } from './+types/profile-notification';
import { pageMeta } from '~/seo';
import { useI18n } from '~/i18n';
import { loaderApi } from '~/api/loader-api';
import { loadOrFail } from '~/api/errors';
import { ProfileLayout } from '~/components/profile-layout';
import { useApiAction } from '~/hooks/use-api-action';

export const meta: Route.MetaFunction = (args) => pageMeta(args, 'page.profile-index-notification.title');

export async function loader({ request, context }: Route.LoaderArgs) {
  const profile = await loadOrFail(loaderApi(request, context).call('account.getprofileinfo', { fields: 'contacts' }));
  return { contacts: profile.contacts };
}

export default function ProfileNotification({ loaderData }: Route.ComponentProps) {
  const { t } = useI18n();
  const { run, isBusy, errors } = useApiAction();
  return (
    <ProfileLayout page="notification">
      <div className="card form-grid">
        <p className="card__text">{t('page.profile-index-notification.description')}</p>
        {loaderData.contacts.map((contact) => (
          <label key={contact.contact} className="checkbox" data-contact={contact.contact}>
            <input
              type="checkbox"
              checked={contact.is_subscribed}
              disabled={isBusy}
              onChange={(event) =>
                void run(
                  'account.changeSubscription',
                  { contact: contact.contact, subscription: event.target.checked ? '1' : '0' },
                  { successKey: 'profile.saved' },
                )
              }
            />
            <span>{t(contact.type === 'email' ? 'notification.email' : 'notification.sms', { contact: contact.contact })}</span>
          </label>
        ))}
        {errors._form && (
          <p className="field__error" role="alert">
            {errors._form}
          </p>
        )}
      </div>
    </ProfileLayout>
  );
}
