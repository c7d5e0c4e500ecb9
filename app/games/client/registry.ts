/**
 * Which component plays which engine in the game client (issue 5). One line per engine: a game
 * whose engine is not listed here cannot start, and the client shows the slot error page (spec §2).
 *
 * Each engine's component is its own chunk, loaded when a game of that engine opens (issue 12: the
 * frame loaded every engine's UI, 22 KB compressed, and put the game page over 150 KB of initial
 * JavaScript). Their styles stay in the game client route (game-client.tsx imports them), so the
 * server's page links them in its head and no engine paints unstyled while its chunk loads.
 */
import { lazy, type ComponentType } from 'react';
import type { GameComponentProps } from './shared';

type GameComponent = ComponentType<GameComponentProps>;

const slot = lazy(() => import('./slot').then((module) => ({ default: module.SlotGame })));

export const GAME_COMPONENTS: Record<string, GameComponent> = {
  dice: lazy(() => import('./dice').then((module) => ({ default: module.DiceGame }))),
  'slot-classic': slot,
  'slot-fruits': slot,
  'slot-cascade': slot,
  crash: lazy(() => import('./crash').then((module) => ({ default: module.CrashGame }))),
  'live-roulette': lazy(() => import('./live-roulette').then((module) => ({ default: module.LiveRouletteGame }))),
  roulette: lazy(() => import('./roulette').then((module) => ({ default: module.RouletteGame }))),
  mines: lazy(() => import('./mines').then((module) => ({ default: module.MinesGame }))),
  blackjack: lazy(() => import('./blackjack').then((module) => ({ default: module.BlackjackGame }))),
};

export function hasGameComponent(engine: unknown): engine is string {
  return typeof engine === 'string' && Object.hasOwn(GAME_COMPONENTS, engine);
}
