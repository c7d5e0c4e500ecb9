import { useEffect } from 'react';
import type { DialogComponentProps } from './dialog-context';
import { useI18n } from '~/i18n';

/** The identity-verification dialog: the provider's page in a frame; it closes with the decision. */
export function VerificationDialog({ url, close }: DialogComponentProps & { url: string }) {
  const { t } = useI18n();
  useEffect(() => {
    function onMessage(event: MessageEvent) {
      const data = event.data as { type?: string; status?: string } | null;
      if (event.origin === window.location.origin && data?.type === 'kyc:done') close(data.status);
    }
    window.addEventListener('message', onMessage);
    return () => window.removeEventListener('message', onMessage);
  }, [close]);
  return (
    <div className="verification-dialog">
      <h2 className="dialog__title">{t('verification.title')}</h2>
      <iframe className="verification-dialog__frame" src={url} title={t('verification.title')} />
    </div>
  );
}
