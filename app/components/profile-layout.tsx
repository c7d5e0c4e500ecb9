import type { ReactNode } from 'react';
import { NavLink } from 'react-router';
import { useI18n } from '~/i18n';
import { BalanceDetalization, useDetalizationPlace } from './balance-detalization';

/** Profile pages of spec §2, in the order of the profile menu. */
export const PROFILE_PAGES = [
  'settings',
  'security',
  'verification',
  'responsible-game',
  'bets',
  'loyalty',
  'bonuses',
  'cashback',
  'notification',
] as const;

export function ProfileLayout({ page, children }: { page: (typeof PROFILE_PAGES)[number]; children: ReactNode }) {
  const { t, localePath } = useI18n();
  // Spec §3 detalization: the balance breakdown shows in the profile menu when configured so.
  const isDetalizationHere = useDetalizationPlace() === 'profile';
  return (
    <div className="profile">
      <nav className="profile__menu" aria-label={t('header.profile')}>
        {isDetalizationHere && <BalanceDetalization className="detalization--profile" />}
        {PROFILE_PAGES.map((name) => (
          <NavLink key={name} to={localePath(`/profile/${name}`)} className="profile__link">
            {t(`page.profile-index-${name}.title`)}
          </NavLink>
        ))}
      </nav>
      <section className="profile__content" data-profile-page={page}>
        <h1 className="page__title">{t(`page.profile-index-${page}.title`)}</h1>
        {children}
      </section>
    </div>
  );
}
