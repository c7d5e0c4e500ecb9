import type { DialogComponentProps } from './dialog-context';
import { useI18n } from '~/i18n';

/**
 * The demo-mode dialog (spec §2 dialog components): what demo play is before the player leaves
 * real-money play for it. Closes with 'demo' to switch, 'real' to stay.
 */
export function DemoModeDialog({ close }: DialogComponentProps) {
  const { t } = useI18n();
  return (
    <div className="confirm" data-demo-mode-dialog>
      <h2 className="dialog__title">{t('game.demoDialog.title')}</h2>
      <p>{t('game.demoDialog.text')}</p>
      <div className="confirm__actions">
        <button type="button" className="button button--ghost" data-action="stay-real" onClick={() => close('real')}>
          {t('game.demoDialog.stayReal')}
        </button>
        <button type="button" className="button button--primary" data-action="continue-demo" onClick={() => close('demo')}>
          {t('game.demoDialog.continue')}
        </button>
      </div>
    </div>
  );
}
