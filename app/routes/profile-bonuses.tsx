/**
 * /profile/bonuses (issue 13; spec §2 profile bonuses, §3 Bonus, §4 bonus confirm dialog): the
 * active casino bonus with its wagering progress and time left, bonuses waiting to be activated,
 * betting bonuses (free bets), and the history of ended ones. Activating or removing asks first
 * (the bonus remove or activate confirm dialog); activating a betting bonus ends with the
 * betting-bonus-activated dialog.
 */
import type { Route } from './+types/profile-bonuses';
import type { BonusView } from '#common/contract';
import { formatMoney } from '#common/money';
import { pageMeta } from '~/seo';
import { useI18n } from '~/i18n';
import { loaderApi } from '~/api/loader-api';
import { loadOrFail } from '~/api/errors';
import { ProfileLayout } from '~/components/profile-layout';
import { BonusArt } from '~/components/bonus-art';
import { HistoryRow, HistorySection, Term } from '~/components/bonus-parts';
import { useDialogs } from '~/dialogs/dialog-context';
import { useApiAction } from '~/hooks/use-api-action';
import { formatDate } from '~/format';

export const meta: Route.MetaFunction = (args) => pageMeta(args, 'page.profile-index-bonuses.title');

const PAGE = 50;

export async function loader({ request, context }: Route.LoaderArgs) {
  const api = loaderApi(request, context);
  const [casino, betting] = await Promise.all([
    loadOrFail(api.call('bonuses.get', { count: PAGE })),
    loadOrFail(api.call('BettingBonuses.get', { count: PAGE })),
  ]);
  // One clock for the server render and the hydration: time left reads the same on both.
  return { casino: casino.items, betting: betting.items, now: Date.now() };
}

const isOpen = (bonus: BonusView) => bonus.status === 'active' || bonus.status === 'available';

export default function ProfileBonuses({ loaderData }: Route.ComponentProps) {
  const { t, localePath } = useI18n();
  const { casino, betting, now } = loaderData;
  const active = casino.filter((bonus) => bonus.status === 'active');
  const available = casino.filter((bonus) => bonus.status === 'available');
  const openBetting = betting.filter(isOpen);
  const ended = [...casino, ...betting].filter((bonus) => !isOpen(bonus)).sort((a, b) => b.id - a.id);
  const isEmpty = casino.length === 0 && betting.length === 0;

  return (
    <ProfileLayout page="bonuses">
      {isEmpty ? (
        <div className="card bonus-empty" data-bonus-empty>
          <BonusArt />
          <p className="card__text">{t('bonus.empty')}</p>
          <a className="button button--primary" href={localePath('/promotions')}>
            {t('bonus.empty.promotions')}
          </a>
        </div>
      ) : (
        <>
          <BonusSection titleKey="bonus.section.active" bonuses={active} now={now} emptyKey="bonus.section.active.none" />
          <BonusSection titleKey="bonus.section.available" bonuses={available} now={now} />
          <BonusSection titleKey="bonus.section.betting" bonuses={openBetting} now={now} />
          <BonusHistory bonuses={ended} />
        </>
      )}
    </ProfileLayout>
  );
}

function BonusSection({
  titleKey,
  bonuses,
  now,
  emptyKey,
}: {
  titleKey: string;
  bonuses: BonusView[];
  now: number;
  emptyKey?: string;
}) {
  const { t } = useI18n();
  if (bonuses.length === 0 && !emptyKey) return null;
  return (
    <section className="bonus-section" aria-label={t(titleKey)}>
      <h2 className="bonus-section__title">{t(titleKey)}</h2>
      {bonuses.length === 0 && emptyKey ? <p className="card__text">{t(emptyKey)}</p> : null}
      <div className="bonus-list">
        {bonuses.map((bonus) => (
          <BonusCard key={bonus.id} bonus={bonus} now={now} />
        ))}
      </div>
    </section>
  );
}

function BonusCard({ bonus, now }: { bonus: BonusView; now: number }) {
  const { t } = useI18n();
  const { open } = useDialogs();
  const { run, isBusy, errors } = useApiAction();
  const isBetting = bonus.type === 'betting';
  const deadline = bonus.status === 'active' ? bonus.wagering_expires_at : bonus.claim_expires_at;

  async function ask(action: 'activate' | 'remove') {
    const isAgreed = await open('confirm', {
      type: 'confirm',
      componentProps: { titleKey: `bonus.confirm.${action}.title`, textKey: `bonus.confirm.${action}.text` },
    }).closed;
    if (isAgreed !== true) return;
    const params = { bonus_id: bonus.id };
    if (action === 'remove') {
      await run(isBetting ? 'BettingBonuses.remove' : 'bonuses.remove', params, { successKey: 'bonus.removed' });
      return;
    }
    const activated = await run(isBetting ? 'BettingBonuses.activate' : 'bonuses.activate', params, {
      successKey: isBetting ? undefined : 'bonus.activated',
    });
    if (activated && isBetting) open('bettingBonusActivated', { componentProps: { bonus: activated } });
  }

  return (
    <article className={`card bonus-card bonus-card--${bonus.status}`} data-bonus-id={bonus.id} data-bonus-status={bonus.status}>
      <header className="bonus-card__head">
        <h3 className="bonus-card__title">{bonus.description.title}</h3>
        <span className="bonus-card__amount">{formatMoney(bonus.status === 'active' ? bonus.balance : bonus.amount)}</span>
      </header>
      {bonus.status === 'active' && !isBetting && <WageringBar bonus={bonus} />}
      <dl className="bonus-card__terms">
        {bonus.max_stake && <Term label={t('bonus.term.maxStake')} value={formatMoney(bonus.max_stake)} />}
        {bonus.max_conversion && <Term label={t('bonus.term.maxConversion')} value={formatMoney(bonus.max_conversion)} />}
        {bonus.min_odds !== null && <Term label={t('bonus.term.minOdds')} value={bonus.min_odds.toFixed(2)} />}
        {!isBetting && <Term label={t('bonus.term.wagering')} value={`×${bonus.wagering.multiplier}`} />}
        {deadline && <Term label={t('bonus.term.timeLeft')} value={timeLeft(t, Date.parse(deadline) - now)} />}
      </dl>
      {bonus.description.text && <p className="bonus-card__text">{bonus.description.text}</p>}
      <div className="bonus-card__actions">
        {bonus.status === 'available' && (
          <button
            type="button"
            className="button button--primary"
            data-action="activate"
            disabled={isBusy}
            onClick={() => void ask('activate')}
          >
            {t('bonus.action.activate')}
          </button>
        )}
        <button
          type="button"
          className="button button--ghost"
          data-action="remove"
          disabled={isBusy}
          onClick={() => void ask('remove')}
        >
          {t('bonus.action.remove')}
        </button>
      </div>
      {(errors.bonus_id ?? errors._form) && (
        <p className="field__error" role="alert">
          {errors.bonus_id ?? errors._form}
        </p>
      )}
    </article>
  );
}

function WageringBar({ bonus }: { bonus: BonusView }) {
  const { t } = useI18n();
  const { wagering } = bonus;
  return (
    <div className="bonus-wagering" data-wagering-percent={wagering.percent}>
      <div
        className="bonus-wagering__bar"
        role="progressbar"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={wagering.percent}
        aria-label={t('bonus.wagering.label')}
      >
        <span style={{ width: `${wagering.percent}%` }} />
      </div>
      <p className="bonus-wagering__text">
        {t('bonus.wagering.progress', {
          wagered: formatMoney(wagering.wagered),
          required: formatMoney(wagering.required),
          percent: wagering.percent,
        })}
      </p>
    </div>
  );
}

function BonusHistory({ bonuses }: { bonuses: BonusView[] }) {
  const { t } = useI18n();
  if (bonuses.length === 0) return null;
  return (
    <HistorySection title={t('bonus.section.history')}>
      {bonuses.map((bonus) => (
        <HistoryRow
          key={bonus.id}
          data={{ 'data-bonus-id': bonus.id, 'data-bonus-status': bonus.status }}
          title={bonus.description.title}
          status={t(`bonus.status.${bonus.status}`)}
          amount={formatMoney(bonus.converted ?? bonus.amount)}
          date={bonus.ended_at ? formatDate(bonus.ended_at) : ''}
        />
      ))}
    </HistorySection>
  );
}

/** "3 d 4 h" / "5 h 20 min" / "ended": the coarsest two units that say how long is left. */
function timeLeft(t: (key: string, params?: Record<string, string | number>) => string, ms: number): string {
  if (ms <= 0) return t('bonus.timeLeft.ended');
  const minutes = Math.floor(ms / 60_000);
  const days = Math.floor(minutes / 1440);
  const hours = Math.floor((minutes % 1440) / 60);
  if (days > 0) return t('bonus.timeLeft.days', { days, hours });
  return t('bonus.timeLeft.hours', { hours, minutes: minutes % 60 });
}
