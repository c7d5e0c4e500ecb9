/** metadata.* (spec §7): the site's general info and meta data, answered even while it is closed. */
import { z } from 'zod';
import type { GeneralInfo, SiteMetadata } from '../api-contract';
import { method } from './method';

export type { GeneralInfo, SiteMetadata };

export const metadataContract = {
  'metadata.getgeneralinfo': method<GeneralInfo>()({ params: z.object({}), isAvailableWhenClosed: true }),
  'metadata.get': method<SiteMetadata>()({ params: z.object({}), isAvailableWhenClosed: true }),
};
