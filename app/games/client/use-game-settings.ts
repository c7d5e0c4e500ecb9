/**
 * The site's jurisdiction rules for in-house play (issue 5; games.getSettings, server
 * game-rounds/jurisdiction.ts): the minimum spin duration and what autoplay may do. Until they
 * load, autoplay stays hidden and no pause is assumed: the server enforces the duration anyway.
 * The game client's loader reads them with the page (`initial`), so autoplay is in the first paint
 * and nothing below it moves when they arrive (issue 12: the game page's layout shift).
 */
import { useEffect, useState } from 'react';
import type { GameSettings } from '#common/contract';
import type { Api } from './shared';

export type AutoplaySettings = GameSettings['autoplay'];

export function useGameSettings(api: Api, initial: GameSettings | null): GameSettings | null {
  const [settings, setSettings] = useState<GameSettings | null>(initial);
  const hasInitial = initial !== null;
  useEffect(() => {
    if (hasInitial) return;
    let isCurrent = true;
    api
      .call('games.getSettings')
      .then((loaded) => {
        if (isCurrent) setSettings(loaded);
      })
      .catch(() => undefined);
    return () => {
      isCurrent = false;
    };
  }, [api, hasInitial]);
  return settings;
}
