/**
 * /promotions, /promotions/{id}, /offers and /offers/{id} (issue 13; spec §2, §3 Offer/campaign):
 * every offer of the site with the bonus its template really pays. A list of cards, and one offer
 * with its terms in full and what the player does with it: deposit with it (a deposit offer),
 * opt in (a promotion, campaigns.takepromotions) or enter its code (a promo-code offer, with the
 * promocode-activated dialog). /offers lists the deposit offers only.
 */
import { useState } from 'react';
import { Link } from 'react-router';
import type { Route } from './+types/promotions';
import type { OfferView } from '#common/contract';
import { parseRouteName } from '#common/locale';
import { pageMeta } from '~/seo';
import { useI18n } from '~/i18n';
import { loaderApi } from '~/api/loader-api';
import { loadOrFail, pageNotFound } from '~/api/errors';
import { BonusArt } from '~/components/bonus-art';
import { Term } from '~/components/bonus-parts';
import { PromoCodeForm } from '~/components/promo-code-form';
import { useApiAction } from '~/hooks/use-api-action';
import { useRootData } from '~/site-data';

export const meta: Route.MetaFunction = (args) => {
  const leaf = args.matches[args.matches.length - 1];
  const { name } = parseRouteName(leaf?.id ?? '');
  return pageMeta(args, `page.${name}.title`);
};

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const api = loaderApi(request, context);
  const url = new URL(request.url);
  const isOffers = /\/offers(\/|$)/.test(url.pathname);
  const offers = await loadOrFail(
    api.call('campaigns.getoffers', { offset: 0, count: 100, action: isOffers ? 'deposit' : 'all' }),
  );
  const wanted = 'id' in params ? Number(params.id) : undefined;
  const chosen = wanted === undefined ? undefined : offers.find((offer) => offer.id === wanted);
  if (wanted !== undefined && !chosen) {
    pageNotFound(request);
  }
  return { offers, chosen, section: isOffers ? ('offers' as const) : ('promotions' as const) };
}

export default function Promotions({ loaderData }: Route.ComponentProps) {
  const { offers, chosen, section } = loaderData;
  if (chosen) return <PromotionDetail offer={chosen} section={section} />;
  return <PromotionList offers={offers} section={section} />;
}

function PromotionList({ offers, section }: { offers: OfferView[]; section: 'offers' | 'promotions' }) {
  const { t, localePath } = useI18n();
  return (
    <div className="page promotions" data-promotions={section}>
      <header className="page__header page-band">
        <div className="page-band__text">
          <h1 className="page__title">{t(`page.${section}.title`)}</h1>
          <p className="page__intro">{t(`page.${section}.description`)}</p>
        </div>
        <span className="page-band__art" aria-hidden="true">
          <BonusArt size={150} />
        </span>
      </header>
      {section === 'promotions' && <PromoCodeForm />}
      {offers.length === 0 ? (
        <p className="card promotions__empty">{t('promotions.empty')}</p>
      ) : (
        <ul className="promotions__grid">
          {offers.map((offer) => (
            <li key={offer.id} className="card promotion-card" data-offer-id={offer.id} data-offer-action={offer.trigger.action}>
              <span className={`promotion-card__kind promotion-card__kind--${offer.trigger.action}`}>
                {t(`promotions.kind.${offer.trigger.action}`)}
              </span>
              <h2 className="promotion-card__title">{offer.description.title}</h2>
              <p className="promotion-card__headline">{headline(t, offer)}</p>
              <Link className="button button--ghost" to={localePath(`/${section}/${offer.id}`)}>
                {t('promotions.details')}
              </Link>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

function PromotionDetail({ offer, section }: { offer: OfferView; section: 'offers' | 'promotions' }) {
  const { t, localePath } = useI18n();
  const root = useRootData();
  const isSignedIn = (root?.account?.uid ?? 0) > 0;
  const promotion = offer.promotions[0];
  return (
    <div className="page promotion" data-offer-id={offer.id} data-offer-action={offer.trigger.action}>
      <nav className="promotion__back">
        <Link to={localePath(`/${section}`)}>{t('promotions.back')}</Link>
      </nav>
      <article className="card promotion__card">
        <BonusArt size={120} />
        <div className="promotion__body">
          <span className={`promotion-card__kind promotion-card__kind--${offer.trigger.action}`}>
            {t(`promotions.kind.${offer.trigger.action}`)}
          </span>
          <h1 className="page__title">{offer.description.title}</h1>
          <p className="promotion-card__headline">{headline(t, offer)}</p>
          <h2 className="promotion__terms-title">{t('promotions.terms')}</h2>
          <p className="promotion__terms">{offer.description.text}</p>
          <dl className="bonus-card__terms">
            {promotion && <Term label={t('bonus.term.wagering')} value={`×${promotion.wagering_multiplier}`} />}
            {offer.trigger.params.min_amount && (
              <Term
                label={t('promotions.minDeposit')}
                value={`${offer.trigger.params.min_amount} ${promotion?.currency ?? ''}`}
              />
            )}
          </dl>
          <PromotionAction offer={offer} isSignedIn={isSignedIn} />
        </div>
      </article>
    </div>
  );
}

function PromotionAction({ offer, isSignedIn }: { offer: OfferView; isSignedIn: boolean }) {
  const { t, localePath } = useI18n();
  const { run, isBusy, errors } = useApiAction();
  const [isTaken, setTaken] = useState(false);
  if (!isSignedIn) {
    return (
      <Link className="button button--primary" to={`${localePath('/')}?show_popup_reg=1`} data-action="sign-up">
        {t('promotions.signUp')}
      </Link>
    );
  }
  if (offer.trigger.action === 'deposit') {
    return (
      <Link className="button button--primary" to={`${localePath('/cashier/deposit')}?offer=${offer.id}`} data-action="deposit">
        {t('promotions.deposit')}
      </Link>
    );
  }
  if (offer.trigger.action === 'promo_code') return <PromoCodeForm />;
  async function optIn() {
    const taken = await run('campaigns.takepromotions', { offer_id: offer.id }, { successKey: 'promotions.taken' });
    if (taken) setTaken(true);
  }
  return (
    <div className="promotion__action">
      <button
        type="button"
        className="button button--primary"
        data-action="opt-in"
        disabled={isBusy || isTaken}
        onClick={() => void optIn()}
      >
        {t(isTaken ? 'promotions.optedIn' : 'promotions.optIn')}
      </button>
      {isTaken && (
        <Link className="button button--ghost" to={localePath('/profile/bonuses')}>
          {t('promotions.toBonuses')}
        </Link>
      )}
      {(errors.offer_id ?? errors._form) && (
        <p className="field__error" role="alert">
          {errors.offer_id ? t('promotions.error.offer') : errors._form}
        </p>
      )}
    </div>
  );
}

/** One line saying what the offer pays: "100% up to €500" or "€10 bonus". */
function headline(t: (key: string, params?: Record<string, string | number>) => string, offer: OfferView): string {
  const promotion = offer.promotions[0];
  if (!promotion) return '';
  const amount = `${promotion.max_amount ?? ''} ${promotion.currency}`.trim();
  return promotion.type === 'deposit_match'
    ? t('promotions.headline.match', { percent: promotion.percent, amount })
    : t('promotions.headline.fixed', { amount });
}
