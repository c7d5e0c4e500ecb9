/**
 * Page meta from the SEO record (content), the page title (translations) and the address
 * rules: canonical link (with /platform for game paths), hreflang alternates, robots.
 */
import type { MetaDescriptor } from 'react-router';
import { canonicalPath } from '#common/address';
import { applyReplacements, robotsMetaFor } from '#common/seo-rules';
import { configValue } from './site-data';
import { LOCALES, localizePath, stripLocalePrefix } from '#common/locale';
import { createTranslate } from './i18n';
import { translationsFor } from './translations';
import type { RootData } from './site-data';

export interface SeoRecord {
  url?: string;
  title?: string;
  description?: string;
  robots?: string;
  openGraph?: { title?: string; description?: string; image?: string };
}

export interface SiteLayoutData {
  seo: SeoRecord | null;
}

interface MetaArgsLike {
  location: { pathname: string };
  matches: ReadonlyArray<{ id: string; data?: unknown; loaderData?: unknown } | undefined>;
}

function matchData<T>(args: MetaArgsLike, id: string): T | undefined {
  const match = args.matches.find((m) => m?.id === id);
  return (match?.loaderData ?? match?.data) as T | undefined;
}

/** Meta for a page whose title is the translation key `titleKey` (or a literal title). */
export function pageMeta(args: MetaArgsLike, titleKey: string, params: Record<string, string> = {}): MetaDescriptor[] {
  const root = matchData<RootData>(args, 'root');
  const layout = matchData<SiteLayoutData>(args, 'site');
  if (!root) return [{ title: 'Casino' }];
  const t = createTranslate(translationsFor(root.translationsVersion));
  const seo = layout?.seo ?? null;
  const replacements = configValue<Record<string, string> | undefined>(root.config, 'settings-seo.replacements', undefined);
  const pageTitle = applyReplacements(seo?.title ?? `${t(titleKey, params)} | ${root.site.name}`, replacements);
  const description = applyReplacements(seo?.description ?? t('seo.default.description', { site: root.site.name }), replacements);
  const robots =
    seo?.robots ??
    robotsMetaFor(args.location.pathname, configValue<string | undefined>(root.config, 'settings-seo.robots', undefined));
  const bare = stripLocalePrefix(args.location.pathname);
  const meta: MetaDescriptor[] = [
    { title: pageTitle },
    { name: 'description', content: description },
    { property: 'og:title', content: seo?.openGraph?.title ?? pageTitle },
    { property: 'og:description', content: seo?.openGraph?.description ?? description },
    { property: 'og:site_name', content: root.site.name },
    { tagName: 'link', rel: 'canonical', href: root.origin + canonicalPath(args.location.pathname) },
    ...LOCALES.filter((locale) => root.site.locales.includes(locale)).map((locale) => ({
      tagName: 'link' as const,
      rel: 'alternate',
      hrefLang: locale,
      href: root.origin + localizePath(bare, locale),
    })),
  ];
  if (robots) meta.push({ name: 'robots', content: robots });
  meta.push({ 'script:ld+json': organizationSchema(root) });
  return meta;
}

/** schema.org Organization of the site (spec §3: organization of the SEO record), from meta-data-tool. */
function organizationSchema(root: RootData): Record<string, unknown> {
  const organization = configValue<Record<string, unknown>>(root.config, 'meta-data-tool.organization', {});
  return {
    '@context': 'https://schema.org',
    '@type': 'Organization',
    name: root.site.name,
    url: root.origin,
    logo: `${root.origin}/brand/icon.svg`,
    ...organization,
  };
}
