/**
 * /profile/cashback (issue 13; spec §2 profile cashback, §3 Cashback, §7 cashbacks.*): the
 * cashback waiting to be claimed (what it pays back, the loss and period it covers, how long is
 * left to take it), claim it or dismiss it, and the cashbacks of past periods.
 */
import type { Route } from './+types/profile-cashback';
import type { CashbackView } from '#common/contract';
import { formatMoney } from '#common/money';
import { pageMeta } from '~/seo';
import { useI18n } from '~/i18n';
import { loaderApi } from '~/api/loader-api';
import { loadOrFail } from '~/api/errors';
import { ProfileLayout } from '~/components/profile-layout';
import { BonusArt } from '~/components/bonus-art';
import { HistoryRow, HistorySection, Term } from '~/components/bonus-parts';
import { useApiAction } from '~/hooks/use-api-action';
import { formatDate } from '~/format';

export const meta: Route.MetaFunction = (args) => pageMeta(args, 'page.profile-index-cashback.title');

export async function loader({ request, context }: Route.LoaderArgs) {
  const page = await loadOrFail(
    loaderApi(request, context).call('cashbacks.get', { count: 20, sort: 'end_date', order: 'desc' }),
  );
  return { cashbacks: page.items, now: Date.now() };
}

export default function ProfileCashback({ loaderData }: Route.ComponentProps) {
  const { t, localePath } = useI18n();
  const { cashbacks, now } = loaderData;
  const waiting = cashbacks.filter((cashback) => cashback.status === 'active' && Date.parse(cashback.receiving_expired_at) > now);
  const past = cashbacks.filter((cashback) => !waiting.includes(cashback));
  return (
    <ProfileLayout page="cashback">
      {cashbacks.length === 0 ? (
        <div className="card bonus-empty" data-cashback-empty>
          <BonusArt />
          <p className="card__text">{t('cashback.empty')}</p>
          <a className="button button--ghost" href={localePath('/promotions')}>
            {t('bonus.empty.promotions')}
          </a>
        </div>
      ) : (
        <>
          <section className="bonus-section" aria-label={t('cashback.section.waiting')}>
            <h2 className="bonus-section__title">{t('cashback.section.waiting')}</h2>
            {waiting.length === 0 && <p className="card__text">{t('cashback.section.waiting.none')}</p>}
            <div className="bonus-list">
              {waiting.map((cashback, index) => (
                <CashbackCard key={cashback.id} cashback={cashback} now={now} isNewest={index === 0} />
              ))}
            </div>
          </section>
          <CashbackHistory cashbacks={past} />
        </>
      )}
    </ProfileLayout>
  );
}

function CashbackCard({ cashback, now, isNewest }: { cashback: CashbackView; now: number; isNewest: boolean }) {
  const { t } = useI18n();
  const { run, isBusy, errors } = useApiAction();
  const hoursLeft = Math.max(0, Math.floor((Date.parse(cashback.receiving_expired_at) - now) / 3_600_000));
  return (
    <article className="card bonus-card bonus-card--active" data-cashback-id={cashback.id} data-cashback-status={cashback.status}>
      <header className="bonus-card__head">
        <h3 className="bonus-card__title">{cashback.description.title}</h3>
        <span className="bonus-card__amount">{formatMoney(cashback.amount)}</span>
      </header>
      <dl className="bonus-card__terms">
        <Term label={t('cashback.term.period')} value={periodOf(cashback)} />
        <Term label={t('cashback.term.loss')} value={formatMoney(cashback.net_loss)} />
        <Term label={t('cashback.term.percent')} value={`${cashback.percent}%`} />
        <Term label={t('cashback.term.paidAs')} value={t(`cashback.paidAs.${cashback.payout}`)} />
        <Term label={t('bonus.term.timeLeft')} value={t('cashback.hoursLeft', { hours: hoursLeft })} />
      </dl>
      {cashback.description.text && <p className="bonus-card__text">{cashback.description.text}</p>}
      <div className="bonus-card__actions">
        <button
          type="button"
          className="button button--primary"
          data-action="claim"
          disabled={isBusy}
          onClick={() => void run('cashbacks.payout', { cashback_id: cashback.id }, { successKey: 'cashback.claimed' })}
        >
          {t('cashback.action.claim')}
        </button>
        {/* cashbacks.remove (spec §7, no body) dismisses the newest active one: offered on that one only. */}
        {isNewest && (
          <button
            type="button"
            className="button button--ghost"
            data-action="dismiss"
            disabled={isBusy}
            onClick={() => void run('cashbacks.remove', {}, { successKey: 'cashback.dismissed' })}
          >
            {t('cashback.action.dismiss')}
          </button>
        )}
      </div>
      {(errors.cashback_id ?? errors._form) && (
        <p className="field__error" role="alert">
          {errors.cashback_id ?? errors._form}
        </p>
      )}
    </article>
  );
}

function CashbackHistory({ cashbacks }: { cashbacks: CashbackView[] }) {
  const { t } = useI18n();
  if (cashbacks.length === 0) return null;
  return (
    <HistorySection title={t('cashback.section.history')}>
      {cashbacks.map((cashback) => (
        <HistoryRow
          key={cashback.id}
          data={{ 'data-cashback-id': cashback.id, 'data-cashback-status': cashback.status }}
          title={periodOf(cashback)}
          status={t(`cashback.status.${cashback.status}`)}
          amount={formatMoney(cashback.amount)}
          date={cashback.paid_out_at ? formatDate(cashback.paid_out_at) : ''}
        />
      ))}
    </HistorySection>
  );
}

/** The period a cashback pays back, as dates; end_date is exclusive, so the last day shown is the day before. */
function periodOf(cashback: CashbackView): string {
  const lastDay = new Date(Date.parse(cashback.end_date) - 1);
  const first = formatDate(cashback.start_date);
  const last = formatDate(lastDay);
  return first === last ? first : `${first} – ${last}`;
}
