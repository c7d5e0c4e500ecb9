import { Link } from 'react-router';
import { SYSTEM_PAGE_BUTTON_TARGET, systemPageLayout, type SystemPageType } from '#common/system-pages';
import { useI18n } from '~/i18n';
import { configValue, useRootData } from '~/site-data';
import { PageLayout } from '~/layouts/page-layout';

/** The system page illustration; view box 0 0 312 129 (spec §9). */
function SystemIcon({ type }: { type: SystemPageType }) {
  const tone = type === 'paymentSuccess' ? 'var(--success)' : type.startsWith('payment') ? 'var(--warning)' : 'var(--accent)';
  return (
    <svg className="system-page__icon" viewBox="0 0 312 129" aria-hidden="true">
      <rect x="86" y="8" width="140" height="113" rx="20" fill="var(--surface-2)" stroke={tone} strokeWidth="4" />
      <circle cx="156" cy="56" r="26" fill="none" stroke={tone} strokeWidth="6" />
      <path
        d={type === 'paymentSuccess' ? 'M142 56l10 10 18-20' : 'M156 42v18M156 68v4'}
        stroke={tone}
        strokeWidth="6"
        strokeLinecap="round"
        fill="none"
      />
      <rect x="116" y="94" width="80" height="8" rx="4" fill={tone} opacity=".5" />
    </svg>
  );
}

/**
 * A system page (spec §2): header, description and button from translations; the button goes
 * where the spec says, or is absent. The pending payment page shows a loader instead of the
 * icon. As an error page (isFatal) it brings its own layout.
 */
export function SystemPage({ type, isFatal = false, detail }: { type: SystemPageType; isFatal?: boolean; detail?: string }) {
  const { t, localePath } = useI18n();
  const root = useRootData();
  const target = SYSTEM_PAGE_BUTTON_TARGET[type];
  // In the empty layout there is no header, so the page carries the site's logo itself.
  const isBare = systemPageLayout(type) === 'empty';
  const page = (
    <section className={`system-page system-page--${type}`} data-system-page={type}>
      {isBare && (
        <img
          className="system-page__logo"
          src={configValue(root?.config, 'prazer-config.logo', '/brand/logo.svg')}
          alt={root?.site.name ?? ''}
          height={36}
        />
      )}
      {type === 'paymentPending' ? (
        <div className="loader loader--large" role="progressbar" aria-label={t('system.loading')} />
      ) : (
        <SystemIcon type={type} />
      )}
      <h1 className="system-page__header">{t(`system.${type}.header`)}</h1>
      <p className="system-page__description">{t(`system.${type}.description`)}</p>
      {detail && <p className="system-page__detail">{detail}</p>}
      {target && (
        <Link className="button button--primary" to={localePath(target)}>
          {t(`system.${type}.button`)}
        </Link>
      )}
    </section>
  );
  return isFatal ? <PageLayout layout={systemPageLayout(type)}>{page}</PageLayout> : page;
}
