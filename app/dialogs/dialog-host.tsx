import { useEffect } from 'react';
import { useDialogs } from './dialog-context';
import { topmostDialog, visibleDialogIds } from './dialog-store';
import { DIALOG_COMPONENTS } from './registry';
import { useI18n } from '~/i18n';

/** Renders the open dialogs; only the topmost of each kind is visible, the rest stay mounted but hidden. */
export function DialogHost() {
  const { state, close } = useDialogs();
  const { t } = useI18n();
  const visible = visibleDialogIds(state);

  useEffect(() => {
    function onKey(event: KeyboardEvent) {
      const top = topmostDialog(state);
      if (event.key === 'Escape' && top) close(top.id);
    }
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [state, close]);

  return (
    <>
      {state.open.map((entry) => {
        const Component = DIALOG_COMPONENTS[entry.component];
        const isVisible = visible.has(entry.id);
        return (
          <div
            key={entry.id}
            className={`dialog-layer dialog-layer--${entry.type}`}
            hidden={!isVisible}
            data-dialog={entry.component}
          >
            <div className="dialog-overlay" onClick={() => close(entry.id)} />
            <section
              className={`dialog dialog--${entry.type}`}
              role="dialog"
              aria-modal="true"
              aria-label={entry.dialogProps.title ?? entry.component}
            >
              {!entry.dialogProps.preventClose && (
                <button type="button" className="dialog__close" aria-label={t('dialog.close')} onClick={() => close(entry.id)}>
                  ×
                </button>
              )}
              {Component ? (
                <Component
                  {...entry.componentProps}
                  dialogId={entry.id}
                  close={(args?: unknown) => close(entry.id, args, { force: true })}
                />
              ) : (
                <p>{entry.component}</p>
              )}
            </section>
          </div>
        );
      })}
    </>
  );
}
