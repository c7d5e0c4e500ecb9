/**
 * /profile/responsible-game: deposit limits per day/week/month (cut at once, raise after the
 * cooling-off period), reality-check interval, time-out and self-exclusion.
 */
import { type FormEvent } from 'react';
import type { Route } from './+types/profile-responsible-game';
import type { PeriodLimitView, ResponsibleGamingView, SelfExclusionOption, TimeoutOption } from '#common/contract';
import { formatMoney } from '#common/money';
import { pageMeta } from '~/seo';
import { useI18n } from '~/i18n';
import { loaderApi } from '~/api/loader-api';
import { loadOrFail } from '~/api/errors';
import { ProfileLayout } from '~/components/profile-layout';
import { useApiAction } from '~/hooks/use-api-action';
import { useDialogs } from '~/dialogs/dialog-context';
import { formatDateTime } from '~/format';

export const meta: Route.MetaFunction = (args) => pageMeta(args, 'page.profile-index-responsible-game.title');

export async function loader({ request, context }: Route.LoaderArgs) {
  return { rg: await loadOrFail(loaderApi(request, context).call('responsibleGaming.get')) };
}

function DepositLimit({
  limit,
  currency,
  coolingOffHours,
}: {
  limit: PeriodLimitView;
  currency: string;
  coolingOffHours: number;
}) {
  const { t, tc } = useI18n();
  const { run, isBusy, errors } = useApiAction();
  const money = (amount: string) => formatMoney({ amount, currency });
  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const amount = String(new FormData(event.currentTarget).get('amount') ?? '');
    void run('responsibleGaming.setDepositLimit', { period: limit.period, amount }).then((result) => result);
  }
  return (
    <form className="limit" onSubmit={submit} noValidate data-limit={limit.period}>
      <h3 className="limit__title">{t(`rg.period.${limit.period}`)}</h3>
      <p className="card__text" data-current>
        {limit.limit_amount
          ? t('rg.limit.current', { amount: money(limit.limit_amount), available: money(limit.available_amount ?? '0.00') })
          : t('rg.limit.none')}
      </p>
      {limit.pending_effective_at && (
        <p className="card__text" data-pending>
          {t(limit.pending_amount ? 'rg.limit.pending' : 'rg.limit.pendingRemoval', {
            amount: limit.pending_amount ? money(limit.pending_amount) : '',
            date: formatDateTime(limit.pending_effective_at, t('format.dateTimeJoiner')),
          })}
        </p>
      )}
      <div className="inline-form">
        <label className={`field${errors.amount ? ' field--invalid' : ''}`} data-field="amount">
          <span className="field__label">{t('rg.limit.amount', { currency })}</span>
          <input
            className="field__input"
            name="amount"
            inputMode="numeric"
            placeholder={limit.limit_amount ? limit.limit_amount.split('.')[0] : ''}
          />
          {errors.amount && (
            <span className="field__error" role="alert">
              {errors.amount}
            </span>
          )}
        </label>
        <button className="button button--primary" type="submit" disabled={isBusy}>
          {t('rg.limit.save')}
        </button>
      </div>
      <p className="field__hint">{tc('rg.limit.rule', coolingOffHours)}</p>
    </form>
  );
}

function Exclusions({ rg }: { rg: ResponsibleGamingView }) {
  const { t, localePath } = useI18n();
  const { open } = useDialogs();
  const { run, isBusy, errors } = useApiAction();
  async function takeTimeout(duration: TimeoutOption) {
    const isAgreed = await open('confirm', {
      type: 'confirm',
      componentProps: { titleKey: 'rg.timeout.confirm', textKey: `rg.timeout.${duration}` },
    }).closed;
    if (isAgreed !== true) return;
    if ((await run('responsibleGaming.takeTimeout', { duration }, { reload: false })) === 1)
      window.location.assign(localePath('/'));
  }
  function selfExclude(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    // The chosen option as the form holds it; the server refuses one it does not offer.
    const duration = String(form.get('duration') ?? '') as SelfExclusionOption;
    const params = { duration, password: String(form.get('password') ?? '') };
    void open('confirm', {
      type: 'confirm',
      componentProps: { titleKey: 'rg.selfExclusion.confirm', textKey: 'rg.selfExclusion.warning' },
    }).closed.then(async (isAgreed) => {
      if (isAgreed === true && (await run('responsibleGaming.selfExclude', params, { reload: false })) === 1)
        window.location.assign(localePath('/'));
    });
  }
  return (
    <>
      <div className="card form-grid" data-form="timeout">
        <h2 className="card__title">{t('rg.timeout.title')}</h2>
        <p className="card__text">{t('rg.timeout.text')}</p>
        <div className="button-row">
          {rg.timeout_options.map((duration) => (
            <button
              key={duration}
              type="button"
              className="button button--ghost"
              disabled={isBusy}
              onClick={() => void takeTimeout(duration)}
            >
              {t(`rg.timeout.${duration}`)}
            </button>
          ))}
        </div>
      </div>
      <form className="card form-grid" onSubmit={selfExclude} noValidate data-form="self-exclusion">
        <h2 className="card__title">{t('rg.selfExclusion.title')}</h2>
        <p className="card__text">{t('rg.selfExclusion.text')}</p>
        <label className="field" data-field="duration">
          <span className="field__label">{t('rg.selfExclusion.duration')}</span>
          <select className="field__input" name="duration">
            {rg.self_exclusion_options.map((duration) => (
              <option key={duration} value={duration}>
                {t(`rg.selfExclusion.${duration}`)}
              </option>
            ))}
          </select>
        </label>
        <label className={`field${errors.password ? ' field--invalid' : ''}`} data-field="password">
          <span className="field__label">{t('auth.field.password')}</span>
          <input className="field__input" name="password" type="password" autoComplete="current-password" />
          {errors.password && (
            <span className="field__error" role="alert">
              {errors.password}
            </span>
          )}
        </label>
        <button className="button button--danger" type="submit" disabled={isBusy}>
          {t('rg.selfExclusion.submit')}
        </button>
      </form>
    </>
  );
}

export default function ProfileResponsibleGame({ loaderData }: Route.ComponentProps) {
  const { t, tc } = useI18n();
  const { rg } = loaderData;
  const { run, isBusy } = useApiAction();
  return (
    <ProfileLayout page="responsible-game">
      {rg.is_deposit_limit_missing && (
        <p className="notice notice--warn" role="alert">
          {t('rg.limit.required')}
        </p>
      )}
      <div className="card form-grid" id="limits" data-form="limits">
        <h2 className="card__title">{t('rg.limits.title')}</h2>
        <div className="limits">
          {rg.limits.map((limit) => (
            <DepositLimit key={limit.period} limit={limit} currency={rg.currency} coolingOffHours={rg.cooling_off_hours} />
          ))}
        </div>
      </div>
      <div className="card form-grid" data-form="reality-check">
        <h2 className="card__title">{t('rg.realityCheck.title')}</h2>
        <p className="card__text">{t('rg.realityCheck.text')}</p>
        <label className="field" data-field="reality-check">
          <span className="field__label">{t('rg.realityCheck.interval')}</span>
          <select
            className="field__input"
            value={rg.reality_check_minutes}
            disabled={isBusy}
            onChange={(event) =>
              void run('responsibleGaming.setRealityCheck', { minutes: event.target.value }, { successKey: 'profile.saved' })
            }
          >
            {rg.reality_check_options.map((minutes) => (
              <option key={minutes} value={minutes}>
                {minutes === 0 ? t('rg.realityCheck.off') : tc('rg.realityCheck.every', minutes)}
              </option>
            ))}
          </select>
        </label>
      </div>
      <Exclusions rg={rg} />
    </ProfileLayout>
  );
}
