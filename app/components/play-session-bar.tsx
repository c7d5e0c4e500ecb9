/**
 * Elapsed session time and net position while playing (accounts issue, responsible gaming),
 * shown above the game for a signed-in player. The time ticks every second from the session's
 * start on the server; the net position is refetched whenever the game frame reports a round.
 */
import { useEffect, useState } from 'react';
import { formatMoney, totalBalance } from '#common/money';
import { useBalances } from '~/balance';
import { formatElapsed } from '~/format';
import { useI18n } from '~/i18n';
import { usePlaySession } from '~/hooks/use-play-session';

export function PlaySessionBar() {
  const { t } = useI18n();
  const { summary, refresh } = usePlaySession();
  const { balances } = useBalances();
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

  if (!summary && !balances) return null;
  const net = summary?.net_position;
  const tone = !net ? 'even' : net.amount.startsWith('-') ? 'loss' : net.amount === '0.00' ? 'even' : 'win';
  // Each balance named (issue 15: the page showed two unlabelled numbers, the header's total and
  // the game's real money): the total, the real money the game stakes first, the bonus money.
  const balanceItems = balances
    ? [
        { key: 'total', label: t('cashier.balance.total'), money: totalBalance(balances) },
        { key: 'main', label: t('gamePlay.balance.real'), money: balances.balance_main },
        { key: 'bonus', label: t('gamePlay.balance.bonus'), money: balances.balance_bonus },
      ]
    : [];
  return (
    <dl className="play-session" aria-label={t('rg.session.label')} data-play-session>
      {balanceItems.map((item) => (
        <div key={item.key} className="play-session__item play-session__item--balance" data-balance-row={item.key}>
          <dt>{item.label}</dt>
          <dd data-balance-amount={item.money.amount}>{formatMoney(item.money)}</dd>
        </div>
      ))}
      {summary && net && (
        <>
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
        </>
      )}
    </dl>
  );
}
