/**
 * /unsubscribe (spec §2): opened from the signed link in our e-mails, it asks to confirm (so a
 * mail scanner fetching the link unsubscribes nobody), then shows the unsubscribe system page.
 * Without a link it changes nothing and says so, pointing to the profile's e-mail settings.
 */
import { Form, Link, useActionData, useSearchParams } from 'react-router';
import type { Route } from './+types/system';
import { isApiError } from '#common/errors';
import { pageMeta } from '~/seo';
import { SystemPage } from '~/components/system-page';
import { loaderApi } from '~/api/loader-api';
import { useI18n } from '~/i18n';

export const meta: Route.MetaFunction = (args) => pageMeta(args, 'system.unsubscribe.header');

export async function action({ request, context }: Route.ActionArgs) {
  const form = await request.formData();
  const params = { u: String(form.get('u') ?? ''), c: String(form.get('c') ?? ''), s: String(form.get('s') ?? '') };
  try {
    await loaderApi(request, context).call('account.unsubscribe', params);
    return { isDone: true };
  } catch (error) {
    if (isApiError(error)) return { isDone: false, errorType: error.type };
    throw error;
  }
}

/** The page without a signed link: nothing changed, and where the player chooses what we send. */
function NoUnsubscribeLink() {
  const { t, localePath } = useI18n();
  return (
    <section className="system-page" data-unsubscribe-no-link>
      <h1 className="system-page__header">{t('unsubscribe.noLink.title')}</h1>
      <p className="system-page__description">{t('unsubscribe.noLink.text')}</p>
      <Link className="button button--primary" to={localePath('/profile/notification')}>
        {t('unsubscribe.noLink.button')}
      </Link>
    </section>
  );
}

export default function UnsubscribePage() {
  const { t } = useI18n();
  const [search] = useSearchParams();
  const result = useActionData<typeof action>();
  const link = { u: search.get('u'), c: search.get('c'), s: search.get('s') };
  if (result?.isDone) return <SystemPage type="unsubscribe" />;
  // Without a signed link nothing can change: say so, not "you are unsubscribed" (issue 15).
  if (!link.u || !link.c || !link.s) return <NoUnsubscribeLink />;
  return (
    <section className="system-page" data-unsubscribe-confirm>
      <h1 className="system-page__header">{t('unsubscribe.confirm.title')}</h1>
      <p className="system-page__description">{t('unsubscribe.confirm.text', { contact: link.c })}</p>
      {result?.errorType && (
        <p className="field__error" role="alert">
          {t('unsubscribe.invalid')}
        </p>
      )}
      <Form method="post">
        {Object.entries(link).map(([name, value]) => (
          <input key={name} type="hidden" name={name} value={value ?? ''} />
        ))}
        <button className="button button--primary" type="submit">
          {t('unsubscribe.confirm.button')}
        </button>
      </Form>
    </section>
  );
}
