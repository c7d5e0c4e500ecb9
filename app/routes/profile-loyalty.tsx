/**
 * /profile/loyalty: the player's level, points and progress to the next level (spec §3 loyalty
 * info and progress helper), the programme's levels, and the character with the change dialog
 * and its confirm; the character is set on the server, then the info is refetched (spec §4).
 */
import type { Route } from './+types/profile-loyalty';
import type { LoyaltyCharacter } from '#common/loyalty-contract';
import { groupThousands } from '#common/money';
import { pageMeta } from '~/seo';
import { useI18n } from '~/i18n';
import { loaderApi } from '~/api/loader-api';
import { loadOrFail } from '~/api/errors';
import { ProfileLayout } from '~/components/profile-layout';
import { CharacterAvatar, usePointsLabel } from '~/components/loyalty-badge';
import { useDialogs } from '~/dialogs/dialog-context';
import { useApiAction } from '~/hooks/use-api-action';

export const meta: Route.MetaFunction = (args) => pageMeta(args, 'page.profile-index-loyalty.title');

export async function loader({ request, context }: Route.LoaderArgs) {
  const api = loaderApi(request, context);
  const [info, characters] = await Promise.all([
    loadOrFail(api.call('loyalty.getinfo')),
    loadOrFail(api.call('loyalty.getcharacters')),
  ]);
  return { info, characters: characters.items };
}

export default function ProfileLoyalty({ loaderData }: Route.ComponentProps) {
  const { t } = useI18n();
  const { open } = useDialogs();
  const { run, isBusy, errors } = useApiAction();
  const pointsLabel = usePointsLabel();
  const { info, characters } = loaderData;
  const next = info.levels.find((level) => level.min_points > info.level.min_points);

  async function changeCharacter() {
    const chosen = (await open('loyaltyCharacter', { componentProps: { characters, currentId: info.character?.id ?? null } })
      .closed) as LoyaltyCharacter | undefined;
    if (!chosen) return;
    const isAgreed = await open('loyaltyCharacterConfirm', { type: 'confirm', componentProps: { character: chosen } }).closed;
    if (isAgreed === true) await run('loyalty.setcharacter', { id: chosen.id }, { successKey: 'loyalty.character.saved' });
  }

  return (
    <ProfileLayout page="loyalty">
      {!info.is_active && (
        <p className="card__text" role="status">
          {t('loyalty.inactive')}
        </p>
      )}
      <div className="card loyalty-card" data-loyalty-level={info.level.sysname} data-loyalty-points={info.points}>
        <CharacterAvatar character={info.character} size={88} />
        <div className="loyalty-card__summary">
          <p className="loyalty-card__character">
            {info.character ? t(`loyalty.character.${info.character.sysname}`) : t('loyalty.character.none')}
          </p>
          <p className="loyalty-card__level">
            {t('loyalty.levelName', { level: info.level.level, name: t(`loyalty.level.${info.level.sysname}`) })}
          </p>
          <p className="loyalty-card__points" data-points>
            {pointsLabel(info, info.points)}
          </p>
          {characters.length > 0 && (
            <button
              type="button"
              className="button button--ghost"
              data-action="change-character"
              disabled={isBusy}
              onClick={() => void changeCharacter()}
            >
              {t(info.character ? 'loyalty.character.change' : 'loyalty.character.pick')}
            </button>
          )}
          {errors._form && (
            <p className="field__error" role="alert">
              {errors._form}
            </p>
          )}
        </div>
      </div>
      <div className="card loyalty-progress" data-progress={info.progress.expCount}>
        <div
          className="loyalty-progress__bar"
          role="progressbar"
          aria-valuemin={info.progress.minValue}
          aria-valuemax={info.progress.maxValue}
          aria-valuenow={info.experience}
          aria-label={t('loyalty.progress.label')}
        >
          <span style={{ width: `${info.progress.expCount}%` }} />
        </div>
        <p className="card__text">
          {next
            ? t('loyalty.progress.toNext', {
                experience: groupThousands(String(info.experience)),
                max: groupThousands(String(next.min_points)),
                name: t(`loyalty.level.${next.sysname}`),
              })
            : t('loyalty.progress.top')}
        </p>
      </div>
      <ol className="card loyalty-levels">
        {info.levels.map((level) => (
          <li
            key={level.sysname}
            className={`loyalty-levels__item${level.level === info.level.level ? ' loyalty-levels__item--current' : ''}${level.min_points <= info.experience ? ' loyalty-levels__item--reached' : ''}`}
            data-level={level.sysname}
          >
            <span>{t('loyalty.levelName', { level: level.level, name: t(`loyalty.level.${level.sysname}`) })}</span>
            <span>{pointsLabel(info, level.min_points)}</span>
          </li>
        ))}
      </ol>
    </ProfileLayout>
  );
}
