/**
 * banners.get (spec §7: GET get (offset, count default 10, fields); §3 Banner: id, finished_at,
 * description with a position used for sorting; §9 banners 10): the site's banners in the
 * visitor's language, ordered by description.position, finished ones left out.
 */
import { z } from 'zod';
import { method } from './method';

export const BANNERS_PAGE_SIZE = 10;
export const BANNERS_PAGE_MAX = 100;

export interface BannerDescription {
  position: number;
  title?: string;
  text?: string;
  button?: string;
  link?: string;
  theme?: string;
  image?: string;
  /** Whatever else the operator put in the description, passed through for the page. */
  [key: string]: unknown;
}

export interface BannerView {
  id: number;
  /** The entry's slug in the content platform. */
  sysname: string;
  finished_at: string | null;
  description: BannerDescription;
}

export interface BannerPage {
  items: BannerView[];
  total: number;
}

export const bannersContract = {
  'banners.get': method<BannerPage>()({
    params: z.object({
      offset: z.coerce.number().int().min(0).max(10_000).default(0),
      count: z.coerce.number().int().min(1).max(BANNERS_PAGE_MAX).default(BANNERS_PAGE_SIZE),
      /** Comma-joined extra fields; every field is always present, so this only documents the call. */
      fields: z.string().max(200).optional(),
    }),
  }),
};
