/**
 * The signed-in player's place in the loyalty programme, in the header: character, level and
 * points, linking to /profile/loyalty. Drawn from the loyalty info the root loader loads after
 * sign-in (spec §4), so it follows every refetch of that info.
 */
import { Link } from 'react-router';
import { groupThousands } from '#common/money';
import type { LoyaltyInfo } from '#common/loyalty-contract';
import { useI18n } from '~/i18n';

/** "1,250 points", with the site's name for its points. */
export function usePointsLabel() {
  const { t } = useI18n();
  return (loyalty: Pick<LoyaltyInfo, 'pointsAlias'>, points: number) =>
    `${groupThousands(String(points))} ${t(`loyalty.alias.${loyalty.pointsAlias}`)}`;
}

export function CharacterAvatar({ character, size }: { character: LoyaltyInfo['character']; size: number }) {
  const { t } = useI18n();
  if (!character)
    return <span className="loyalty-avatar loyalty-avatar--empty" style={{ width: size, height: size }} aria-hidden="true" />;
  return (
    <img
      className="loyalty-avatar"
      src={character.image}
      alt={t(`loyalty.character.${character.sysname}`)}
      width={size}
      height={size}
      data-character={character.sysname}
    />
  );
}

export function LoyaltyBadge({ loyalty }: { loyalty: LoyaltyInfo | null }) {
  const { t, localePath } = useI18n();
  const pointsLabel = usePointsLabel();
  if (!loyalty?.is_active) return null;
  return (
    <Link
      to={localePath('/profile/loyalty')}
      className="loyalty-badge site-header__extra"
      data-loyalty-level={loyalty.level.sysname}
      data-loyalty-points={loyalty.points}
    >
      <CharacterAvatar character={loyalty.character} size={26} />
      <span className="loyalty-badge__text">
        <span className="loyalty-badge__level">{t(`loyalty.level.${loyalty.level.sysname}`)}</span>
        <span className="loyalty-badge__points">{pointsLabel(loyalty, loyalty.points)}</span>
      </span>
    </Link>
  );
}
