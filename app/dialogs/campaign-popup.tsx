import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import type { DialogComponentProps } from './dialog-context';
import { useI18n } from '~/i18n';

interface CampaignContent {
  title?: string;
  text?: string;
  button?: string;
  link?: string;
}

/** A campaign popup from content, by sysname; in preview mode it is marked as a preview. */
export function CampaignPopup({ close, sysname, isPreview }: DialogComponentProps & { sysname: string; isPreview?: boolean }) {
  const { t, locale, localePath } = useI18n();
  const [content, setContent] = useState<CampaignContent | null | undefined>(undefined);

  useEffect(() => {
    const url = `/cms/api/popups?locale=${locale}&filters[slug][$eq]=${encodeURIComponent(sysname)}`;
    fetch(url)
      .then((response) => response.json() as Promise<{ data?: { attributes: CampaignContent }[] }>)
      .then((body) => setContent(body.data?.[0]?.attributes ?? null))
      .catch(() => setContent(null));
  }, [locale, sysname]);

  if (content === undefined) return <div className="loader" aria-busy="true" />;
  if (content === null) return <p className="campaign__missing">{t('popup.notFound')}</p>;
  return (
    <div className="campaign">
      {isPreview && <span className="badge">{t('popup.preview')}</span>}
      <h2 className="dialog__title">{content.title}</h2>
      {content.text && <p>{content.text}</p>}
      {content.button && content.link && (
        <Link className="button button--primary" to={localePath(content.link)} onClick={() => close()}>
          {content.button}
        </Link>
      )}
    </div>
  );
}
