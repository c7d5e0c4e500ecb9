import { useState } from 'react';
import { Link } from 'react-router';
import type { BannerView } from '#common/contract';
import { useI18n } from '~/i18n';

/**
 * The home banner slot: one banner at a time, with dots to pick one. It does not move by itself:
 * content that changes on its own needs a pause control (WCAG 2.2.2), and a slide every few seconds
 * keeps repainting the first screen a phone is still loading (issue 12: Speed Index 9.4 s on /).
 */
export function BannerSlot({ banners }: { banners: readonly BannerView[] }) {
  const { localePath, t } = useI18n();
  const [current, setCurrent] = useState(0);
  if (banners.length === 0) return null;
  return (
    <section className="banner-slot" aria-roledescription="carousel" aria-label={t('home.banners')}>
      {banners.map((banner, index) => (
        <article key={banner.id} className={`banner banner--${banner.description.theme ?? 'gold'}`} hidden={index !== current}>
          <div className="banner__content">
            <h2 className="banner__title">{banner.description.title}</h2>
            {banner.description.text && <p className="banner__text">{banner.description.text}</p>}
            {banner.description.button && banner.description.link && (
              <Link className="button button--primary button--large" to={localePath(banner.description.link)}>
                {banner.description.button}
              </Link>
            )}
          </div>
          <svg className="banner__art" viewBox="60 0 360 240" aria-hidden="true">
            <circle cx="300" cy="120" r="110" fill="currentColor" opacity=".16" />
            <circle cx="300" cy="120" r="72" fill="currentColor" opacity=".22" />
            <circle
              cx="300"
              cy="120"
              r="110"
              fill="none"
              stroke="currentColor"
              strokeOpacity=".35"
              strokeDasharray="2 10"
              strokeWidth="3"
            />
            <path d="M300 70l14 29 32 5-23 22 5 32-28-15-28 15 5-32-23-22 32-5z" fill="currentColor" opacity=".95" />
            <path d="M118 52l5 13 13 5-13 5-5 13-5-13-13-5 13-5z" fill="#fff" opacity=".7" />
            <path d="M170 176l3.5 9 9 3.5-9 3.5-3.5 9-3.5-9-9-3.5 9-3.5z" fill="#fff" opacity=".5" />
            <circle cx="402" cy="34" r="5" fill="#fff" opacity=".5" />
          </svg>
        </article>
      ))}
      {banners.length > 1 && (
        <div className="banner-slot__dots">
          {banners.map((banner, index) => (
            <button
              key={banner.id}
              type="button"
              aria-label={t('home.banners.show', { number: index + 1, total: banners.length })}
              aria-current={index === current}
              onClick={() => setCurrent(index)}
            />
          ))}
        </div>
      )}
    </section>
  );
}
