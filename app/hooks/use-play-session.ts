/**
 * The signed-in player's play session (accounts issue, responsible gaming: elapsed session time
 * and net position shown while playing), from responsibleGaming.getSessionSummary. The summary
 * is fetched again after every round a game reports, so the net position follows play.
 */
import { useCallback, useEffect, useState } from 'react';
import { isAuthenticated } from '#common/api-contract';
import type { Money } from '#common/money';
import { browserApi } from '~/api/client';
import { useI18n } from '~/i18n';
import { useRootData } from '~/site-data';

export interface PlaySessionSummary {
  session_started_at: string;
  elapsed_seconds: number;
  staked: Money;
  returned: Money;
  net_position: Money;
  game_transfers: number;
}

export function usePlaySession(): { summary: PlaySessionSummary | null; refresh: () => Promise<void> } {
  const root = useRootData();
  const { locale } = useI18n();
  const isSignedIn = isAuthenticated(root?.account);
  const [summary, setSummary] = useState<PlaySessionSummary | null>(null);

  const refresh = useCallback(async () => {
    if (!isSignedIn) return setSummary(null);
    try {
      setSummary(await browserApi(locale).call<PlaySessionSummary>('GET', 'responsibleGaming.getSessionSummary'));
    } catch {
      // The figures are a courtesy while playing: a failed refresh keeps the last ones shown.
    }
  }, [isSignedIn, locale]);

  useEffect(() => {
    void refresh();
  }, [refresh]);

  return { summary, refresh };
}
