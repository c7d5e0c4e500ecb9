import { Link } from 'react-router';
import { gameDisplayImage, gameDisplayName, type GameRecord } from '#common/games-contract';
import { useI18n } from '~/i18n';
import { DeferredImage } from './deferred-image';
import { Icon } from './icon';

export type HallGame = Partial<GameRecord> & Pick<GameRecord, 'sysname'>;

/**
 * A game hall tile: the game-like record's picture and name (spec §3: description.img_288_192
 * and description.name win), its provider, and for a signed-in player the favourite heart.
 * The picture is the game's drawn scene, an SVG file with its size given (no layout shift), loaded
 * once it nears the screen unless the tile is above the fold (deferred-image.tsx); the name is text
 * in the page's language under it. Every tile of a row has the same height: the
 * name takes two lines and the provider one, whatever their length (issue 15).
 */
export function HallTile({
  game,
  providerName,
  like,
  isAboveFold = false,
  isLargestPaint = isAboveFold,
}: {
  game: HallGame;
  providerName?: string;
  like?: { isLiked: boolean; isBusy: boolean; toggle: () => void };
  /** A tile a phone shows without scrolling: its picture loads at once (issue 12: it is the page's largest paint). */
  isAboveFold?: boolean;
  /**
   * The picture may be the page's largest paint, so it is fetched first (default: when above the
   * fold). Not on a page whose largest paint is something else, the home banner: there a high
   * priority only takes bandwidth from the stylesheet the first paint waits for.
   */
  isLargestPaint?: boolean;
}) {
  const { t, localePath } = useI18n();
  const name = gameDisplayName({ name: game.name ?? game.sysname, description: game.description ?? {} });
  const image = gameDisplayImage({ image_url: game.image_url ?? '', description: game.description ?? {} });
  return (
    <li className="game-tile" data-game-tile={game.sysname}>
      <Link to={localePath(`/game/${game.sysname}`)} className="game-tile__link">
        {image && isAboveFold ? (
          <img
            className="game-art"
            src={image}
            alt=""
            decoding="async"
            width={288}
            height={192}
            fetchPriority={isLargestPaint ? 'high' : 'auto'}
          />
        ) : image ? (
          <DeferredImage className="game-art" src={image} width={288} height={192} />
        ) : (
          <span className="game-art game-art--none" />
        )}
        <span className="game-tile__name" data-tile-name>
          {name}
        </span>
        <span className="game-tile__provider">{providerName ?? '\u00a0'}</span>
      </Link>
      {like && (
        <button
          type="button"
          className={`game-tile__like${like.isLiked ? ' is-liked' : ''}`}
          aria-pressed={like.isLiked}
          aria-label={t(like.isLiked ? 'gamehall.favorite.remove' : 'gamehall.favorite.add', { game: name })}
          disabled={like.isBusy}
          onClick={like.toggle}
          data-like={game.sysname}
        >
          <Icon name="heart" size={20} />
        </button>
      )}
    </li>
  );
}
