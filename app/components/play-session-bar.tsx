/**
 * Elapsed session time and net position while playing (accounts issue, responsible gaming),
 * shown above the game for a signed-in player. The time ticks every second from the session's
 * start on the server; the net position is refetched whenever the game frame reports a round.
 */
import { useEffect, useState } from 'react';
import { formatMoney } from '#common/money';
import { formatElapsed } from '~/format';
import { useI18n } from '~/i18n';
import { usePlaySession } from '~/hooks/use-play-session';

export function PlaySessionBar() {
  const { t } = useI18n();
  const { summary, refresh } = usePlaySession();
  const [now, setNow] = useState(() => Date.now());

  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);

  useEffect(() => {
    const onMessage = (event: MessageEvent) => {
      if (event.origin === window.location.origin && (event.data as { type?: string } | null)?.type === 'game-balance-changed')
        void refresh();
    };
    window.addEventListener('message', onMessage);
    return () => window.removeEventListener('message', onMessage);
  }, [refresh]);

  if (!summary) return null;
  const net = summary.net_position;
  const tone = net.amount.startsWith('-') ? 'loss' : net.amount === '0.00' ? 'even' : 'win';
  return (
    <dl className="play-session" aria-label={t('rg.session.label')} data-play-session>
      <div className="play-session__item">
        <dt>{t('rg.session.elapsed')}</dt>
        <dd data-session-elapsed>{formatElapsed(now - Date.parse(summary.session_started_at))}</dd>
      </div>
      <div className="play-session__item">
        <dt>{t('rg.session.net')}</dt>
        <dd className={`play-session__net is-${tone}`} data-session-net={net.amount}>
          {formatMoney(net)}
        </dd>
      </div>
    </dl>
  );
}
