import { useI18n } from '~/i18n';
import { useRootData } from '~/site-data';

/**
 * A demo site says so on every page (issue 11): its payments, identity checks and sign-ins are
 * sandboxes with published keys, so a player must never take it for a real casino. A strip in the
 * page flow above the header: it scrolls away and never covers the navigation.
 */
export function DemoRibbon({ isCompact = false }: { isCompact?: boolean }) {
  const { t } = useI18n();
  if (!useRootData()?.site.isDemo) return null;
  // The game page sizes its frame to the window: there the ribbon keeps to one short line.
  return (
    <div
      className={`demo-ribbon${isCompact ? ' demo-ribbon--compact' : ''}`}
      role="note"
      title={isCompact ? t('site.demo.text') : undefined}
      data-demo-ribbon
    >
      <svg className="demo-ribbon__icon" viewBox="0 0 16 16" width="16" height="16" aria-hidden="true">
        <path d="M8 1 15 14H1z" fill="none" stroke="currentColor" strokeWidth="1.6" strokeLinejoin="round" />
        <path d="M8 6v4M8 11.6v.4" stroke="currentColor" strokeWidth="1.6" strokeLinecap="round" />
      </svg>
      <strong className="demo-ribbon__label">{t('site.demo.label')}</strong>
      {!isCompact && <span className="demo-ribbon__text">{t('site.demo.text')}</span>}
    </div>
  );
}
