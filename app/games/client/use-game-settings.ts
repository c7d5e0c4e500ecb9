/**
 * The site's jurisdiction rules for in-house play (issue 5; games.getSettings, server
 * game-rounds/jurisdiction.ts): the minimum spin duration and what autoplay may do. Until they
 * load, autoplay stays hidden and no pause is assumed: the server enforces the duration anyway.
 */
import { useEffect, useState } from 'react';
import type { Api } from './shared';

export interface AutoplaySettings {
  is_allowed: boolean;
  max_rounds: number;
  round_options: number[];
  is_loss_limit_required: boolean;
  is_single_win_limit_required: boolean;
}

export interface GameSettings {
  min_spin_duration_ms: number;
  autoplay: AutoplaySettings;
}

export function useGameSettings(api: Api): GameSettings | null {
  const [settings, setSettings] = useState<GameSettings | null>(null);
  useEffect(() => {
    let isCurrent = true;
    api
      .call<GameSettings>('GET', 'games.getSettings')
      .then((loaded) => {
        if (isCurrent) setSettings(loaded);
      })
      .catch(() => undefined);
    return () => {
      isCurrent = false;
    };
  }, [api]);
  return settings;
}
