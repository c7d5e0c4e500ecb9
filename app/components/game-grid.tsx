import { Link } from 'react-router';
import { useI18n } from '~/i18n';
import { GameArt } from './game-art';
import { Icon } from './icon';

export interface GameTile {
  sysname: string;
  name: string;
  provider?: string;
}

/** A responsive grid of game tiles linking to their game pages. */
export function GameGrid({ games, title, id, icon }: { games: GameTile[]; title?: string; id?: string; icon?: string }) {
  const { localePath } = useI18n();
  return (
    <section className="game-section" id={id}>
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
      <ul className="game-grid">
        {games.map((game) => (
          <li key={game.sysname} className="game-tile">
            <Link to={localePath(`/game/${game.sysname}`)} className="game-tile__link">
              <GameArt name={game.sysname} title={game.name} />
              <span className="game-tile__name">{game.name}</span>
              {game.provider && <span className="game-tile__provider">{game.provider}</span>}
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
}
