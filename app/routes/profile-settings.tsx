/** /profile/settings: personal data (spec §3), contacts with confirmation codes, fake name and language. */
import { useState, type FormEvent } from 'react';
import type { Route } from './+types/profile-settings';
import type { ProfileInfo } from '#common/contract';
import { localeCookie, LOCALE_INFO, localizePath, stripLocalePrefix, type Locale } from '#common/locale';
import { pageMeta } from '~/seo';
import { useI18n } from '~/i18n';
import { useRootData } from '~/site-data';
import { loaderApi } from '~/api/loader-api';
import { loadOrFail } from '~/api/errors';
import { ProfileLayout } from '~/components/profile-layout';
import { useApiAction } from '~/hooks/use-api-action';
import { browserApi } from '~/api/client';

export const meta: Route.MetaFunction = (args) => pageMeta(args, 'page.profile-index-settings.title');

export async function loader({ request, context }: Route.LoaderArgs) {
  return {
    profile: await loadOrFail(loaderApi(request, context).call('account.getprofileinfo', { fields: 'contacts,document' })),
  };
}

const PROFILE_FIELDS = ['first_name', 'last_name', 'birth_date', 'address', 'home_town', 'postcode', 'country'] as const;

function PersonalData({ profile }: { profile: ProfileInfo }) {
  const { t } = useI18n();
  const { run, isBusy, errors } = useApiAction();
  function save(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const params = Object.fromEntries(
      [...form.entries()].map(([key, value]) => [key, String(value)]).filter(([, value]) => value !== ''),
    );
    void run('account.saveProfileInfo', params, { successKey: 'profile.saved' });
  }
  return (
    <form className="card form-grid" onSubmit={save} noValidate data-form="profile">
      <h2 className="card__title">{t('profile.personal')}</h2>
      {PROFILE_FIELDS.map((name) => (
        <label key={name} className={`field${errors[name] ? ' field--invalid' : ''}`} data-field={name}>
          <span className="field__label">{t(`profile.field.${name}`)}</span>
          <input
            className="field__input"
            name={name}
            defaultValue={profile[name]}
            placeholder={name === 'birth_date' ? 'dd.mm.yyyy' : undefined}
          />
          {errors[name] && (
            <span className="field__error" role="alert">
              {errors[name]}
            </span>
          )}
        </label>
      ))}
      <label className="field" data-field="sex">
        <span className="field__label">{t('profile.field.sex')}</span>
        <select className="field__input" name="sex" defaultValue={String(profile.sex)}>
          {['0', '1', '2'].map((value) => (
            <option key={value} value={value}>
              {t(`profile.sex.${value}`)}
            </option>
          ))}
        </select>
      </label>
      <label className={`field${errors.document_number ? ' field--invalid' : ''}`} data-field="document_number">
        <span className="field__label">{t('profile.field.document_number')}</span>
        <input className="field__input" name="document_number" defaultValue={profile.document.number} />
        {errors.document_number && (
          <span className="field__error" role="alert">
            {errors.document_number}
          </span>
        )}
      </label>
      {errors._form && (
        <p className="field__error" role="alert">
          {errors._form}
        </p>
      )}
      <button className="button button--primary" type="submit" disabled={isBusy}>
        {t('profile.save')}
      </button>
    </form>
  );
}

function ContactRow({ contact }: { contact: ProfileInfo['contacts'][number] }) {
  const { t } = useI18n();
  const { run, isBusy, errors } = useApiAction();
  const [isCodeSent, setCodeSent] = useState(false);
  const [code, setCode] = useState('');
  return (
    <li className="contact" data-contact={contact.contact}>
      <div className="contact__value">
        <strong>{contact.contact}</strong>
        <span className={`badge ${contact.is_confirmed ? 'badge--ok' : 'badge--warn'}`}>
          {t(contact.is_confirmed ? 'profile.contact.confirmed' : 'profile.contact.unconfirmed')}
        </span>
      </div>
      <label className="checkbox">
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
        <span>{t('profile.contact.subscribed')}</span>
      </label>
      {!contact.is_confirmed && !isCodeSent && (
        <button
          type="button"
          className="button button--ghost"
          disabled={isBusy}
          onClick={() =>
            void run(
              'account.sendconfirmationtocontact',
              { contact: contact.contact },
              { successKey: 'profile.contact.codeSent', reload: false },
            ).then((result) => setCodeSent(result === 1))
          }
        >
          {t('profile.contact.sendCode')}
        </button>
      )}
      {!contact.is_confirmed && isCodeSent && (
        <form
          className="contact__confirm"
          onSubmit={(event) => {
            event.preventDefault();
            void run(
              'account.confirmContact',
              { contact: contact.contact, code },
              { successKey: 'profile.contact.confirmedToast' },
            );
          }}
        >
          <label className={`field${errors.code ? ' field--invalid' : ''}`} data-field="code">
            <span className="field__label">{t('auth.field.code')}</span>
            <input
              className="field__input field__input--code"
              name="code"
              inputMode="numeric"
              maxLength={6}
              value={code}
              onChange={(event) => setCode(event.target.value)}
            />
            {errors.code && (
              <span className="field__error" role="alert">
                {errors.code}
              </span>
            )}
          </label>
          <button className="button button--primary" type="submit" disabled={isBusy}>
            {t('profile.contact.confirm')}
          </button>
        </form>
      )}
      {errors._form && (
        <p className="field__error" role="alert">
          {errors._form}
        </p>
      )}
    </li>
  );
}

function Contacts({ contacts }: { contacts: ProfileInfo['contacts'] }) {
  const { t } = useI18n();
  const { run, isBusy, errors } = useApiAction();
  function add(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const contact = String(new FormData(form).get('contact') ?? '');
    void run('account.addcontact', { contact }, { successKey: 'profile.saved' }).then((result) => result === 1 && form.reset());
  }
  return (
    <div className="card" data-form="contacts">
      <h2 className="card__title">{t('profile.contacts')}</h2>
      <ul className="contacts">
        {contacts.map((contact) => (
          <ContactRow key={contact.contact} contact={contact} />
        ))}
      </ul>
      <form className="inline-form" onSubmit={add} noValidate>
        <label className={`field${errors.contact ? ' field--invalid' : ''}`} data-field="contact">
          <span className="field__label">{t('profile.contact.add')}</span>
          <input className="field__input" name="contact" placeholder="name@example.com / +39…" />
          {errors.contact && (
            <span className="field__error" role="alert">
              {errors.contact}
            </span>
          )}
        </label>
        <button className="button button--ghost" type="submit" disabled={isBusy}>
          {t('profile.contact.addButton')}
        </button>
      </form>
    </div>
  );
}

function AccountPreferences({ fakename }: { fakename: string }) {
  const { t, locale } = useI18n();
  const root = useRootData();
  const { run, isBusy, errors } = useApiAction();
  async function changeLocale(next: Locale) {
    // Spec §4: saved to the account, the cookie set, and the data fetched again (a full load).
    await browserApi(locale).call('account.changelocale', { locale: next });
    document.cookie = localeCookie(next, window.location.protocol === 'https:');
    window.location.assign(localizePath(stripLocalePrefix(window.location.pathname), next));
  }
  return (
    <div className="card form-grid" data-form="preferences">
      <h2 className="card__title">{t('profile.preferences')}</h2>
      <form
        className="inline-form"
        onSubmit={(event) => {
          event.preventDefault();
          void run(
            'account.changefakename',
            { fakename: String(new FormData(event.currentTarget).get('fakename') ?? '') },
            { successKey: 'profile.saved' },
          );
        }}
        noValidate
      >
        <label className={`field${errors.fakename ? ' field--invalid' : ''}`} data-field="fakename">
          <span className="field__label">{t('profile.field.fakename')}</span>
          <input className="field__input" name="fakename" defaultValue={fakename} />
          {errors.fakename && (
            <span className="field__error" role="alert">
              {errors.fakename}
            </span>
          )}
        </label>
        <button className="button button--ghost" type="submit" disabled={isBusy}>
          {t('profile.save')}
        </button>
      </form>
      <label className="field" data-field="locale">
        <span className="field__label">{t('header.language')}</span>
        <select className="field__input" value={locale} onChange={(event) => void changeLocale(event.target.value as Locale)}>
          {(root?.site.locales ?? [locale]).map((code) => (
            <option key={code} value={code}>
              {LOCALE_INFO[code].name}
            </option>
          ))}
        </select>
      </label>
    </div>
  );
}

export default function ProfileSettings({ loaderData }: Route.ComponentProps) {
  const { profile } = loaderData;
  return (
    <ProfileLayout page="settings">
      <PersonalData profile={profile} />
      <Contacts contacts={profile.contacts} />
      <AccountPreferences fakename={profile.fakename} />
    </ProfileLayout>
  );
}
