import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import type { PopupView } from '#common/contract';
import type { DialogComponentProps } from './dialog-context';
import { useI18n } from '~/i18n';

interface CampaignContent {
  title?: string;
  text?: string;
  button?: string;
  link?: string;
}

/**
 * A campaign popup: the one popups.get answered for this player (issue 13), or one from content
 * by sysname (spec §2 address popup=…; in preview mode it is marked as a preview).
 */
export function CampaignPopup({
  close,
  sysname,
  isPreview,
  popup,
}: DialogComponentProps & { sysname?: string; isPreview?: boolean; popup?: PopupView }) {
  const { t, locale, localePath } = useI18n();
  const [fetched, setContent] = useState<CampaignContent | null | undefined>(undefined);
  const content = popup
    ? { title: popup.title, text: popup.text, button: popup.button ?? undefined, link: popup.link ?? undefined }
    : fetched;

  useEffect(() => {
    if (popup || !sysname) return;
    const url = `/cms/api/popups?locale=${locale}&filters[slug][$eq]=${encodeURIComponent(sysname)}`;
    fetch(url)
      .then((response) => response.json() as Promise<{ data?: { attributes: CampaignContent }[] }>)
      .then((body) => setContent(body.data?.[0]?.attributes ?? null))
      .catch(() => setContent(null));
  }, [locale, sysname, popup]);

  if (content === undefined) return <div className="loader" aria-busy="true" />;
  if (content === null) return <p className="campaign__missing">{t('popup.notFound')}</p>;
  return (
    <div className="campaign" data-dialog="campaign" data-popup={popup?.sysname ?? sysname}>
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
