import { useEffect, useState } from 'react';
import type { DialogComponentProps } from './dialog-context';
import { useI18n } from '~/i18n';
import { formatElapsed } from '~/format';
import { signOut } from '~/account-actions';
import { formatMoney } from '#common/money';
import { usePlaySession } from '~/hooks/use-play-session';

/** The reality check: how long this session has lasted; play is paused until the player answers. */
export function RealityCheck({ close, sessionStartedAt }: DialogComponentProps & { sessionStartedAt: number }) {
  const { t, locale, localePath } = useI18n();
  const [now, setNow] = useState(Date.now());
  const { summary } = usePlaySession();
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  return (
    <div className="reality-check" data-reality-check>
      <h2 className="dialog__title">{t('rg.realityCheck.dialogTitle')}</h2>
      <p>{t('rg.realityCheck.elapsed', { time: formatElapsed(now - sessionStartedAt) })}</p>
      {summary && (
        <p data-reality-net={summary.net_position.amount}>
          {t('rg.realityCheck.net', { amount: formatMoney(summary.net_position) })}
        </p>
      )}
      <p className="card__text">{t('rg.realityCheck.question')}</p>
      <div className="confirm__actions">
        <button type="button" className="button button--ghost" onClick={() => void signOut(locale, localePath('/'))}>
          {t('header.logout')}
        </button>
        <button type="button" className="button button--primary" onClick={() => close('continue')}>
          {t('rg.realityCheck.continue')}
        </button>
      </div>
    </div>
  );
}
