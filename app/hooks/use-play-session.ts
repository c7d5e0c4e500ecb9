/**
 * The signed-in player's play session (accounts issue, responsible gaming: elapsed session time
 * and net position shown while playing), from responsibleGaming.getSessionSummary. The summary
 * is fetched again after every round a game reports, so the net position follows play.
 */
import type { PlaySessionSummary } from '#common/contract';
import { useCallback, useEffect, useState } from 'react';
import { isAuthenticated } from '#common/api-contract';
import { browserApi } from '~/api/client';
import { useI18n } from '~/i18n';
import { useRootData } from '~/site-data';

export function usePlaySession(): { summary: PlaySessionSummary | null; refresh: () => Promise<void> } {
  const root = useRootData();
  const { locale } = useI18n();
  const isSignedIn = isAuthenticated(root?.account);
  const [summary, setSummary] = useState<PlaySessionSummary | null>(null);

  const refresh = useCallback(async () => {
    if (!isSignedIn) return setSummary(null);
    try {
      setSummary(await browserApi(locale).call('responsibleGaming.getSessionSummary'));
    } catch {
      // The figures are a courtesy while playing: a failed refresh keeps the last ones shown.
    }
  }, [isSignedIn, locale]);

  useEffect(() => {
    void refresh();
  }, [refresh]);

  return { summary, refresh };
}
