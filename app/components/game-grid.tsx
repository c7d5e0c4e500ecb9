import type { ReactNode } from 'react';
import { Icon } from './icon';
import { HallTile, type HallGame } from './hall-tile';

/**
 * A titled grid of game tiles (the home rails): each tile is the game's drawn art as an image
 * file and its name in the page's language (hall-tile.tsx), so the art adds nothing to the page's
 * JavaScript. `empty` is shown when the rail has no game.
 */
export function GameGrid({
  games,
  title,
  id,
  icon,
  providerNames,
  aboveFold = 0,
  isTileLargestPaint = true,
  empty,
}: {
  games: HallGame[];
  title?: string;
  id?: string;
  icon?: string;
  providerNames?: Record<string, string>;
  /** How many first tiles load at once (the page's largest paint on a phone); the rest load lazily. */
  aboveFold?: number;
  /** Whether those first tiles can be the page's largest paint (not under the home banner). */
  isTileLargestPaint?: boolean;
  empty?: ReactNode;
}) {
  return (
    <section className="game-section" id={id} data-rail={id} data-rail-count={games.length}>
      {title && (
        <h2 className="section-title">
          {icon && (
            <span className="section-title__icon">
              <Icon name={icon} size={18} />
            </span>
          )}
          {title}
        </h2>
      )}
      {games.length === 0 && empty ? (
        <p className="rail-empty card">{empty}</p>
      ) : (
        <ul className="game-grid">
          {games.map((game, index) => (
            <HallTile
              key={game.sysname}
              game={game}
              isAboveFold={index < aboveFold}
              isLargestPaint={isTileLargestPaint}
              providerName={game.provider ? (providerNames?.[game.provider] ?? game.provider) : undefined}
            />
          ))}
        </ul>
      )}
    </section>
  );
}
