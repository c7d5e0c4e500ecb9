/**
 * The signed-in player's favourite games (spec §3 favoriteList, §4 game favourite): adding or
 * removing a like, then the list is fetched again from games.getLikes.
 */
import { useCallback, useEffect, useState } from 'react';
import { browserApi } from '~/api/client';
import { useI18n } from '~/i18n';
import { useToasts } from '~/toasts/toast-provider';
import { gamesApi } from './games-api';

export function useGameLikes(isSignedIn: boolean, initial: readonly string[] = []) {
  const { t, locale } = useI18n();
  const { show } = useToasts();
  const [likes, setLikes] = useState<ReadonlySet<string>>(() => new Set(initial));
  const [busy, setBusy] = useState<string | undefined>();

  useEffect(() => {
    if (!isSignedIn) setLikes(new Set());
  }, [isSignedIn]);

  const toggle = useCallback(
    async (sysname: string) => {
      const api = gamesApi(browserApi(locale));
      setBusy(sysname);
      try {
        await (likes.has(sysname) ? api.removeLike(sysname) : api.addLike(sysname));
        setLikes(new Set(await api.likes()));
      } catch {
        show(t('gamehall.favorite.error'), { tone: 'error' });
      } finally {
        setBusy(undefined);
      }
    },
    [likes, locale, show, t],
  );

  /** Fetches the list, for a page that has none from its loader (the game page). */
  const load = useCallback(async () => {
    try {
      setLikes(new Set(await gamesApi(browserApi(locale)).likes()));
    } catch {
      // Without the list the icon shows the game as not liked; a click still works.
    }
  }, [locale]);

  return { likes, toggle, busy, load };
}
