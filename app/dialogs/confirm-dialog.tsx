import type { DialogComponentProps } from './dialog-context';
import { useI18n } from '~/i18n';

/** A yes/no question; closes with true on agree and false on cancel. */
export function ConfirmDialog({ close, titleKey, textKey }: DialogComponentProps & { titleKey: string; textKey?: string }) {
  const { t } = useI18n();
  return (
    <div className="confirm">
      <h2 className="dialog__title">{t(titleKey)}</h2>
      {textKey && <p>{t(textKey)}</p>}
      <div className="confirm__actions">
        <button type="button" className="button button--ghost" onClick={() => close(false)}>
          {t('dialog.cancel')}
        </button>
        <button type="button" className="button button--primary" onClick={() => close(true)}>
          {t('dialog.agree')}
        </button>
      </div>
    </div>
  );
}
