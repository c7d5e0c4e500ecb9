/**
 * The signed-in player's balances (spec §3), refreshed as the balance-refresh settings say
 * (spec §9): on an interval that stops when the player is idle, and/or after clicks with a delay
 * between requests. Only while signed in (spec §6).
 */
import { createContext, useCallback, useContext, useEffect, useRef, useState, type ReactNode } from 'react';
import type { AccountInfo } from '#common/api-contract';
import { isAuthenticated } from '#common/api-contract';
import { browserApi } from '~/api/client';
import { useI18n } from '~/i18n';
import { configValue, useRootData } from '~/site-data';
import { balanceRefreshSettings, shouldPollBalance, shouldRefreshOnClick, type BalanceRefreshSettings } from '~/session-timers';

type Balances = AccountInfo['balances'];

const BalanceContext = createContext<{ balances: Balances | null; refresh: () => Promise<void> }>({
  balances: null,
  refresh: async () => undefined,
});

export function BalanceProvider({ children }: { children: ReactNode }) {
  const root = useRootData();
  const { locale } = useI18n();
  const isSignedIn = isAuthenticated(root?.account);
  const [balances, setBalances] = useState<Balances | null>(root?.account.balances ?? null);
  const lastRequest = useRef(0);
  const lastActivity = useRef(Date.now());
  const settings = balanceRefreshSettings(
    configValue<Partial<BalanceRefreshSettings> | undefined>(
      root?.config,
      'prazer-config.functionalSettings.settingsForUpdBalance',
      undefined,
    ),
  );

  useEffect(() => setBalances(root?.account.balances ?? null), [root?.account.balances]);

  const refresh = useCallback(async () => {
    if (!isSignedIn) return;
    lastRequest.current = Date.now();
    try {
      setBalances(await browserApi(locale).call('account.getBalance'));
    } catch {
      // A failed refresh keeps the last known balances.
    }
  }, [isSignedIn, locale]);

  useEffect(() => {
    if (!isSignedIn) return;
    const onActivity = () => {
      lastActivity.current = Date.now();
    };
    const onClick = () => {
      onActivity();
      if (shouldRefreshOnClick(settings, Date.now(), lastRequest.current)) void refresh();
    };
    const timer = settings.isEnabledInterval
      ? setInterval(
          () => shouldPollBalance(settings, Date.now(), lastActivity.current) && void refresh(),
          settings.countSecondsForInterval * 1000,
        )
      : undefined;
    window.addEventListener('click', onClick, { capture: true });
    window.addEventListener('keydown', onActivity, { capture: true });
    return () => {
      clearInterval(timer);
      window.removeEventListener('click', onClick, { capture: true });
      window.removeEventListener('keydown', onActivity, { capture: true });
    };
    // The settings object is rebuilt each render; its values are what matter.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [isSignedIn, refresh, JSON.stringify(settings)]);

  return <BalanceContext.Provider value={{ balances, refresh }}>{children}</BalanceContext.Provider>;
}

export function useBalances() {
  return useContext(BalanceContext);
}
