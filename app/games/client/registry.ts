/**
 * Which component plays which engine in the game client (issue 5). One line per engine: a game
 * whose engine is not listed here cannot start, and the client shows the slot error page (spec §2).
 */
import type { ComponentType } from 'react';
import type { GameComponentProps } from './shared';
import { DiceGame } from './dice';
import { SlotGame } from './slot';
import { CrashGame } from './crash';
import { LiveRouletteGame } from './live-roulette';
import { RouletteGame } from './roulette';
import { MinesGame } from './mines';
import { BlackjackGame } from './blackjack';

export const GAME_COMPONENTS: Record<string, ComponentType<GameComponentProps>> = {
  dice: DiceGame,
  'slot-classic': SlotGame,
  'slot-fruits': SlotGame,
  'slot-cascade': SlotGame,
  crash: CrashGame,
  'live-roulette': LiveRouletteGame,
  roulette: RouletteGame,
  mines: MinesGame,
  blackjack: BlackjackGame,
};

export function hasGameComponent(engine: unknown): engine is string {
  return typeof engine === 'string' && Object.hasOwn(GAME_COMPONENTS, engine);
}
