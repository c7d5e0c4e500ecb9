/**
 * Banners (spec §3 Banner: id, finished_at, description with a position used for sorting; §7
 * banners.get; §9 banners 10): the site's `banners` content in the visitor's language, the
 * finished ones left out (finished_at in the past) and drafts too, ordered by position.
 */
import type { BannerDescription, BannerPage, BannerView } from '#common/contract';
import type { Locale } from '#common/locale';
import type { ContentEntry, ContentService } from '../content';

export interface BannerServiceDeps {
  content: Pick<ContentService, 'list'>;
  now?: () => Date;
}

/** The content service answers at most this many entries per read. */
const CONTENT_PAGE = 100;

export function createBannerService(deps: BannerServiceDeps) {
  const now = deps.now ?? (() => new Date());

  async function allEntries(siteId: string, locale: Locale): Promise<ContentEntry[]> {
    const entries: ContentEntry[] = [];
    for (let offset = 0; ; offset += CONTENT_PAGE) {
      const page = await deps.content.list({ siteId, collection: 'banners', locale, offset, limit: CONTENT_PAGE });
      entries.push(...page.entries);
      if (page.entries.length < CONTENT_PAGE || entries.length >= page.total) return entries;
    }
  }

  return {
    async list(siteId: string, locale: Locale, offset: number, count: number): Promise<BannerPage> {
      const moment = now();
      const shown = (await allEntries(siteId, locale))
        .filter((entry) => entry.publishedAt !== null)
        .map(bannerView)
        .filter((banner) => !isFinished(banner, moment))
        .sort((a, b) => a.description.position - b.description.position || a.id - b.id);
      return { items: shown.slice(offset, offset + count), total: shown.length };
    },
  };
}

export type BannerService = ReturnType<typeof createBannerService>;

function isFinished(banner: BannerView, moment: Date): boolean {
  if (banner.finished_at === null) return false;
  const finishedAt = Date.parse(banner.finished_at);
  // An operator's unreadable date hides the banner rather than showing an offer that may be over.
  return Number.isNaN(finishedAt) || finishedAt <= moment.getTime();
}

function bannerView(entry: ContentEntry): BannerView {
  const data = entry.data;
  const description = (isRecord(data.description) ? data.description : {}) as Record<string, unknown>;
  const position =
    typeof description.position === 'number' && Number.isFinite(description.position)
      ? description.position
      : Number.MAX_SAFE_INTEGER;
  return {
    id: entry.id,
    sysname: entry.slug,
    finished_at:
      typeof data.finished_at === 'string' ? data.finished_at : data.finished_at == null ? null : String(data.finished_at),
    description: { ...description, position } as BannerDescription,
  };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
