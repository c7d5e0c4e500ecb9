import { useEffect, useState } from 'react';
import type { DialogComponentProps } from './dialog-context';
import { useI18n } from '~/i18n';

/** The idle-logout warning (spec §4): no close button, a countdown of the seconds left. */
export function IdleWarning({ countdownS }: DialogComponentProps & { countdownS: number }) {
  const { t, tc } = useI18n();
  const [left, setLeft] = useState(countdownS);
  useEffect(() => {
    const timer = setInterval(() => setLeft((value) => Math.max(0, value - 1)), 1000);
    return () => clearInterval(timer);
  }, []);
  return (
    <div className="idle-warning" data-idle-warning>
      <h2 className="dialog__title">{t('idle.title')}</h2>
      <p>{tc('idle.text', left)}</p>
      <p className="idle-warning__count" aria-live="polite" data-seconds={left}>
        {left}
      </p>
      <p className="card__text">{t('idle.hint')}</p>
    </div>
  );
}
