/**
 * What the e2e tests expect, computed from the sources the site is built from (the route table,
 * the locale rules and the seed content under content/), so a test follows the content instead of
 * repeating it, and fails when the site stops following it.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { request as httpRequest } from 'node:http';
import { ROUTE_TABLE, type RouteEntry } from '#common/route-table';
import { DEFAULT_LOCALE, LOCALES, type Locale } from '#common/locale';

const CONTENT_DIR = join(process.cwd(), 'content');

function readJson<T>(...parts: string[]): T {
  return JSON.parse(readFileSync(join(CONTENT_DIR, ...parts), 'utf8')) as T;
}

interface SiteSeed {
  id: string;
  name: string;
  hosts: string[];
  defaultCurrency: string;
  locales: string[];
  isMaintenance?: boolean;
  settings?: { isDefault?: boolean };
}

const SITES = readJson<SiteSeed[]>('sites.json');

/** The site answering on 127.0.0.1, where the e2e server listens. */
export const SITE: SiteSeed = SITES.find((site) => site.hosts.includes('127.0.0.1')) ?? SITES[0]!;
/** A site seeded in maintenance, and a host it answers on. */
export const MAINTENANCE_SITE: SiteSeed | undefined = SITES.find((site) => site.isMaintenance);
export const MAINTENANCE_HOST: string | undefined = MAINTENANCE_SITE?.hosts.find((host) => host.endsWith('.localhost'));

/** Shared content of a collection merged with the site's own, as the seed does (later layers win). */
export function contentEntry<T extends object>(
  locale: Locale,
  collection: string,
  slug: string,
  siteId = SITE.id,
): T | undefined {
  const layers = [
    ['shared', '_all'],
    ['shared', locale],
    ['sites', siteId, '_all'],
    ['sites', siteId, locale],
  ]
    .map((folder) => join(...folder, collection, `${slug}.json`))
    .filter((file) => existsSync(join(CONTENT_DIR, file)))
    .map((file) => readJson<T>(file));
  if (layers.length === 0) return undefined;
  return Object.assign({}, ...layers) as T;
}

function contentSlugs(locale: Locale, collection: string): string[] {
  const dir = join(CONTENT_DIR, 'shared', locale, collection);
  return existsSync(dir)
    ? readdirSync(dir)
        .filter((file) => file.endsWith('.json'))
        .map((file) => file.slice(0, -5))
    : [];
}

const translationCache = new Map<Locale, Record<string, string>>();

/** The translation table of a locale (content/…/translations/common.json). */
export function translations(locale: Locale): Record<string, string> {
  let table = translationCache.get(locale);
  if (!table) {
    table = contentEntry<Record<string, string>>(locale, 'translations', 'common') ?? {};
    translationCache.set(locale, table);
  }
  return table;
}

/** A text about a count: the `{key}.{plural category}` form of the locale, with $$count$$ filled (issue 15). */
export function trCount(locale: Locale, key: string, count: number, params: Record<string, string | number> = {}): string {
  return tr(locale, `${key}.${new Intl.PluralRules(locale).select(count)}`, { ...params, count });
}

/** A translated text with $$name$$ placeholders filled; throws on a key content lacks, so a typo cannot pass. */
export function tr(locale: Locale, key: string, params: Record<string, string | number> = {}): string {
  const text = translations(locale)[key];
  if (text === undefined) throw new Error(`content/ has no translation ${key} for ${locale}`);
  return text.replace(/\$\$(\w+)\$\$/g, (whole, name: string) => (name in params ? String(params[name]) : whole));
}

export interface ContentPage {
  title: string;
}

/** A content page slug that exists in every locale (prefers `about`). */
export const CONTENT_SLUG: string = (() => {
  const common = contentSlugs(DEFAULT_LOCALE, 'pages').filter((slug) =>
    LOCALES.every((locale) => contentSlugs(locale, 'pages').includes(slug)),
  );
  return common.includes('about') ? 'about' : common[0]!;
})();

export function contentPage(locale: Locale, slug = CONTENT_SLUG): ContentPage {
  const page = contentEntry<ContentPage>(locale, 'pages', slug);
  if (!page) throw new Error(`no content page ${slug} in ${locale}`);
  return page;
}

export interface CampaignPopup {
  title: string;
  text?: string;
  button?: string;
  link?: string;
}

/** A campaign popup sysname present in every locale (prefers welcome-popup). */
export const POPUP_SYSNAME: string = (() => {
  const slugs = contentSlugs(DEFAULT_LOCALE, 'popups');
  return slugs.includes('welcome-popup') ? 'welcome-popup' : slugs[0]!;
})();

export function campaignPopup(locale: Locale, sysname = POPUP_SYSNAME): CampaignPopup {
  const popup = contentEntry<CampaignPopup>(locale, 'popups', sysname);
  if (!popup) throw new Error(`no popup ${sysname} in ${locale}`);
  return popup;
}

export interface HomeSection {
  id: string;
  titleKey: string;
  /** Hand-picked games; a rail of a catalogue category (issue 15) names `category` instead. */
  games?: { sysname: string; name: string }[];
  category?: string;
}

export function homeSections(locale: Locale): HomeSection[] {
  return contentEntry<{ sections: HomeSection[] }>(locale, 'home', 'main')?.sections ?? [];
}

interface BannerEntry {
  finished_at: string | null;
  description: { position: number; title: string };
}

/** The home carousel's titles as banners.get orders them: unfinished banners by description position. */
export function homeBannerTitles(locale: Locale): string[] {
  return contentSlugs(locale, 'banners')
    .map((slug) => contentEntry<BannerEntry>(locale, 'banners', slug)!)
    .filter((banner) => banner.finished_at === null || Date.parse(banner.finished_at) > Date.now())
    .sort((a, b) => a.description.position - b.description.position)
    .map((banner) => banner.description.title);
}

/** A game from the home page content: its sysname, and the name content gives it. */
const SAMPLE_GAME = homeSections(DEFAULT_LOCALE)[0]?.games?.[0] ?? { sysname: 'sample-game', name: 'Sample Game' };
export const GAME_SYSNAME: string = SAMPLE_GAME.sysname;
export const GAME_NAME: string = SAMPLE_GAME.name;

/** A game's name in a locale, as the game's content gives it (issue 15: game pages name games in the page's language). */
export function gameName(locale: Locale, sysname = GAME_SYSNAME): string {
  return contentEntry<{ name?: string }>(locale, 'games', sysname)?.name ?? (sysname === GAME_SYSNAME ? GAME_NAME : sysname);
}

interface SeoRecord {
  url: string;
  title?: string;
}

/** The SEO record of a path (without locale prefix), which overrides the page title. */
export function seoRecord(locale: Locale, barePath: string): SeoRecord | undefined {
  return contentSlugs(locale, 'seos')
    .map((slug) => contentEntry<SeoRecord>(locale, 'seos', slug))
    .find((record) => record?.url === barePath);
}

export interface RedirectRule {
  from_url: string;
  to_url: string;
  status?: number;
}

export function configSection<T>(name: string, locale: Locale = DEFAULT_LOCALE): T {
  const section = contentEntry<T & object>(locale, 'config', name);
  if (!section) throw new Error(`no config section ${name}`);
  return section;
}

export const REDIRECT_RULES: RedirectRule[] = configSection<{ redirects?: RedirectRule[] }>('settings-seo').redirects ?? [];

export interface NavItem {
  key: string;
  path: string;
}

export const NAVIGATION: NavItem[] = configSection<{ navigation?: NavItem[] }>('prazer-config').navigation ?? [];
export const FOOTER_LINKS: NavItem[] = configSection<{ footerLinks?: NavItem[] }>('prazer-config').footerLinks ?? [];

/** Sample values for route parameters: an existing content page for :slug, a seeded game for the game page. */
/**
 * The transaction of the sample payment result paths: a placeholder that tests of a signed-in
 * player replace with a deposit of theirs (an unknown transaction is not found, issue 15).
 */
export const SAMPLE_TRANSACTION = 'tx-1001';

export function samplePath(entry: RouteEntry): string {
  const path = entry.path
    .replace(':slug', CONTENT_SLUG)
    .replace(':sysname', entry.name.startsWith('game') ? GAME_SYSNAME : 'sample')
    // /gamehall/{id} shows a hall only for a game category (redirect-gamehall-category check).
    .replace(':id', entry.name === 'gamehall-id' ? 'slot' : '1')
    .replace(':transaction', SAMPLE_TRANSACTION)
    .replace('*', 'x');
  return `/${path}`;
}

/** The path in a locale, built by hand (not with the app's helper): /it prefix for Italian. */
export function inLocale(path: string, locale: Locale): string {
  if (locale === DEFAULT_LOCALE) return path;
  return path === '/' ? `/${locale}` : `/${locale}${path}`;
}

/**
 * The title a page shows: the SEO record's title when content has one, otherwise the page's
 * translated title (the one its route module names) followed by the site name.
 */
export function expectedTitle(entry: RouteEntry, locale: Locale): { exact?: string; contains: string[] } {
  const bare = samplePath(entry);
  const seo = seoRecord(locale, bare === '/' ? '/' : bare);
  if (seo?.title) return { exact: seo.title, contains: [seo.title] };
  const byFile: Record<string, () => string> = {
    'routes/home.tsx': () => tr(locale, 'page.index.title'),
    'routes/page-shell.tsx': () => tr(locale, `page.${entry.name}.title`),
    'routes/promotions.tsx': () => tr(locale, `page.${entry.name}.title`),
    'routes/gamehall.tsx': () => tr(locale, `page.${entry.name}.title`),
    'routes/betting.tsx': () => tr(locale, 'page.betting.title'),
    'routes/bets.tsx': () => tr(locale, 'page.bets-all.title'),
    'routes/providers.tsx': () => tr(locale, 'page.providers.title'),
    'routes/auth-form.tsx': () => tr(locale, `auth.${entry.name === 'forms-sign_up' ? 'sign_up' : 'sign_in'}.title`),
    'routes/game.tsx': () => tr(locale, 'page.game-sysname.title', { game: gameName(locale) }),
    'routes/system.tsx': () => tr(locale, 'system.unsubscribe.header'),
    'routes/icons.tsx': () => tr(locale, 'page._icons.title'),
    'routes/content-page.tsx': () => contentPage(locale).title,
  };
  const title = byFile[entry.file];
  if (!title) throw new Error(`no title rule for ${entry.file}`);
  return { contains: [title(), SITE.name] };
}

export { ROUTE_TABLE, LOCALES, DEFAULT_LOCALE };
export type { Locale, RouteEntry };

/** Enough HTML entity decoding to compare server-rendered text with content. */
export function decodeHtml(text: string): string {
  return text
    .replace(/&#x([0-9a-f]+);/gi, (_, hex: string) => String.fromCodePoint(parseInt(hex, 16)))
    .replace(/&#(\d+);/g, (_, dec: string) => String.fromCodePoint(Number(dec)))
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

export function htmlTitle(html: string): string | undefined {
  const match = /<title>([\s\S]*?)<\/title>/i.exec(html);
  return match ? decodeHtml(match[1]!) : undefined;
}

export function htmlLang(html: string): string | undefined {
  return /<html[^>]*\slang="([^"]*)"/i.exec(html)?.[1];
}

/** The attributes of every <link> of the page head, names lower-cased. */
export function htmlLinks(html: string): Record<string, string>[] {
  return [...html.matchAll(/<link\s([^>]*?)\/?>/gi)].map((match) =>
    Object.fromEntries(
      [...match[1]!.matchAll(/([a-zA-Z-]+)="([^"]*)"/g)].map(([, name, value]) => [name!.toLowerCase(), decodeHtml(value!)]),
    ),
  );
}

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/**
 * A GET with the path sent exactly as written (fetch would normalise `/%2e%2e/` and `//x`) and any
 * Host header; never follows redirects. Only ever to the e2e server on 127.0.0.1.
 */
export function rawGet(baseUrl: string, path: string, headers: Record<string, string> = {}): Promise<RawResponse> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const request = httpRequest({ host: hostname, port, path, method: 'GET', headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () =>
        resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks).toString('utf8') }),
      );
      response.on('error', reject);
    });
    request.on('error', reject);
    request.end();
  });
}

/** A redirect's target resolved against the server, for comparing paths and queries. */
export function locationOf(baseUrl: string, location: string | null | undefined): URL | undefined {
  return location ? new URL(location, baseUrl) : undefined;
}
